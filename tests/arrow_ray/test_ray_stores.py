"""STORE-5..STORE-7 on Ray: ``apply_result(..., write=ray_writer())`` equals a serial apply.

Slow (a Ray cluster on 127.0.0.1), so it runs only in ``nox -s ray``, which sets
CHUNKSPEC_RAY_TESTS=1; elsewhere every test here is skipped. The stores are real, in
temporary folders: LanceDB (written by the workers) and Milvus Lite (one process at a
time: the workers embed, the driver writes).
"""

from __future__ import annotations

import functools
import math
import os
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

if os.environ.get("CHUNKSPEC_RAY_TESTS") != "1":
    pytest.skip("Ray tests run in `nox -s ray` (CHUNKSPEC_RAY_TESTS=1)", allow_module_level=True)

import chunkspec
from chunkspec import ChunkJob, ChunkOptions
from chunkspec.stores import Embedder, Store, apply_result, open_store, ray_writer
from tests.stores.conftest import address
from tests.stores.store_rows import embedder, hash_embed

# Ray's own processes outlive the objects that started them; not our warnings to fix.
pytestmark = pytest.mark.filterwarnings(
    "ignore::ResourceWarning",
    "ignore::pytest.PytestUnraisableExceptionWarning",
    r"ignore::DeprecationWarning:ray\..*",
)

#: Rows per write batch (the embedder's batch too: one call per batch).
BATCH = 16


