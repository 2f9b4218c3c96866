"""tests/golden/stores.json (STORE-1 to STORE-11), run on a real LanceDB store."""

from __future__ import annotations

import math
import os
import re
from pathlib import Path
from typing import Any

import pytest

from chunkspec._evaluation._embed_cache import cache_key
from chunkspec._packing._access import Principal
from chunkspec.stores import (
    Embedder,
    StoreError,
    StoreRow,
    apply_records,
    digest_of,
    embedded_text,
    fields_of,
    held_digest,
    open_store,
    parse_address,
    search_records,
)
from chunkspec.stores._apply import _drift
from tests import goldens
from tests.cli.test_cli import run_cli
from tests.stores.store_rows import embedder, row, vector_of

pytest.importorskip("lancedb")


def _lance(tmp_path: Path) -> Any:
    """A fresh LanceDB collection."""
    return open_store(f"lancedb://{tmp_path / 'store'}")


def _error(output: dict[str, Any], error: BaseException) -> None:
    """The raised error is the case's: its type, and the argument it names or its text."""
    kinds = {"ValueError": ValueError, "StoreError": StoreError, "TypeError": TypeError}
    assert isinstance(error, kinds[output["error"]])
    if "names" in output:
        assert str(error).startswith(output["names"])
    if "match" in output:
        assert output["match"] in str(error)


def _apply(case: dict[str, Any], tmp_path: Path) -> None:
    """STORE-2, STORE-5: rows applied to a store already holding ``held``."""
    store = _lance(tmp_path)
    given = case["input"]
    fields = fields_of({k: v for k, v in given["rows"][0].items() if k != "error"})
    store.upsert([StoreRow(key, vector_of(key), digest, fields) for key, digest in given["held"]])
    output = case["output"]
    try:
        report = apply_records(
            given["rows"],
            store,
            embedder(given["model"]),
            cache=None,
            adopt=given.get("adopt", False),
        )
    except StoreError as error:
        _error(output, error)
        if "held" in output:
            assert store.held() == output["held"]
        return
    assert "error" not in output, "the case expects an error"
    counts = (report.added, report.updated, report.removed, report.unchanged)
    assert counts == (output["added"], output["updated"], output["removed"], output["unchanged"])
    assert store.held() == output["held"]


def _search(case: dict[str, Any], tmp_path: Path) -> None:
    """STORE-10: rows of the case's vectors; the best keys and their cosine scores."""
    store = _lance(tmp_path)
    given, output = case["input"], case["output"]
    base = row(0)
    store.upsert(
        [StoreRow(key, tuple(vector), "d", base.fields) for key, vector in given["vectors"].items()]
    )
    try:
        records, scores = search_records(store, given["query"], k=given["k"])
    except ValueError as error:
        _error(output, error)
        return
    # every row holds row(0)'s fields: compare the hits by the store's own answer
    hits = store.search(given["query"], given["k"], None)
    assert [hit.row.key for hit in hits] == output["keys"]
    assert [round(s, 6) for s in scores] == pytest.approx(output["scores"], abs=1e-6)
    assert len(records) == len(output["keys"])


def _search_access(case: dict[str, Any], tmp_path: Path) -> None:
    """STORE-9: the keys a search returns to the principal, k above the row count."""
    store = _lance(tmp_path)
    given = case["input"]
    rows = []
    for n, access in enumerate(given["rows"]):
        base = row(n)
        fields = dict(base.fields)
        fields.update(
            tenant=access["tenant"],
            labels=access["labels"],
            labels_readable=access["labels_readable"],
        )
        rows.append(StoreRow(access["key"], base.vector, "d", fields))
    store.upsert(rows)
    p = given["principal"]
    principal = None if p is None else Principal(p["labels"], tenant=p["tenant"])
    hits = store.search(vector_of("q"), len(rows) + 3, principal)
    assert sorted(hit.row.key for hit in hits) == case["output"]["keys"]


def _embed(case: dict[str, Any]) -> None:
    """STORE-7: an answer of the wrong shape is refused, naming embed(...)."""
    given = case["input"]
    answer = [[math.nan if x is None else x for x in v] for v in given["answer"]]
    counted = Embedder("m", lambda texts: answer)
    with pytest.raises(ValueError, match=r"^embed\(\.\.\.\)") as caught:
        counted.vectors(given["texts"], None)
    _error(case["output"], caught.value)


def _cli(
    case: dict[str, Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """STORE-11: the command line refuses before any work."""
    for name, text in case["input"]["files"].items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, "utf-8")
    monkeypatch.chdir(tmp_path)
    before = set(os.listdir(tmp_path))
    status, _, err = run_cli(case["input"]["argv"], b"", monkeypatch, capsys)
    output = case["output"]
    assert status == output["status"]
    assert re.fullmatch(output["stderr_match"], err), err
    assert sorted(set(os.listdir(tmp_path)) - before) == output["created"]


@pytest.mark.parametrize("case", goldens.cases("stores"))
def test_stores_golden(
    case: dict[str, Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Each case of tests/golden/stores.json."""
    given, output = case["input"], case["output"]
    op = given["op"]
    if op == "address":
        try:
            scheme, path = parse_address(given["address"])
            store_collection = given["collection"]
            from chunkspec.stores._open import check_collection

            check_collection(store_collection)
        except ValueError as error:
            _error(output, error)
            return
        assert (scheme, path) == (output["scheme"], output["path"])
        assert f"{scheme}://{path}#{store_collection}" == output["address"]
    elif op == "apply":
        _apply(case, tmp_path)
    elif op == "fields":
        assert fields_of(given["row"]) == output["fields"]
    elif op == "digest":
        assert digest_of(given["row"], given["model"]) == output["digest"]
    elif op == "embedded_text":
        assert embedded_text(given["row"]) == output["text"]
    elif op == "cache_key":
        assert cache_key(given["model"], given["text"]) == output["key"]
    elif op == "float32":
        assert (
            list(Embedder("m", lambda t: [given["vector"]]).vectors(["x"], None)[0])
            == output["vector"]
        )
    elif op == "embed":
        _embed(case)
    elif op == "held_digest":
        assert held_digest(given["held"]) == output["digest"]
    elif op == "drift":
        store = _lance(tmp_path)
        state = {
            k: v.replace("{address}", store.address) if isinstance(v, str) else v
            for k, v in given["state"].items()
        }
        said = _drift(state, store, given["model"])(given["held"])
        want = output["drift"]
        assert said == (None if want is None else want.replace("{address}", store.address))
    elif op == "search_access":
        _search_access(case, tmp_path)
    elif op == "search":
        _search(case, tmp_path)
    elif op == "cli":
        _cli(case, tmp_path, monkeypatch, capsys)
    else:
        pytest.fail(f"unknown op {op!r}")
