"""The corpus inputs: nothing found is lost silently (CLI-7, CLI-16, CLI-17).

Golden cases in tests/golden/cli_inputs.json (the tests/golden/cli.json format, plus
``input.links``: ``{name: target}`` symbolic links made before the run); unreadable folders
are simulated by making ``os.scandir`` refuse them, so the tests run as root too.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from chunkspec._corpus import _walk
from tests import goldens
from tests.cli.test_cli import run_cli
from tests.hostile_corpus import refuse_listing


def _make(tmp_path: Path, args: dict[str, Any]) -> None:
    """Write the case's files and links under ``tmp_path``."""
    for name, content in args.get("files", {}).items():
        data = bytes.fromhex(content["hex"]) if isinstance(content, dict) else content.encode()
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    for name, target in args.get("links", {}).items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, tmp_path / name)


def _posix_names(case: dict[str, Any]) -> bool:
    """Whether the case needs file names that are bytes, not text (POSIX only)."""
    text = json.dumps(case["input"])
    return "\\udc" in text or bool(case["input"].get("links"))


@pytest.mark.parametrize("case", goldens.cases("cli_inputs"))
def test_cli_inputs_golden(
    case: dict[str, Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Every case gives the written status, standard output and standard error."""
    if _posix_names(case) and sys.platform == "win32":
        pytest.skip("byte file names and symbolic links are POSIX cases")
    args = case["input"]
    _make(tmp_path, args)
    monkeypatch.chdir(tmp_path)
    status, out, err = run_cli(args["argv"], b"", monkeypatch, capsys)
    expected = case["output"]
    assert status == expected["status"], err
    assert out == expected["stdout"]
    if "stderr_match" in expected:
        assert re.fullmatch(expected["stderr_match"], err), err
    else:
        assert err == ""


def _corpus(tmp_path: Path) -> Path:
    """A folder with a good file and a subfolder ``locked`` holding one."""
    docs = tmp_path / "docs"
    (docs / "locked").mkdir(parents=True)
    (docs / "a.md").write_text("good words", "utf-8")
    (docs / "locked" / "b.md").write_text("hidden words", "utf-8")
    return docs


def test_unreadable_folder_stops_chunk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI-17: an unreadable folder inside an input stops the run as a bad document does."""
    docs = _corpus(tmp_path)
    refuse_listing(monkeypatch, docs / "locked")
    monkeypatch.chdir(tmp_path)
    status, out, err = run_cli(["chunk", "docs"], b"", monkeypatch, capsys)
    assert (status, out) == (2, "")
    assert err == "chunkspec chunk: error: docs/locked: cannot read: Permission denied\n"


def test_unreadable_folder_skipped_with_keep_going(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI-17: with --keep-going the folder is one ``skipped`` line and the exit status 2."""
    docs = _corpus(tmp_path)
    refuse_listing(monkeypatch, docs / "locked")
    monkeypatch.chdir(tmp_path)
    status, out, err = run_cli(["chunk", "docs", "--keep-going"], b"", monkeypatch, capsys)
    assert status == 2
    assert [json.loads(line)["doc_id"] for line in out.splitlines()] == ["a"]
    assert err.splitlines() == [
        "chunkspec chunk: skipped: docs/locked: cannot read: Permission denied",
        "chunkspec chunk: error: 1 of 2 documents could not be read",
    ]


def test_unreadable_folder_named_directly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI-17: a folder named directly that cannot be listed is one line naming it."""
    docs = _corpus(tmp_path)
    refuse_listing(monkeypatch, docs / "locked")
    monkeypatch.chdir(tmp_path)
    status, out, err = run_cli(["chunk", "docs/locked"], b"", monkeypatch, capsys)
    assert (status, out) == (2, "")
    assert err == "chunkspec chunk: error: docs/locked: cannot read: Permission denied\n"


def _ingested(out: Path) -> list[dict[str, Any]]:
    """The rows of an ingest --format jsonl output folder."""
    rows: list[dict[str, Any]] = []
    for part in sorted(out.glob("*.jsonl")):
        rows += [json.loads(line) for line in part.read_text("utf-8").splitlines()]
    return rows


def test_unreadable_folder_is_an_ingest_error_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI-17: ingest writes one error row for the folder (doc id its relative path and /)."""
    docs = _corpus(tmp_path)
    refuse_listing(monkeypatch, docs / "locked")
    monkeypatch.chdir(tmp_path)
    argv = ["ingest", "docs", "--out", "out", "--format", "jsonl", "--workers", "1"]
    status, out, err = run_cli(argv, b"", monkeypatch, capsys)
    assert status == 0, err
    assert "2 documents, 1 chunks, 1 error" in out
    rows = _ingested(tmp_path / "out")
    errors = [(r["doc_id"], r["source"], r["error"]) for r in rows if r["error"]]
    assert errors == [("locked/", "docs/locked", "docs/locked: cannot read: Permission denied")]


def test_non_utf8_name_in_ingest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI-16: a Latin-1 file name is chunked; doc id and source carry its byte as \\xe9."""
    if sys.platform == "win32":
        pytest.skip("file names are text on Windows")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / os.fsdecode(b"caf\xe9.md")).write_text("good words", "utf-8")
    monkeypatch.chdir(tmp_path)
    argv = ["ingest", "docs", "--out", "out", "--format", "jsonl", "--workers", "1"]
    status, _, err = run_cli(argv, b"", monkeypatch, capsys)
    assert status == 0, err
    rows = _ingested(tmp_path / "out")
    assert [(r["doc_id"], r["source"], r["error"]) for r in rows] == [
        ("caf\\xe9", "docs/caf\\xe9.md", None)
    ]


def test_out_inside_input_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """TRUST-20 (was CLI-17's skip): --out inside an input folder is refused before any work."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("good words", "utf-8")
    monkeypatch.chdir(tmp_path)
    argv = ["ingest", "docs", "--out", "docs/out", "--format", "jsonl", "--workers", "1"]
    status, out, err = run_cli(argv, b"", monkeypatch, capsys)
    assert (status, out) == (2, "")
    assert err.startswith("chunkspec ingest: error: --out docs/out: lies inside the input docs")
    assert sorted(p.name for p in docs.iterdir()) == ["a.md"]


@pytest.mark.parametrize(
    ("name", "expected"),
    [("caf\udce9.md", "caf\\xe9.md"), ("café.md", "café.md"), ("a\\xe9.md", "a\\xe9.md")],
)
def test_shown_names(name: str, expected: str) -> None:
    """CLI-16: valid names are unchanged; only undecodable bytes become \\xNN."""
    assert _walk.shown(name) == expected
