"""``chunkspec chunk``'s exact text: help, summary lines, previews, errors (CHUNK-1..6).

What a user sees, compared with docs/cli.md; the goldens in chunk_cli.json cover the
strategies' records.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from chunkspec._cli import main


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", newline="")
    return str(path)


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    if argv[0] == "chunk" and "--format" not in argv:
        argv = [*argv, "--format", "text"]  # these tests read the summary (CHUNK-3)
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


HELP = """usage: chunkspec chunk [-h] [--glob PATTERN] [--doc-id ID] [--title T] [--input-format {markdown,text,pdf,json,html,docx,code}] [--keep-furniture] [--language {python,javascript,typescript,tsx,go,rust,java,c,cpp}] [--input-encoding NAME] [--pdf-password PASSWORD] [--follow-links] [--no-skip] [--gitignore] [--pdf-max-bytes N] [--keep-going] [--metadata FILE.jsonl]
                       [--strategy {heading,structural,recursive,window,pages,code}] [--max-tokens N] [--overlap-tokens N] [--counter NAME] [--encoding-file FILE] [--min-tokens N] [--budget-includes-headings] [--count-headings] [--split-tables] [--split-code] [--scope-prefix] [--format {jsonl,text,chunks}] [-n N] [--output FILE]
                       PATH [PATH ...]

Chunk each document (.md/.markdown, .txt, .pdf, .json blocks, .html, .docx, source code; folders recursively; - is standard input) with --strategy and write one chunk record a line; --format text summarises instead.

positional arguments:
  PATH                  files, folders (searched recursively) or - for standard input

