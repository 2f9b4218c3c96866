"""A literal model of STORE-5 and STORE-9: a store as a dict, an apply as the rule's words.

``DictStore`` is a store the way STORE-1 defines one and nothing more: ids to rows, every
call a dict operation, the access rule written out as CTX-13 words it (tenant null or the
principal's; every label held). ``model_apply`` is STORE-5's sentence: write what the store
does not hold with its digest, delete what the result lacks. The fast code
(``chunkspec.stores``) is checked against both; the real stores against ``DictStore``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from chunkspec._packing._access import Principal
from chunkspec.stores import Hit, StoreRow


def may_read(fields: Mapping[str, Any], principal: Principal | None) -> bool:
    """CTX-13 over stored fields, word for word (STORE-9)."""
    if not fields["labels_readable"]:
        return False
    tenant, labels = fields["tenant"], list(fields["labels"])
    if principal is None:
        return tenant is None and labels == []
    if tenant is not None and tenant != principal.tenant:
        return False
    return all(label in principal.labels for label in labels)


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """The cosine similarity of two vectors."""
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return dot / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))


class DictStore:
    """STORE-1's interface over a dict; ``fail_after`` calls of upsert/delete, it raises
    (a process killed between two writes)."""

    def __init__(self, fail_after: int | None = None) -> None:
        self.address = "dict://model#chunkspec"
        self.rows: dict[str, StoreRow] = {}
        self.fail_after = fail_after

    def _tick(self) -> None:
        """Count one write; raise once the budget is spent."""
        if self.fail_after is not None:
            if self.fail_after == 0:
                raise KeyboardInterrupt("killed")
            self.fail_after -= 1

    def held(self) -> dict[str, str]:
        """Ids and digests."""
        return {key: row.digest for key, row in self.rows.items()}

    def upsert(self, rows: Sequence[StoreRow]) -> None:
        """Write each row (a batch is all or nothing here: the stores write batches)."""
        self._tick()
        for row in rows:
            self.rows[row.key] = row

    def delete(self, keys: Sequence[str]) -> None:
        """Drop each id."""
        self._tick()
        for key in keys:
            self.rows.pop(key, None)

    def fetch(self, keys: Sequence[str]) -> dict[str, StoreRow]:
        """The held rows of ``keys``."""
        return {key: self.rows[key] for key in keys if key in self.rows}

    def search(self, vector: Sequence[float], k: int, principal: Principal | None) -> list[Hit]:
        """Every readable row by cosine similarity, best first (ties by key), the first k."""
        hits = [
            Hit(row, cosine(vector, row.vector))
            for row in self.rows.values()
            if may_read(row.fields, principal)
        ]
        hits.sort(key=lambda hit: (-hit.score, hit.row.key))
        return hits[:k]

    def close(self) -> None:
        """Nothing to release."""


def model_apply(
    held: Mapping[str, str], target: Mapping[str, str], adopt: bool
) -> tuple[dict[str, str], dict[str, int]] | None:
    """STORE-5 in words: None when refused (a row without a digest, not adopted); else the
    ids and digests held after, and the counts."""
    if any(digest == "" for digest in held.values()) and not adopt:
        return None
    added = [key for key in target if key not in held]
    updated = [key for key in target if key in held and held[key] != target[key]]
    removed = [key for key in held if key not in target]
    unchanged = [key for key in target if key in held and held[key] == target[key]]
    counts = {
        "added": len(added),
        "updated": len(updated),
        "removed": len(removed),
        "unchanged": len(unchanged),
    }
    return dict(target), counts
