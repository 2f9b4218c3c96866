"""``chunkspec ingest``: a corpus into a Parquet or JSON Lines dataset (docs/scale.md)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from chunkspec._cli import main
from chunkspec._corpus import _local_engine
from chunkspec.arrow import chunk_table, chunk_table_schema
from chunkspec.records import metadata_json
from tests.corpus_files import write_corpus

OPTIONS = ["--strategy", "heading", "--max-tokens", "12"]


def _rows(out: Path) -> list[dict[str, Any]]:
    """Every row of an ingest output folder, in part-file order."""
    if any(out.glob("*.jsonl")):
        lines = [
            json.loads(line)
            for part in sorted(out.glob("part-*.jsonl"))
            for line in part.read_text("utf-8").splitlines()
        ]
        for row in lines:  # META-6: JSON Lines holds the object, Parquet its JSON text
            if row["metadata"] is not None:
                row["metadata"] = metadata_json(row["metadata"])
        return lines
    rows: list[dict[str, Any]] = pq.read_table(sorted(out.glob("*.parquet"))).to_pylist()
    return rows


def _files(folder: Path) -> list[str]:
    """Every file under ``folder``, as a path relative to it, sorted."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def _expected(root: Path, files: list[Path]) -> list[dict[str, Any]]:
    """chunk_table over the files, doc ids relative to ``root`` (sorted by relative path)."""
    files = sorted(files, key=lambda p: p.relative_to(root).as_posix())
    table = pa.table(
        {
            "doc_id": [p.relative_to(root).with_suffix("").as_posix() for p in files],
            "source": [str(p) for p in files],
            "bytes": [p.read_bytes() for p in files],
        }
    )
    rows: list[dict[str, Any]] = chunk_table(table, strategy="heading", max_tokens=12).to_pylist()
    return rows


def test_parquet_rows_are_chunk_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The dataset holds chunk_table's rows of every file, doc ids relative to the folder;
    the summary line counts documents, chunks and errors; a corrupt PDF is one error row."""
    files = write_corpus(tmp_path / "in", 20)
    out = tmp_path / "out"
    assert (
        main(["ingest", str(tmp_path / "in"), "--out", str(out), "--workers", "1", *OPTIONS]) == 0
    )
    captured = capsys.readouterr()
    rows = _rows(out)
    assert rows == _expected(tmp_path / "in", files)
    assert pq.read_schema(next(out.glob("*.parquet"))) == chunk_table_schema()
    errors = [r for r in rows if r["error"] is not None]
    assert [r["doc_id"] for r in errors] == ["part0/doc0003"]
    chunks = len(rows) - 1
    assert captured.out.startswith(f"20 documents, {chunks} chunks, 1 error, ")
    assert captured.out.rstrip().endswith(f" s -> {out}")
    assert captured.err.count("\n") == 1
    assert "doc0003.pdf" in captured.err
    manifest = json.loads((out / "_chunkspec.json").read_text("utf-8"))
    assert (manifest["documents"], manifest["chunks"], manifest["errors"]) == (20, chunks, 1)


def test_same_bytes_for_any_number_of_workers(tmp_path: Path) -> None:
    """--workers 1 and --workers 2 write identical part files."""
    write_corpus(tmp_path / "in", 24)
    for workers in ("1", "2"):
        argv = ["ingest", str(tmp_path / "in"), "--out", str(tmp_path / workers)]
        assert main([*argv, "--workers", workers, "--rows-per-file", "40", *OPTIONS]) == 0
    ones = _files(tmp_path / "1")
    assert sorted(ones) == sorted(_files(tmp_path / "2"))
    assert len(ones) > 4  # several parts, the manifest and the change set (INCR-6)
    for name in ones:
        if name != "_chunkspec.json":
            assert (tmp_path / "1" / name).read_bytes() == (tmp_path / "2" / name).read_bytes()


def test_jsonl_holds_the_same_rows(tmp_path: Path) -> None:
    """--format jsonl writes the rows Parquet holds, one JSON object a line."""
    files = write_corpus(tmp_path / "in", 8)
    out = tmp_path / "out"
    argv = ["ingest", str(tmp_path / "in"), "--out", str(out), "--format", "jsonl"]
    assert main([*argv, "--workers", "1", *OPTIONS]) == 0
    assert _rows(out) == _expected(tmp_path / "in", files)


def test_rerun_replaces_the_result(tmp_path: Path) -> None:
    """Running again into the same folder leaves the new result only, and no stray folder."""
    write_corpus(tmp_path / "in", 6)
    out = tmp_path / "out"
    base = ["ingest", str(tmp_path / "in"), "--out", str(out), "--workers", "1"]
    assert main([*base, "--format", "jsonl", *OPTIONS]) == 0
    assert main([*base, "--strategy", "window", "--max-tokens", "5"]) == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "_changes",
        "_chunkspec.json",
        "part-00000.parquet",
    ]
    assert {r["strategy"].split(":")[0] for r in _rows(out) if r["error"] is None} == {"window"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in", "out"]


def test_refuses_a_folder_it_did_not_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A non-empty folder without _chunkspec.json is never replaced: exit 2, one line."""
    write_corpus(tmp_path / "in", 2)
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    assert main(["ingest", str(tmp_path / "in"), "--out", str(tmp_path / "mine")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "not ingest output" in err
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep me"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--max-tokens", "0"], "--max-tokens"),
        (["--counter", "nope"], "--counter"),
        (["--strategy", "structural", "--overlap-tokens", "2"], "--overlap-tokens"),
        (["--workers", "0"], "--workers"),
        (["--max-bytes", "-1"], "--max-bytes"),
        (["--address", "127.0.0.1:1"], "--address needs --engine ray"),
        (["--big-bytes", "1000"], "--big-bytes needs --engine ray"),
        (["--big-memory", "1000"], "--big-memory needs --engine ray"),
        (["--engine", "ray", "--format", "jsonl"], "--engine ray writes Parquet only"),
    ],
)
def test_bad_options_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    """A bad option: exit 2, one line naming the flag, nothing written."""
    write_corpus(tmp_path / "in", 2)
    argv = ["ingest", str(tmp_path / "in"), "--out", str(tmp_path / "out"), *extra]
    if "ray" in extra:
        pytest.importorskip("ray")
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("chunkspec ingest: error: ")
    assert message in err
    assert err.count("\n") == 1
    assert "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in"]