options:
  -h, --help            show this help message and exit
  --glob PATTERN        in folders, only files whose path relative to the folder matches PATTERN (fnmatch, ignoring case, e.g. '*.md' or 'guide/*'; a match of no known type is skipped and counted, REPO-13; default: every .md, .markdown, .txt, .pdf and .json file, and code files (REPO-1))
  --doc-id ID           the document id, for a single input (default: the path relative to the folder given, without suffix; a file's name without suffix, or the shortest trailing path that tells files named with one name apart; stdin for -)
  --title T             the document title, for a single input (default: the first level-1 heading, a PDF's /Title, else the doc id)
  --input-format {markdown,text,pdf,json,html,docx,code}
                        read every input as this format (default: by suffix; a PDF is also known by its %PDF- header; - is Markdown)
  --keep-furniture      read an HTML page's navigation, banners, footers, asides and what lies outside its <main> as text too (HTML-11, HTML-12)
  --language {python,javascript,typescript,tsx,go,rust,java,c,cpp}
                        the language of code inputs whose suffix and shebang do not say it (CODE-1) (default: from the suffix, else the #! line; none: the code strategy chunks by lines)
  --input-encoding NAME
                        decode text, Markdown and JSON inputs that are not UTF-8 with this encoding, e.g. latin-1, one line saying so for each; HTML inputs with it always (default: UTF-8, or UTF-16/UTF-32 when the file starts with their byte-order mark; an HTML page's <meta charset> (HTML-2))
  --pdf-password PASSWORD
                        the password of encrypted PDF inputs (default: the CHUNKSPEC_PDF_PASSWORD environment variable); never written to any output
  --follow-links        in folders, also follow symbolic links whose target is outside the folder given (default: such a link is skipped, with one line saying so)
  --no-skip             in folders, also read tool folders (node_modules, virtual environments, caches), vendored folders and generated files (default: skipped and counted in one line; docs/spec/repository.md)
  --gitignore           in folders, also skip what the .gitignore files inside the folder given ignore, by git's rules (none outside it is read)
  --pdf-max-bytes N     refuse a PDF whose pages' content streams decompress to more than N bytes in all (default: the larger of 64 MiB and 100 times the file's size)
  --keep-going          write every good document and list the bad ones (exit status 2 all the same)
  --metadata FILE.jsonl
                        document metadata, one JSON object a line: {"doc_id": ID, "metadata": {...}}; every record of document ID carries it, over the document's front-matter fields; every ID must name an input document
  --strategy {heading,structural,recursive,window,pages,code}
                        the chunking strategy (default: heading); heading: heading-aware sections with overlap (HEAD rules); structural: Markdown blocks packed under the budget (MD rules); recursive: split_section over the text (RECORD-11); window: fixed token windows (TOKWIN rules); pages: token windows over pages (PAGE rules); code: source files split on their syntax tree (CODE rules)
  --max-tokens N        the budget per chunk, in tokens of --counter (default: 512)
  --overlap-tokens N    tokens shared by neighbouring chunks; heading, window and pages only (CHUNK-6) (default: max-tokens / 8, at most 64; pages: max-tokens / 4 (RECORD-13))
  --counter NAME        the token counter (RECORD-5): subword (an estimate of model tokens in every script, on code and base64, SCRIPT-30), whitespace (words; unicode units on text without spaces, SCRIPT-6), unicode (words, an ideograph, kana, Hangul or Thai cluster a unit), dict (ICU's dictionary words of Chinese, Japanese, Thai, Lao, Khmer, Myanmar; extra chunkspec[segment]; records say
                        dict:icu-VERSION), chars{N} (N characters a token; chars1 counts characters), tiktoken:ENCODING (e.g. tiktoken:cl100k_base), huggingface:PATH (a tokenizer.json) (default: subword; whitespace for recursive, SCRIPT-35)
  --encoding-file FILE  the .tiktoken rank file of --counter tiktoken:ENCODING, for offline use, checked against tiktoken's SHA-256 pins (COUNT-9) (default: none, tiktoken's cache or download)
  --min-tokens N        heading and structural: merge a heading-only chunk or one under N tokens with its section's neighbour while the merge fits --max-tokens; 0 turns merging off (SIZE-2, SIZE-3) (default: max-tokens / 8, at most 64; 0 for the other strategies)
  --budget-includes-headings
                        heading and structural: the budget and each record's tokens cover the embedded text, heading trail + blank line + text (SIZE-8) (default: off, the text alone)
  --count-headings      structural only: the budget counts the heading trail too (MD-10) (default: off)
  --split-tables        structural only: split a table over the budget by rows, header repeated (MD-11) (default: off)
  --split-code          structural only: split a fenced code block over the budget of a known language by its syntax tree (MD-18) (default: off, the block whole)
  --scope-prefix        code only: a chunk inside a definition starts with the first lines of the definitions it is in (CODE-8) (default: off)
  --format {jsonl,text,chunks}
                        jsonl: one record a line (default); text: counts, tallies and the first chunks; chunks: each chunk whole under a header line (pages, characters, tokens)
  -n N                  chunks to show per document with --format text (10)
  --output FILE, -o FILE
                        write records to FILE (.jsonl or .parquet) instead of standard output; written to a temporary file and renamed, so an interrupted run leaves no half file
"""  # noqa: E501


def test_help(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/cli.md's options, metavars and defaults, as --help prints them."""
    monkeypatch.setenv("COLUMNS", "400")
    with pytest.raises(SystemExit) as info:
        main(["chunk", "--help"])
    assert info.value.code == 0
    assert capsys.readouterr().out == HELP


def test_listed_in_top_level_help(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The subcommand's one-line description in ``chunkspec --help``."""
    monkeypatch.setenv("COLUMNS", "400")
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out.splitlines()
    row = next(line for line in out if line.split()[:1] == ["chunk"])
    assert " ".join(row.split()) == (
        "chunk chunk documents with a strategy (chunk records, JSON Lines)"
    )


def test_defaults(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Default strategy heading, budget 512, overlap min(64, 512 // 8) = 64, -n 10, text,
    counter subword (SCRIPT-35: a word of five small letters or fewer is one unit)."""

    def letters(i: int) -> str:  # w0 -> "waa": a word of small letters, one subword unit
        return "w" + chr(97 + i // 26) + chr(97 + i % 26)

    words = " ".join(letters(i) for i in range(600))
    path = _write(tmp_path, "big.md", words + "\n")
    status, out, err = _run(["chunk", path], capsys)
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "big: 1 blocks, 2 chunks (strategy heading)"
    # the second chunk starts 64 words (the overlap) before word 512
    status, out, _ = _run(["chunk", path, "--format", "jsonl"], capsys)
    import json

    records = [json.loads(line) for line in out.splitlines()]
    assert [len(r["text"].split()) for r in records] == [512, 64 + 88]
    assert records[1]["text"].split()[0] == letters(448)
    assert {r["counter"] for r in records} == {"subword"}


def test_summary_without_blocks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CHUNK-3: an empty file has no blocks and no chunks; the tallies say ``none``, and
    standard error names it (SOURCE-7)."""
    path = _write(tmp_path, "empty.md", "")
    status, out, err = _run(["chunk", path], capsys)
    assert (status, out, err) == (
        0,
        "empty: 0 blocks, 0 chunks (strategy heading)\nblocks: none\nchunks: none\n",
        f"chunkspec chunk: {path}: no text to chunk\n",
    )


def test_preview_and_more(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CHUNK-3: whitespace collapsed, at most 72 characters (69 and "..."), and the rest
    counted; exactly -n chunks print no "more" line; -n 0 prints none."""
    long = " ".join(["abcdefghi"] * 8)  # 79 characters
    source = f"# T\n\n{long}\n\n## U\n\nshort\n  text\n"
    path = _write(tmp_path, "p.md", source)
    flags = ["--overlap-tokens", "0", "--min-tokens", "0"]
    status, out, _ = _run(["chunk", path, "-n", "4", *flags], capsys)
    assert status == 0
    assert out.splitlines()[3:] == [
        "[p:0] heading: T",
        "[p:1] body <- p:0: " + long[:69] + "...",
        "[p:2] heading <- p:0: U",
        "[p:3] body <- p:2: short text",
    ]
    exact = " ".join(["abcdefghi"] * 7) + " ab"  # 72 characters: shown whole
    assert len(exact) == 72
    path = _write(tmp_path, "q.md", exact + "\n")
    assert _run(["chunk", path], capsys)[1].splitlines()[3] == f"[q:0] body: {exact}"
    status, out, _ = _run(["chunk", path, "-n", "0"], capsys)
    assert out.splitlines()[3:] == ["... 1 more"]


def test_suffixes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CHUNK-1: .markdown and upper-case suffixes are Markdown; .TXT is text."""
    for name in ("a.markdown", "B.MD"):
        out = _run(["chunk", _write(tmp_path, name, "# H\n\nx\n")], capsys)[1]
        assert out.splitlines()[1] == "blocks: heading=1, paragraph=1", name
    out = _run(["chunk", _write(tmp_path, "C.TXT", "# H\n\nx\n")], capsys)[1]
    assert out.splitlines()[0] == "C: 2 blocks, 1 chunks (strategy heading)"
    assert out.splitlines()[1] == "blocks: paragraph=2"


def test_stdin_default_id(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """CHUNK-1: ``-`` without --doc-id is the document ``stdin``."""

    class _Stdin:
        buffer = io.BytesIO(b"one\n")

    monkeypatch.setattr("sys.stdin", _Stdin())
    assert _run(["chunk", "-"], capsys)[1].splitlines()[0] == (
        "stdin: 1 blocks, 1 chunks (strategy heading)"
    )


@pytest.mark.parametrize(
    ("name", "content", "extra", "message"),
    [
        ("bad.json", "{", [], "{path}: not valid JSON (Expecting property name enclosed in "
         "double quotes: line 1 column 2)"),
        ("bad2.json", "\n\n[1,", [], "{path}: not valid JSON (Expecting value: line 3 column 4)"),
        ("obj.json", '{"a": 1}', [], "{path}: expected a JSON list of blocks"),
        ("str.json", '"blocks"', [], "{path}: expected a JSON list of blocks"),
        ("doc.rtf", "x", [], "{path}: unknown input type (suffix '.rtf'); use .md, .markdown, "
         ".txt, .pdf, .json, .html, .htm, .docx, a source file's suffix (.py, .js, .ts, .go, "
         ".rs, .java, .c, .cpp, ...), or --input-format"),
        ("doc.md", "x", ["--max-tokens", "0"], "--max-tokens must be >= 1, got 0"),
        ("doc.md", "x", ["--overlap-tokens", "-1"], "--overlap-tokens must be >= 0, got -1"),
        ("doc.md", "x", ["-n", "-1"], "-n must be >= 0, got -1"),
    ],
)  # fmt: skip
def test_error_lines(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    content: str,
    extra: list[str],
    message: str,
) -> None:
    """CHUNK-5: the exact one-line error."""
    path = _write(tmp_path, name, content)
    status, out, err = _run(["chunk", path, *extra], capsys)
    assert (status, out) == (2, "")
    assert err == "chunkspec chunk: error: " + message.format(path=path) + "\n"


def test_default_shows_ten_chunks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CHUNK-3: without -n the first 10 chunks are listed, then the rest counted."""
    path = _write(tmp_path, "t.txt", "\n\n".join(f"w{i}" for i in range(12)))
    argv = ["chunk", path, "--max-tokens", "1", "--counter", "whitespace"]
    out = _run(argv, capsys)[1].splitlines()
    assert out[3:] == [f"[t:{i}] body: w{i}" for i in range(10)] + ["... 2 more"]
