"""The Ray writer's parts that need no Ray (``chunkspec.stores._ray_apply``): a task's
error carried whole, a worker refusing a store it cannot see, the arguments checked.
The writer itself runs on a real Ray in tests/arrow_ray/test_ray_stores.py."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from chunkspec._errors import ArgumentValueError, StoreError
from chunkspec.stores import open_store
from chunkspec.stores._ray_apply import _Carried, ray_writer, write_task
from tests.stores.conftest import address
from tests.stores.store_rows import hash_embed


def test_a_carried_error_is_rebuilt_as_itself() -> None:
    """chunkspec's errors cannot be rebuilt from their own pickle; carried, they come back
    with their class, message and attributes."""
    error = ArgumentValueError("embed(...)", "must return 2 vectors (one per text)", 1)
    with pytest.raises(TypeError):
        pickle.loads(pickle.dumps(error))
    back = pickle.loads(pickle.dumps(_Carried.of(error))).rebuilt()
    assert type(back) is ArgumentValueError
    assert str(back) == str(error)
    assert (back.argument, back.value) == ("embed(...)", 1)


def test_an_unpicklable_error_class_is_carried_by_name() -> None:
    """An error of a class defined in a function arrives as a RuntimeError naming it."""

    class Local(Exception):
        pass

    back = pickle.loads(pickle.dumps(_Carried.of(Local("broken")))).rebuilt()
    assert type(back) is RuntimeError
    assert str(back) == "Local: broken"


def test_a_worker_refuses_a_store_it_cannot_see(tmp_path: Path) -> None:
    """A worker writes only a store the driver created (on a folder the nodes share): one
    missing on its node is a StoreError naming the address, carried to the driver."""
    missing = f"lancedb://{tmp_path / 'nowhere'}#chunkspec"
    row = {"text": "x", "strategy": "heading", "heading_path": []}
    with pytest.raises(_Carried) as caught:
        write_task([("k" * 64, row, "d")], ("m", hash_embed, 4, None), missing)
    error = caught.value.rebuilt()
    assert isinstance(error, StoreError)
    assert str(error).startswith(f"{missing}: not found on the Ray node ")
    assert not (tmp_path / "nowhere").exists()


def test_ray_writer_checks_its_arguments() -> None:
    """Bad arguments are a TypeError or ValueError naming them."""
    with pytest.raises(TypeError, match="address"):
        ray_writer(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="workers"):
        ray_writer(workers="2")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="workers"):
        ray_writer(workers=0)


def test_only_lancedb_takes_concurrent_writers(scheme: str, tmp_path: Path) -> None:
    """Each store says whether Ray's workers may write it at once (``concurrent_writes``):
    LanceDB's commits are optimistic; Chroma's PersistentClient, Qdrant's local mode and
    Milvus Lite are one process's, so the driver writes them."""
    store = open_store(address(scheme, tmp_path))
    try:
        assert getattr(type(store), "concurrent_writes", None) is (scheme == "lancedb")
    finally:
        store.close()
