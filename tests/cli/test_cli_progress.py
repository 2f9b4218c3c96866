"""The progress count of the chunking commands (CLI-11): on a terminal, for several inputs."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from chunkspec._cli import main


class _Terminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def _corpus(tmp_path: Path, count: int) -> str:
    folder = tmp_path / "docs"
    folder.mkdir()
    for n in range(count):
        (folder / f"d{n}.md").write_text(f"# D{n}\n\nwords here\n", "utf-8")
    return str(folder)


def test_progress_on_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Several inputs on a terminal: one count per document on one line, erased at the end."""
    folder = _corpus(tmp_path, 3)
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["split", folder, "--max-tokens", "5"]) == 0
    shown = terminal.getvalue()
    assert [f"{n}/3 documents" in shown for n in (1, 2, 3)] == [True, True, True]
    assert "\n" not in shown  # one line, rewritten in place
    assert shown.endswith("\r\x1b[2K")  # erased when done
    assert capsys.readouterr().out.count("\n") == 3


def test_no_progress_when_piped_or_single(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not a terminal, or a single input: stderr stays empty."""
    folder = _corpus(tmp_path, 3)
    assert main(["split", folder, "--max-tokens", "5"]) == 0
    assert capsys.readouterr().err == ""
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["split", f"{folder}/d0.md", "--max-tokens", "5"]) == 0
    assert terminal.getvalue() == ""
