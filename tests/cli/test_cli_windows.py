"""The ``window`` and ``pages`` subcommands (docs/cli.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from chunkspec._cli import main
from chunkspec.records import RECORD_FIELDS
from tests.counters import without_module, word_level
from tests.pdfs import text_pdf


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the CLI and return (status, stdout, stderr)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_window_characters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """WIN-5, RECORD-5: one record a window, counter chars1, with its offsets."""
    path = tmp_path / "a.txt"
    path.write_bytes(b"abcdefghij")
    argv = [
        "window",
        str(path),
        "--max-tokens",
        "4",
        "--overlap-tokens",
        "1",
        "--counter",
        "chars1",
    ]
    status, out, _ = _run(capsys, *argv)
    assert status == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["index"], r["start"], r["end"], r["text"], r["counter"]) for r in rows] == [
        (0, 0, 4, "abcd", "chars1"),
        (1, 3, 7, "defg", "chars1"),
        (2, 6, 10, "ghij", "chars1"),
    ]
    assert {r["strategy"] for r in rows} == {"window:max_tokens=4,overlap_tokens=1"}


def test_window_tokens(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """TOKWIN-4: --counter switches to token windows, each a slice of the file."""
    path = tmp_path / "a.txt"
    text = "one two three four five"
    path.write_text(text, "utf-8")
    status, out, _ = _run(
        capsys,
        "window",
        str(path),
        "--max-tokens",
        "2",
        "--overlap-tokens",
        "1",
        "--counter",
        "whitespace",
    )
    assert status == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["text"] for r in rows] == ["one two ", "two three ", "three four ", "four five"]
    assert all(text[r["start"] : r["end"]] == r["text"] for r in rows)


def test_window_bad_overlap(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """WIN-3, CLI-1: a bad overlap is one line on stderr and status 2."""
    path = tmp_path / "a.txt"
    path.write_text("abc", "utf-8")
    status, out, err = _run(
        capsys, "window", str(path), "--max-tokens", "2", "--overlap-tokens", "2"
    )
    assert (status, out) == (2, "")
    assert err == "chunkspec window: error: --overlap-tokens must be < --max-tokens (2), got 2\n"


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
        "--counter",
        "whitespace",
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
    """CLI pages: a .pdf goes through read_pdf_pages; the chunks format heads each chunk
    (CHUNK-7)."""
    path = tmp_path / "report.pdf"
    path.write_bytes(text_pdf([["Alpha beta."], ["Gamma delta."]]))
    status, out, _ = _run(
        capsys,
        "pages",
        str(path),
        "--max-tokens",
        "3",
        "--overlap-tokens",
        "0",
        "--counter",
        "whitespace",
        "--format",
        "chunks",
    )
    assert status == 0
    assert out.startswith("--- chunk report:0: page")
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
    assert "--overlap-tokens must be < --max-tokens (2)" in err


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
    """COUNT-8: --counter huggingface:FILE loads a tokenizer.json."""
    tokenizer_file = tmp_path / "tokenizer.json"
    word_level().save(str(tokenizer_file))
    path = tmp_path / "a.txt"
    path.write_text("hello world. the page", "utf-8")
    status, out, _ = _run(
        capsys,
        "window",
        str(path),
        "--max-tokens",
        "2",
        "--overlap-tokens",
        "0",
        "--counter",
        f"huggingface:{tokenizer_file}",
    )
    assert status == 0
    texts = [json.loads(line)["text"] for line in out.splitlines()]
    assert texts == ["hello world", ". the ", "page"]


@pytest.mark.parametrize(
    ("counter", "message"),
    [
        ("huggingface", "needs a tokenizer file (huggingface:PATH)"),
        ("huggingface:/nonexistent/tokenizer.json", "cannot load tokenizer"),
    ],
)
def test_huggingface_counter_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], counter: str, message: str
) -> None:
    """CLI-1: a missing or unreadable tokenizer file is one error line."""
    path = tmp_path / "a.txt"
    path.write_text("a b", "utf-8")
    status, _, err = _run(capsys, "pages", str(path), "--counter", counter)
    assert status == 2
    assert message in err
    assert err.count("\n") == 1


# --- Exact output, defaults, help and counter plumbing (issue 7, mutation testing) ----------


def test_window_token_rows_exact(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """TOKWIN-3, TOKWIN-4: with --counter, each line has exactly these keys, in this order."""
    path = tmp_path / "a.txt"
    path.write_text("one two three", "utf-8")
    status, out, err = _run(
        capsys,
        "window",
        str(path),
        "--max-tokens",
        "2",
        "--overlap-tokens",
        "1",
        "--counter",
        "whitespace",
    )
    assert (status, err) == (0, "")
    rows = [json.loads(line) for line in out.splitlines()]
    assert [list(row) for row in rows] == [list(RECORD_FIELDS)] * 2
    assert [(r["index"], r["start"], r["end"], r["tokens"], r["text"]) for r in rows] == [
        (0, 0, 8, 2, "one two "),
        (1, 4, 13, 2, "two three"),
    ]


def test_window_overlap_defaults_to_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI window, RECORD-13: --overlap-tokens defaults to max-tokens / 8 (0 for a budget of
    4), as chunk --strategy window's (OPT-9); rows are records (RECORD-1)."""
    path = tmp_path / "a.txt"
    path.write_text("abcdefghij", "utf-8")
    status, out, _ = _run(capsys, "window", str(path), "--max-tokens", "4", "--counter", "chars1")
    assert status == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["index"], r["start"], r["end"], r["text"], r["tokens"]) for r in rows] == [
        (0, 0, 4, "abcd", 4),
        (1, 4, 8, "efgh", 4),
        (2, 8, 10, "ij", 2),
    ]


