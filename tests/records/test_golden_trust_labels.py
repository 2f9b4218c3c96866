"""Golden cases of labels on the way to the check (tests/golden/trust_labels.json, TRUST-1..5).

Each case runs through every real reader it names: a record line through
``ChunkRecord.from_dict``, ``chunkspec pack`` (plain and ``--merge``), ``chunkspec view`` and
incremental ingest's result reader; a Parquet row through ``pack`` and ``table_to_records``;
a sidecar line through ``chunk --metadata``; a front matter through ``chunk_document``,
``chunkspec chunk`` and ``chunkspec ingest`` (an error row). The TypeScript port's
``test/trustLabels.test.ts`` reads the same front-matter cases.
"""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from chunkspec import InputError, chunk_document, document_from_text
from chunkspec._cli import main
from chunkspec._cli._io import CliError
from chunkspec._core._metadata import Metadata
from chunkspec._core._strict_json import JsonTextError, strict_json_object
from chunkspec._corpus._part_files import result_rows
from chunkspec.records import ChunkRecord

from .. import goldens

CASES = goldens.load_file("trust_labels")["cases"]

#: The text the golden record lines were chunked from (view checks spans against it).
SOURCE = "# Pay\n\nSalaries are paid monthly.\n"


def _of(reader: str) -> list[Any]:
    return [
        pytest.param(case, id=case["id"]) for case in CASES if case["input"]["reader"] == reader
    ]


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``main(argv)`` in process: (status, stdout, stderr)."""
    sys.stdin = io.TextIOWrapper(io.BytesIO(b""), encoding="utf-8")
    try:
        status = main(argv)
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else 1
    out, err = capsys.readouterr()
    return status, out, err


def _refused(result: tuple[int, str, str], command: str, where: str, message: str) -> None:
    """CLI-1: exit 2 and exactly one line naming the place, then the golden's message."""
    status, _, err = result
    assert status == 2, err
    assert err == f"chunkspec {command}: error: {where}: {message}\n"


