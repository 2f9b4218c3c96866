"""The ``subword`` counter by name, on the command line, and on what users chunk (SCRIPT-30..34)."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from chunkspec import ArgumentValueError
from chunkspec.counters import SubwordCounter, counter_name, resolve_counter
from chunkspec.records import SourceDocument, chunk_document


def test_the_name_builds_the_counter_and_names_it() -> None:
    """COUNT-12: ``resolve_counter("subword")`` and ``counter_name`` agree."""
    counter = resolve_counter("subword")
    assert isinstance(counter, SubwordCounter)
    assert counter_name(counter) == "subword"
    with pytest.raises(ArgumentValueError, match="subword:x"):
        resolve_counter("subword:x")  # no argument after the name


def test_a_line_of_base64_is_not_one_word() -> None:
    """SCRIPT-31, SCRIPT-35: a 40,000-character line without spaces is thousands of units,
    so the default budget of 512 cuts it, where ``whitespace`` makes it one chunk of "1
    token"."""
    line = "aGVsbG8gd29ybGQgMTIzNDU2Nzg5MA==" * 1250
    document = SourceDocument(doc_id="b", text=line, format="text", title="b")
    words = chunk_document(document, "window", max_tokens=512, counter="whitespace")
    units = chunk_document(document, "window", max_tokens=512)
    assert [r.tokens for r in words] == [1]
    assert len(units) > 20
    assert all(r.tokens <= 512 and r.counter == "subword" for r in units)
    assert units[0].start == 0
    assert units[-1].end == len(line)
    assert all(b.start <= a.end for a, b in itertools.pairwise(units))
    assert all(r.text == line[r.start : r.end] for r in units)


def test_every_script_counts_at_least_its_code_points() -> None:
    """SCRIPT-32: no non-ASCII code point is free (a Hindi word of six code points is six
    units or more), so a chunk of Hindi cannot hide thousands of model tokens."""
    word = "\u0928\u092e\u0938\u094d\u0924\u0947"
    assert SubwordCounter().count(word) >= len(word)
    assert SubwordCounter().count("\u1230\u120b\u121d") == 9  # Ethiopic weighs 3


def test_the_cli_takes_it(tmp_path: Path) -> None:
    """SCRIPT-34: ``chunk --counter subword`` writes records that name it, with its counts."""
    page = tmp_path / "note.md"
    page.write_text("# Título\n\nПривет, мир. HTTPServer 12345 and नमस्ते.\n", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "chunkspec", "chunk", "--counter", "subword", str(page)],
        capture_output=True,
        text=True,
        check=True,
    )
    records = [json.loads(line) for line in run.stdout.splitlines()]
    assert records
    for record in records:
        assert record["counter"] == "subword"
        assert record["tokens"] == SubwordCounter().count(record["text"])
