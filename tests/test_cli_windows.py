"""The ``window`` and ``pages`` subcommands (docs/cli.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from chunkspec._cli import main
from tests.counters import word_level
from tests.pdfs import text_pdf


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the CLI and return (status, stdout, stderr)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_window_characters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """WIN-5: one JSON object a window with its offsets."""
    path = tmp_path / "a.txt"
    path.write_bytes(b"abcdefghij")
    status, out, _ = _run(capsys, "window", str(path), "--size", "4", "--overlap", "1")
    assert status == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert rows == [
        {"index": 0, "start": 0, "end": 4, "text": "abcd"},
        {"index": 1, "start": 3, "end": 7, "text": "defg"},
        {"index": 2, "start": 6, "end": 10, "text": "ghij"},
    ]


def test_window_tokens(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """TOKWIN-4: --counter switches to token windows, each a slice of the file."""
    path = tmp_path / "a.txt"
    text = "one two three four five"
    path.write_text(text, "utf-8")
    status, out, _ = _run(
        capsys, "window", str(path), "--size", "2", "--overlap", "1", "--counter", "whitespace"
    )
    assert status == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["text"] for r in rows] == ["one two ", "two three ", "three four ", "four five"]
    assert all(text[r["start"] : r["end"]] == r["text"] for r in rows)


def test_window_bad_overlap(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """WIN-3, CLI-1: a bad overlap is one line on stderr and status 2."""
    path = tmp_path / "a.txt"
    path.write_text("abc", "utf-8")
    status, out, err = _run(capsys, "window", str(path), "--size", "2", "--overlap", "2")
    assert (status, out) == (2, "")
    assert err == "chunkspec window: error: overlap must be < size (2), got 2\n"


def test_pages_text_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CLI pages: form feeds separate pages of a text file; JSON Lines carry page spans."""
    path = tmp_path / "doc.txt"
    path.write_text("a b c\fd e f", "utf-8")
    status, out, _ = _run(
        capsys,
        "pages",
        str(path),
        "--max-tokens",
        "4",
        "--overlap-tokens",
        "1",
        "--format",
        "jsonl",
    )
    assert status == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["text"], r["page_start"], r["page_end"]) for r in rows] == [
        ("a b c\fd", 1, 2),
        ("d e f", 2, 2),
    ]


def test_pages_pdf_text_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CLI pages: a .pdf goes through read_pdf_pages; the text format heads each chunk."""
    path = tmp_path / "report.pdf"
    path.write_bytes(text_pdf([["Alpha beta."], ["Gamma delta."]]))
    status, out, _ = _run(capsys, "pages", str(path), "--max-tokens", "3", "--overlap-tokens", "0")
    assert status == 0
    assert out.startswith("--- chunk 0: page")
    assert "Alpha beta." in out
    assert "Gamma delta." in out


def test_pages_chars4(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """COUNT-5: --counter chars4 measures four characters a token."""
    path = tmp_path / "doc.txt"
    path.write_text("abcdefghijklmnopqrstuvwxyz", "utf-8")
    status, out, _ = _run(
        capsys,
        "pages",
        str(path),
        "--max-tokens",
        "3",
        "--overlap-tokens",
        "1",
        "--counter",
        "chars4",
        "--format",
        "jsonl",
    )
    assert status == 0
    texts = [json.loads(line)["text"] for line in out.splitlines()]
    assert texts == ["abcdefghijkl", "ijklmnopqrst", "qrstuvwxyz"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"plain text", "not a PDF"),
        (b"%PDF-1.4\n1 0 obj\n<<", "cannot read PDF"),
    ],
)
def test_pages_bad_pdf(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, message: str
) -> None:
    """PDF, CLI-1: a bad PDF is one line on stderr and status 2."""
    path = tmp_path / "bad.pdf"
    path.write_bytes(content)
    status, out, err = _run(capsys, "pages", str(path))
    assert (status, out) == (2, "")
    assert message in err
    assert err.count("\n") == 1


def test_pages_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CLI-1: a missing PDF is one line and status 2."""
    status, _, err = _run(capsys, "pages", str(tmp_path / "absent.pdf"))
    assert status == 2
    assert "no such file" in err


