"""Properties of ChunkOptions, the strategy registry and the command-line vocabulary
(docs/spec/records.md, OPT-1 to OPT-6)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkspec import (
    ArgumentTypeError,
    ArgumentValueError,
    ChunkOptions,
    chunk_document,
    document_from_text,
    resolve_counter,
)
from chunkspec._chunkers._strategies import STRATEGIES
from chunkspec._cli import _chunk_command
from chunkspec._cli._chunking_flags import chunk_options
from chunkspec._cli._main import build_parser
from chunkspec.counters import counter_name
from chunkspec.records import STRATEGY_NAMES, default_overlap
from properties.strategies import markdown_documents

COUNTERS = ("whitespace", "chars1", "chars4")


@st.composite
def chunk_options_drawn(draw: st.DrawFn) -> ChunkOptions:
    """Valid options of any registered strategy (OPT-5 says which fields apply)."""
    strategy = draw(st.sampled_from(STRATEGY_NAMES))
    entry = STRATEGIES[strategy]
    size = draw(st.integers(1, 300))
    fields: dict[str, Any] = {"strategy": strategy, "max_tokens": size}
    if entry.default_overlap is not None and draw(st.booleans()):
        top = size * 2 if strategy == "heading" else size - 1
        fields["overlap_tokens"] = draw(st.integers(0, max(top, 0)))
    fields["counter"] = "whitespace" if strategy == "recursive" else draw(st.sampled_from(COUNTERS))
    for flag in sorted(entry.flags):
        fields[flag] = draw(st.booleans())
    return ChunkOptions(**fields)


@given(chunk_options_drawn())
def test_to_dict_from_dict_round_trip(options: ChunkOptions) -> None:
    """OPT-3: from_dict(to_dict(o)) == o, and to_dict holds only JSON values."""
    data = options.to_dict()
    assert ChunkOptions.from_dict(data) == options
    assert all(isinstance(v, (str, int, bool, type(None))) for v in data.values())


@given(chunk_options_drawn())
def test_strategy_string_round_trip(options: ChunkOptions) -> None:
    """OPT-4, OPT-8, RECORD-6: from_strategy_string(o.strategy_string) is o, overlap and
    min_tokens explicit."""
    back = ChunkOptions.from_strategy_string(options.strategy_string, counter=options.counter)
    explicit = options.overlap if options.strategy in ("heading", "window", "pages") else None
    assert back == options.replace(overlap_tokens=explicit, min_tokens=options.minimum)
    assert back.strategy_string == options.strategy_string


_BAD: list[tuple[str, object]] = [
    ("strategy", "bogus"),
    ("strategy", 3),
    ("max_tokens", 0),
    ("max_tokens", "8"),
    ("max_tokens", True),
    ("overlap_tokens", -1),
    ("counter", "chars0"),
    ("counter", 4),
    ("encoding_file", 7),
    ("count_headings", "yes"),
    ("split_tables", 1),
]


@given(chunk_options_drawn(), st.sampled_from(_BAD))
def test_every_bad_field_is_named(options: ChunkOptions, bad: tuple[str, object]) -> None:
    """OPT-1, OPT-2: a bad field is a TypeError/ValueError that names the field."""
    field, value = bad
    fields = options.to_dict()
    fields[field] = value
    if field == "encoding_file":
        fields["counter"] = "tiktoken:cl100k_base"
    with pytest.raises((ArgumentTypeError, ArgumentValueError)) as info:
        ChunkOptions(**fields)
    error = info.value
    assert isinstance(error, (ArgumentTypeError, ArgumentValueError))
    assert str(error).startswith(field)
    assert error.argument == field


@given(markdown_documents(), chunk_options_drawn())
def test_options_object_equals_keywords(text: str, options: ChunkOptions) -> None:
    """OPT-1, OPT-5: chunk_document(doc, options) is chunk_document(doc, name, **fields);
    every record's text is prefix + source[start:end] but recursive's (RECORD-3); giving
    both the object and a keyword is a ValueError naming ``options``."""
    document = document_from_text(text, doc_id="p")
    records = chunk_document(document, options)
    fields = options.to_dict()
    assert chunk_document(document, fields.pop("strategy"), **fields) == records
    if options.strategy != "recursive":
        for r in records:
            assert r.text == r.prefix + document.text[r.start : r.end]
    with pytest.raises(ArgumentValueError) as info:
        chunk_document(document, options, max_tokens=options.max_tokens)
    assert info.value.argument == "options"


@given(chunk_options_drawn())
def test_counter_and_registry_facts(options: ChunkOptions) -> None:
    """OPT-2, OPT-5, SCRIPT-35: the counter is resolve_counter's (one object per name), its
    name the records' counter, the strategy's default when none was given; the default
    overlap is the registry entry's."""
    assert options.counter is not None  # SCRIPT-35: set when made
    assert options.token_counter() is resolve_counter(options.counter)
    assert ChunkOptions(options.strategy).counter == STRATEGIES[options.strategy].default_counter
    assert STRATEGIES[options.strategy].default_counter == (
        "whitespace" if options.strategy == "recursive" else "subword"
    )
    assert options.counter_name == counter_name(options.token_counter())
    entry = STRATEGIES[options.strategy]
    expected = 0 if entry.default_overlap is None else entry.default_overlap(options.max_tokens)
    assert default_overlap(options.strategy, options.max_tokens) == expected
    if options.overlap_tokens is None:
        assert options.overlap == expected


