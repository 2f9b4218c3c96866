"""Ray engine: ``chunkspec ingest --engine ray`` and chunkspec.ray.chunk_dataset (docs/scale.md).

Slow (a Ray cluster on 127.0.0.1), so it runs only in ``nox -s ray``, which sets
CHUNKSPEC_RAY_TESTS=1; elsewhere every test here is skipped.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if os.environ.get("CHUNKSPEC_RAY_TESTS") != "1":
    pytest.skip("Ray tests run in `nox -s ray` (CHUNKSPEC_RAY_TESTS=1)", allow_module_level=True)

import pyarrow as pa
import pyarrow.parquet as pq

from chunkspec._cli import main
from chunkspec._corpus._ray_engine import _attach_ids
from chunkspec.arrow import chunk_table
from tests import goldens, tiny_tiktoken
from tests.corpus_files import write_corpus
from tests.frameworks import no_network
from tests.records.test_entry_points import PLUGIN, SOURCE, TABLE, TEXT, argv_of, options_of

OPTIONS = ["--strategy", "heading", "--max-tokens", "24"]

# Ray's own processes outlive the objects that started them; not our warnings to fix.
pytestmark = pytest.mark.filterwarnings(
    "ignore::ResourceWarning",
    "ignore::pytest.PytestUnraisableExceptionWarning",
    r"ignore::DeprecationWarning:ray\..*",
)


def _key(row: dict[str, Any]) -> tuple[str, int]:
    """Sort rows by (doc_id, index), an error row (index null) first."""
    return (row["doc_id"], -1 if row["index"] is None else row["index"])


def _sorted_rows(out: Path) -> list[dict[str, Any]]:
    """Every row of an ingest folder, sorted by (doc_id, index)."""
    rows: list[dict[str, Any]] = pq.read_table(sorted(out.glob("*.parquet"))).to_pylist()
    return sorted(rows, key=_key)


def _metadata_object(row: dict[str, Any]) -> dict[str, Any]:
    """``row`` with its ``metadata`` JSON text (META-6) read back as the object."""
    return {**row, "metadata": json.loads(row["metadata"])}


def _collect(ray: Any, ds: Any) -> pa.Table:
    """Run ``ds`` and return its rows as one Arrow table."""
    return pa.concat_tables(ray.get(ds.to_arrow_refs()))


@pytest.fixture(scope="module")
def ray_local(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One Ray on 127.0.0.1 for the module: 2 CPUs, no dashboard, no usage stats.

    Its workers see the tiny tiktoken encoding as a tiktoken plugin (tests/tiny_tiktoken.py)
    and an empty tiktoken cache, so an encoding file is the only way they can count with it.
    """
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    plugin = tmp_path_factory.mktemp("plugin")
    (plugin / "tiktoken_ext").mkdir()
    (plugin / "tiktoken_ext" / "chunkspec_tiny_test.py").write_text(PLUGIN, "utf-8")
    cache = tmp_path_factory.mktemp("empty-tiktoken-cache")
    root = str(Path(__file__).resolve().parent.parent)
    paths = [str(plugin), root, os.environ.get("PYTHONPATH", "")]
    os.environ["PYTHONPATH"] = os.pathsep.join(path for path in paths if path)
    os.environ["TIKTOKEN_CACHE_DIR"] = str(cache)
    import ray

    ray.init(
        num_cpus=2,
        include_dashboard=False,
        _node_ip_address="127.0.0.1",
        logging_level="WARNING",
        log_to_driver=False,
        _system_config={"task_oom_retries": 3},
    )
    ray.data.DataContext.get_current().enable_progress_bars = False
    yield ray
    ray.shutdown()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """About 200 generated documents (Markdown, text, PDF; one PDF cut short)."""
    root = tmp_path_factory.mktemp("corpus")
    write_corpus(root, 200)
    return root


