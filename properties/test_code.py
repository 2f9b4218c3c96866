"""Properties of the ``code`` strategy (docs/spec/code.md): the literal model
(properties/code_model.py) on generated programs in eight languages, the record equation,
coverage, the budget, the parser field, language detection, line numbers, byte offsets."""

from __future__ import annotations

import itertools
import os
import re
import tempfile
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkspec import InputError, chunk_document, document_from_text, read_document
from chunkspec._code._languages import LANGUAGES, SUFFIX_LANGUAGE
from chunkspec._code._offsets import ByteOffsets
from chunkspec._core._graphemes import grapheme_bounds
from chunkspec._core._units import has_cluster_script, unit_count
from properties.code_model import model_records, parse
from properties.strategies import code_sources, deep_code_sources
from properties.subword_model import model_spans

_budgets = st.integers(1, 64)
_counters = st.sampled_from(["whitespace", "subword", "chars4", "chars16"])


def _at_most(n: int) -> settings:
    """The profile's examples, at most ``n`` (the ci profile's 1,000 would take minutes:
    this file stays under a minute there on 2 cores)."""
    return settings(max_examples=min(settings().max_examples, n))


#: Each example parses, chunks and runs the model: ~15 ms.
_MODEL = _at_most(400)
#: Each example parses and chunks once or twice: ~10 ms.
_CHUNKS = _at_most(250)
#: Deep nesting costs a parse and ~260 levels of model per example: ~100 ms.
_DEEP = _at_most(40)


def _records(text: str, language: str | None, max_tokens: int, counter: str,
             scope_prefix: bool) -> list[Any]:  # fmt: skip
    document = document_from_text(text, doc_id="x", input_format="code", language=language)
    return chunk_document(document, strategy="code", max_tokens=max_tokens, counter=counter,
                          scope_prefix=scope_prefix)  # fmt: skip


def _fast(records: list[Any]) -> list[tuple[Any, ...]]:
    out = []
    for r in records:
        code = r.metadata["code"]
        assert r.kind == "code"  # CODE-7
        assert r.section == r.heading_path[-1]  # CODE-7, RECORD-12
        meta = {"language": code["language"], "parser": code["parser"],
                "lines": list(code["lines"]), "symbols": list(code["symbols"])}  # fmt: skip
        out.append((r.start, r.end, r.prefix, tuple(r.heading_path), meta))
    return out


def _model(text: str, language: str | None, max_tokens: int, counter: str,
           scope_prefix: bool) -> list[tuple[Any, ...]]:  # fmt: skip
    want = model_records(text, language, max_tokens, counter, scope_prefix)
    return [(m.start, m.end, m.prefix, m.heading_path, m.code) for m in want]


@_MODEL
@given(code_sources(), _budgets, _counters)
def test_code_equals_the_literal_model(
    source: tuple[str, str], max_tokens: int, counter: str
) -> None:
    """CODE-3, CODE-4, CODE-5, CODE-6, CODE-7, CODE-9, CODE-10, CODE-11: on generated
    programs (nested definitions, decorators and attributes, comments above and trailing,
    docstrings, long strings and comments, non-ASCII, CRLF and lone CR, syntax errors) the
    records are the literal model's: spans, prefixes, heading paths, kind, section and the
    ``code`` metadata."""
    text, language = source
    got = _fast(_records(text, language, max_tokens, counter, False))
    assert got == _model(text, language, max_tokens, counter, False)


@_MODEL
@given(code_sources(), _budgets, _counters)
def test_code_equals_the_literal_model_with_the_scope_prefix(
    source: tuple[str, str], max_tokens: int, counter: str
) -> None:
    """CODE-6, CODE-7, CODE-8, CODE-9: with ``scope_prefix`` the records are the literal
    model's, prefixes included (the budget counts them)."""
    text, language = source
    got = _fast(_records(text, language, max_tokens, counter, True))
    assert got == _model(text, language, max_tokens, counter, True)