def test_window_defaults_are_chunks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """OPT-9, SCRIPT-35: window is chunk --strategy window: 512 subword units, overlap 64 by
    default (it required --max-tokens and counted characters)."""
    path = tmp_path / "a.txt"
    path.write_text("abc def", "utf-8")
    status, out, err = _run(capsys, "window", str(path))
    assert (status, err) == (0, "")
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["text"], r["counter"], r["strategy"]) for r in rows] == [
        ("abc def", "subword", "window:max_tokens=512,overlap_tokens=64")
    ]


def test_pages_text_format_exact(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CLI pages, CHUNK-7: the chunks format's header says page N or pages A-B, the character
    range and the token count; --format defaults to jsonl (CLI-2), chunks is asked for."""
    path = tmp_path / "doc.txt"
    path.write_text("a b c\fd e f", "utf-8")
    status, out, err = _run(
        capsys,
        "pages",
        str(path),
        "--max-tokens",
        "4",
        "--overlap-tokens",
        "1",
        "--counter",
        "whitespace",
        "--format",
        "chunks",
    )
    assert (status, err) == (0, "")
    assert out == (
        "--- chunk doc:0: pages 1-2, chars 0:7, 4 tokens ---\na b c\fd\n"
        "--- chunk doc:1: page 2, chars 6:11, 3 tokens ---\nd e f\n"
    )


def test_pages_budget_defaults(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CLI pages, RECORD-13, OPT-9: the library's --max-tokens 512 and --overlap-tokens
    max-tokens / 4 = 128, as chunk --strategy pages (it was 400 and 100)."""
    path = tmp_path / "doc.txt"
    path.write_text(" ".join(["w"] * 513), "utf-8")
    status, out, _ = _run(capsys, "pages", str(path), "--format", "jsonl")
    assert status == 0
    rows = [json.loads(line) for line in out.splitlines()]
    # 513 words: tokens [0, 512), then [384, 513); word k starts at character 2k.
    assert [(r["start"], r["end"], r["tokens"]) for r in rows] == [
        (0, 1023, 512),
        (768, 1025, 129),
    ]


class _GetEncoding:
    """Stands in for ``tiktoken.get_encoding``: the byte-level test encoding, names recorded."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def __call__(self, name: str) -> object:
        from tests.counters import byte_encoding

        self.names.append(name)
        return byte_encoding()


@pytest.fixture
def get_encoding(monkeypatch: pytest.MonkeyPatch) -> _GetEncoding:
    """Make tiktoken.get_encoding return the in-process byte encoding (nothing downloaded)."""
    import tiktoken

    fake = _GetEncoding()
    monkeypatch.setattr(tiktoken, "get_encoding", fake)
    return fake


def test_pages_oversized_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], get_encoding: _GetEncoding
) -> None:
    """PAGE-8, CLI pages: a flagged chunk's header ends in OVERSIZED; --counter tiktoken
    tiktoken:ENCODING loads that encoding."""
    path = tmp_path / "doc.txt"
    path.write_text("\u00e9", "utf-8")  # two byte tokens sharing one character
    argv = ["pages", str(path), "--max-tokens", "1", "--overlap-tokens", "0", "--format", "chunks"]
    status, out, err = _run(capsys, *argv, "--counter", "tiktoken:cl100k_base")
    assert (status, err) == (0, "")
    assert out == "--- chunk doc:0: page 1, chars 0:1, 2 tokens OVERSIZED ---\n\u00e9\n"
    status, out, _ = _run(capsys, *argv, "--counter", "tiktoken:o200k_base")
    assert status == 0
    assert get_encoding.names == ["cl100k_base", "o200k_base"]


def test_window_tiktoken_counter(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], get_encoding: _GetEncoding
) -> None:
    """COUNT-6, CLI window: --counter tiktoken:NAME windows over that encoding."""
    path = tmp_path / "a.txt"
    path.write_text("ab", "utf-8")
    status, out, _ = _run(
        capsys, "window", str(path), "--max-tokens", "1", "--counter", "tiktoken:x"
    )
    assert status == 0
    assert [json.loads(line)["text"] for line in out.splitlines()] == ["a", "b"]
    assert get_encoding.names == ["x"]


def test_unknown_tiktoken_encoding(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CLI-1, COUNT-10: an encoding tiktoken does not know is one error line naming it and
    the encodings it knows."""
    path = tmp_path / "a.txt"
    path.write_text("ab", "utf-8")
    status, out, err = _run(
        capsys, "window", str(path), "--max-tokens", "1", "--counter", "tiktoken:nope"
    )
    assert (status, out) == (2, "")
    assert err.startswith(
        "chunkspec window: error: cannot load tiktoken encoding 'nope': encoding is not a "
        "tiktoken encoding (known: cl100k_base"
    )
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("module", "argv", "message"),
    [
        (
            "tiktoken",
            ["window", "{file}", "--max-tokens", "1", "--counter", "tiktoken:cl100k_base"],
            "chunkspec window: error: tiktoken is not installed: "
            "pip install 'chunkspec[tiktoken]'\n",
        ),
        (
            "tokenizers",
            ["pages", "{file}", "--counter", "huggingface:t.json"],
            "chunkspec pages: error: tokenizers is not installed: "
            "pip install 'chunkspec[tokenizers]'\n",
        ),
        (
            "pypdf",
            ["pages", "{pdf}"],
            "chunkspec pages: error: pypdf is not installed: pip install 'chunkspec[pdf]'\n",
        ),
    ],
)
def test_missing_extra_is_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    module: str,
    argv: list[str],
    message: str,
) -> None:
    """CLI-1: a missing optional package is one line naming the pip extra, status 2."""
    text = tmp_path / "a.txt"
    text.write_text("a b", "utf-8")
    pdf = tmp_path / "a.pdf"
    pdf.write_bytes(text_pdf([["a b"]]))
    without_module(monkeypatch, module)
    args = [a.format(file=text, pdf=pdf) for a in argv]
    status, out, err = _run(capsys, *args)
    assert (status, out, err) == (2, "", message)


