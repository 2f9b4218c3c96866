"""STORE-5..STORE-8 on every store, started for real: a result applied, edited, re-applied,
drifted, interrupted; the store always ends equal to loading a fresh full run.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from chunkspec._corpus._part_files import result_rows
from chunkspec._packing._access import Principal, readable
from chunkspec._packing._pack_records import pack_records
from chunkspec.stores import (
    Store,
    StoreError,
    StoreRow,
    apply_records,
    apply_result,
    open_store,
    search_records,
)
from tests.stores.conftest import address
from tests.stores.corpus import chunk, edit_corpus, write_corpus
from tests.stores.store_rows import embedder, row, vector_of

ROOT = Path(__file__).resolve().parents[2]


def _rows(result: Path) -> list[dict[str, Any]]:
    """Every row of an ingest result, in order."""
    return [r for doc in result_rows(result, str(result)).values() for r in doc]


def _chunk_changes(result: Path) -> dict[str, int]:
    """The change set's chunk counts (INCR-6)."""
    counts = {"added": 0, "updated": 0, "removed": 0, "unchanged": 0}
    for line in (result / "_changes" / "changes.jsonl").read_text("utf-8").splitlines():
        change = json.loads(line)
        if change["scope"] == "chunk":
            counts[change["change"]] += 1
    return counts


def assert_equal_to_fresh(store: Store, result: Path, scheme: str, folder: Path) -> None:
    """STORE-5: the store equals a fresh full load of the result, id for id, field for field."""
    fresh = open_store(address(scheme, folder))
    try:
        apply_records(_rows(result), fresh, embedder(), cache=None)
        want = fresh.held()
        assert store.held() == want
        keys = sorted(want)
        got, expected = store.fetch(keys), fresh.fetch(keys)
        assert sorted(got) == keys
        for key in keys:
            assert got[key] == expected[key]
    finally:
        fresh.close()


@pytest.fixture
def result(tmp_path: Path) -> tuple[Path, Path]:
    """A corpus folder and its ingest result."""
    source, out = tmp_path / "corpus", tmp_path / "out"
    write_corpus(source)
    chunk(source, out)
    return source, out


def test_first_load_then_nothing_to_do(
    store: Store, result: tuple[Path, Path], tmp_path: Path
) -> None:
    """STORE-5, STORE-7: a first apply writes and embeds every chunk once; applying again
    embeds nothing and writes nothing, and the manifest records what the store holds."""
    _, out = result
    count = len([r for r in _rows(out) if r.get("error") is None])
    counted = embedder()
    first = apply_result(out, store, counted, cache=tmp_path / "cache")
    assert (first.added, first.updated, first.removed, first.unchanged) == (count, 0, 0, 0)
    assert first.embedded == counted.embedded <= count  # equal texts are embedded once
    assert first.rows == count
    again = embedder()
    second = apply_result(out, store, again, cache=None)  # no cache: nothing to embed anyway
    assert (second.added, second.updated, second.removed, second.unchanged) == (0, 0, 0, count)
    assert again.calls == 0
    assert second.embedded == 0
    state = json.loads((out / "_chunkspec.json").read_text("utf-8"))["store"]
    assert state["state"] == "applied"
    assert state["rows"] == count
    assert state["address"] == store.address


def test_edits_apply_the_change_set(
    store: Store, scheme: str, result: tuple[Path, Path], tmp_path: Path
) -> None:
    """STORE-5, STORE-7: after an edit run, the apply's counts are the change set's, only the
    new texts are embedded (the cache holds the rest), and the store equals a fresh load."""
    source, out = result
    apply_result(out, store, embedder(), cache=tmp_path / "cache")
    for seed in (1, 2):
        edit_corpus(source, seed)
        chunk(source, out)
        changes = _chunk_changes(out)
        counted = embedder()
        report = apply_result(out, store, counted, cache=tmp_path / "cache")
        assert (report.added, report.updated, report.removed, report.unchanged) == (
            changes["added"],
            changes["updated"],
            changes["removed"],
            changes["unchanged"],
        )
        assert 0 < counted.embedded <= changes["added"] + changes["updated"]
        assert_equal_to_fresh(store, out, scheme, tmp_path / f"fresh{seed}")


