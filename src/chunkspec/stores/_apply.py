"""Making a store equal a result: plan, embed what is new, write, delete, check (STORE-4..8).

The plan is never taken on trust: it compares the rows a result holds with the ids and
digests the store holds *now* (STORE-5), so applying is idempotent and a run killed at any
moment converges when run again: a row written before the kill is held with its digest and
skipped, one deleted stays deleted, one half-way is written again. The manifest of the
result records what the store holds after each apply (STORE-8), so a store that changed
under chunkspec's feet is reported, then repaired, never trusted.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._corpus._out_folder import MANIFEST, MANIFEST_UPDATE, read_manifest
from .._corpus._part_files import result_rows
from .._errors import ArgumentTypeError, ArgumentValueError, StoreError
from .._evaluation._embed_cache import EmbeddingCache
from ._embedder import DEFAULT_CACHE, Embedder, open_cache
from ._rows import digest_of, embedded_text, fields_of
from ._store import Store, StoreRow

__all__ = ["DEFAULT_BATCH", "ApplyReport", "apply_records", "apply_result", "held_digest"]

#: Rows per write (and per embedding batch at most: the embedder batches within it).
DEFAULT_BATCH = 256

#: Ids shown in a refusal.
_SHOWN = 3


Say = Callable[[str], None]

#: One batch of rows to write: ``(key, result row, digest)`` each.
Batch = list[tuple[str, Mapping[str, Any], str]]

#: How the batches get embedded and written: in this process (:func:`write_here`), or on
#: Ray's workers (``chunkspec.stores._ray_apply``). The embedder's counts must include
#: every call it made, wherever.
Writer = Callable[[list[Batch], Store, Embedder, EmbeddingCache | None], None]


def store_rows(batch: Batch, vectors: Sequence[tuple[float, ...]]) -> list[StoreRow]:
    """The store rows of one batch, given the vectors of its embedded texts."""
    return [
        StoreRow(key, vector, digest, fields_of(row))
        for (key, row, digest), vector in zip(batch, vectors, strict=True)
    ]


def write_here(
    batches: list[Batch], store: Store, embedder: Embedder, cache: EmbeddingCache | None
) -> None:
    """Embed and write each batch in turn, in this process."""
    for batch in batches:
        vectors = embedder.vectors([embedded_text(row) for _, row, _ in batch], cache)
        store.upsert(store_rows(batch, vectors))


@dataclass(frozen=True, slots=True)
class ApplyReport:
    """What one apply did (STORE-5): ids ``added`` (not held before), ``updated`` (held with
    another digest), ``removed`` and ``unchanged``; texts ``embedded`` and embedder
    ``calls`` (cache hits are neither); ``drift``, the line saying how the store differed
    from what chunkspec last left in it (None: it did not); ``rows``, what it holds now."""

    store: str
    added: int
    updated: int
    removed: int
    unchanged: int
    embedded: int
    calls: int
    rows: int
    drift: str | None
    seconds: float


def held_digest(held: Mapping[str, str]) -> str:
    """STORE-8: sha256 over the sorted lines ``id SP digest LF`` of what a store holds."""
    sha = hashlib.sha256()
    for key in sorted(held):
        sha.update(f"{key} {held[key]}\n".encode("utf-8", "surrogatepass"))
    return sha.hexdigest()


def _target(
    rows: Iterable[Mapping[str, Any]], model: str, where: str
) -> dict[str, tuple[Mapping[str, Any], str]]:
    """Every chunk row by key with its digest; error rows have none (SCALE-3)."""
    target: dict[str, tuple[Mapping[str, Any], str]] = {}
    for row in rows:
        if row.get("error") is not None:
            continue
        key = row.get("key")
        if not isinstance(key, str) or not key:
            raise StoreError(f"{where}: a chunk row of {row.get('doc_id')!r} has no key (KEY-1)")
        if key in target:  # STORE-2: one id, one row; never a silent overwrite
            raise StoreError(f"{where}: key {key} is held by two rows (KEY-3)")
        clean = {name: value for name, value in row.items() if name != "error"}
        target[key] = (clean, digest_of(clean, model))
    return target


def _shown(keys: Sequence[str]) -> str:
    """A few ids for a message."""
    more = f" and {len(keys) - _SHOWN} more" if len(keys) > _SHOWN else ""
    return ", ".join(keys[:_SHOWN]) + more


@dataclass(frozen=True, slots=True)
class _Apply:
    """One apply's settings, checked (a TypeError or ValueError naming the argument)."""

    store: Store
    embedder: Embedder
    cache: str | os.PathLike[str] | None
    batch_size: int
    adopt: bool
    write: Writer

    def __post_init__(self) -> None:
        if not isinstance(self.store, Store):
            raise ArgumentTypeError("store", "a Store (chunkspec.stores.open_store)", self.store)
        if not isinstance(self.embedder, Embedder):
            raise ArgumentTypeError("embedder", "an Embedder", self.embedder)
        if isinstance(self.batch_size, bool) or not isinstance(self.batch_size, int):
            raise ArgumentTypeError("batch_size", "an int", self.batch_size)
        if self.batch_size < 1:
            raise ArgumentValueError("batch_size", "must be at least 1", self.batch_size)
        if not isinstance(self.adopt, bool):
            raise ArgumentTypeError("adopt", "a bool", self.adopt)

    def run(
        self,
        target: Mapping[str, tuple[Mapping[str, Any], str]],
        before: Callable[[Mapping[str, str]], str | None],
        started: float,
    ) -> tuple[ApplyReport, dict[str, str]]:
        """STORE-5..STORE-7: write what the store lacks, delete what the target lacks, check."""
        store, embedder, size = self.store, self.embedder, self.batch_size
        held = store.held()
        foreign = sorted(key for key, digest in held.items() if not digest)
        if foreign and not self.adopt:  # STORE-5: never touch rows chunkspec did not write
            raise StoreError(
                f"{store.address}: holds {len(foreign)} rows chunkspec did not write "
                f"({_shown(foreign)}); use another collection, or adopt them to replace them"
            )
        drift = before(held)
        writes = [key for key, (_, digest) in target.items() if held.get(key) != digest]
        deletes = [key for key in held if key not in target]
        calls, embedded = embedder.calls, embedder.embedded
        batches = [
            [(key, *target[key]) for key in writes[first : first + size]]
            for first in range(0, len(writes), size)
        ]
        self.write(batches, store, embedder, open_cache(self.cache, embedder.model))
        for first in range(0, len(deletes), size):
            store.delete(deletes[first : first + size])
        after = store.held()
        _check_equal(store.address, after, {key: digest for key, (_, digest) in target.items()})
        added = sum(1 for key in writes if key not in held)
        report = ApplyReport(
            store=store.address,
            added=added,
            updated=len(writes) - added,
            removed=len(deletes),
            unchanged=len(target) - len(writes),
            embedded=embedder.embedded - embedded,
            calls=embedder.calls - calls,
            rows=len(after),
            drift=drift,
            seconds=time.perf_counter() - started,
        )
        return report, after


