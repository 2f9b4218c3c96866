"""What every op's generated cases draw from (CONF-10): names, the out-of-range values by kind
of argument and the draw that picks one (``_generate`` and each family's generator share them).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

__all__ = [
    "FAULT",
    "HAZARD_NAMES",
    "MAX_SAFE",
    "NAMES",
    "OUT_OF_RANGE",
    "PORTABLE_OUT_OF_RANGE",
    "Field",
    "replace_field",
]

MAX_SAFE = 2**53 - 1

#: Names (doc ids, titles): valid strings, some with whitespace at an edge that a port must
#: keep as given (SPLIT-9, RENDER-1, PACK-9).
NAMES = ["d", "T", "", "d:1", " T ", "t t", "\tT\n", " "]
HAZARD_NAMES = [*NAMES, "\u00e9", "\x1cT\x85", "\ufeffT\ufeff", "\u00a0T\u3000", "\U0001f600"]

#: Out-of-range (or edge) values by kind of argument (CONF-10). Strings: lone surrogates
#: (PORT-2, a ValueError where the text must be valid Unicode) and edge whitespace (valid,
#: kept as given); integers: the bounds of PORT-1, -0.0, booleans, non-finite numbers and
#: the wrong type; scores: what PACK-5 rejects or must order. No integral float in an
#: integer field and no int score beyond 2**53 - 1: a JSON wire cannot carry them (CONF-5).
OUT_OF_RANGE: dict[str, list[Any]] = {
    "str": ["\ud800", "T\udfff", "\udc00\ud800x", " T ", "\x85T\x1c", "\ufeff", None, 1],
    "int": [
        MAX_SAFE,
        MAX_SAFE + 1,
        2**53 + 2,
        2**64,
        -1,
        -0.0,
        True,
        False,
        1.5,
        "Infinity",
        "-Infinity",
        "NaN",
        None,
        "2",
    ],
    "score": ["NaN", True, None, "0.5", -0.0, "Infinity", "-Infinity", 1e308, 5e-324, MAX_SAFE],
}

#: The portable profile's out-of-range values: wrong types, negatives, one past the bound.
PORTABLE_OUT_OF_RANGE: dict[str, list[Any]] = {
    "str": [" T ", None, 1, "\tT\n"],
    "int": [-1, True, 1.5, None, "2", MAX_SAFE + 1, MAX_SAFE],
    "score": [True, None, "0.5", "NaN"],
    "chunks": ["ab", None, 3],
    "chunk": [None, "c", 1],
    "text": [" T ", "\tT\n"],
}
OUT_OF_RANGE["chunks"] = ["ab", None, 3, [None]]
#: words' n: valid n near 2**53 would ask for petabytes, so only the invalid ones.
OUT_OF_RANGE["count"] = [v for v in OUT_OF_RANGE["int"] if v != MAX_SAFE]
PORTABLE_OUT_OF_RANGE["count"] = [-1, True, 1.5, None, "2", MAX_SAFE + 1]
#: Strings a Chunk may hold (render's fields, RENDER-1); a text argument also gets other types.
OUT_OF_RANGE["chunk_text"] = ["\ud800", "T\udfff", " T ", "\x85T\x1c", "\ufeff"]
OUT_OF_RANGE["text"] = [*OUT_OF_RANGE["chunk_text"], None, 1]
PORTABLE_OUT_OF_RANGE["chunk_text"] = PORTABLE_OUT_OF_RANGE["text"]
PORTABLE_OUT_OF_RANGE["text"] = [*PORTABLE_OUT_OF_RANGE["chunk_text"], None, 1]
OUT_OF_RANGE["chunk"] = [None, "c", 1, []]

#: An argument path (keys and list indexes) and the kind of value it takes.
Field = tuple[tuple[Any, ...], str]


def replace_field(
    data: dict[str, Any], fault: int, fields: list[Field], pools: dict[str, Any]
) -> None:
    """About one case in four (``fault % 4 == 3``): set one field to a value from its kind's
    pool. Fields that differ only in a list index form one group, picked first, so that a
    chunk's field or a page comes up as often as a top-level argument; then the value and
    the member, each about uniformly (``FAULT`` is far larger than their product)."""
    if fault % 4 != 3 or not fields:
        return
    groups: dict[tuple[Any, ...], list[Field]] = {}
    for field in fields:
        shape = tuple(key if isinstance(key, str) else None for key in field[0])
        groups.setdefault(shape, []).append(field)
    members = list(groups.values())
    pick = fault // 4
    group = members[pick % len(members)]
    pick //= len(members)
    pool = pools[group[0][1]]
    # The value before the member: Hypothesis draws small integers often, and their
    # quotients are small, so what comes last is drawn least evenly.
    value = pool[pick % len(pool)]
    path = group[pick // len(pool) % len(group)][0]
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


#: The draw that picks an out-of-range field and value (0 changes nothing); at most 24
#: bits, so that Hypothesis draws it uniformly.
FAULT = st.integers(0, 4 * 2**20 - 1)