@pytest.mark.parametrize(
    ("text", "language", "counter", "scope_prefix"),
    [("ab\U0001f468\u200d\U0001f469\u200d\U0001f467", None, "chars4", False),
     ("x = 'ab\U0001f468\u200d\U0001f469\u200d\U0001f467 c'\n", "python", "chars4", False),
     ("function a(a, b) {\n}\n", "javascript", "whitespace", True),
     ("static int f(void) {\n}\n", "c", "chars4", True)],
)  # fmt: skip
def test_a_cluster_over_the_budget_is_a_piece(
    text: str, language: str | None, counter: str, scope_prefix: bool
) -> None:
    """CODE-3, CODE-6, CODE-9: a single grapheme cluster over the budget is a piece by itself,
    also after a run that fits; the file keeps its tree (no depth fallback on a shallow
    tree) and the records are the literal model's."""
    got = _fast(_records(text, language, 1, counter, scope_prefix))
    assert got == _model(text, language, 1, counter, scope_prefix)


def test_a_run_takes_the_scopes_of_a_documented_definition() -> None:
    """CODE-6, CODE-7: a run that only documents, before a definition (with its own
    documentation) over the budget, takes the definition's scopes."""
    text = "// a\n\n// b\nint f() {\n  return 1;\n}\n"
    got = _fast(_records(text, "c", 2, "whitespace", False))
    want = model_records(text, "c", 2, "whitespace", False, group_scopes=True)
    assert got == [(m.start, m.end, m.prefix, m.heading_path, m.code) for m in want]


@_DEEP
@given(deep_code_sources(), _budgets, _counters)
def test_deep_nesting_falls_back_to_lines(
    source: tuple[str, str], max_tokens: int, counter: str
) -> None:
    """CODE-3, CODE-4: a split that would open an item nested deeper than 256 levels chunks
    the file by lines (``lines: nested deeper than 256``), one that stays above it splits the
    tree; either way the records are the literal model's. (Without the scope prefix: with
    it, the cluster loop of test_a_cluster_over_the_budget_is_a_piece reaches the limit on
    any tree.)"""
    text, language = source
    got = _fast(_records(text, language, max_tokens, counter, False))
    assert got == _model(text, language, max_tokens, counter, False)


@_CHUNKS
@given(code_sources(), _budgets, _counters)
def test_text_without_a_language_chunks_by_lines(
    source: tuple[str, str], max_tokens: int, counter: str
) -> None:
    """CODE-3, CODE-4: a code document without a language is chunked by its lines (the
    literal model's), every record saying ``lines: no language`` and holding whole lines
    unless one line alone is over the budget."""
    text, _ = source
    records = _records(text, None, max_tokens, counter, False)
    assert _fast(records) == _model(text, None, max_tokens, counter, False)
    for r in records:
        assert r.metadata["code"]["parser"] == "lines: no language"
        assert r.metadata["code"]["language"] is None
        assert r.heading_path == ("x",)


@given(st.sampled_from(["# Title\n\nSome *words* here.\n", "plain text\r\nline two"]),
       _budgets)  # fmt: skip
def test_other_documents_chunk_by_lines(text: str, max_tokens: int) -> None:
    """CODE-3, CODE-4: a Markdown or text document has no language: ``code`` chunks it by
    lines, as the literal model does."""
    for fmt in ("markdown", "text"):
        document = document_from_text(text, doc_id="x", input_format=fmt)
        records = chunk_document(document, strategy="code", max_tokens=max_tokens)
        want = model_records(document.text, None, max_tokens, "subword", title=document.title)
        assert _fast(records) == [(m.start, m.end, m.prefix, m.heading_path, m.code) for m in want]


@_CHUNKS
@given(code_sources(), _budgets, _counters, st.booleans())
def test_records_index_the_text(
    source: tuple[str, str], max_tokens: int, counter: str, scope_prefix: bool
) -> None:
    """CODE-2, CODE-8, CODE-10: ``record.text == record.prefix + text[start:end]`` in code
    points (non-ASCII text included); the prefix is empty without ``scope_prefix`` and else
    whole lines of the text, each ending with a line break."""
    text, language = source
    document = document_from_text(text, doc_id="x", input_format="code", language=language)
    records = chunk_document(document, strategy="code", max_tokens=max_tokens, counter=counter,
                             scope_prefix=scope_prefix)  # fmt: skip
    lines = {line.rstrip() for line in re.split(r"\r\n|\r|\n", text)}
    for r in records:
        assert r.text == r.prefix + document.text[r.start : r.end]
        if not scope_prefix:
            assert r.prefix == ""
        else:
            assert r.prefix == "" or r.prefix.endswith("\n")
            assert all(line in lines for line in r.prefix.split("\n")[:-1])