def _check_equal(address: str, after: Mapping[str, str], wanted: Mapping[str, str]) -> None:
    """STORE-5: the store must end holding exactly the target's ids and digests."""
    if after == wanted:
        return
    missing = set(wanted) - set(after)
    extra = set(after) - set(wanted)
    changed = [key for key in set(after) & set(wanted) if after[key] != wanted[key]]
    raise StoreError(
        f"{address}: after applying, the store does not hold the result: {len(missing)} "
        f"missing, {len(extra)} extra, {len(changed)} other rows (was it written by someone "
        "else meanwhile?)"
    )


def apply_records(
    rows: Iterable[Mapping[str, Any]],
    store: Store,
    embedder: Embedder,
    *,
    cache: str | os.PathLike[str] | None = DEFAULT_CACHE,
    batch_size: int = DEFAULT_BATCH,
    adopt: bool = False,
) -> ApplyReport:
    """Make ``store`` hold exactly ``rows`` (records as ``to_dict()`` gives them, or a
    result's rows), embedding only what it lacks (STORE-5). No manifest: no drift report."""
    started = time.perf_counter()
    settings = _Apply(store, embedder, cache, batch_size, adopt, write_here)
    target = _target(rows, embedder.model, "rows")
    report, _ = settings.run(target, lambda held: None, started)
    return report


def _write_state(folder: Path, manifest: dict[str, Any], state: dict[str, Any]) -> None:
    """STORE-8: the manifest with ``store`` replaced, atomically (a temporary file renamed)."""
    data = {**manifest, "store": state}
    temporary = folder / MANIFEST_UPDATE
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(data, indent=2) + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, folder / MANIFEST)
    manifest["store"] = state


def _drift(state: object, store: Store, model: str) -> Callable[[Mapping[str, str]], str | None]:
    """STORE-8: how the store differs from what the manifest says chunkspec left in it."""

    def check(held: Mapping[str, str]) -> str | None:
        if not isinstance(state, dict) or state.get("address") != store.address:
            return None  # first apply of this result into this store: nothing recorded
        if state.get("state") != "applied" or state.get("model") != model:
            return None  # an interrupted apply, or another model: everything is rewritten
        if state.get("digest") == held_digest(held):
            return None
        return (
            f"{store.address}: the store changed since chunkspec last wrote it "
            f"({state.get('rows')} rows then, {len(held)} now); applying the result anew"
        )

    return check


def apply_result(
    folder: str | os.PathLike[str],
    store: Store,
    embedder: Embedder,
    *,
    cache: str | os.PathLike[str] | None = DEFAULT_CACHE,
    batch_size: int = DEFAULT_BATCH,
    adopt: bool = False,
    say: Say | None = None,
    write: Writer = write_here,
) -> ApplyReport:
    """Make ``store`` equal the ``ingest`` result in ``folder`` (STORE-5..STORE-8).

    Embeds only the chunks the store lacks (``cache``: the embedding cache folder, the
    user's cache by default, None for none), writes them, deletes what the result lacks,
    checks the store holds exactly the result, and records that in the result's manifest.
    ``say`` receives the drift line, if any.
    """
    started = time.perf_counter()
    settings = _Apply(store, embedder, cache, batch_size, adopt, write)
    if say is not None and not callable(say):
        raise ArgumentTypeError("say", "a callable taking a str, or None", say)
    path = Path(folder)
    rows = result_rows(path, os.fspath(folder))
    manifest = read_manifest(path)
    if manifest is None:  # result_rows checked it: a race with another writer
        raise StoreError(f"{os.fspath(folder)}: holds no readable {MANIFEST}")
    target = _target(
        (row for doc in rows.values() for row in doc), embedder.model, os.fspath(folder)
    )
    check = _drift(manifest.get("store"), store, embedder.model)

    def before(held: Mapping[str, str]) -> str | None:
        drift = check(held)
        if drift is not None and say is not None:
            say(drift)
        _write_state(
            path, manifest, {"address": store.address, "model": embedder.model, "state": "applying"}
        )
        return drift

    report, after = settings.run(target, before, started)
    _write_state(
        path,
        manifest,
        {
            "address": store.address,
            "model": embedder.model,
            "state": "applied",
            "rows": len(after),
            "digest": held_digest(after),
        },
    )
    return report
