"""docs/scale.md's Spark recipe: ``mapInArrow`` over chunk_table gives chunk_table's rows.

pyspark and a JVM are too heavy for the gate, so this runs only with CHUNKSPEC_SPARK_TESTS=1
and pyspark installed (docs/scale.md, "Spark", says how it was run).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from chunkspec.arrow import chunk_table, chunk_table_schema
from tests.corpus_files import write_corpus

if os.environ.get("CHUNKSPEC_SPARK_TESTS") != "1":
    pytest.skip(
        "Spark recipe: set CHUNKSPEC_SPARK_TESTS=1 (needs pyspark, Java)", allow_module_level=True
    )

pyspark_sql = pytest.importorskip("pyspark.sql")


def _key(row: dict[str, Any]) -> tuple[str, int]:
    """Sort rows by (doc_id, index), an error row first."""
    return (row["doc_id"], -1 if row["index"] is None else row["index"])


def chunk(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """The recipe's function: every Spark Arrow batch through chunk_table."""
    for batch in batches:
        yield from chunk_table(batch, strategy="heading", max_tokens=24).to_batches()


def test_map_in_arrow_recipe(tmp_path: Path) -> None:
    """Spark's binaryFile reader, doc ids from the path, mapInArrow over chunk_table: the
    rows equal chunk_table over the same documents, the corrupt PDF one error row."""
    from pyspark.sql.pandas.types import from_arrow_schema

    files = write_corpus(tmp_path / "in", 30)
    spark = (
        pyspark_sql.SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .getOrCreate()
    )
    try:
        raw = spark.read.format("binaryFile").option("recursiveFileLookup", "true")
        loaded = raw.load(str(tmp_path / "in"))
        docs = loaded.selectExpr(
            "regexp_extract(path, '/in/(.*)\\\\.[a-z]+$', 1) AS doc_id",
            "path AS source",
            "content AS bytes",
        )
        chunks = docs.mapInArrow(chunk, from_arrow_schema(chunk_table_schema()))
        got = [row.asDict(recursive=True) for row in chunks.collect()]
        sources = {row["doc_id"]: row["source"] for row in got}
    finally:
        spark.stop()
    ordered = sorted(files, key=lambda p: p.relative_to(tmp_path / "in").as_posix())
    ids = [p.relative_to(tmp_path / "in").with_suffix("").as_posix() for p in ordered]
    expected = chunk_table(
        pa.table(
            {
                "doc_id": ids,
                "source": [sources[i] for i in ids],
                "bytes": [p.read_bytes() for p in ordered],
            }
        ),
        strategy="heading",
        max_tokens=24,
    ).to_pylist()
    assert sorted(got, key=_key) == sorted(expected, key=_key)
    assert [r["doc_id"] for r in got if r["error"] is not None] == ["part0/doc0003"]