def test_ray_equals_local_ingest(ray_local: Any, corpus: Path, tmp_path: Path) -> None:
    """Ray's rows, sorted by (doc_id, index), are the local engine's; the corrupt PDF is
    exactly one error row and nothing else is an error."""
    local, remote = tmp_path / "local", tmp_path / "ray"
    assert main(["ingest", str(corpus), "--out", str(local), "--workers", "1", *OPTIONS]) == 0
    assert main(["ingest", str(corpus), "--out", str(remote), "--engine", "ray", *OPTIONS]) == 0
    got = _sorted_rows(remote)
    assert got == _sorted_rows(local)
    errors = [row for row in got if row["error"] is not None]
    assert [row["doc_id"] for row in errors] == ["part0/doc0003"]
    assert len({row["doc_id"] for row in got}) == 200
    assert (remote / "_chunkspec.json").is_file()


def test_incremental_ray_equals_full_local_run(ray_local: Any, tmp_path: Path) -> None:
    """INCR-3, INCR-10: an incremental --engine ray run after an edit script (changed, removed
    and added files) holds a full local run's rows and reuses the unchanged documents."""
    import shutil

    corpus = tmp_path / "in"
    write_corpus(corpus, 30)
    remote, local = tmp_path / "ray", tmp_path / "local"
    assert main(["ingest", str(corpus), "--out", str(remote), "--engine", "ray", *OPTIONS]) == 0
    edited = corpus / "part1" / "doc0001.md"
    edited.write_text(edited.read_text("utf-8") + "\nA paragraph added.\n", "utf-8")
    (corpus / "part2" / "doc0002.txt").unlink()
    shutil.copy(corpus / "part0" / "doc0000.txt", corpus / "part0" / "new.txt")
    assert main(["ingest", str(corpus), "--out", str(remote), "--engine", "ray", *OPTIONS]) == 0
    assert main(["ingest", str(corpus), "--out", str(local), "--workers", "1", *OPTIONS]) == 0
    assert _sorted_rows(remote) == _sorted_rows(local)
    manifest = json.loads((remote / "_chunkspec.json").read_text("utf-8"))
    assert manifest["reused"] == 28  # 30 - 1 removed - 1 edited (an error row is reused too)
    assert manifest["changes"]["documents"] == {
        "added": 1,
        "changed": 1,
        "removed": 1,
        "unchanged": 28,
    }


