"""``chunkspec pack`` reads what the chunkers write: JSON Lines and Parquet (CLI-14, CLI-15)."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from chunkspec._cli import main

from .test_cli import run_cli

_GUIDE = "# Guide\n\nStep one.\n\n## Install\n\nRun it.\n"


def _ingest(tmp_path: Path, output_format: str) -> Path:
    """Ingest a corpus of one good and one undecodable document; return its part file."""
    docs = tmp_path / "docs"
    docs.mkdir(exist_ok=True)
    (docs / "guide.md").write_text(_GUIDE, encoding="utf-8")
    (docs / "broken.md").write_bytes(b"not \xff\xfe UTF-8")
    out = tmp_path / f"out-{output_format}"
    assert main(["ingest", str(docs), "--out", str(out), "--format", output_format]) == 0
    (part,) = sorted(out.glob(f"part-*.{output_format}"))
    return part


def test_ingest_output_packs_alike_in_both_formats(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI-14, CLI-15: ingest's Parquet and JSON Lines give the same context, error row skipped."""
    pytest.importorskip("pyarrow")
    parquet, jsonl = _ingest(tmp_path, "parquet"), _ingest(tmp_path, "jsonl")
    capsys.readouterr()
    argv = ["--budget", "100", "--min-score", "0", "--ids"]
    from_parquet = run_cli(["pack", str(parquet), *argv], b"", monkeypatch, capsys)
    from_jsonl = run_cli(["pack", str(jsonl), *argv], b"", monkeypatch, capsys)
    assert from_parquet == from_jsonl
    status, out, err = from_parquet
    assert status == 0, err
    assert "Step one." in out
    assert "Run it." in out
    assert err.startswith("chunkspec pack: skipped 1 error row\n")


def test_parquet_on_standard_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI-14: standard input is Parquet when it starts with PAR1."""
    pytest.importorskip("pyarrow")
    part = _ingest(tmp_path, "parquet")
    capsys.readouterr()
    argv = ["--budget", "100", "--min-score", "0"]
    from_stdin = run_cli(["pack", "-", *argv], part.read_bytes(), monkeypatch, capsys)
    assert from_stdin[0] == 0, from_stdin[2]
    assert from_stdin == run_cli(["pack", str(part), *argv], b"", monkeypatch, capsys)


def test_parquet_without_pyarrow_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI-14: without pyarrow, one CLI-1 line naming the extra to install."""
    part = tmp_path / "chunks.parquet"
    part.write_bytes(b"PAR1 not really, but pyarrow is never reached\n")
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    status, out, err = run_cli(["pack", str(part), "--budget", "10"], b"", monkeypatch, capsys)
    assert (status, out) == (2, "")
    assert err == (
        f"chunkspec pack: error: {part}: reading Parquet needs pyarrow: "
        "pip install 'chunkspec[arrow]'\n"
    )


def test_json_lines_need_no_pyarrow(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI-4: JSON Lines are read without the arrow extra."""
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    line = b'{"id": "a", "title": "T", "text": "x", "score": 0.9}\n'
    assert run_cli(["pack", "-", "--budget", "5"], line, monkeypatch, capsys) == (
        0,
        "[a] T\nx\n",
        "",
    )


def test_help_says_what_is_read(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``pack --help`` works and names both formats and the skipped error rows."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b""), encoding="utf-8"))
    with pytest.raises(SystemExit) as exit_:
        main(["pack", "--help"])
    assert exit_.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    for words in ("JSON Lines", "Parquet", ".parquet", "PAR1", "chunkspec[arrow]", "error rows"):
        assert words in text, words