@_CHUNKS
@given(code_sources(), _budgets, _counters, st.booleans())
def test_records_cover_the_text(
    source: tuple[str, str], max_tokens: int, counter: str, scope_prefix: bool
) -> None:
    """CODE-10: pieces are trimmed, in text order, never overlap, and the text between two
    pieces, before the first and after the last is white space only."""
    text, language = source
    records = _records(text, language, max_tokens, counter, scope_prefix)
    position = 0
    for r in records:
        assert position <= r.start < r.end
        assert text[position : r.start].strip() == ""
        piece = text[r.start : r.end]
        assert piece == piece.strip()
        position = r.end
    assert text[position:].strip() == ""


def _tokens(text: str, counter: str, document: str) -> int:
    if counter == "whitespace":  # SCRIPT-6: unicode units on a text without spaces
        return unit_count(text) if has_cluster_script(document) else len(text.split())
    if counter == "subword":  # SCRIPT-30..SCRIPT-33, the literal model
        return len(model_spans(text))
    n = int(counter[len("chars") :])
    return -(-len(text) // n)


def _one_cluster(text: str) -> bool:
    return len(grapheme_bounds(text)) == 2


@_CHUNKS
@given(code_sources(), _budgets, _counters)
def test_records_fit_the_budget(source: tuple[str, str], max_tokens: int, counter: str) -> None:
    """CODE-9, CODE-10: each record counts at most ``max_tokens`` tokens unless it is one
    grapheme cluster."""
    text, language = source
    for r in _records(text, language, max_tokens, counter, False):
        assert _tokens(r.text, counter, text) <= max_tokens or _one_cluster(r.text), r.text


@_CHUNKS
@given(code_sources(), _budgets, _counters)
def test_records_fit_the_budget_with_the_scope_prefix(
    source: tuple[str, str], max_tokens: int, counter: str
) -> None:
    """CODE-8, CODE-10: with ``scope_prefix`` the budget counts the prefix: each record
    (prefix included) counts at most ``max_tokens`` unless its span is one grapheme
    cluster; a prefix counts at most half the budget."""
    text, language = source
    for r in _records(text, language, max_tokens, counter, True):
        span = r.text[len(r.prefix) :]
        assert _tokens(r.text, counter, text) <= max_tokens or _one_cluster(span), r.text
        assert _tokens(r.prefix, counter, text) <= max_tokens // 2, r.prefix


def _deepest(root: Any) -> int:
    deepest, stack = 0, [(root, 0)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in node.children)
    return deepest


@_CHUNKS
@given(st.one_of(code_sources(), deep_code_sources()), _budgets, st.booleans())
def test_parser_field_says_why(source: tuple[str, str], max_tokens: int, use: bool) -> None:
    """CODE-3: ``metadata.code.parser`` is ``lines: no language`` without a language; else
    ``lines: nested deeper than 256`` only on a tree about that deep (an opening of a group,
    a leaf's words or a word adds a level or three to the tree's), else ``tree-sitter with
    errors`` when the tree has an error or a missing node, else ``tree-sitter``; the same
    on every record of a file, and a file chunked by lines names no symbols."""
    text, language = source
    chosen = language if use else None
    records = _records(text, chosen, max_tokens, "whitespace", False)
    parsers = {r.metadata["code"]["parser"] for r in records}
    assert len(parsers) <= 1
    if not parsers:
        return
    (parser,) = parsers
    if chosen is None:
        assert parser == "lines: no language"
        return
    root = parse(text, language).root_node
    tree = "tree-sitter with errors" if root.has_error else "tree-sitter"
    if _deepest(root) > 250:
        assert parser in (tree, "lines: nested deeper than 256")
    else:
        assert parser == tree
    if parser.startswith("lines"):
        assert all(r.metadata["code"]["symbols"] == () for r in records)


@_CHUNKS
@given(code_sources(), _budgets, _counters, st.booleans())
def test_line_numbers(
    source: tuple[str, str], max_tokens: int, counter: str, scope_prefix: bool
) -> None:
    """CODE-11: ``lines`` are the 1-based numbers of the record's first and last character's
    lines (lines end at ``\\n``, ``\\r\\n`` or ``\\r``), and ``language`` the document's."""
    text, language = source
    for r in _records(text, language, max_tokens, counter, scope_prefix):
        first = text[: r.start].count("\n") + text[: r.start].count("\r")
        first -= text[: r.start].count("\r\n")
        last = text[: r.end - 1].count("\n") + text[: r.end - 1].count("\r")
        last -= text[: r.end - 1].count("\r\n")
        assert tuple(r.metadata["code"]["lines"]) == (first + 1, last + 1)
        assert r.metadata["code"]["language"] == language


@_CHUNKS
@given(code_sources(), _budgets, _counters, st.booleans())
def test_chunking_is_deterministic(
    source: tuple[str, str], max_tokens: int, counter: str, scope_prefix: bool
) -> None:
    """CODE-6, CODE-10: chunking the same text twice gives the same records."""
    text, language = source
    first = _records(text, language, max_tokens, counter, scope_prefix)
    again = _records(text, language, max_tokens, counter, scope_prefix)
    assert [(r.start, r.end, r.text, r.heading_path, r.metadata) for r in first] == [
        (r.start, r.end, r.text, r.heading_path, r.metadata) for r in again
    ]


@given(st.text(alphabet=st.sampled_from(["a", "\n", "é", "日", "🙂", "\u0301", "\r", "ß"])))
def test_byte_offsets_are_code_points(text: str) -> None:
    """CODE-2: every UTF-16LE byte offset at a code point boundary becomes the count of code
    points before it."""
    data = text.encode("utf-16-le")
    offsets = ByteOffsets(text)
    for b in range(0, len(data) + 1, 2):
        low = b < len(data) and 0xDC <= data[b + 1] <= 0xDF  # the second half of a pair
        if not low:
            assert offsets.code_point(b) == len(data[:b].decode("utf-16-le"))


_SHEBANG_LANGUAGE = {i: e.name for e in LANGUAGES.values() for i in e.interpreters}


@st.composite
def _code_files(draw: st.DrawFn) -> tuple[str, bytes, str | None, bool]:
    """``(name, data, language=, code expected)``: a suffix in any case, a shebang (known or
    not, ``env``, ``env -S``, version digits), or neither."""
    stem = draw(st.sampled_from(["main", "a.b", "script", "x-y"]))
    suffix = draw(st.sampled_from(["", "", *SUFFIX_LANGUAGE]))
    if suffix:
        suffix = "".join(draw(st.sampled_from([c.lower(), c.upper()])) for c in suffix)
    interpreter = draw(st.sampled_from(["", *_SHEBANG_LANGUAGE, "bash", "perl", "ruby"]))
    head = ""
    if interpreter:
        version = draw(st.sampled_from(["", "3", "3.12"])) if interpreter != "bash" else ""
        form = draw(st.sampled_from(["#!/usr/bin/{}", "#!/usr/bin/env {}", "#! /opt/bin/{}",
                                     "#!/usr/bin/env -S {} -u"]))  # fmt: skip
        head = form.format(interpreter + version) + "\n"
    given_language = draw(st.sampled_from([None, None, *LANGUAGES]))
    data = (head + "x = 1\n").encode()
    code = bool(suffix) or interpreter in _SHEBANG_LANGUAGE or given_language is not None
    return stem + suffix, data, given_language, code


@given(_code_files())
def test_language_of_a_file(file: tuple[str, bytes, str | None, bool]) -> None:
    """CODE-1: a file is a code document when its suffix is the table's (any case), else
    when its first line is a shebang naming a known interpreter, or when ``language=`` is
    given; its language is ``language=``, else the suffix's, else the shebang's."""
    name, data, given_language, code = file
    suffix = name[name.rfind(".") :].lower() if "." in name else ""
    by_suffix = SUFFIX_LANGUAGE.get(suffix)
    interpreter = re.match(rb"#! ?\S*?/(?:env (?:-S )?)?([a-z-]+?)(?:[0-9.]+)?(?:\s|$)", data)
    by_shebang = None if interpreter is None else _SHEBANG_LANGUAGE.get(interpreter[1].decode())
    want = given_language or by_suffix or by_shebang
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, name)
        with open(path, "wb") as handle:
            handle.write(data)
        try:
            # language= alone on a file of no known type is an InputError (CODE-1 names
            # input_format="code" as what makes a file code): the test passes both
            fmt = "code" if given_language is not None else None
            document = read_document(path, input_format=fmt, language=given_language)
        except InputError:
            assert not code  # a file of no known format
            return
    if code:
        assert document.format == "code"
        assert document.language == want
        assert document.title == document.doc_id
    else:
        assert document.format != "code"
        assert document.language is None


