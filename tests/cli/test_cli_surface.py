"""The command line's surface: --help and --version text, and a broken pipe, in-process.

``tests/cli/test_cli.py`` checks these in a subprocess too; here they run in-process so that
mutation testing (``nox -s mutation``) sees them. The synopses must match docs/cli.md.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import sys
from pathlib import Path

import pytest

import chunkspec
from chunkspec._cli import main

DOCS = Path(__file__).parents[2] / "docs" / "cli.md"


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str], str]:
    """Run ``main(argv)``; return status, stdout lines with runs of spaces squeezed, stderr."""
    try:
        status = main(argv)
    except SystemExit as exit_:
        code = exit_.code
        status = 0 if code is None else code if isinstance(code, int) else 1
    out, err = capsys.readouterr()
    return status, [" ".join(line.split()) for line in out.splitlines()], err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(["--version"], capsys)
    assert (status, out, err) == (0, [f"chunkspec {chunkspec.__version__}"], "")


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["--help"],
            [
                "Reference RAG chunking and context packing (see docs/cli.md).",
                "split chunk --strategy recursive: seed 000's split_section (chunk records, "
                "JSON Lines)",
                "pack pack scored chunks into a budget",
            ],
        ),
        (
            ["split", "--help"],
            [
                "usage: chunkspec split [-h] [--glob PATTERN] [--doc-id ID] [--title T] "
                "[--input-format {markdown,text,pdf,json,html,docx,code}] [--keep-furniture] "
                "[--language {python,javascript,typescript,tsx,go,rust,java,c,cpp}] "
                "[--input-encoding NAME] "
                "[--pdf-password PASSWORD] [--follow-links] [--no-skip] [--gitignore] "
                "[--pdf-max-bytes N] [--keep-going] [--metadata FILE.jsonl] [--max-tokens N]",
                "[--overlap-tokens N] [--counter NAME] [--encoding-file FILE] [--min-tokens N] "
                "[--budget-includes-headings] [--count-headings] [--split-tables] [--split-code] "
                "[--scope-prefix] [--format {jsonl,text,chunks}] [-n N] [--output FILE]",
                "PATH files, folders (searched recursively) or - for standard input",
                "--max-tokens N the budget per chunk, in tokens of --counter (default: 512)",
                "--keep-going write every good document and list the bad ones (exit status 2 "
                "all the same)",
            ],
        ),
        (
            ["pack", "--help"],
            [
                "usage: chunkspec pack [-h] --budget N [--min-score S] [--ids] [--merge] "
                "[--cite] [--order {reading,score}] [--counter NAME] [--encoding-file FILE] "
                "[--titles | --no-titles] "
                "[--expand F] [--trim | --no-trim] [--tenant T] [--label L] CHUNKS",
                "Read chunk records (the output of split, chunk, window, pages or ingest, each "
                "with a score) as JSON Lines, or as Parquet when the file name ends in .parquet "
                "or the data starts with PAR1 (needs pip install 'chunkspec[arrow]'), and print "
                "the assembled context. Ingest error rows (error set) are skipped and counted on "
                "stderr. Exit status 1 when nothing is picked (abstain).",
                "CHUNKS JSON Lines or Parquet file of records with scores, or - for stdin",
                "--budget N the token budget (required). Without --merge: the sum of the picked "
                "records' tokens fields, counted by the records' counter; the [id] title lines "
                "printed above each are not counted, so the output can exceed N. With --merge: "
                "every token of the printed context, [key] headers and blank lines included, "
                "counted by --counter; the output never exceeds N",
                "--min-score S stop at the first chunk scored below S (default 0.35)",
                "--ids print the picked ids after the context on stderr",
            ],
        ),
    ],
)
def test_help(
    argv: list[str],
    expected: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """--help shows every option with its metavar and help text, one row each."""
    monkeypatch.setenv("COLUMNS", "400")  # no wrapping, whatever the terminal
    status, out, err = _run(argv, capsys)
    assert (status, err) == (0, "")
    assert out[0].startswith(f"usage: chunkspec {' '.join(argv[:-1])}".rstrip() + " [-h] ")
    if argv == ["--help"]:  # every subcommand listed; the seed-000 ones first
        assert out[0].startswith("usage: chunkspec [-h] [--version] {split,pack,")
    for line in expected:
        assert line in out, (line, out)


@pytest.mark.parametrize("command", ["split", "pack", "chunk", "window", "pages"])
def test_usage_matches_docs(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every option in the usage line appears, with its metavar (or choices), in docs/cli.md's
    synopsis of the command (which may run over several lines)."""
    monkeypatch.setenv("COLUMNS", "400")
    _status, out, _err = _run([command, "--help"], capsys)
    usage = out[0].removeprefix(f"usage: chunkspec {command} [-h] ")
    lines = DOCS.read_text("utf-8").splitlines()
    first = next(
        i
        for i, line in enumerate(lines)
        if line.startswith(f"chunkspec {command} ") and lines[i - 1] == "```"
    )
    end = lines.index("```", first)
    synopsis = " ".join(" ".join(lines[first:end]).split())
    options = re.findall(r"(--[a-z-]+|-n)(?: ([A-Z]+|\{[^}]*\}))?", usage)
    assert options
    for flag, value in options:
        if value.startswith("{"):  # choices: the synopsis lists them with | between
            value = "|".join(sorted(value.strip("{}").split(",")))
            found = re.search(re.escape(flag) + r" ([a-z0-9|]+)", synopsis)
            assert found is not None, (flag, synopsis)
            assert "|".join(sorted(found.group(1).split("|"))) == value, (flag, synopsis)
        elif value:
            assert re.search(re.escape(flag) + " [A-Z0-9]+", synopsis), (flag, synopsis)
        else:
            assert flag in synopsis.split() or f"[{flag}]" in synopsis, (flag, synopsis)