def test_drift_is_reported_then_repaired(
    store: Store, scheme: str, result: tuple[Path, Path], tmp_path: Path
) -> None:
    """STORE-8: rows deleted behind chunkspec's back are reported and written again."""
    _, out = result
    apply_result(out, store, embedder(), cache=tmp_path / "cache")
    victims = sorted(store.held())[:3]
    store.delete(victims)
    said: list[str] = []
    report = apply_result(out, store, embedder(), cache=tmp_path / "cache", say=said.append)
    assert report.drift is not None
    assert said == [report.drift]
    assert "changed since chunkspec last wrote it" in report.drift
    assert report.added == 3
    assert_equal_to_fresh(store, out, scheme, tmp_path / "fresh")
    quiet: list[str] = []
    assert apply_result(out, store, embedder(), cache=None, say=quiet.append).drift is None
    assert quiet == []


def test_rows_chunkspec_did_not_write_are_refused(
    store: Store, result: tuple[Path, Path], tmp_path: Path
) -> None:
    """STORE-5: a collection holding rows without chunkspec's digest is not touched unless
    the caller adopts them; adopted, they are replaced by the result."""
    _, out = result
    foreign = row(99, digest="x")
    store.upsert([StoreRow(foreign.key, foreign.vector, "", foreign.fields)])
    with pytest.raises(StoreError, match="1 rows chunkspec did not write"):
        apply_result(out, store, embedder(), cache=None)
    assert store.held() == {foreign.key: ""}  # nothing written, nothing deleted
    report = apply_result(out, store, embedder(), cache=None, adopt=True)
    assert foreign.key not in store.held()
    assert report.removed == 1


def test_search_never_returns_a_denied_chunk(
    store: Store, result: tuple[Path, Path], tmp_path: Path
) -> None:
    """STORE-9, STORE-10: each principal gets exactly the chunks CTX-13 lets it read (the
    store's own answer, k above the row count), and pack_records packs them."""
    _, out = result
    rows = [r for r in _rows(out) if r.get("error") is None]
    apply_result(out, store, embedder(), cache=None)
    everything = Principal(["a", "b"], tenant="t1")
    for principal in (None, Principal(["a"]), Principal(["b"]), Principal(["a", "b"]), everything):
        records, scores = search_records(
            store, "alpha café", embedder(), k=len(rows) + 1, principal=principal
        )
        allowed = {r["key"] for r in rows if readable("m", r["metadata"], principal)}
        assert {record.key for record in records} == allowed
        denied = {r["key"] for r in rows} - allowed
        assert bool(denied) == (principal is not everything)
        assert not denied & {record.key for record in records}
        packed = pack_records(records, scores, 200, min_score=-1.0, principal=principal)
        assert packed.text


def _run_worker(result: Path, where: str, cache: Path, kill_after: float | None) -> float | None:
    """Run one apply in a new process group; kill the group (SIGKILL) ``kill_after``
    seconds after the store is open. The apply's seconds when it finished, else None."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.stores.apply_worker", str(result), where, str(cache)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{ROOT}"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        # unbuffered: readline takes "ready" byte by byte, so a quick apply's "applied" line
        # stays in the pipe for communicate(), which reads the descriptor, not a buffer
        bufsize=0,
    )
    assert process.stdout is not None
    assert process.stdout.readline() == b"ready\n"
    try:
        out, err = process.communicate(timeout=kill_after)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return None
    assert process.returncode == 0, err.decode(errors="replace")[-2000:]
    return float(out.split()[-1])


#: Kill-and-rerun trials per store in the gate; CHUNKSPEC_STORE_TRIALS=N for more.
TRIALS = int(os.environ.get("CHUNKSPEC_STORE_TRIALS", "2"))


def test_killed_applies_converge(scheme: str, tmp_path: Path) -> None:
    """STORE-5: an apply killed (SIGKILL, with any child process) at a random moment, then
    run again, leaves the store equal to a fresh full load: first loads and edit runs."""
    rng = random.Random(f"{scheme} kill trials")
    source, out = tmp_path / "corpus", tmp_path / "out"
    write_corpus(source, documents=30)
    chunk(source, out)
    where = address(scheme, tmp_path)
    full = _run_worker(out, address(scheme, tmp_path / "timing"), tmp_path / "timing-cache", None)
    assert full is not None
    killed = 0
    for trial in range(TRIALS):
        if trial:
            edit_corpus(source, trial)
            chunk(source, out)
        # a first load takes `full`; an edit run much less: kill early in either
        limit = full / 2 if trial == 0 else full / 20
        if _run_worker(out, where, tmp_path / "cache", rng.uniform(0, limit)) is None:
            killed += 1
        assert _run_worker(out, where, tmp_path / "cache", None) is not None
        store = open_store(where)
        try:
            assert_equal_to_fresh(store, out, scheme, tmp_path / f"fresh{trial}")
        finally:
            store.close()
    assert killed >= 1  # the first load's kill, at least, landed inside its apply
    print(f"{scheme}: {TRIALS} trials, {killed} killed mid-run, 0 mismatches")


def test_vectors_are_the_embedded_texts(store: Store, tmp_path: Path) -> None:
    """STORE-6: the vector of a row is the embedding of its embedded text: the trail and
    the text under budget_includes_headings, the text alone otherwise."""
    from chunkspec import ChunkOptions, ingest

    source = tmp_path / "c"
    source.mkdir()
    (source / "a.md").write_text("# Top\n\nintro words\n\n## Sub\n\nbody words here\n", "utf-8")
    for flag in (False, True):
        out = tmp_path / f"out{flag}"
        options = ChunkOptions(
            "heading", max_tokens=50, min_tokens=0, budget_includes_headings=flag
        )
        ingest([str(source)], str(out), options)
        apply_result(out, store, embedder(), cache=None)
        rows = [r for r in _rows(out) if r.get("error") is None]
        assert any(r["heading_path"] for r in rows)  # a trail, so the two cases differ
        got = store.fetch([str(r["key"]) for r in rows])
        for r in rows:
            trail = " > ".join(r["heading_path"])
            want = f"{trail}\n\n{r['text']}" if flag and trail else str(r["text"])
            assert got[str(r["key"])].vector == vector_of(want)


class _LeakyStore:
    """A user's store whose search forgets the principal (a broken filter): every other call
    is the real LanceDB store's."""

    def __init__(self, inner: Store) -> None:
        self.inner = inner
        self.address = inner.address

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def search(self, vector: Any, k: int, principal: Principal | None) -> Any:
        return self.inner.search(vector, k, Principal(["a", "b"], tenant="t1"))


