"""CLI-18: --pdf-password (or CHUNKSPEC_PDF_PASSWORD) and --input-encoding on reading commands."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from pypdf import PdfWriter

from tests.cli.test_cli import run_cli
from tests.pdfs import text_pdf

PAGES = [["Quarterly report", "Revenue grew steadily this quarter."], ["Outlook", "Steady."]]
COMMANDS = [["chunk"], ["split", "--max-tokens", "50"], ["window", "--max-tokens", "50"], ["pages"]]


def _locked(tmp_path: Path) -> tuple[Path, Path]:
    """Write the test PDF plain and AES-256 encrypted (user password ``s3cret``)."""
    plain = tmp_path / "plain" / "report.pdf"
    locked = tmp_path / "locked" / "report.pdf"
    plain.parent.mkdir()
    locked.parent.mkdir()
    plain.write_bytes(text_pdf(PAGES))
    writer = PdfWriter(clone_from=io.BytesIO(text_pdf(PAGES)))
    writer.encrypt(user_password="s3cret", algorithm="AES-256")
    out = io.BytesIO()
    writer.write(out)
    locked.write_bytes(out.getvalue())
    return plain, locked


@pytest.mark.parametrize("command", COMMANDS)
def test_pdf_password_flag_and_environment(
    command: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """CLI-18: the flag, else the environment variable, opens the PDF; the flag wins."""
    plain, locked = _locked(tmp_path)
    monkeypatch.delenv("CHUNKSPEC_PDF_PASSWORD", raising=False)
    status, expected, _ = run_cli([*command, str(plain)], b"", monkeypatch, capsys)
    assert status == 0
    expected = expected.replace(str(plain), str(locked))
    argv = [*command, str(locked), "--pdf-password", "s3cret"]
    assert run_cli(argv, b"", monkeypatch, capsys) == (0, expected, "")
    monkeypatch.setenv("CHUNKSPEC_PDF_PASSWORD", "s3cret")
    assert run_cli([*command, str(locked)], b"", monkeypatch, capsys) == (0, expected, "")
    argv = [*command, str(locked), "--pdf-password", "wrong-one"]
    status, out, err = run_cli(argv, b"", monkeypatch, capsys)
    assert (status, out) == (2, "")
    assert err == f"chunkspec {command[0]}: error: {locked}: encrypted PDF: the password is wrong\n"
    assert "wrong-one" not in err
    assert "s3cret" not in err


def test_pdf_password_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI-18: no password is one line naming the file and the flag."""
    _, locked = _locked(tmp_path)
    monkeypatch.delenv("CHUNKSPEC_PDF_PASSWORD", raising=False)
    status, out, err = run_cli(["chunk", str(locked)], b"", monkeypatch, capsys)
    assert (status, out) == (2, "")
    assert err == (
        f"chunkspec chunk: error: {locked}: encrypted PDF: a password is needed (--pdf-password)\n"
    )