def test_missing_input_and_duplicate_ids(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A missing path, and two files with one doc id, are errors before any work."""
    assert main(["ingest", str(tmp_path / "nope"), "--out", str(tmp_path / "o")]) == 2
    assert "no such file or folder" in capsys.readouterr().err
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    (tmp_path / "one" / "a.md").write_text("x")
    (tmp_path / "two" / "a.md").write_text("y")
    roots = [str(tmp_path / "one"), str(tmp_path / "two")]
    assert main(["ingest", *roots, "--out", str(tmp_path / "o")]) == 2
    assert "doc id 'a' is also the id of" in capsys.readouterr().err


def test_big_file_is_an_error_row_unread(tmp_path: Path) -> None:
    """SCALE-5 at the command line: a file over --max-bytes is refused by its size."""
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "small.md").write_text("small text")
    (tmp_path / "in" / "big.md").write_text("x" * 100)
    out = tmp_path / "out"
    assert main(["ingest", str(tmp_path / "in"), "--out", str(out), "--max-bytes", "50"]) == 0
    rows = _rows(out)
    assert [(r["doc_id"], r["error"]) for r in rows] == [
        ("big", f"{tmp_path / 'in' / 'big.md'}: 100 bytes is over max_bytes (50)"),
        ("small", None),
    ]


def test_ctrl_c_leaves_out_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """CLI-13: Ctrl-C is exit 130 and one line; the old output untouched, no staging left."""
    write_corpus(tmp_path / "in", 4)
    out = tmp_path / "out"
    assert main(["ingest", str(tmp_path / "in"), "--out", str(out), "--workers", "1"]) == 0
    before = {name: (out / name).read_bytes() for name in _files(out)}

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("chunkspec._corpus._engine.run_local", interrupted)
    capsys.readouterr()
    assert main(["ingest", str(tmp_path / "in"), "--out", str(out), "--strategy", "window"]) == 130
    assert capsys.readouterr().err == (
        "chunkspec ingest: full run: the options differ from the previous result's "
        "(fingerprint changed)\nchunkspec ingest: interrupted\n"
    )
    assert {name: (out / name).read_bytes() for name in _files(out)} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in", "out"]


def test_unreadable_file_is_an_error_row(tmp_path: Path) -> None:
    """A file that vanishes or cannot be read between the walk and the read is an error row."""
    rows = _local_engine.read_rows(
        (str(tmp_path / "gone.md"), "gone", str(tmp_path / "gone.md"), None, None), _options()
    )
    assert rows[0]["error"].startswith(f"{tmp_path / 'gone.md'}: cannot read: ")
    assert rows[0]["doc_id"] == "gone"
    assert rows[0]["index"] is None


def _options() -> Any:
    """A job of heading chunking options, checked."""
    from chunkspec import ChunkJob, ChunkOptions

    return ChunkJob(ChunkOptions("heading", 12))


def test_progress_line_when_asked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--progress always writes a carriage-return progress line on stderr."""
    write_corpus(tmp_path / "in", 3, corrupt_pdf=False)
    argv = ["ingest", str(tmp_path / "in"), "--out", str(tmp_path / "o"), "--progress", "always"]
    assert main([*argv, "--workers", "1"]) == 0
    assert "\r3/3 documents" in capsys.readouterr().err
    assert os.path.isdir(tmp_path / "o")


def test_dead_worker_process_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A local worker that dies breaks the pool: exit 2, one line, --out untouched."""
    from concurrent.futures.process import BrokenProcessPool

    write_corpus(tmp_path / "in", 2)

    def broken(*args: object, **kwargs: object) -> None:
        raise BrokenProcessPool("A process in the process pool was terminated abruptly")

    monkeypatch.setattr("chunkspec._corpus._engine.run_local", broken)
    assert main(["ingest", str(tmp_path / "in"), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("chunkspec ingest: error: a worker process died")
    assert err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in"]


def test_ingest_parquet_reads_back_into_pandas_with_integer_types(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """SCALE-9: pandas reads an ingest Parquet with error rows as nullable Int64, not floats."""
    pandas = pytest.importorskip("pandas")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "good.md").write_text("# Title\n\nSome words here.\n", "utf-8")
    (corpus / "bad.txt").write_bytes(b"\xff\xfe\x00")
    out = tmp_path / "out"
    assert main(["ingest", str(corpus), "--out", str(out), "--workers", "1"]) == 0
    capsys.readouterr()
    frame = pandas.read_parquet(out)
    assert str(frame["index"].dtype) == "Int64"
    assert str(frame["tokens"].dtype) == "Int64"
    assert str(frame["oversized"].dtype) == "boolean"
    errors = frame[frame["error"].notna()]
    assert len(errors) == 1
    assert errors["index"].isna().all()
    chunks = frame[frame["error"].isna()]
    assert chunks["index"].tolist() == list(range(len(chunks)))


def test_sidecar_metadata_on_every_row(tmp_path: Path) -> None:
    """META-7, META-4: ingest --metadata puts each document's sidecar metadata (over its
    front matter) on each of its rows, Parquet (JSON text) and JSON Lines (object) alike;
    a bad sidecar is one line, exit 2, and no --out."""
    folder = tmp_path / "in"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.md").write_text("---\nowner: fm\ntenant_id: fm\n---\n# A\n\none two", "utf-8")
    (folder / "sub" / "b.md").write_text("# B\n\nthree four five", "utf-8")
    (folder / "c.txt").write_text("six", "utf-8")
    sidecar = tmp_path / "meta.jsonl"
    lines = [
        {"doc_id": "a", "metadata": {"tenant_id": "t1", "acl_labels": ["eng"]}},
        {"doc_id": "sub/b", "metadata": {"tenant_id": "t2", "corpus_id": "c", "acl_labels": []}},
    ]
    sidecar.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
    expected = {
        "a": {"acl_labels": ["eng"], "owner": "fm", "tenant_id": "t1"},
        "sub/b": {"acl_labels": [], "corpus_id": "c", "tenant_id": "t2"},
        "c": {},
    }
    for output in ("parquet", "jsonl"):
        out = tmp_path / output
        argv = ["ingest", str(folder), "--out", str(out), "--format", output, "--workers", "2"]
        assert main([*argv, "--metadata", str(sidecar), *OPTIONS]) == 0
        rows = _rows(out)
        assert {row["doc_id"] for row in rows} == set(expected)
        for row in rows:
            assert json.loads(row["metadata"]) == expected[row["doc_id"]]
    sidecar.write_text('{"doc_id": "b", "metadata": {}}\n', "utf-8")
    bad = tmp_path / "bad"
    assert main(["ingest", str(folder), "--out", str(bad), "--metadata", str(sidecar)]) == 2
    assert not bad.exists()