def test_pages_bad_budget(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """PAGE-1: overlap >= max tokens is an error line."""
    path = tmp_path / "doc.txt"
    path.write_text("a b", "utf-8")
    status, _, err = _run(capsys, "pages", str(path), "--max-tokens", "2", "--overlap-tokens", "2")
    assert status == 2
    assert "overlap_tokens must be < max_tokens (2)" in err


def _damaged_xref(tmp_path: Path) -> Path:
    """A PDF whose startxref offset is wrong: pypdf recovers, logging warnings."""
    data = text_pdf([["Hello there."]])
    head, _, _ = data.rpartition(b"startxref\n")
    path = tmp_path / "xref.pdf"
    path.write_bytes(head + b"startxref\n3\n%%EOF\n")
    return path


def test_pages_recovered_pdf_is_quiet(tmp_path: Path) -> None:
    """CLI-1: pypdf's warnings about a damaged but readable PDF do not reach stderr."""
    result = subprocess.run(
        [sys.executable, "-m", "chunkspec", "pages", str(_damaged_xref(tmp_path))],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert "Hello there." in result.stdout


def test_pages_unreadable_pdf_is_one_line(tmp_path: Path) -> None:
    """CLI-1: an unreadable PDF gives exactly one stderr line, also outside pytest's logging."""
    path = tmp_path / "broken.pdf"
    path.write_bytes(
        b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\nstartxref\n3\n"
    )
    result = subprocess.run(
        [sys.executable, "-m", "chunkspec", "pages", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("chunkspec pages: error: ")


def test_huggingface_counter_from_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """COUNT-8: --counter huggingface --tokenizer FILE loads a tokenizer.json."""
    tokenizer_file = tmp_path / "tokenizer.json"
    word_level().save(str(tokenizer_file))
    path = tmp_path / "a.txt"
    path.write_text("hello world. the page", "utf-8")
    status, out, _ = _run(
        capsys,
        "window",
        str(path),
        "--size",
        "2",
        "--overlap",
        "0",
        "--counter",
        "huggingface",
        "--tokenizer",
        str(tokenizer_file),
    )
    assert status == 0
    texts = [json.loads(line)["text"] for line in out.splitlines()]
    assert texts == ["hello world", ". the ", "page"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ([], "needs --tokenizer FILE"),
        (["--tokenizer", "/nonexistent/tokenizer.json"], "cannot load tokenizer"),
    ],
)
def test_huggingface_counter_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    """CLI-1: a missing or unreadable tokenizer file is one error line."""
    path = tmp_path / "a.txt"
    path.write_text("a b", "utf-8")
    status, _, err = _run(capsys, "pages", str(path), "--counter", "huggingface", *extra)
    assert status == 2
    assert message in err
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("command", "extra", "message"),
    [
        ("window", ["--encoding", "o200k_base"], "--encoding needs --counter tiktoken, not none"),
        (
            "window",
            ["--counter", "chars4", "--encoding", "o200k_base"],
            "--encoding needs --counter tiktoken, not chars4",
        ),
        ("window", ["--tokenizer", "t.json"], "--tokenizer needs --counter huggingface, not none"),
        (
            "pages",
            ["--encoding", "o200k_base"],
            "--encoding needs --counter tiktoken, not whitespace",
        ),
        (
            "pages",
            ["--counter", "tiktoken", "--tokenizer", "t.json"],
            "--tokenizer needs --counter huggingface, not tiktoken",
        ),
    ],
)
def test_counter_option_without_its_counter(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    command: str,
    extra: list[str],
    message: str,
) -> None:
    """CLI-1: --encoding or --tokenizer that the chosen counter cannot use is refused (one
    line, exit 2), not silently ignored; found in the issue-7 review."""
    path = tmp_path / "a.txt"
    path.write_text("a b c", "utf-8")
    size = ["--size", "2"] if command == "window" else []
    status, out, err = _run(capsys, command, str(path), *size, *extra)
    assert (status, out) == (2, "")
    assert err == f"chunkspec {command}: error: {message}\n"