def test_huggingface_error_messages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CLI-1: the huggingface counter's errors, exactly."""
    path = tmp_path / "a.txt"
    path.write_text("a b", "utf-8")
    status, _, err = _run(capsys, "pages", str(path), "--counter", "huggingface")
    assert (status, err) == (
        2,
        "chunkspec pages: error: --counter needs a tokenizer file (huggingface:PATH), "
        "got 'huggingface'\n",
    )
    missing = tmp_path / "absent.json"
    status, _, err = _run(capsys, "pages", str(path), "--counter", f"huggingface:{missing}")
    assert status == 2
    assert err.startswith(f"chunkspec pages: error: {missing}: cannot load tokenizer: ")


def test_bare_tiktoken_counter_defaults_to_cl100k_base(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], get_encoding: _GetEncoding
) -> None:
    """RECORD-5: ``--counter tiktoken`` alone is ``tiktoken:cl100k_base``; a counter name
    resolve_counter does not know is one error line."""
    path = tmp_path / "a.txt"
    path.write_text("ab", "utf-8")
    status, out, err = _run(
        capsys, "window", str(path), "--max-tokens", "1", "--counter", "tiktoken"
    )
    assert status == 0
    assert get_encoding.names == ["cl100k_base"]
    assert json.loads(out.splitlines()[0])["counter"].startswith("tiktoken:")
    assert err == ""
    status, _, err = _run(capsys, "window", str(path), "--max-tokens", "1", "--counter", "bpe")
    assert status == 2
    assert err.startswith(
        "chunkspec window: error: --counter must be whitespace, unicode, dict[:icu-VERSION], "
        "chars{N}"
    )


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("dir.pdf", "no input files in {path} (.md, .markdown, .txt, .pdf, .json)"),
        ("x" * 300 + ".pdf", "{path}: cannot read: File name too long"),
    ],
)
def test_pages_unreadable_pdf_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, message: str
) -> None:
    """CLI-1, CLI-7: a .pdf path that cannot be opened is one error line; a folder named
    dir.pdf is a folder (walked) and an empty one has no input."""
    path = tmp_path / name
    if name == "dir.pdf":
        path.mkdir()
    status, out, err = _run(capsys, "pages", str(path))
    assert (status, out) == (2, "")
    assert err == f"chunkspec pages: error: {message.format(path=path)}\n"