@pytest.fixture(scope="module")
def ray_local() -> Iterator[Any]:
    """One Ray on 127.0.0.1 for the module: 2 CPUs, no dashboard, no usage stats; its
    workers import the chunkspec this process imported, and the tests (absolute paths
    first: a worker's path is not this process's)."""
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    root = Path(__file__).resolve().parent.parent.parent
    package = Path(chunkspec.__file__).resolve().parent.parent
    paths = [str(package), str(root), os.environ.get("PYTHONPATH", "")]
    os.environ["PYTHONPATH"] = os.pathsep.join(path for path in paths if path)
    import ray

    ray.init(
        num_cpus=2,
        include_dashboard=False,
        _node_ip_address="127.0.0.1",
        logging_level="WARNING",
        log_to_driver=False,
    )
    yield ray
    ray.shutdown()


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An ingest result of 50 generated Markdown files (a few hundred chunks)."""
    corpus = tmp_path_factory.mktemp("corpus")
    for n in range(50):
        words = " ".join(f"w{n}x{k}" for k in range(n % 30 + 10))
        text = f"# Doc {n}\n\n{words}\n\n## Part {n}\n\n- item {n}\n- {words[:40]}\n\nEnd {n}.\n"
        (corpus / f"doc{n:03d}.md").write_text(text, encoding="utf-8")
    out = tmp_path_factory.mktemp("result")
    job = ChunkJob(ChunkOptions(strategy="heading", max_tokens=16))
    chunkspec.ingest([corpus], out, job, workers=1)
    return out


def _chunks(folder: Path) -> int:
    """The chunk rows of a result."""
    from chunkspec._corpus._part_files import result_rows

    rows = result_rows(folder, str(folder))
    return sum(1 for doc in rows.values() for row in doc if row.get("error") is None)


def _logged(folder: Path, texts: list[str]) -> Sequence[Sequence[float]]:
    """``hash_embed``, leaving one file per call in ``folder`` named by the process."""
    (folder / f"{os.getpid()}-{uuid.uuid4().hex}").touch()
    return hash_embed(texts)


def _same_store(got: Store, want: Store) -> None:
    """held() equal, and every row equal field for field (vectors exactly)."""
    held = got.held()
    assert held == want.held()
    keys = sorted(held)
    fetched, expected = got.fetch(keys), want.fetch(keys)
    assert sorted(fetched) == keys
    for key in keys:
        assert fetched[key] == expected[key]


@pytest.mark.parametrize("scheme", ["lancedb", "milvus"])
def test_ray_apply_equals_a_serial_apply(
    ray_local: Any, result: Path, tmp_path: Path, scheme: str
) -> None:
    """STORE-5: the store applied on Ray equals one applied serially, row for row; the
    embedder counts one call per batch though the calls ran on the workers (STORE-7)."""
    chunks = _chunks(result)
    batches = math.ceil(chunks / BATCH)
    assert batches >= 8  # several tasks, over both workers
    remote = open_store(address(scheme, tmp_path / "ray"))
    local = open_store(address(scheme, tmp_path / "serial"))
    calls = tmp_path / "calls"
    calls.mkdir()
    try:
        on_ray = Embedder("hash8", functools.partial(_logged, calls), batch_size=BATCH)
        report = apply_result(
            result, remote, on_ray, cache=None, batch_size=BATCH, write=ray_writer()
        )
        assert (on_ray.calls, on_ray.embedded) == (batches, chunks)
        assert (report.calls, report.embedded, report.added, report.rows) == (
            batches,
            chunks,
            chunks,
            chunks,
        )
        pids = {int(path.name.split("-")[0]) for path in calls.iterdir()}
        assert len(list(calls.iterdir())) == batches
        assert os.getpid() not in pids  # every batch was embedded on a worker
        serial = embedder()
        assert apply_result(result, local, serial, cache=None, batch_size=BATCH).rows == chunks
        assert serial.calls == batches
        _same_store(remote, local)
        again = embedder()  # STORE-5: nothing left to do, nothing embedded
        report = apply_result(result, remote, again, cache=None, write=ray_writer())
        assert (report.unchanged, again.calls) == (chunks, 0)
    finally:
        remote.close()
        local.close()


def test_workers_fill_the_embedding_cache(ray_local: Any, result: Path, tmp_path: Path) -> None:
    """STORE-7: the workers embed through the cache's folder, so a later apply with the same
    cache embeds nothing."""
    cache = tmp_path / "cache"
    first = open_store(address("lancedb", tmp_path / "one"))
    second = open_store(address("lancedb", tmp_path / "two"))
    try:
        on_ray = embedder()
        apply_result(result, first, on_ray, cache=cache, batch_size=BATCH, write=ray_writer())
        assert on_ray.embedded == _chunks(result)
        later = embedder()
        report = apply_result(result, second, later, cache=cache, batch_size=BATCH)
        assert (later.calls, later.embedded, report.added) == (0, 0, _chunks(result))
        _same_store(second, first)
    finally:
        first.close()
        second.close()


def test_a_workers_error_is_raised_as_itself(ray_local: Any, result: Path, tmp_path: Path) -> None:
    """An embedder that breaks its contract on a worker is the same ValueError naming
    ``embed(...)`` as in a serial apply (not Ray's wrapper)."""
    store = open_store(address("lancedb", tmp_path / "bad"))
    try:
        broken = Embedder("broken", _one_vector_too_few, batch_size=BATCH)
        with pytest.raises(ValueError, match=r"embed\(\.\.\.\)"):
            apply_result(result, store, broken, cache=None, batch_size=BATCH, write=ray_writer())
    finally:
        store.close()


def _one_vector_too_few(texts: list[str]) -> list[list[float]]:
    """An embedding function that answers one vector fewer than it was given texts."""
    return [[1.0, 0.0] for _ in texts[1:]]


def test_ingest_engine_ray_into_a_store(tmp_path: Path) -> None:
    """STORE-11: ``ingest --engine ray --into STORE`` chunks on Ray, then embeds on Ray's
    workers; the store equals a serial apply of the same result, a re-run writes nothing,
    and Ray's messages stay in ``_ray.log`` (stderr carries only chunkspec's lines).

    A fresh process, so Ray starts inside the run, as for a user.
    """
    import subprocess
    import sys

    from tests.stores.corpus import sidecar, write_corpus

    corpus = tmp_path / "corpus"
    write_corpus(corpus, documents=12)
    where = address("lancedb", tmp_path)
    root = Path(__file__).resolve().parent.parent.parent
    environment = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    environment["PYTHONPATH"] = os.pathsep.join([str(root / "src"), str(root)])
    environment.pop("RAY_ADDRESS", None)
    argv = [sys.executable, "-m", "chunkspec", "ingest", str(corpus), "--engine", "ray"]
    argv += ["--into", where, "--embed", "tests.stores.store_rows:hash_embed"]
    argv += ["--no-embed-cache", "--max-tokens", "24", "--metadata", str(sidecar(corpus))]
    lines = []
    for _ in range(2):
        done = subprocess.run(
            argv, capture_output=True, text=True, env=environment, timeout=600, check=False
        )
        assert done.returncode == 0, done.stderr
        assert done.stderr == ""
        lines.append(done.stdout.splitlines()[-1])
    assert " added, 0 updated, 0 removed, 0 unchanged;" in lines[0]
    assert ": 0 added, 0 updated, 0 removed, " in lines[1]
    assert "0 embedded in 0 calls" in lines[1]
    result = Path(where.partition("://")[2] + ".chunkspec")
    assert (result / "_ray.log").is_file()
    serial = open_store(address("lancedb", tmp_path / "serial"))
    ray_store = open_store(where)
    try:
        named = Embedder("tests.stores.store_rows:hash_embed", hash_embed)
        apply_result(result, serial, named, cache=None)
        held = ray_store.held()
        assert held == serial.held()
        assert ray_store.fetch(sorted(held)) == serial.fetch(sorted(held))
    finally:
        serial.close()
        ray_store.close()