@given(st.sampled_from([*LANGUAGES, None]), st.sampled_from(["markdown", "text", "html"]))
def test_language_only_on_code_documents(language: str | None, fmt: str) -> None:
    """CODE-1: ``document_from_text(..., input_format="code", language=L)`` is a code
    document of language L; ``language=`` on another format is a ValueError naming
    ``language``."""
    document = document_from_text("x = 1\n", doc_id="d", input_format="code", language=language)
    assert (document.format, document.language, document.title) == ("code", language, "d")
    if language is not None:
        with pytest.raises(ValueError, match="language"):
            document_from_text("x = 1\n", doc_id="d", input_format=fmt, language=language)


#: MD-18: info strings that name a language (and their language), and ones that do not.
_FENCE_WORDS = {"python": "py", "javascript": "js", "typescript": "ts", "go": "golang",
                "rust": "rs", "java": "java", "c": "c", "cpp": "c++"}  # fmt: skip


@_CHUNKS
@given(
    code_sources(errors=False),
    st.integers(4, 48),
    st.booleans(),
    st.sampled_from(["```", "~~~", "````"]),
    st.booleans(),
)
def test_fenced_code_splits_by_its_tree(
    source: tuple[str, str], max_tokens: int, alias: bool, fence: str, known: bool
) -> None:
    """MD-18, MD-9, CODE-10: with ``split_code`` a fenced block of a known language over the
    budget is split into ``code`` records that cover every non-blank character of the
    block exactly once, in order, each within the budget (fence lines counted) unless its
    text is one grapheme cluster with its fences, each under the section's heading path;
    without the option, or with an unknown language, the block is one record."""
    code, language = source
    code = code.replace("\r\n", "\n").replace("\r", "\n").replace(fence[0] * 3, "x")
    word = (_FENCE_WORDS[language] if alias else language) if known else "cobol"
    markdown = f"# Guide\n\n## Use\n\nRun it:\n\n{fence}{word}\n{code.rstrip()}\n{fence}\n\nDone.\n"
    document = document_from_text(markdown, doc_id="m")
    block_start = markdown.index(fence + word)
    block_end = markdown.index("\n" + fence + "\n", block_start) + len(fence) + 1
    records = chunk_document(
        document, "structural", max_tokens=max_tokens, split_code=True, min_tokens=0
    )
    inside = [r for r in records if r.start < block_end and r.end > block_start]
    assert all(r.text == markdown[r.start : r.end] for r in records)
    assert all(a.end <= b.start for a, b in itertools.pairwise(records))
    covered = [False] * len(markdown)
    for r in inside:
        assert block_start <= r.start, (r.start, r.end)
        assert r.end <= block_end, (r.start, r.end)
        assert r.kind == "code"
        assert r.heading_path[:2] == ("Guide", "Use")
        for i in range(r.start, r.end):
            covered[i] = True
    assert all(covered[i] or markdown[i].isspace() for i in range(block_start, block_end)), (
        "a character of the block is in no record"
    )
    plain = chunk_document(document, "structural", max_tokens=max_tokens, min_tokens=0)
    whole = [r for r in plain if r.start < block_end and r.end > block_start]
    assert [(r.start, r.end) for r in whole] == [(block_start, block_end)]  # MD-9
    if not known or len(inside) == 1:
        assert [(r.start, r.end) for r in inside] == [(block_start, block_end)]
        return
    for r in inside:
        body = r.text.removeprefix(f"{fence}{word}\n").removesuffix(f"\n{fence}")
        assert r.tokens <= max_tokens or _one_cluster(body.strip()), r.text
