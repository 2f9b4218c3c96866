"""Bounded resources (TRUST-50 to TRUST-52): the goldens of tests/golden/trust_resources.json,
a hostile PDF through the CLI, and a table's memory measured in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from chunkspec import InputError, chunk_document, document_from_bytes, document_from_text
from chunkspec._core._word_count import word_count
from chunkspec._text._pdf import pdf_max_decompressed
from tests import goldens
from tests.pdfs import shared_stream_pdf, text_pdf

_ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("case", goldens.cases("trust_resources"))
def test_trust_resources(case: dict[str, Any]) -> None:
    """Each golden case: a table's records, a piecewise word count, a PDF's cap and error."""
    given, expected = case["input"], case["output"]
    if "source" in given:  # TRUST-50, TRUST-51
        document = document_from_text(given["source"], doc_id=given["doc_id"])
        options = {key: given[key] for key in ("min_tokens", "counter") if key in given}
        records = chunk_document(
            document, given["strategy"], max_tokens=given["max_tokens"], **options
        )
        assert [[r.text, r.start, r.end] for r in records] == expected["records"]
    elif "unit" in given:  # TRUST-51
        text = given["unit"] * given["repeat"]
        assert word_count(text) == expected["words"] == len(text.split())
    elif "size" in given:  # TRUST-52
        assert pdf_max_decompressed(given["size"], given["pdf_max_decompressed"]) == expected["cap"]
    else:  # TRUST-52: the hostile PDF, built from the case's parameters
        pytest.importorskip("pypdf")
        data = shared_stream_pdf(given["pages"], given["content_bytes"])
        with pytest.raises(InputError) as info:
            document_from_bytes(
                data,
                doc_id="shared",
                name="shared.pdf",
                pdf_max_decompressed=given["pdf_max_decompressed"],
            )
        assert (type(info.value).__name__, str(info.value)) == (
            expected["error"],
            expected["message"],
        )


def _cli(*argv: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run ``python -m chunkspec`` (PYTHONPATH inherited) and capture its output."""
    return subprocess.run(
        [sys.executable, "-m", "chunkspec", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_shared_stream_pdf_fails_fast_with_one_line(tmp_path: Path) -> None:
    """TRUST-52: a 180 KB PDF whose 40 pages share one 70 MB content stream (before the cap,
    two such pages ran past five minutes) is one line and exit 2 from ``chunk``, well inside
    the subprocess timeout; a smaller cap given by --pdf-max-bytes stops a smaller stream."""
    pytest.importorskip("pypdf")
    hostile = tmp_path / "shared.pdf"
    hostile.write_bytes(shared_stream_pdf(40, 70_000_000))
    done = _cli("chunk", str(hostile))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1, done.stderr
    assert "shared.pdf: page 1: the pages' content streams decompress to more than 67108864" in (
        done.stderr
    )
    small = tmp_path / "small.pdf"
    small.write_bytes(shared_stream_pdf(4, 400_000))
    assert _cli("chunk", str(small)).returncode == 0  # 1.6 MB in all: under the default cap
    done = _cli("chunk", "--pdf-max-bytes", "1000000", str(small))
    assert done.returncode == 2
    assert "small.pdf: page 3:" in done.stderr
    done = _cli("chunk", "--pdf-max-bytes", "0", str(small))
    assert done.returncode == 2
    assert done.stderr.strip().endswith("--pdf-max-bytes must be >= 1, got 0"), done.stderr


def test_real_pdfs_still_read() -> None:
    """TRUST-52: a PDF of ordinary pages reads whole under the default cap and under a cap
    just above its content, and is refused one byte below it."""
    pytest.importorskip("pypdf")
    lines = [f"line {k} of the page" for k in range(40)]
    data = text_pdf([lines, lines[:10], ["last"]])
    document = document_from_bytes(data, doc_id="ok", name="ok.pdf")
    assert document.pages is not None
    assert [page.splitlines()[0] for page in document.pages] == [
        "line 0 of the page",
        "line 0 of the page",
        "last",
    ]
    content = sum(len(f"({line}) Tj T*\n") for line in lines + lines[:10] + ["last"])
    content += 3 * len("BT /F1 12 Tf 72 720 Td 14 TL\nET")
    assert document_from_bytes(data, doc_id="ok", pdf_max_decompressed=content).pages
    with pytest.raises(InputError, match="page 3: the pages' content streams"):
        document_from_bytes(data, doc_id="ok", name="ok.pdf", pdf_max_decompressed=content - 1)


_MEASURE = textwrap.dedent(
    """
    import json, sys, tracemalloc
    from chunkspec import chunk_document, read_document
    path, strategy = sys.argv[1], sys.argv[2]
    tracemalloc.start()
    records = chunk_document(read_document(path), strategy)
    print(json.dumps([tracemalloc.get_traced_memory()[1], len(records)]))
    """
)


def _table(size: int) -> str:
    """A GFM table of about ``size`` UTF-8 bytes: one-character cells, non-ASCII, escapes."""
    cells = ["é", "日", "a", "ж", "1", "\\\\|"]
    rows = ["|a|b|c|", "|-|-|-|"]
    total = 16
    k = 0
    while total < size:
        row = "|" + "|".join(cells[(k + j) % len(cells)] for j in range(3)) + "|"
        rows.append(row)
        total += len(row.encode()) + 1
        k += 1
    return "\n".join(rows) + "\n"


@pytest.mark.parametrize("parser", ["markdown-it-py", "markdown-it-pyrs"])
@pytest.mark.parametrize("strategy", ["heading", "structural", "recursive", "window", "pages"])
def test_table_memory_is_linear(tmp_path: Path, parser: str, strategy: str) -> None:
    """TRUST-50, TRUST-51: a 1 MB table of one-character cells peaks under 20 times its
    size (Python allocations, tracemalloc) under every strategy and both block scans; the
    literal markdown-it-py route took about 400 times."""
    if parser == "markdown-it-pyrs":
        pytest.importorskip("markdown_it_pyrs")
    path = tmp_path / "table.md"
    path.write_text(_table(1_000_000), encoding="utf-8")
    size = path.stat().st_size
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(path), strategy],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
        env={**os.environ, "CHUNKSPEC_MARKDOWN_PARSER": parser},
    )
    peak, records = json.loads(done.stdout)
    assert records > 0
    assert peak < 20 * size, (peak / size, strategy, parser)


def test_ingest_makes_the_capped_pdf_an_error_row(tmp_path: Path) -> None:
    """TRUST-52: ``ingest`` reports the shared-stream PDF as one error, with the cap's
    message, and still writes the other document's rows."""
    pytest.importorskip("pypdf")
    pytest.importorskip("pyarrow")
    corpus = tmp_path / "in"
    corpus.mkdir()
    (corpus / "shared.pdf").write_bytes(shared_stream_pdf(3, 70_000_000))
    (corpus / "ok.md").write_text("# Title\n\n| a | b |\n|---|---|\n| é | 日 |\n", encoding="utf-8")
    done = _cli("ingest", str(corpus), "--out", str(tmp_path / "out"))
    assert "2 documents" in done.stderr + done.stdout
    assert "1 error" in done.stderr + done.stdout
    assert "shared.pdf: page 1: the pages' content streams decompress to more than" in (done.stderr)
    import pyarrow.parquet as pq

    rows = pq.read_table(tmp_path / "out").to_pylist()
    assert {row["doc_id"] for row in rows} >= {"ok", "shared"}
