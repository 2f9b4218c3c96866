"""Fuzz targets for the chunker subcommands ``window``, ``pages`` and ``chunk``.

Arbitrary bytes as files named ``.txt``, ``.md``, ``.json``, ``.pdf`` (or stdin), arbitrary
option values. Allowed outcomes (CLI-1, CHUNK-5): status 0 with the library's output (each
JSON Lines record satisfying its chunker's one equation against the decoded file), or
status 2 with nothing on stdout and exactly one line on stderr. Never a traceback. The
helpers are the seed-000 CLI fuzz targets' (``properties/test_fuzz_cli.py``).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from chunkspec import chunk_document, chunk_pages, document_from_text, token_windows
from chunkspec._cli._io import json_line
from chunkspec._core._units import has_cluster_script
from chunkspec.counters import (
    CharEstimateCounter,
    SubwordCounter,
    TokenSpanCounter,
    UnicodeCounter,
    WhitespaceCounter,
)
from chunkspec.pages import PAGE_SEPARATOR

from .fuzzing import EXAMPLES, MAX_SAFE, check_success_stderr, fuzz_texts, text_problem
from .test_fuzz_cli import _CANONICAL_INT, _check_error, _cwd, _decode, _run, file_bytes, numbers
from .test_fuzz_windows import pdf_bytes

pytestmark = pytest.mark.fuzz

_small = st.integers(0, 8).map(str)
_sizes = st.one_of(*[st.integers(1, 8).map(str)] * 4, _small, numbers)
_overlaps = st.one_of(st.none(), st.none(), st.integers(0, 2).map(str), _small, numbers)

#: File contents: mostly UTF-8 text (so that most runs reach the chunker), else any bytes.
_texts = fuzz_texts.filter(lambda s: text_problem(s) is None).map(lambda s: s.encode("utf-8"))
_contents = st.one_of(_texts, _texts, file_bytes())


def _int(value: str | None, default: int) -> int | None:
    """The int argparse makes of a canonical decimal option (None: maybe rejected)."""
    if value is None:
        return default
    return int(value) if _CANONICAL_INT.fullmatch(value) else None


def _lines(out: str) -> list[dict[str, Any]]:
    """CLI-2: stdout as JSON Lines records, each line ending in one ``\\n``."""
    assert out == "" or out.endswith("\n")
    return [json.loads(line) for line in out.split("\n")[:-1]]


@given(
    data=_contents,
    stdin=st.booleans(),
    size=_sizes,
    overlap=_overlaps,
    counter=st.sampled_from([None, None, "whitespace", "chars4", "subword"]),
)
def test_fuzz_cli_window(
    data: bytes, stdin: bool, size: str, overlap: str | None, counter: str | None
) -> None:
    """CLI-1, CLI-3, WIN-5, TOKWIN-4, SOURCE-7, OPT-9: windows with ``text ==
    source[start:end]`` (none for a blank document), or exit 2; without a flag, chunk's
    defaults (whitespace words, RECORD-13's overlap)."""
    EXAMPLES["cli window"] += 1
    with tempfile.TemporaryDirectory() as tmp, _cwd(tmp):
        Path("in.txt").write_bytes(data)
        argv = ["window", "-" if stdin else "in.txt", "--max-tokens", size]
        argv += ["--overlap-tokens", overlap] if overlap is not None else []
        argv += ["--counter", counter] if counter is not None else []
        status, out, err = _run(argv, data if stdin else b"")
    # CLI-9 (stdin: %PDF- in the first KiB), SOURCE-10 (a file: %PDF- at byte 0): a PDF.
    is_pdf = b"%PDF-" in data[:1024] if stdin else data.startswith(b"%PDF-")
    text = None if is_pdf else _decode(data)
    the_size = _int(size, 0)
    the_overlap = _int(overlap, 0 if the_size is None else min(64, the_size // 8))
    surely_valid = (
        text is not None
        and the_size is not None
        and the_overlap is not None
        and 0 <= the_overlap < the_size <= MAX_SAFE
    )
    if status != 0:
        _check_error(status, out, err, "window")
        assert not surely_valid, err
        return
    check_success_stderr(err, "window", out.count("\n"))
    assert text is not None or is_pdf, "bad UTF-8 was accepted"
    the_size = int(size)  # as argparse reads it; RECORD-13's overlap when none is given
    the_overlap = min(64, the_size // 8) if overlap is None else int(overlap)
    assert 0 <= the_overlap < the_size <= MAX_SAFE, f"accepted {argv}"
    rows = _lines(out)
    if is_pdf:  # CLI-9, SOURCE-10: read as a PDF; its text is not ``text``
        event("outcome", "exit 0 (pdf)")
        return
    assert text is not None
    for row in rows:
        assert row["text"] == text[row["start"] : row["end"]]
    if not text.strip():  # SOURCE-7: a blank document has no record
        assert rows == []
    else:
        name = counter or "subword"  # OPT-9, SCRIPT-35: chunk's default counter
        if name == "subword":  # repeated spans: SCRIPT-10's cuts (properties/test_scripts.py)
            document = document_from_text(text, doc_id="in", input_format="text")
            want = chunk_document(
                document, "window", max_tokens=the_size, overlap_tokens=the_overlap
            )
            assert [(row["start"], row["end"]) for row in rows] == [(r.start, r.end) for r in want]
        else:
            measure = _counter(name, text)
            windows = token_windows(text, the_size, the_overlap, measure)
            got = [(row["start"], row["end"]) for row in rows]
            assert got == [(w.start, w.end) for w in windows]
    event("outcome", "exit 0")


def _counter(name: str, text: str) -> TokenSpanCounter:
    """The counter ``--counter name`` measures ``text`` with (SCRIPT-6: the name whitespace
    counts unicode units on a text holding a SCRIPT-2 character)."""
    if name == "subword":
        return SubwordCounter()
    if name != "whitespace":
        return CharEstimateCounter()
    return UnicodeCounter() if has_cluster_script(text) else WhitespaceCounter()


@st.composite
def paged_bytes(draw: st.DrawFn) -> bytes:
    """Text with form feeds (pages), or any file bytes."""
    if draw(st.booleans()):
        return draw(_contents)
    pages = draw(st.lists(st.text(st.sampled_from("ab .!?\n\u00e9"), max_size=30), max_size=4))
    return PAGE_SEPARATOR.join(pages).encode("utf-8")


@st.composite
def paged_files(draw: st.DrawFn) -> tuple[str, bytes]:
    """``(suffix, bytes)``: a PDF's bytes mostly under ``.pdf``, paged text otherwise."""
    suffix = draw(st.sampled_from([".txt", ".txt", ".pdf", ".PDF", ".md", ""]))
    promised = pdf_bytes() if suffix.lower() == ".pdf" else paged_bytes()
    return suffix, draw(st.one_of(promised, promised, promised, paged_bytes(), pdf_bytes()))


@given(
    file=paged_files(),
    max_tokens=st.one_of(st.none(), st.none(), _sizes),
    overlap=st.one_of(st.none(), st.none(), _overlaps),
    jsonl=st.booleans(),
)
def test_fuzz_cli_pages(
    file: tuple[str, bytes], max_tokens: str | None, overlap: str | None, jsonl: bool
) -> None:
    """CLI-1, PAGE-6, RECORD-13, SOURCE-1: records with ``text == full_text[start:end]``,
    or exit 2."""
    EXAMPLES["cli pages"] += 1
    suffix, data = file
    name = "in" + suffix
    with tempfile.TemporaryDirectory() as tmp, _cwd(tmp):
        Path(name).write_bytes(data)
        argv = ["pages", name]
        argv += ["--max-tokens", max_tokens] if max_tokens is not None else []
        argv += ["--overlap-tokens", overlap] if overlap is not None else []
        argv += [] if jsonl else ["--format", "chunks"]
        status, out, err = _run(argv, b"")
    # SOURCE-1: by suffix; a file with no suffix is a PDF by its magic, else unknown;
    # SOURCE-10: %PDF- at byte 0 is a PDF whatever the suffix.
    is_pdf = (
        suffix.lower() == ".pdf"
        or data.startswith(b"%PDF-")
        or (suffix == "" and b"%PDF-" in data[:1024])
    )
    text = None if is_pdf or suffix == "" else _decode(data)
    budget = _int(max_tokens, 512)  # OPT-9: the library's default budget
    # RECORD-13: the default overlap is a quarter of the budget.
    the_overlap = _int(overlap, budget // 4 if budget is not None else 0)
    valid_args = (
        budget is not None and the_overlap is not None and 0 <= the_overlap < budget <= MAX_SAFE
    )
    if status != 0:
        _check_error(status, out, err, "pages")
        assert not (valid_args and text is not None), err
        return
    check_success_stderr(err, "pages", out.count("\n") if jsonl else None)
    budget = 512 if max_tokens is None else int(max_tokens)  # as argparse reads it
    the_overlap = budget // 4 if overlap is None else int(overlap)
    assert 0 <= the_overlap < budget <= MAX_SAFE, f"accepted {argv}"
    if text is None:  # a PDF: the records must still satisfy the equation among themselves
        event("outcome", "exit 0 (pdf)")
        if jsonl:
            for row in _lines(out):
                assert row["text"] == str(row["text"]).strip() != ""
        return
    pages = text.split(PAGE_SEPARATOR)
    full_text = PAGE_SEPARATOR.join(pages)
    expected = chunk_pages(pages, budget, the_overlap, _counter("subword", full_text))
    if jsonl:
        rows = _lines(out)
        for row in rows:
            assert row["text"] == full_text[row["start"] : row["end"]]
        assert [row["text"] for row in rows] == [c.text for c in expected]
    else:
        assert out.count("--- chunk ") >= len(expected)
    event("outcome", "exit 0")


@st.composite
def json_blocks(draw: st.DrawFn) -> bytes:
    """A JSON file of blocks: well-formed, junk, deeply nested, or not JSON at all."""
    kind = draw(st.sampled_from(["blocks", "blocks", "wrapped", "nested", "junk"]))
    if kind == "nested":
        depth = draw(st.integers(1, 100_000))
        return (draw(st.sampled_from(["[", '{"blocks": ['])) + "[" * depth).encode()
    if kind == "junk":
        return draw(file_bytes())
    records = draw(
        st.lists(
            st.fixed_dictionaries(
                {"text": st.text(st.sampled_from("ab #\n"), max_size=20)},
                optional={
                    "kind": st.sampled_from(["heading", "paragraph", "code", "bogus", 3]),
                    "level": st.one_of(st.integers(0, 8), st.none()),
                },
            ),
            max_size=4,
        )
    )
    body: object = {"blocks": records} if kind == "wrapped" else records
    return json.dumps(body).encode()


@st.composite
def chunk_files(draw: st.DrawFn) -> tuple[str, bytes]:
    """``(suffix, bytes)``: mostly the kind of bytes the suffix promises, sometimes any."""
    suffix = draw(
        st.sampled_from([".txt", ".md", ".json", ".json", ".pdf", ".markdown", ".rst", "-"])
    )
    promised = {".json": json_blocks(), ".pdf": pdf_bytes()}.get(suffix, _contents)
    return suffix, draw(st.one_of(promised, promised, promised, file_bytes(), json_blocks()))


@given(
    file=chunk_files(),
    strategy=st.sampled_from([None, "heading", "structural", "recursive", "window", "pages"]),
    max_tokens=st.one_of(st.none(), st.none(), _sizes),
    overlap=_overlaps,
    show=st.one_of(st.none(), st.none(), _small, numbers),
    jsonl=st.booleans(),
)
def test_fuzz_cli_chunk(
    file: tuple[str, bytes],
    strategy: str | None,
    max_tokens: str | None,
    overlap: str | None,
    show: str | None,
    jsonl: bool,
) -> None:
    """CHUNK-1, CHUNK-2, CHUNK-4, CHUNK-5, CHUNK-6, CLI-1: records with ``text ==
    source[start:end]`` (heading, structural, window), or exit 2 with one line."""
    EXAMPLES["cli chunk"] += 1
    suffix, data = file
    path = "-" if suffix == "-" else "in" + suffix
    with tempfile.TemporaryDirectory() as tmp, _cwd(tmp):
        if path != "-":
            Path(path).write_bytes(data)
        argv = ["chunk", path]
        argv += ["--strategy", strategy] if strategy is not None else []
        argv += ["--max-tokens", max_tokens] if max_tokens is not None else []
        argv += ["--overlap-tokens", overlap] if overlap is not None else []
        argv += ["-n", show] if show is not None else []
        argv += [] if jsonl else ["--format", "text"]
        status, out, err = _run(argv, data if path == "-" else b"")
    text = _decode(data)
    budget, shown = _int(max_tokens, 512), _int(show, 10)
    the_strategy = strategy or "heading"
    # CHUNK-6, RECORD-13: the default overlap is min(64, max_tokens // 8) (pages: a
    # quarter); an explicit one is refused by the strategies that do not overlap.
    default_overlap = 0
    if budget is not None:
        default_overlap = budget // 4 if the_strategy == "pages" else min(64, budget // 8)
    the_overlap = default_overlap if overlap is None else _int(overlap, 64)
    overlap_refused = overlap is not None and the_strategy in ("structural", "recursive")
    valid_args = (
        budget is not None
        and the_overlap is not None
        and shown is not None
        and not overlap_refused
        and 1 <= budget <= MAX_SAFE
        and the_overlap <= MAX_SAFE
        and shown <= MAX_SAFE
        and (the_strategy not in ("window", "pages") or the_overlap < budget)
    )
    # CLI-9 (stdin: %PDF- in the first KiB), SOURCE-10 (a file: %PDF- at byte 0).
    pdf_stdin = (suffix == "-" and b"%PDF-" in data[:1024]) or data.startswith(b"%PDF-")
    plain = suffix in (".txt", ".md", ".markdown", "-") and text is not None and not pdf_stdin
    if status != 0:
        _check_error(status, out, err, "chunk")
        assert not (valid_args and plain), err
        return
    check_success_stderr(err, "chunk", out.count("\n") if jsonl else None)
    assert suffix != ".rst", "an unknown input type was accepted (SOURCE-1)"
    assert not overlap_refused, "--overlap-tokens accepted by a strategy without overlap"
    if not jsonl:
        header = out.split("\n", 1)[0]
        assert f" chunks (strategy {the_strategy})" in header
        event("outcome", "exit 0 text")
        return
    rows = _lines(out)
    if plain and the_strategy != "recursive":
        assert text is not None
        for row in rows:
            assert row["text"] == text[row["start"] : row["end"]]
    for row in rows:
        assert json_line(row) in out
    event("outcome", "exit 0 jsonl")
