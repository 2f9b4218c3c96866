"""OPT-9: ``split``, ``window`` and ``pages`` are ``chunk --strategy recursive|window|pages``.

Each alias prints exactly what ``chunk`` prints with ``--strategy`` and the same flags: the
same defaults (the library's ``ChunkOptions``), the same counters and the same formats.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from chunkspec._cli import main
from chunkspec._cli._main import build_parser

#: Each alias and the strategy it stands for (docs/spec/records.md, OPT-9).
ALIASES = {"split": "recursive", "window": "window", "pages": "pages"}

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

#: Flag sets every alias is run with: none (the defaults), a budget, a counter, a format.
FLAG_SETS = {
    "defaults": [],
    "budget": ["--max-tokens", "40"],
    "small-budget": ["--max-tokens", "7"],
    "overlap": ["--max-tokens", "30", "--overlap-tokens", "3"],
    "counter": ["--max-tokens", "60", "--counter", "chars4"],
    "text-format": ["--max-tokens", "40", "--format", "text", "-n", "3"],
}


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run the command line in-process; return (status, stdout, stderr)."""
    try:
        status = main(argv)
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else 1
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def inputs(tmp_path: Path) -> list[str]:
    """A Markdown policy, a PDF and a text of three form-feed pages (with CJK text)."""
    shutil.copy(EXAMPLES / "returns-policy.md", tmp_path / "policy.md")
    shutil.copy(EXAMPLES / "report.pdf", tmp_path / "report.pdf")
    pages = "First page. It has two sentences.\fSecond page here.\f第三页的文字。最后一句。"
    (tmp_path / "paged.txt").write_text(pages, "utf-8")
    return [str(tmp_path / name) for name in ("policy.md", "report.pdf", "paged.txt")]


@pytest.mark.parametrize("flags", FLAG_SETS.values(), ids=list(FLAG_SETS))
@pytest.mark.parametrize("alias", ALIASES, ids=list(ALIASES))
def test_alias_prints_what_chunk_prints(
    alias: str, flags: list[str], inputs: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """OPT-9: the alias's status, output and errors are ``chunk --strategy``'s, file by file
    and all files at once, for the defaults and for each flag."""
    for paths in [[path] for path in inputs] + [inputs]:
        status, out, err = _run([alias, *paths, *flags], capsys)
        said = err.replace(f"chunkspec {alias}:", "chunkspec chunk:")  # CLI-1: its own name
        chunked = _run(["chunk", *paths, "--strategy", ALIASES[alias], *flags], capsys)
        assert (status, out, said) == chunked
        assert status in (0, 2)


@pytest.mark.parametrize("alias", ALIASES, ids=list(ALIASES))
def test_alias_has_chunks_flags(alias: str) -> None:
    """OPT-9: an alias offers every flag ``chunk`` offers, with the same defaults, but
    ``--strategy`` (its strategy is fixed)."""
    parser = build_parser()
    chunk = vars(parser.parse_args(["chunk", "x.md"]))
    aliased = vars(parser.parse_args([alias, "x.md"]))
    assert {k: v for k, v in aliased.items() if k not in ("command", "run", "strategy")} == {
        k: v for k, v in chunk.items() if k not in ("command", "run", "strategy")
    }
    assert aliased["strategy"] == ALIASES[alias]
    with pytest.raises(SystemExit):
        parser.parse_args([alias, "x.md", "--strategy", "heading"])


def test_readme_first_command(capsys: pytest.CaptureFixture[str]) -> None:
    """README's first command keeps working: split with a budget, records of recursive."""
    status, out, err = _run(
        ["split", str(EXAMPLES / "returns-policy.md"), "--max-tokens", "64"], capsys
    )
    assert (status, err) == (0, "")
    assert '"strategy": "recursive:max_tokens=64"' in out
