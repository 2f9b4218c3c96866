"""Every chunking command on real documents: this repository's own Markdown, the bundled
policy page and PDF, and the MegaMart pages (rules CLI-2, CLI-7, CLI-8, RECORD-2, RECORD-3,
RECORD-9).

The inputs are real text with tables, fenced code, nested lists, CRLF-free and non-ASCII
prose, and a PDF with two pages: what a user feeds the tool, not shapes made for a test.
"""

from __future__ import annotations

import hashlib
import io
import json
import sys
from pathlib import Path

import jsonschema
import pytest

from chunkspec import read_document
from chunkspec._cli import main
from chunkspec.records import RECORD_FIELDS, record_json_schema

ROOT = Path(__file__).resolve().parents[2]
VALIDATOR = jsonschema.Draft202012Validator(record_json_schema())

#: Real inputs: folders and files, as a user would name them.
INPUTS = [
    "docs/spec",
    "docs/heading-aware.md",
    "examples",
    "src/chunkspec/_evaluation/megamart/pages",
]

COMMANDS = [
    ["split", "--max-tokens", "120"],
    ["chunk", "--strategy", "heading", "--max-tokens", "200"],
    ["chunk", "--strategy", "structural", "--max-tokens", "200", "--split-tables"],
    ["chunk", "--strategy", "recursive", "--max-tokens", "200"],
    ["chunk", "--strategy", "window", "--max-tokens", "150", "--counter", "chars4"],
    ["chunk", "--strategy", "pages", "--max-tokens", "300"],
    ["window", "--max-tokens", "2000", "--overlap-tokens", "200"],
    ["pages", "--max-tokens", "250"],
]


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:3]))
def test_command_on_real_documents(
    command: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each record is valid (schema, RECORD-2), exact against its file (RECORD-3), ids are
    unique across the corpus (CLI-8), and any command's output packs (RECORD-9)."""
    monkeypatch.chdir(ROOT)
    status, out, err = _run([command[0], *INPUTS, *command[1:]], capsys)
    assert (status, err) == (0, "")
    records = [json.loads(line) for line in out.splitlines()]
    assert len({r["doc_id"] for r in records}) >= 30
    assert len({r["id"] for r in records}) == len(records)
    texts: dict[str, str] = {}
    for r in records:
        assert list(r) == list(RECORD_FIELDS)
        VALIDATOR.validate(r)
        assert r["content_hash"] == hashlib.sha256(r["text"].encode()).hexdigest()
        if r["source"] not in texts:
            texts[r["source"]] = read_document(r["source"]).text
        region = r["prefix"] + texts[r["source"]][r["start"] : r["end"]]
        if r["strategy"].startswith("recursive"):
            assert r["text"].split() == region.split()
        else:
            assert r["text"] == region
    assert any(r["page_end"] == 2 for r in records if r["source"].endswith(".pdf"))
    scored = "".join(json.dumps({**r, "score": 1.0 / (1 + r["index"])}) + "\n" for r in records)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(scored.encode())))
    status, context, err = _run(["pack", "-", "--budget", "1000", "--min-score", "0"], capsys)
    assert (status, err) == (0, "")
    assert context.startswith("[")
