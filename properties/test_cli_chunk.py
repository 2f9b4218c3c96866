"""Properties of ``chunkspec chunk`` (rules CHUNK-1 to CHUNK-6)."""

from __future__ import annotations

import io
import json
import os
import re
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from chunkspec import HeadingAwareChunker, parse_markdown
from chunkspec._cli import main
from properties.fuzzing import check_success_stderr
from properties.strategies import markdown_documents


def _run(name: str, content: bytes, *args: str) -> tuple[int, str, str]:
    """Run ``chunkspec chunk`` on a temporary file; return (status, stdout, stderr)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_bytes(content)
        out, err = io.StringIO(), io.StringIO()
        here = os.getcwd()
        os.chdir(tmp)  # records hold the path as given (RECORD-1 source): keep it the same
        try:
            with redirect_stdout(out), redirect_stderr(err):
                status = main(["chunk", name, *args])
        finally:
            os.chdir(here)
    return status, out.getvalue(), err.getvalue()


@given(markdown_documents(), st.integers(1, 8), st.integers(0, 4))
def test_jsonl_is_the_library(source: str, max_tokens: int, overlap: int) -> None:
    """CHUNK-1, CHUNK-2, CHUNK-3, CHUNK-4: a .md file with the heading strategy prints the
    library's chunks, one JSON object a line; the text summary counts the same chunks
    (CHUNK-3), and marks exactly the oversized ones."""
    data = source.encode("utf-8")
    options = ["--max-tokens", str(max_tokens), "--overlap-tokens", str(overlap)]
    options += ["--min-tokens", "0"]  # the seed chunker's own chunks (SIZE-2)
    options += ["--counter", "whitespace"]  # and its words (SCRIPT-35's default is subword)
    status, out, _ = _run("doc.md", data, "--format", "jsonl", *options)
    assert status == 0
    records = [json.loads(line) for line in out.splitlines()]
    chunks = HeadingAwareChunker(max_tokens, overlap).chunk(parse_markdown("doc", source))
    assert [(r["id"], r["parent_id"], r["text"], r["start"], r["end"]) for r in records] == [
        (c.id, c.parent_id, c.text, c.start, c.end) for c in chunks
    ]
    status, out, _ = _run("doc.md", data, "--format", "text", "-n", "1000", *options)
    assert status == 0
    lines = out.splitlines()
    assert lines[0].endswith(f" {len(chunks)} chunks (strategy heading)")
    over = [r for r in records if r["oversized"]]
    assert (f"oversized: {len(over)} over the budget" in lines) == bool(over)
    marked = [
        re.match(r"\[([^\]]+)\] \S+(?: <- \S+)? \(oversized, \d+ tokens\): ", line)
        for line in lines
    ]
    assert [m.group(1) for m in marked if m] == [r["id"] for r in over]


@given(st.binary(max_size=40), st.sampled_from(["a.md", "a.txt", "a.json"]))
def test_any_bytes_exit_0_or_one_line_2(content: bytes, name: str) -> None:
    """CHUNK-5: any file gives exit 0, or exit 2 with exactly one line on stderr."""
    status, out, err = _run(name, content, "--format", "jsonl")
    assert status in (0, 2)
    if status == 2:
        assert err.count("\n") == 1
        assert err.startswith("chunkspec chunk: error:")
    else:
        check_success_stderr(err, "chunk", out.count("\n"))


@given(
    markdown_documents(),
    st.integers(1, 200),
    st.sampled_from(["heading", "window", "pages", "structural", "recursive"]),
    st.integers(0, 300),
)
def test_overlap_only_where_it_applies(
    source: str, max_tokens: int, strategy: str, overlap: int
) -> None:
    """CHUNK-6, RECORD-13: without ``--overlap-tokens``, heading and window print exactly
    what an explicit ``min(64, max_tokens // 8)`` prints (pages: ``max_tokens // 4``); with
    it, structural and recursive exit 2 with one line naming the flag and print nothing."""
    data = source.encode("utf-8")
    base = ["--strategy", strategy, "--max-tokens", str(max_tokens), "--format", "jsonl"]
    if strategy in ("heading", "window", "pages"):
        default = max_tokens // 4 if strategy == "pages" else min(64, max_tokens // 8)
        implicit = _run("doc.md", data, *base)
        explicit = _run("doc.md", data, *base, "--overlap-tokens", str(default))
        assert implicit == explicit
        assert implicit[0] == 0
    else:
        status, out, err = _run("doc.md", data, *base, "--overlap-tokens", str(overlap))
        assert (status, out) == (2, "")
        assert err == (
            "chunkspec chunk: error: --overlap-tokens applies to heading, window and pages, "
            f"not {strategy} (CHUNK-6), got {overlap}\n"
        )


#: OPT-9: each alias and the strategy it stands for.
_ALIASES = {"split": "recursive", "window": "window", "pages": "pages"}


@given(
    markdown_documents(),
    st.sampled_from(sorted(_ALIASES)),
    st.integers(1, 12),
    st.sampled_from(["jsonl", "text", "chunks"]),
)
def test_aliases_and_the_chunks_view(source: str, alias: str, max_tokens: int, shown: str) -> None:
    """OPT-9, CHUNK-7: an alias prints what ``chunk --strategy`` prints with the same flags,
    in each format; ``--format chunks`` is every record whole under its header line."""
    data = source.encode("utf-8")
    flags = ["--max-tokens", str(max_tokens), "--format", shown]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "doc.txt"
        path.write_bytes(data)
        here = os.getcwd()
        os.chdir(tmp)
        try:
            out, err = io.StringIO(), io.StringIO()
            with redirect_stdout(out), redirect_stderr(err):
                status = main([alias, "doc.txt", *flags])
        finally:
            os.chdir(here)
    said = err.getvalue().replace(f"chunkspec {alias}:", "chunkspec chunk:")
    strategy = ["--strategy", _ALIASES[alias]]
    assert (status, out.getvalue(), said) == _run("doc.txt", data, *strategy, *flags)
    if shown != "chunks" or status != 0:
        return
    _, lines, _ = _run("doc.txt", data, *strategy, "--max-tokens", str(max_tokens))
    expected = ""
    for row in map(json.loads, lines.splitlines()):
        first, last = row["page_start"], row["page_end"]
        pages = f"page {first}, " if first == last else f"pages {first}-{last}, "
        pages = "" if first is None else pages  # a document without pages (SOURCE-4)
        over = " OVERSIZED" if row["oversized"] else ""
        span = f"chars {row['start']}:{row['end']}, {row['tokens']} tokens{over}"
        expected += f"--- chunk {row['id']}: {pages}{span} ---\n{row['text']}\n"
    assert out.getvalue() == expected
