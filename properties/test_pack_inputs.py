"""Properties of what ``chunkspec pack`` reads: Parquet as JSON Lines (CLI-14), error rows
skipped (CLI-15)."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chunkspec._cli import main

_quiet = settings(suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)

#: Chunk-object rows (CLI-4): every column always present, so a Parquet table can hold them.
rows = st.lists(
    st.fixed_dictionaries(
        {
            "id": st.sampled_from(["d:0", "d:1", "d:2", "a", "B"]),
            "title": st.sampled_from(["T", "", "Returns"]),
            "text": st.sampled_from(["x", "", "a b", "é\n\U0001f600", "a\u2028b"]),
            "score": st.one_of(st.floats(-1, 2), st.sampled_from([0.0, 0.35, 1.0])),
        }
    ),
    max_size=6,
)

#: An ingest error row (SCALE-3): doc_id, source and error set, the other fields null.
error_rows = st.builds(
    lambda doc, message: {
        "id": None,
        "doc_id": doc,
        "title": None,
        "text": None,
        "source": f"{doc}.md",
        "error": message,
    },
    st.sampled_from(["a", "b", "broken"]),
    st.text(min_size=1, max_size=8),
)


def _run(argv: list[str], data: bytes, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run ``main(argv)`` with ``data`` on standard input; return (status, stdout, stderr)."""
    old = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        status = main(argv)
    except SystemExit as exit_:
        code = exit_.code
        status = 0 if code is None else code if isinstance(code, int) else 1
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return status, out, err


def _jsonl(records: list[dict[str, Any]]) -> bytes:
    """The records as JSON Lines."""
    return "".join(json.dumps(r) + "\n" for r in records).encode()


@_quiet
@given(chunks=rows, budget=st.integers(0, 8), ids=st.booleans())
def test_parquet_packs_as_json_lines(
    chunks: list[dict[str, Any]], budget: int, ids: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI-14: the same rows packed from Parquet (standard input, known by PAR1) and from JSON
    Lines give the same status, context and stderr, row numbers standing for line numbers."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    schema = pa.schema([(name, pa.string()) for name in ("id", "title", "text")])
    table = pa.Table.from_pylist(chunks, schema=schema.append(pa.field("score", pa.float64())))
    buffer = io.BytesIO()
    pq.write_table(table, buffer)
    argv = ["pack", "-", "--budget", str(budget), *(["--ids"] if ids else [])]
    assert _run(argv, buffer.getvalue(), capsys) == _run(argv, _jsonl(chunks), capsys)


@_quiet
@given(chunks=rows, errors=st.lists(error_rows, max_size=4), data=st.data())
def test_error_rows_are_skipped_and_counted(
    chunks: list[dict[str, Any]],
    errors: list[dict[str, Any]],
    data: st.DataObject,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """CLI-15: error rows anywhere among the records change nothing but one stderr line first,
    counting them; a row whose error is null is read as before."""
    mixed: list[dict[str, Any]] = [dict(c, error=None) for c in chunks]
    for row in errors:
        mixed.insert(data.draw(st.integers(0, len(mixed))), row)
    argv = ["pack", "-", "--budget", "6"]
    status, out, err = _run(argv, _jsonl(mixed), capsys)
    plain = _run(argv, _jsonl(chunks), capsys)
    assert (status, out) == plain[:2]
    if errors:
        noun = "row" if len(errors) == 1 else "rows"
        assert err == f"chunkspec pack: skipped {len(errors)} error {noun}\n" + plain[2]
    else:
        assert err == plain[2]