@pytest.mark.parametrize("case", _of("record_line"))
def test_record_line(
    case: dict[str, Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    line, want = case["input"]["line"], case["output"]
    monkeypatch.chdir(tmp_path)
    Path("r.jsonl").write_text(line + "\n", "utf-8")
    Path("pay.md").write_text(SOURCE, "utf-8")
    principal = ["--tenant", "t1", "--label", "hr", "--min-score", "0"]
    merge = _cli(["pack", "r.jsonl", "--merge", "--budget", "100", *principal], capsys)
    plain = _cli(["pack", "r.jsonl", "--budget", "100", "--min-score", "0"], capsys)
    view = _cli(["view", "r.jsonl", "--source", "pay.md", "--output", "v.html"], capsys)
    results = Path("out")
    results.mkdir()
    (results / "part-00000.jsonl").write_text(line + "\n", "utf-8")
    if "error" in want:
        with pytest.raises((TypeError, ValueError)) as info:
            ChunkRecord.from_dict(strict_json_object(line, "r.jsonl:1"))
        assert str(info.value) in (f"r.jsonl:1: {want['error']}", want["error"])
        _refused(merge, "pack", "r.jsonl:1", want["error"])
        _refused(plain, "pack", "r.jsonl:1", want["error"])
        _refused(view, "view", "r.jsonl:1", want["error"])
        with pytest.raises(CliError) as failed:
            result_rows(results, "out", manifest=False)
        assert str(failed.value) == f"out: part-00000.jsonl:1: {want['error']}"
        return
    if want.get("error_row"):  # CLI-15: skipped, said so
        assert merge[0] == 1
        assert "skipped 1 error row" in merge[2]
        assert result_rows(results, "out", manifest=False)["pay"][0]["metadata"] is None
        return
    record = ChunkRecord.from_dict(strict_json_object(line, "r.jsonl:1"))
    assert record.metadata == want["metadata"]
    assert merge[0] == 0, merge
    assert "Salaries are paid monthly." in merge[1]
    assert view[0] == 0, view
    rows = result_rows(results, "out", manifest=False)["pay"]
    assert rows[0].get("metadata", {}) == want["metadata"]
    # Without the principal, a labelled record is withheld; an unlabelled one is not.
    bare = _cli(["pack", "r.jsonl", "--merge", "--budget", "100", "--min-score", "0"], capsys)
    assert ("withheld 1 record" in bare[2]) == bool(want["metadata"])


@pytest.mark.parametrize("case", _of("parquet"))
def test_parquet_row(
    case: dict[str, Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    from chunkspec.arrow import chunk_table_schema, table_to_records

    row, want = case["input"]["row"], case["output"]
    monkeypatch.chdir(tmp_path)
    schema = chunk_table_schema()  # metadata nullable, as ingest writes it (SCALE-3)
    table = pa.Table.from_pylist([{**row, "error": None}], schema=schema)
    Path("out").mkdir()
    pq.write_table(table, "out/part-00000.parquet")
    principal = ["--tenant", "t1", "--label", "hr", "--min-score", "0"]
    merge = _cli(
        ["pack", "out/part-00000.parquet", "--merge", "--budget", "100", *principal], capsys
    )
    if "error" in want:
        _refused(merge, "pack", "out/part-00000.parquet:1", want["error"])
        with pytest.raises((TypeError, ValueError)) as info:
            table_to_records(table)
        assert str(info.value) == want["table_error"]
        with pytest.raises(CliError) as failed:
            result_rows(Path("out"), "out", manifest=False)
        assert "part-00000.parquet:1: " in str(failed.value)
        return
    assert merge[0] == 0, merge
    assert [record.metadata for record in table_to_records(table)] == [want["metadata"]]
    assert result_rows(Path("out"), "out", manifest=False)["pay"][0]["metadata"] == want["metadata"]


@pytest.mark.parametrize("case", _of("sidecar"))
def test_sidecar_line(
    case: dict[str, Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("a.md").write_text(SOURCE, "utf-8")
    Path("m.jsonl").write_text(case["input"]["line"] + "\n", "utf-8")
    result = _cli(["chunk", "a.md", "--metadata", "m.jsonl"], capsys)
    _refused(result, "chunk", "m.jsonl:1", case["output"]["error"])
    assert result[1] == ""


@pytest.mark.parametrize("case", _of("metadata"))
def test_metadata_value(case: dict[str, Any]) -> None:
    value, want = case["input"]["value"], case["output"]
    if "error" in want:
        with pytest.raises(TypeError) as info:
            Metadata(value)
        assert str(info.value) == want["error"]
        with pytest.raises(TypeError):  # the record's field too, named record.metadata
            ChunkRecord.from_dict({**_a_record(), "metadata": value})
        return
    assert Metadata(value) == Metadata() == want["metadata"]


def _a_record() -> dict[str, Any]:
    records = chunk_document(document_from_text(SOURCE, doc_id="pay"), "heading")
    return records[0].to_dict()


@pytest.mark.parametrize("case", _of("front_matter"))
def test_front_matter(
    case: dict[str, Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    text, caller, want = case["input"]["text"], case["input"].get("metadata"), case["output"]
    monkeypatch.chdir(tmp_path)
    Path("docs").mkdir()
    Path("docs/pay.md").write_text(text, "utf-8")
    sidecar: list[str] = []
    if caller is not None:
        Path("m.jsonl").write_text(json.dumps({"doc_id": "pay", "metadata": caller}) + "\n")
        sidecar = ["--metadata", "m.jsonl"]
    chunk = _cli(["chunk", "docs/pay.md", *sidecar], capsys)
    ingest = _cli(["ingest", "docs", "--out", "out", "--format", "jsonl", *sidecar], capsys)
    assert ingest[0] == 0, ingest
    rows = result_rows(Path("out"), "out")["pay"]
    if "error" in want:
        with pytest.raises(InputError) as info:  # a ValueError (SOURCE-6)
            document_from_text(text, doc_id="d", metadata=caller)
        assert str(info.value) == f"d: {want['error']}"
        _refused(chunk, "chunk", "docs/pay.md", want["error"])
        assert [row["error"] for row in rows] == [f"docs/pay.md: {want['error']}"]
        _check_chunk_table(text, caller, want)
        return
    records = chunk_document(document_from_text(text, doc_id="d", metadata=caller), "heading")
    assert records
    _check_chunk_table(text, caller, want)
    assert all(record.metadata == want["metadata"] for record in records)
    assert chunk[0] == 0, chunk
    lines = [json.loads(line) for line in chunk[1].splitlines()]
    assert lines
    assert all(line["metadata"] == want["metadata"] for line in lines)
    assert all(row["error"] is None and row["metadata"] == want["metadata"] for row in rows)


def _check_chunk_table(text: str, caller: Any, want: dict[str, Any]) -> None:
    """TRUST-4: chunk_table (and so the Ray engine) gives the refused document one error
    row, or every row the golden's metadata; its input metadata column is the caller's."""
    pa = pytest.importorskip("pyarrow")
    from chunkspec.arrow import chunk_table

    given = None if caller is None else json.dumps(caller)
    table = pa.table(
        {"doc_id": ["pay"], "text": [text], "metadata": pa.array([given], pa.string())}
    )
    rows = chunk_table(table, strategy="heading", input_format="markdown").to_pylist()
    if "error" in want:
        assert [row["error"] for row in rows] == [f"pay: {want['error']}"]
        return
    assert rows
    assert all(json.loads(row["metadata"]) == want["metadata"] for row in rows)


def test_every_reader_is_covered() -> None:
    """Each reader kind of the golden file has cases, and each case one known reader."""
    readers = {case["input"]["reader"] for case in CASES}
    assert readers == {"record_line", "parquet", "sidecar", "metadata", "front_matter"}


def test_the_loader_names_the_place() -> None:
    """TRUST-2's one message shape, from the loader itself."""
    with pytest.raises(JsonTextError, match=r"^f\.jsonl:3: repeated key 'metadata'$"):
        strict_json_object('{"metadata": {}, "metadata": {}}', "f.jsonl:3")


@pytest.mark.parametrize(
    "case",
    [c for c in _of("front_matter") if "error" in c.values[0]["output"]][:3]
    + [c for c in _of("front_matter") if "metadata" in c.values[0]["input"]],
)
def test_langchain_adapter(case: Any) -> None:
    """TRUST-4: the LangChain adapter refuses what the core refuses (InputError), and the
    framework document's metadata, the caller's, lifts the refusal (META-3, ADAPT-6)."""
    langchain = pytest.importorskip("chunkspec.integrations.langchain")
    from langchain_core.documents import Document

    text, caller, want = case["input"]["text"], case["input"].get("metadata"), case["output"]
    splitter = langchain.ChunkspecSplitter(strategy="heading")
    document = Document(page_content=text, metadata={"doc_id": "d", **(caller or {})})
    if "error" in want:
        with pytest.raises(InputError, match=r"^\S+: " + re.escape(want["error"]) + "$"):
            splitter.split_documents([document])
        return
    chunks = splitter.split_documents([document])
    assert chunks
    assert all(langchain.to_record(chunk).metadata == want["metadata"] for chunk in chunks)