@pytest.mark.parametrize(
    "case",
    [c for c in goldens.cases("incremental") if c.values[0]["input"].get("engine") == "ray"],
)
def test_incremental_golden_on_ray(
    ray_local: Any,
    case: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """tests/golden/incremental.json's Ray scenarios (INCR-10)."""
    from tests.cli.test_golden_incremental import run_scenario

    run_scenario(case, tmp_path, capsys, monkeypatch)


def test_ray_carries_sidecar_metadata(ray_local: Any, corpus: Path, tmp_path: Path) -> None:
    """META-7, META-8, META-4: with --metadata, every Ray row of a document holds its
    sidecar metadata (over its front matter), the rows equal the local engine's."""
    doc_ids = sorted(
        p.relative_to(corpus).with_suffix("").as_posix() for p in corpus.rglob("*") if p.is_file()
    )
    sidecar = tmp_path / "meta.jsonl"
    given = {
        doc_id: {"tenant_id": f"t{n % 3}", "corpus_id": "c1", "acl_labels": ["eng", f"g{n}"]}
        for n, doc_id in enumerate(doc_ids)
        if n % 4
    }
    sidecar.write_text(
        "".join(json.dumps({"doc_id": d, "metadata": m}) + "\n" for d, m in given.items()), "utf-8"
    )
    local, remote = tmp_path / "local", tmp_path / "ray"
    side = ["--metadata", str(sidecar)]
    assert (
        main(["ingest", str(corpus), "--out", str(local), "--workers", "1", *side, *OPTIONS]) == 0
    )
    assert (
        main(["ingest", str(corpus), "--out", str(remote), "--engine", "ray", *side, *OPTIONS]) == 0
    )
    got = _sorted_rows(remote)
    assert got == _sorted_rows(local)
    for row in got:
        if row["error"] is None:
            assert json.loads(row["metadata"]) == given.get(row["doc_id"], {})


def _kill_once(batch: pa.Table, marker: str) -> pa.Table:
    """Test-only hook: the first call anywhere kills its worker process (os._exit)."""
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return batch
    os.close(fd)
    os._exit(1)


def test_worker_killed_mid_task_is_retried(ray_local: Any, corpus: Path, tmp_path: Path) -> None:
    """A worker that dies mid-task (os._exit) is retried by Ray: the rows are complete and
    none is doubled."""
    from chunkspec.ray import chunk_dataset

    files = sorted(p for p in corpus.rglob("*") if p.is_file())
    names = {
        str(p.resolve()): (p.relative_to(corpus).with_suffix("").as_posix(), str(p), None)
        for p in files
    }
    marker = str(tmp_path / "killed")
    ds = ray_local.data.read_binary_files(sorted(names), include_paths=True)
    ds = ds.map_batches(_attach_ids, batch_format="pyarrow", fn_kwargs={"names": names})
    ds = ds.map_batches(_kill_once, batch_format="pyarrow", fn_kwargs={"marker": marker})
    got = _collect(ray_local, chunk_dataset(ds, strategy="heading", max_tokens=24)).to_pylist()
    assert os.path.exists(marker)  # the kill happened
    expected = chunk_table(
        pa.table(
            {
                "doc_id": [names[k][0] for k in sorted(names)],
                "source": [names[k][1] for k in sorted(names)],
                "bytes": [Path(k).read_bytes() for k in sorted(names)],
            }
        ),
        strategy="heading",
        max_tokens=24,
    ).to_pylist()
    assert sorted(got, key=_key) == sorted(expected, key=_key)
    assert len(got) == len(expected)


def test_one_16_mib_document(ray_local: Any, tmp_path: Path) -> None:
    """A 16 MiB file goes alone with memory reserved and gives the local engine's rows."""
    (tmp_path / "in").mkdir()
    line = " ".join(f"word{k}" for k in range(12)) + "\n\n"
    data = (line * (16 * 1024 * 1024 // len(line) + 1)).encode()[: 16 * 1024 * 1024]
    (tmp_path / "in" / "giant.txt").write_bytes(data)
    (tmp_path / "in" / "small.md").write_text("# Small\n\nA small file beside it.\n")
    window = ["--strategy", "window", "--max-tokens", "512"]
    big = ["--engine", "ray", "--big-bytes", str(8 << 20)]  # CLI-12: Ray's options only
    local, remote = tmp_path / "local", tmp_path / "ray"
    assert (
        main(["ingest", str(tmp_path / "in"), "--out", str(local), "--workers", "1", *window]) == 0
    )
    assert main(["ingest", str(tmp_path / "in"), "--out", str(remote), *big, *window]) == 0
    got = _sorted_rows(remote)
    assert got == _sorted_rows(local)
    assert all(row["error"] is None for row in got)
    assert {row["doc_id"] for row in got} == {"giant", "small"}


def test_chunk_dataset_big_split_and_cap(ray_local: Any) -> None:
    """chunk_dataset's own size split: big rows alone, over-cap rows error rows (SCALE-5);
    the rows are chunk_table's."""
    from chunkspec.ray import chunk_dataset

    table = pa.table(
        {
            "doc_id": ["a", "b", "c", "d"],
            "source": ["a.md", "b.md", "c.md", "d.md"],
            "text": [
                "alpha beta",
                "gamma " * 50,
                "delta " * 400,
                "bad \udc80".encode("utf-8", "surrogatepass").decode("utf-8", "replace"),
            ],
        }
    )
    options: dict[str, Any] = {"strategy": "window", "max_tokens": 8, "max_bytes": 1000}
    got = _collect(
        ray_local,
        chunk_dataset(
            ray_local.data.from_arrow(table), big_bytes=100, big_memory=1 << 20, **options
        ),
    )
    expected = chunk_table(table, **options)
    assert sorted(got.to_pylist(), key=_key) == sorted(expected.to_pylist(), key=_key)
    assert [r["error"] for r in expected.to_pylist() if r["doc_id"] == "c"] == [
        "c.md: 2400 bytes is over max_bytes (1000)"
    ]


@pytest.fixture
def rank_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The tiny encoding registered here too, its rank file on disk, the network blocked,
    and the working directory a fresh folder holding the entry-point table's document."""
    no_network(monkeypatch)
    path = tiny_tiktoken.register(monkeypatch, tmp_path)
    work = tmp_path / "work"
    (work / "corpus").mkdir(parents=True)
    (work / SOURCE).write_text(TEXT, "utf-8")
    monkeypatch.chdir(work)
    return path


@pytest.mark.parametrize(("name", "row"), TABLE, ids=[name for name, _ in TABLE])
def test_every_option_row_on_ray(
    ray_local: Any, rank_file: Path, name: str, row: dict[str, Any]
) -> None:
    """OPT-1, OPT-3: tests/records/test_entry_points.py's table through chunk_dataset(options=...)
    and ``chunkspec ingest --engine ray`` gives chunk_document's records; the options reach
    every task as one value, encoding file included (COUNT-9)."""
    from chunkspec import ChunkRecord, chunk_document, document_from_text
    from chunkspec.ray import chunk_dataset

    options = options_of(row, rank_file)
    want = chunk_document(document_from_text(TEXT, doc_id="doc", source=SOURCE), options)
    table = pa.table({"doc_id": ["doc"], "source": [SOURCE], "text": [TEXT]})
    got = _collect(ray_local, chunk_dataset(ray_local.data.from_arrow(table), options=options))
    rows = sorted(got.to_pylist(), key=_key)
    assert all(r.pop("error") is None for r in rows), name
    assert [ChunkRecord.from_dict(_metadata_object(r)) for r in rows] == want
    out = Path("out").resolve()  # Ray's workers do not run in this folder
    argv = ["ingest", "corpus", "--out", str(out), "--engine", "ray", *argv_of(options)]
    assert main(argv) == 0
    ingested = _sorted_rows(out)
    assert all(r.pop("error") is None for r in ingested), name
    assert [ChunkRecord.from_dict(_metadata_object(r)) for r in ingested] == want


def test_ray_messages_go_to_the_log_file(tmp_path: Path) -> None:
    """CLI-19: Ray's own messages (its INFO and WARNING lines) are not on standard error,
    which carries only chunkspec's lines; they are in ``_ray.log`` in the output folder.

    A fresh process, so that Ray starts (and speaks) inside the run, as for a user.
    """
    import subprocess
    import sys

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.md").write_text("# A\n\nSome words.\n", "utf-8")
    (corpus / "bad.txt").write_bytes(b"\xff")
    out = tmp_path / "out"
    environment = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    environment.pop("RAY_ADDRESS", None)
    argv = [sys.executable, "-m", "chunkspec", "ingest", str(corpus), "--out", str(out)]
    done = subprocess.run(
        [*argv, "--engine", "ray", *OPTIONS],
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        f"chunkspec ingest: {corpus / 'bad.txt'}: not valid UTF-8 (byte 0); name its encoding "
        "with --input-encoding NAME (e.g. latin-1)"
    ]
    log = (out / "_ray.log").read_text("utf-8", errors="replace")
    assert "streaming_executor" in log or "INFO" in log, log[:2000]
    # SIZE-2: the heading and its sentence are one chunk
    assert [row["doc_id"] for row in _sorted_rows(out)] == ["a", "bad"]


def test_reading_options_on_ray(ray_local: Any, tmp_path: Path) -> None:
    """SCALE-8, CLI-18: --input-encoding and --pdf-password reach Ray's tasks: the rows equal
    the local engine's, and the password is in no written file."""
    import io

    from pypdf import PdfWriter

    from tests.pdfs import text_pdf

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "notes.txt").write_bytes("Crème brûlée, café au lait.\n".encode("latin-1"))
    writer = PdfWriter(clone_from=io.BytesIO(text_pdf([["Locked report", "Steady growth."]])))
    writer.encrypt(user_password="s3cret", algorithm="AES-256")
    locked = io.BytesIO()
    writer.write(locked)
    (corpus / "report.pdf").write_bytes(locked.getvalue())
    reading = ["--input-encoding", "latin-1", "--pdf-password", "s3cret", *OPTIONS]
    local, remote = tmp_path / "local", tmp_path / "ray"
    assert main(["ingest", str(corpus), "--out", str(local), "--workers", "1", *reading]) == 0
    assert main(["ingest", str(corpus), "--out", str(remote), "--engine", "ray", *reading]) == 0
    got = _sorted_rows(remote)
    assert got == _sorted_rows(local)
    assert all(row["error"] is None for row in got)
    assert any("Crème brûlée" in row["text"] for row in got)
    for path in remote.rglob("*"):  # the change set is a folder (INCR-6)
        if path.is_file():
            assert b"s3cret" not in path.read_bytes(), path


def test_pages_and_word_files_on_ray(ray_local: Any, tmp_path: Path) -> None:
    """HTML-17: web pages and a Word file, with --keep-furniture, give on Ray the local
    engine's rows; a page naming an access key in its meta is the one error row."""
    import shutil

    from tests.docx_files import build_docx

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for page in (Path(__file__).parent.parent / "data" / "html").glob("*.html"):
        shutil.copy(page, corpus / page.name)
    (corpus / "report.docx").write_bytes(build_docx([("Heading 1", "Report"), ("Normal", "Up.")]))
    (corpus / "labelled.html").write_text("<meta name=tenant_id content=t><p>x</p>", "utf-8")
    flags = ["--keep-furniture", *OPTIONS]
    local, remote = tmp_path / "local", tmp_path / "ray"
    assert main(["ingest", str(corpus), "--out", str(local), "--workers", "1", *flags]) == 0
    assert main(["ingest", str(corpus), "--out", str(remote), "--engine", "ray", *flags]) == 0
    got = _sorted_rows(remote)
    assert got == _sorted_rows(local)
    assert [row["doc_id"] for row in got if row["error"] is not None] == ["labelled"]
    assert any("Table of contents" in (row["text"] or "") for row in got)  # furniture kept


def test_ray_ingest_stops_on_sigterm(tmp_path: Path) -> None:
    """CLI-13, CLI-20: SIGTERM while Ray chunks a slow PDF: exit 143 within 5 s, our one
    line last on stderr and no traceback, no output, and none of Ray's processes left."""
    import signal
    import subprocess
    import sys
    import time

    from tests.pdfs import text_pdf
    from tests.processes import environment, no_processes_left, reap, session_processes

    words = " ".join(f"w{k}" for k in range(12))
    (tmp_path / "slow.pdf").write_bytes(text_pdf([[words] * 45 for _ in range(2500)]))
    out = tmp_path / "out"

    def command(pid: int) -> bytes:
        with contextlib.suppress(OSError):
            return Path(f"/proc/{pid}/cmdline").read_bytes()
        return b""

    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "chunkspec",
            "ingest",
            str(tmp_path / "slow.pdf"),
            "--out",
            str(out),
            "--engine",
            "ray",
            "--workers",
            "2",
        ],
        env={**environment(), "RAY_USAGE_STATS_ENABLED": "0"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        end = time.monotonic() + 60
        while not any(b"raylet" in command(p) for p in session_processes(process.pid)):
            assert process.poll() is None
            assert time.monotonic() < end
            time.sleep(0.05)
        time.sleep(3)  # Ray is up and chunking
        assert process.poll() is None
        sent = time.monotonic()
        process.send_signal(signal.SIGTERM)
        status = process.wait(timeout=60)
        took = time.monotonic() - sent
        assert process.stderr is not None
        stderr = process.stderr.read().decode()
        left = no_processes_left(process.pid)
    finally:
        reap(process)
    assert status == 143, stderr
    assert took <= 5.0
    assert stderr.endswith("chunkspec ingest: interrupted (SIGTERM)\n"), stderr
    assert "Traceback" not in stderr
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir() if ".chunkspec-" in p.name] == []
    assert left == [], [command(p) for p in left]
