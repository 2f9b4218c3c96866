"""Web pages and Word files through ``chunkspec ingest`` (HTML-17): local and incremental.

A folder of saved pages, a Word file and a page that names an access key in its ``meta``:
the good documents are records (the page's text, the page's title), the bad one is one
error row; ``--keep-furniture`` is recorded in the manifest and changes the records; an
edited page is chunked again and the rest reused, the result byte for byte a full run's.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from chunkspec._cli import main
from chunkspec._corpus._part_files import result_rows
from tests.docx_files import build_docx

PAGES = Path(__file__).parent.parent / "data" / "html"


def _corpus(folder: Path) -> Path:
    folder.mkdir()
    for page in PAGES.glob("*.html"):
        shutil.copy(page, folder / page.name)
    (folder / "report.docx").write_bytes(
        build_docx([("Heading 1", "Report"), ("Normal", "Sales rose.")])
    )
    (folder / "labelled.html").write_text("<meta name=ACL_labels content=hr><p>pay</p>", "utf-8")
    (folder / "saved-page").write_text(
        "<!DOCTYPE html><title>No suffix</title><p>sniffed</p>", "utf-8"
    )
    return folder


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != "_chunkspec.json" and "_changes" not in p.parts
    }


def test_ingest_reads_pages_and_word_files(tmp_path: Path) -> None:
    """HTML-1, HTML-15, HTML-17, HTML-23: records per page, one error row for the page
    with an access key in its meta, the suffix-less page sniffed only if globbed."""
    corpus = _corpus(tmp_path / "in")
    out = tmp_path / "out"
    assert main(["ingest", str(corpus), "--out", str(out), "--workers", "1"]) == 0
    rows = [row for rows in result_rows(out, "out").values() for row in rows]
    errors = [r for r in rows if r["error"] is not None]
    assert [(r["doc_id"], "HTML-15" in r["error"]) for r in errors] == [("labelled", True)]
    titles = {r["doc_id"]: r["title"] for r in rows if r["error"] is None}
    assert titles["report"] == "Report"
    assert titles["nodejs-single-executable-applications"].startswith("Single executable")
    assert "saved-page" not in titles  # no suffix: not a document of the folder (CLI-17)
    texts = [r["text"] for r in rows if r["error"] is None]
    assert not any("<p>" in text or "</" in text for text in texts)  # text, not markup
    manifest = json.loads((out / "_chunkspec.json").read_text("utf-8"))
    assert manifest["keep_furniture"] is False


def test_keep_furniture_is_part_of_the_job(tmp_path: Path) -> None:
    """HTML-11, HTML-17: --keep-furniture is recorded and reads the page's menus too; a
    second run with it is a full run, not a reuse of the first's rows."""
    corpus = _corpus(tmp_path / "in")
    (corpus / "labelled.html").unlink()
    out = tmp_path / "out"
    assert main(["ingest", str(corpus), "--out", str(out), "--workers", "1"]) == 0
    plain = {r["text"] for rows in result_rows(out, "out").values() for r in rows}
    assert (
        main(["ingest", str(corpus), "--out", str(out), "--workers", "1", "--keep-furniture"]) == 0
    )
    kept = {r["text"] for rows in result_rows(out, "out").values() for r in rows}
    assert json.loads((out / "_chunkspec.json").read_text("utf-8"))["keep_furniture"] is True
    assert any("Table of contents" in text for text in kept)
    assert not any("Table of contents" in text for text in plain)


def test_an_edited_page_is_chunked_again(tmp_path: Path) -> None:
    """HTML-17, INCR-3: after one page is edited, the incremental result equals a full run."""
    corpus = _corpus(tmp_path / "in")
    (corpus / "labelled.html").unlink()
    out, full = tmp_path / "out", tmp_path / "full"
    assert main(["ingest", str(corpus), "--out", str(out), "--workers", "1"]) == 0
    page = corpus / "nodejs-single-executable-applications.html"
    page.write_text(page.read_text("utf-8").replace("<p>", "<p>Edited. ", 1), "utf-8")
    assert main(["ingest", str(corpus), "--out", str(out), "--workers", "1"]) == 0
    changes = [
        json.loads(line) for line in (out / "_changes" / "changes.jsonl").read_text().splitlines()
    ]
    changed = {
        c["doc_id"] for c in changes if c["scope"] == "document" and c["change"] != "unchanged"
    }
    assert changed == {"nodejs-single-executable-applications"}
    assert main(["ingest", str(corpus), "--out", str(full), "--workers", "1"]) == 0
    assert _files(out) == _files(full)