def test_broken_pipe_in_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI-1: when stdout's reader is gone, main returns 0, says nothing, and points stdout
    at the null device so the interpreter's final flush cannot fail again."""
    source = tmp_path / "doc.txt"
    source.write_text("a b c")
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader went away: writing raises BrokenPipeError
    stdout = open(write_end, "w", encoding="utf-8")  # noqa: SIM115 (closed below)
    monkeypatch.setattr(sys, "stdout", stdout)
    try:
        status = main(["split", str(source), "--max-tokens", "1"])
        assert status == 0
        assert os.path.samestat(os.fstat(write_end), os.stat(os.devnull))
    finally:
        monkeypatch.undo()
        stdout.close()
    assert capsys.readouterr().err == ""


def test_stdin_is_read_as_bytes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI-3: ``-`` reads standard input's bytes, so a CRLF survives untranslated."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"a\r\nb"), encoding="utf-8"))
    assert main(["split", "-", "--max-tokens", "5"]) == 0
    assert '"text": "a\\r\\nb"' in capsys.readouterr().out


#: The least each subcommand needs before an unknown flag is the only thing wrong.
_MINIMAL = {
    "split": ["x.md"],
    "pack": ["x.jsonl", "--budget", "1"],
    "chunk": ["x.md"],
    "window": ["x.md"],
    "pages": ["x.md"],
    "view": ["x.md"],
    "ingest": ["x.md", "--out", "o"],
    "diff": ["a", "b"],
    "vectors": ["d"],
}


def _subcommands() -> list[str]:
    """Every subcommand the parser has, in --help order."""
    from chunkspec._cli._main import build_parser

    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return list(action.choices)


@pytest.mark.parametrize("command", _subcommands())
def test_argument_errors_name_the_subcommand(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI-1: every argument error of a subcommand, an unknown flag included, is one line
    starting ``chunkspec CMD: error:`` (an unknown flag was ``chunkspec: error:``)."""
    for argv in ([command, "--no-such-flag"], [command, *_MINIMAL.get(command, []), "--no-such"]):
        status, _, err = _run(argv, capsys)
        assert status == 2
        assert err.startswith(f"chunkspec {command}: error: "), err
        assert err.count("\n") == 1