@pytest.mark.parametrize("command", ["window", "pages"])
def test_help(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """CLI-12: --help shows every option with a meaning and, where one exists, its default;
    the subcommand list shows its one-line help (compare docs/cli.md)."""
    monkeypatch.setenv("COLUMNS", "400")  # no wrapping, whatever the terminal
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    assert info.value.code == 0
    out = [" ".join(line.split()) for line in capsys.readouterr().out.splitlines()]
    expected = {
        "window": [
            "--max-tokens N the budget per chunk, in tokens of --counter (default: 512)",
            "--overlap-tokens N tokens shared by neighbouring chunks; heading, window and pages "
            "only (CHUNK-6) (default: max-tokens / 8, at most 64; pages: max-tokens / 4 "
            "(RECORD-13))",
        ],
        "pages": [
            "--max-tokens N the budget per chunk, in tokens of --counter (default: 512)",
            "--overlap-tokens N tokens shared by neighbouring chunks; heading, window and pages "
            "only (CHUNK-6) (default: max-tokens / 4 (RECORD-13))",
        ],
    }[command]
    for line in expected:
        assert line in out, (line, out)
    assert any(
        line.endswith("(default: subword; whitespace for recursive, SCRIPT-35)") for line in out
    ), out
    with pytest.raises(SystemExit):
        main(["--help"])
    top = [" ".join(line.split()) for line in capsys.readouterr().out.splitlines()]
    assert {
        "window chunk --strategy window: overlapping fixed-size windows (chunk records, JSON "
        "Lines)",
        "pages chunk --strategy pages: paged documents (PDF, or text with form feeds)",
    } <= set(top)