def test_a_leaky_filter_raises_instead_of_handing_on(
    result: tuple[Path, Path], tmp_path: Path
) -> None:
    """STORE-9: search_records checks every answer again: a store that returns a row the
    principal may not read is a StoreError naming it, never a record handed on."""
    pytest.importorskip("lancedb")
    _, out = result
    inner = open_store(address("lancedb", tmp_path))
    apply_result(out, inner, embedder(), cache=None)
    leaky = _LeakyStore(inner)
    with pytest.raises(StoreError, match="withheld"):
        search_records(leaky, "alpha", embedder(), k=100, principal=None)
    inner.close()


def test_an_interrupted_manifest_write_is_ingests_own(result: tuple[Path, Path]) -> None:
    """STORE-8, TRUST-22: a manifest update killed before its rename leaves
    _chunkspec.json.tmp; the next ingest counts it as its own and replaces the folder."""
    source, out = result
    (out / "_chunkspec.json.tmp").write_text('{"partial": ', "utf-8")
    chunk(source, out)
    assert not (out / "_chunkspec.json.tmp").exists()


def test_the_default_out_beside_the_store_is_never_someone_elses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """STORE-11, TRUST-22: --into's default --out (STORE.chunkspec) is refused when a folder
    of that name holds files ingest did not write; nothing in it is deleted."""
    pytest.importorskip("lancedb")
    from tests.cli.test_cli import run_cli

    write_corpus(tmp_path / "corpus", documents=2)
    theirs = tmp_path / "store.chunkspec"
    theirs.mkdir()
    (theirs / "notes.txt").write_text("mine", "utf-8")
    monkeypatch.chdir(tmp_path)
    status, _, err = run_cli(
        [
            "ingest",
            "corpus",
            "--into",
            "lancedb://store",
            "--embed",
            "tests.stores.store_rows:hash_embed",
        ],
        b"",
        monkeypatch,
        capsys,
    )
    assert status == 2
    assert "store.chunkspec" in err
    assert err.count("\n") == 1
    assert (theirs / "notes.txt").read_text("utf-8") == "mine"
    assert not (tmp_path / "store").exists()


@pytest.mark.parametrize(
    ("keywords", "error", "named"),
    [
        ({"batch_size": 0}, ValueError, "batch_size"),
        ({"batch_size": 2.0}, TypeError, "batch_size"),
        ({"adopt": "yes"}, TypeError, "adopt"),
        ({"store": "lancedb://x"}, TypeError, "store"),
        ({"embedder": lambda texts: texts}, TypeError, "embedder"),
    ],
)
def test_bad_arguments_are_named(
    store: Store, keywords: dict[str, Any], error: type[Exception], named: str
) -> None:
    """STORE-5: a bad argument to an apply is an error naming it, before any work."""
    arguments: dict[str, Any] = {"store": store, "embedder": embedder(), "cache": None}
    arguments.update(keywords)
    with pytest.raises(error, match=f"^{named} "):
        apply_records([row(1).fields], **arguments)
    assert store.held() == {}