def test_input_encoding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI-18: --input-encoding reads Latin-1; without it a UTF-16 BOM is enough."""
    text = "# Café\n\nCrème brûlée.\n"
    utf8 = tmp_path / "utf8" / "notes.md"
    latin = tmp_path / "latin" / "notes.md"
    wide = tmp_path / "wide" / "notes.md"
    for path, data in ((utf8, text.encode()), (latin, text.encode("latin-1"))):
        path.parent.mkdir()
        path.write_bytes(data)
    wide.parent.mkdir()
    wide.write_bytes(text.encode("utf-16"))
    status, expected, _ = run_cli(["chunk", str(utf8)], b"", monkeypatch, capsys)
    assert status == 0
    status, out, err = run_cli(["chunk", str(latin)], b"", monkeypatch, capsys)
    assert (status, out, err) == (
        2,
        "",
        f"chunkspec chunk: error: {latin}: not valid UTF-8 (byte 5); name its encoding with "
        "--input-encoding NAME (e.g. latin-1)\n",
    )
    argv = ["chunk", str(latin), "--input-encoding", "latin-1"]
    said = f"chunkspec chunk: {latin}: not UTF-8, read as latin-1 (--input-encoding)\n"
    assert run_cli(argv, b"", monkeypatch, capsys) == (
        0,
        expected.replace("utf8", "latin"),
        said,
    )
    # SOURCE-9: the encoding is a fallback, per file: the UTF-8 file beside it reads as UTF-8
    argv = ["chunk", str(utf8), str(latin), "--input-encoding", "latin-1"]
    status, out, err = run_cli(argv, b"", monkeypatch, capsys)
    assert (status, err) == (0, said)
    texts: dict[str, str] = {}
    for line in out.splitlines():
        record = json.loads(line)
        texts[record["doc_id"]] = texts.get(record["doc_id"], "") + record["text"]
    assert sorted(texts) == ["latin/notes", "utf8/notes"]  # CLI-8: one name, two paths
    assert all("Crème brûlée." in text and "Ã" not in text for text in texts.values())
    status, out, err = run_cli(["chunk", str(wide)], b"", monkeypatch, capsys)
    assert (status, out, err) == (0, expected.replace("utf8", "wide"), "")
    argv = ["chunk", str(latin), "--input-encoding", "nope"]
    status, out, err = run_cli(argv, b"", monkeypatch, capsys)
    assert (status, out, err) == (
        2,
        "",
        "chunkspec chunk: error: --input-encoding: unknown encoding 'nope'\n",
    )


def _ingest_texts(out: Path) -> list[tuple[str, str | None, str | None]]:
    """Return (doc_id, text, error) of every row of an ingest JSON Lines output, in order."""
    rows = []
    for part in sorted(out.glob("part-*.jsonl")):
        for line in part.read_text("utf-8").splitlines():
            row = json.loads(line)
            rows.append((row["doc_id"], row["text"], row["error"]))
    return rows


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ingest_reading_options(
    workers: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """CLI-18, SCALE-8: ingest takes --pdf-password and --input-encoding like chunk does.

    The password opens the PDF in the workers and is never written: not in the manifest,
    not in any part file, not on standard error.
    """
    _, locked = _locked(tmp_path)
    corpus = locked.parent
    (corpus / "notes.txt").write_bytes("Crème brûlée, café.\n".encode("latin-1"))
    monkeypatch.delenv("CHUNKSPEC_PDF_PASSWORD", raising=False)
    out = tmp_path / "out"
    base = ["ingest", str(corpus), "--out", str(out), "--format", "jsonl", "--workers", workers]
    status, _, err = run_cli(base, b"", monkeypatch, capsys)
    assert status == 0
    rows = _ingest_texts(out)
    errors = sorted(error for _, _, error in rows if error is not None)
    assert errors == [
        f"{corpus / 'notes.txt'}: not valid UTF-8 (byte 2); name its encoding with "
        "encoding=NAME (e.g. 'latin-1')",
        f"{locked}: encrypted PDF: a password is needed (--pdf-password)",
    ]
    argv = [*base, "--pdf-password", "s3cret", "--input-encoding", "latin-1"]
    status, _, err = run_cli(argv, b"", monkeypatch, capsys)
    assert status == 0, err
    assert f"chunkspec ingest: {corpus / 'notes.txt'}: not UTF-8, read as latin-1\n" in err
    manifest = json.loads((out / "_chunkspec.json").read_text("utf-8"))
    assert {entry["source"]: entry["encoding"] for entry in manifest["inputs"]} == {
        str(corpus / "notes.txt"): "latin-1",
        str(locked): None,
    }
    rows = _ingest_texts(out)
    assert all(error is None for _, _, error in rows)
    texts = " ".join(text or "" for _, text, _ in rows)
    assert "Crème brûlée, café." in texts
    assert "Revenue grew steadily" in texts
    manifest = (out / "_chunkspec.json").read_text("utf-8")
    assert '"input_encoding": "latin-1"' in manifest
    assert '"pdf_password": true' in manifest
    for path in out.rglob("*"):
        assert path.is_dir() or b"s3cret" not in path.read_bytes(), path
    assert "s3cret" not in err
    monkeypatch.setenv("CHUNKSPEC_PDF_PASSWORD", "s3cret")
    status, _, err = run_cli([*base, "--input-encoding", "latin-1"], b"", monkeypatch, capsys)
    assert status == 0, err
    assert all(error is None for _, _, error in _ingest_texts(out))
    status, out_text, err = run_cli([*base, "--input-encoding", "nope"], b"", monkeypatch, capsys)
    assert (status, out_text) == (2, "")
    assert err == "chunkspec ingest: error: --input-encoding: unknown encoding 'nope'\n"