@given(chunk_options_drawn())
def test_command_line_flags_give_the_options(options: ChunkOptions) -> None:
    """OPT-6: the flags that state ``options`` build the same ChunkOptions in ``chunk``."""
    argv = ["chunk", "doc.md", "--strategy", options.strategy]
    argv += ["--max-tokens", str(options.max_tokens)]
    if options.overlap_tokens is not None:
        argv += ["--overlap-tokens", str(options.overlap_tokens)]
    argv += ["--counter", str(options.counter)]
    argv += ["--count-headings"] if options.count_headings else []
    argv += ["--split-tables"] if options.split_tables else []
    argv += ["--split-code"] if options.split_code else []
    argv += ["--scope-prefix"] if options.scope_prefix else []
    assert chunk_options(build_parser().parse_args(argv), _chunk_command.OPTIONS) == options


@given(chunk_options_drawn(), st.text(min_size=1, max_size=12), st.integers())
def test_keywords_and_jobs_are_one_form(options: ChunkOptions, name: str, value: int) -> None:
    """OPT-1: a ChunkJob gives chunk_document its options; a keyword that is no option field
    is a TypeError naming it; the job's keyword form gives the job built by hand."""
    from chunkspec._records._job import job_of
    from chunkspec.records import ChunkJob

    document = document_from_text("# T\n\none two three four\n", doc_id="j")
    job = ChunkJob(options)
    assert chunk_document(document, job) == chunk_document(document, options)
    fields = options.to_dict()
    assert job_of(None, {**fields, "max_bytes": 9}) == ChunkJob(options, max_bytes=9)
    if name not in (*fields, "document"):  # chunk_document's own parameter
        with pytest.raises(ArgumentTypeError) as info:
            chunk_document(document, **{name: value})  # type: ignore[arg-type]
        assert info.value.argument == name


@given(chunk_options_drawn())
def test_a_strategy_refuses_its_options_when_they_are_made(options: ChunkOptions) -> None:
    """OPT-5, RECORD-11: what a registry entry refuses, ChunkOptions refuses when made (a
    words-only strategy and another counter; a flag of other strategies), with no document."""
    entry = STRATEGIES[options.strategy]
    if entry.words_only:
        with pytest.raises(ArgumentValueError) as info:
            options.replace(counter="chars4")
        assert info.value.argument == "counter"
    for flag in ("count_headings", "split_tables"):
        if flag not in entry.flags:
            with pytest.raises(ArgumentValueError) as refused:
                options.replace(**{flag: True})
            assert refused.value.argument == flag


@given(chunk_options_drawn())
def test_aliases_give_chunks_options(options: ChunkOptions) -> None:
    """OPT-9: ``split``, ``window`` and ``pages`` build, from the same flags, the options
    ``chunk --strategy recursive|window|pages`` builds; with no flag, the library's defaults."""
    from chunkspec._cli import _pages_command, _split_command, _window_command

    aliases = {"recursive": _split_command, "window": _window_command, "pages": _pages_command}
    if options.strategy not in aliases:
        return
    command = aliases[options.strategy]
    flags = ["--max-tokens", str(options.max_tokens), "--counter", str(options.counter)]
    if options.overlap_tokens is not None:
        flags += ["--overlap-tokens", str(options.overlap_tokens)]
    parser = build_parser()
    alias = parser.parse_args([command.OPTIONS.command, "doc.md", *flags])
    assert chunk_options(alias, command.OPTIONS) == options
    bare = parser.parse_args([command.OPTIONS.command, "doc.md"])
    assert chunk_options(bare, command.OPTIONS) == ChunkOptions(options.strategy)
