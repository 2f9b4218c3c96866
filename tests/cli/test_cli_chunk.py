"""``chunkspec chunk`` (rules CHUNK-1 to CHUNK-6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chunkspec._cli import main
from chunkspec.records import STRATEGY_NAMES

#: The seed chunkers' own chunks: SIZE-2's merging off (the merge has its own tests).
SEED = ("--min-tokens", "0")
DOC = "# Title\n\nIntro text here.\n\n## Part\n\n```\n# not a heading\n```\n\nBody text.\n"


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", newline="")
    return str(path)


def test_text_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CHUNK-3: counts, per-kind tallies and the first N chunks with parent arrows."""
    path = _write(tmp_path, "doc.md", DOC)
    assert main(["chunk", path, "--format", "text", "-n", "3", *SEED]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "doc: 5 blocks, 4 chunks (strategy heading)"
    assert out[1] == "blocks: code=1, heading=2, paragraph=2"
    assert out[2] == "chunks: body=2, heading=2"
    assert out[3] == "[doc:0] heading: Title"
    assert out[4] == "[doc:1] body <- doc:0: Intro text here."
    assert out[5] == "[doc:2] heading <- doc:0: Part"
    assert out[6] == "... 1 more"


def test_jsonl_every_chunk(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CHUNK-4: one JSON object per chunk, with offsets into the file's text."""
    assert main(["chunk", _write(tmp_path, "doc.md", DOC), "--format", "jsonl", *SEED]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["kind"] for r in records] == ["heading", "body", "heading", "body"]
    assert records[3]["parent_id"] == "doc:2"
    for r in records:
        assert DOC[r["start"] : r["end"]] == r["text"]


@pytest.mark.parametrize("strategy", STRATEGY_NAMES)
def test_every_strategy_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], strategy: str
) -> None:
    """CHUNK-2, CHUNK-6: each strategy in the table runs on Markdown input and loses no
    word (``--overlap-tokens`` only where the strategy overlaps)."""
    path = _write(tmp_path, "doc.md", DOC)
    args = ["chunk", path, "--strategy", strategy, "--format", "jsonl", "--max-tokens", "3"]
    if strategy in ("heading", "window", "pages"):
        args += ["--overlap-tokens", "1"]
    assert main(args) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    words = {w for r in records for w in r["text"].split()}
    assert {"Intro", "text", "here.", "Body", "not"} <= words


def test_structural_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CHUNK-2, RECORD-15: structural is split_markdown; its lines follow from the offsets."""
    path = _write(tmp_path, "doc.md", DOC)
    assert main(["chunk", path, "--strategy", "structural", *SEED]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    lines = [
        [DOC.count("\n", 0, r["start"]) + 1, DOC.count("\n", 0, r["end"] - 1) + 1] for r in records
    ]
    assert [(r["kind"], r["heading_path"], n) for r, n in zip(records, lines, strict=True)] == [
        ("prose", ["Title"], [3, 3]),
        ("code", ["Title", "Part"], [7, 9]),
        ("prose", ["Title", "Part"], [11, 11]),
    ]


def test_text_and_json_inputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CHUNK-1: .txt is paragraphs; .json is a list of blocks with attributes kept."""
    assert main(["chunk", _write(tmp_path, "a.txt", "one\n\n# two\n"), "--format", "jsonl"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["text"] for r in records] == ["one\n\n# two"]
    blocks = [{"kind": "heading", "level": 2, "text": "H", "page": 3}, {"text": "p", "page": 3}]
    path = _write(tmp_path, "b.json", json.dumps({"blocks": blocks}))
    assert main(["chunk", path, "--format", "jsonl", *SEED]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["kind"], r["text"], r["heading_path"], r["section"]) for r in records] == [
        ("heading", "H", [], "H"),
        ("body", "p", ["H"], "H"),
    ]


@pytest.mark.parametrize(
    ("name", "content", "extra", "message"),
    [
        ("missing.md", None, [], "no such file"),
        ("bad.json", "{", [], "not valid JSON"),
        ("bad2.json", '{"a": 1}', [], "expected a JSON list of blocks"),
        ("kind.json", '[{"kind": "figure", "text": "x"}]', [], "blocks[0].kind"),
        ("doc.pdf", "%PDF", [], "not a PDF"),
        ("doc.rtf", "x", [], "unknown input type (suffix '.rtf')"),
        ("doc.md", "x", ["--max-tokens", "0"], "--max-tokens must be >= 1"),
        ("doc.md", "x", ["--overlap-tokens", "-1"], "--overlap-tokens must be >= 0"),
        ("doc.md", "x", ["-n", "-1"], "-n must be >= 0"),
        ("doc.md", "x", ["--strategy", "recursive", "--counter", "chars4"], "must be whitespace"),
        ("doc.md", "x", ["--split-tables"], "--split-tables applies to structural"),
    ],
)
def test_bad_input_one_line_exit_2(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    content: str | None,
    extra: list[str],
    message: str,
) -> None:
    """CHUNK-5: bad input is one line on stderr and exit status 2, never a traceback."""
    path = str(tmp_path / name) if content is None else _write(tmp_path, name, content)
    assert main(["chunk", path, *extra]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert message in err
    assert err.startswith("chunkspec chunk: error:")


def test_invalid_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CHUNK-5: undecodable bytes are a one-line error."""
    path = tmp_path / "x.md"
    path.write_bytes(
        b"a\xff\xfe"
    )  # not a byte-order mark: \xff\xfe first would be UTF-16 (SOURCE-9)
    assert main(["chunk", str(path)]) == 2
    assert "not valid UTF-8" in capsys.readouterr().err


def test_stdin_is_markdown(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """CHUNK-1: ``-`` reads Markdown from stdin; ``--doc-id`` names it."""
    import io

    class _Stdin:
        buffer = io.BytesIO(b"# T\n\nbody\n")

    monkeypatch.setattr("sys.stdin", _Stdin())
    assert main(["chunk", "-", "--doc-id", "s", "--format", "jsonl", *SEED]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["id"], r["kind"], r["text"]) for r in records] == [
        ("s:0", "heading", "T"),
        ("s:1", "body", "body"),
    ]


def test_pdf_pages_are_chunked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CHUNK-1: a PDF's pages, joined by form feeds, are chunked as plain text."""
    from ..pdfs import text_pdf

    path = tmp_path / "report.pdf"
    path.write_bytes(text_pdf([["Refunds take five days."], ["Returns need a receipt."]]))
    assert (
        main(
            [
                "chunk",
                str(path),
                "--format",
                "jsonl",
                "--strategy",
                "window",
                "--max-tokens",
                "4",
                "--overlap-tokens",
                "1",
            ]
        )
        == 0
    )
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    words = " ".join(r["text"] for r in records).split()
    assert "Refunds" in words
    assert "receipt." in words
    assert all(r["kind"] == "window" for r in records)


def test_window_strategy_is_exact(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CHUNK-2: window chunks are slices of the source (TOKWIN-4), overlapping by words."""
    text = "a  b\tc\nd e f g"
    path = _write(tmp_path, "doc.txt", text)
    assert (
        main(
            [
                "chunk",
                path,
                "--format",
                "jsonl",
                "--strategy",
                "window",
                "--max-tokens",
                "3",
                "--overlap-tokens",
                "1",
                "--counter",
                "whitespace",
            ]
        )
        == 0
    )
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["text"] for r in records] == ["a  b\tc\n", "c\nd e ", "e f g"]
    assert all(text[r["start"] : r["end"]] == r["text"] for r in records)
