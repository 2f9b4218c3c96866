"""Every argument of every generated op is drawn outside its valid range (CONF-10).

Data-driven over ``by_op``: an op registered later is checked with no change here. Each
argument path (``text``, ``chunks[].score``, ``c.title``) is classed by the type of its
usual values, and must be seen with the out-of-range values of its class in the hazards
profile: a string field with a lone surrogate, whitespace at an edge and another type; an
integer field at and past ``2**53 - 1``, ``-0.0``, a boolean and a non-finite number; a
float field NaN, an infinity, ``-0.0`` and a boolean.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from chunkspec._conformance._draw import draws
from chunkspec._conformance._generate import by_op

MAX_SAFE = 2**53 - 1
#: Cases drawn per op (seeded, so the same cases every run): each rare (field, value) pair,
#: about one case in 300, shows.
DRAWS = 1200
#: Rounds of DRAWS at most: a rare pair (about one case in 600 for an op with many fields)
#: may miss one round's seeded draws under another Hypothesis release; five rounds make a
#: miss a defect rather than bad luck.
ROUNDS = 5
#: Edge whitespace a string field must be drawn with (WS-1's set has more; these matter).
EDGES = ("\t", "\n", " ", "\x1c", "\x85", "\ufeff")
#: Where a class's value cannot be sent, and why.
EXEMPT = {
    # words(2**53 - 1) is valid and asks for petabytes: n is drawn past the bound only.
    ("words", "n", "at 2**53 - 1"),
}


def _exempt(op: str, path: str, need: str) -> bool:
    """True where a value of the class is not a case: see EXEMPT (and pack_records' records
    and principal, below); and render checks only
    that ``c`` is a Chunk and reads only strings from it (RENDER-1), so its fields are drawn
    with the strings a Chunk holds (lone surrogates, edge whitespace), not other types."""
    if (op, path, need) in EXEMPT:
        return True
    if op == "pack_records" and (
        path.startswith(("records", "principal")) or (path, need) == ("counter", "another type")
    ):
        # Not drawn yet: the port's packRecords takes records and the principal as given,
        # where Python's ChunkRecord.from_dict and Principal check them (RECORD-1..7, CTX-13).
        # A record's own ranges are the schema's, drawn by validate_record (CONF-17). A counter
        # of another type is a TypeError in Python and a ValueError in the port: not drawn.
        return True
    return (
        op == "render"
        and path.startswith("c.")
        and need not in ("a lone surrogate", "edge whitespace")
    )


def _paths(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """(path, value) of every argument and of every field of a chunk object or list."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, f"{path}.{key}" if path else key)
        if path:
            yield path, value
    elif isinstance(value, list) and path:
        for item in value:
            if isinstance(item, dict):
                yield from _paths(item, f"{path}[]")
        yield path, value
    else:
        yield path, value


def _class(values: list[Any]) -> str:
    """str, int or float: the type most of the values of a path have (lists: other)."""
    kinds = Counter(
        "int"
        if isinstance(v, int) and not isinstance(v, bool)
        else "float"
        if isinstance(v, float) and math.isfinite(v) and v != 0
        else type(v).__name__
        for v in values
    )
    return kinds.most_common(1)[0][0]


def _field(path: str, classes: dict[str, str]) -> bool:
    """True for an argument, and for a field of an argument whose usual values are chunk
    objects (``c.title``) or lists of them (``chunks[].score``); not for a key of a dict
    drawn as another type in place of a non-object argument (``pages`` = ``{"a": "b"}``)."""
    if "." not in path:
        return True
    parent = path.rsplit(".", 1)[0]
    if parent.endswith("[]"):
        return classes.get(parent[:-2]) == "list" and _field(parent[:-2], classes)
    return classes.get(parent) == "dict" and _field(parent, classes)


def _lone_surrogate(v: Any) -> bool:
    return isinstance(v, str) and any(0xD800 <= ord(c) <= 0xDFFF for c in v)


#: What each class must be seen with: a name and a test of one value.
NEEDS: dict[str, list[tuple[str, Any]]] = {
    "str": [
        ("a lone surrogate", _lone_surrogate),
        ("edge whitespace", lambda v: isinstance(v, str) and v[:1] + v[-1:] != "" and
         (v[:1] in EDGES or v[-1:] in EDGES)),
        ("another type", lambda v: not isinstance(v, str)),
    ],
    "int": [
        ("at 2**53 - 1", lambda v: type(v) is int and v == MAX_SAFE),
        ("past 2**53 - 1", lambda v: type(v) is int and v > MAX_SAFE),
        ("-0.0", lambda v: isinstance(v, float) and v == 0 and math.copysign(1, v) < 0),
        ("a boolean", lambda v: isinstance(v, bool)),
        ("non-finite", lambda v: v in ("Infinity", "-Infinity", "NaN")),
    ],
    "float": [
        ("NaN", lambda v: v == "NaN"),
        ("an infinity", lambda v: v in ("Infinity", "-Infinity")),
        ("-0.0", lambda v: isinstance(v, float) and v == 0 and math.copysign(1, v) < 0),
        ("a boolean", lambda v: isinstance(v, bool)),
    ],
}  # fmt: skip


@pytest.mark.parametrize("op", sorted(by_op("hazards")))
def test_every_argument_is_drawn_out_of_range(op: str) -> None:
    """CONF-10: in the hazards profile each argument (and chunk field) of ``op`` is drawn
    with every out-of-range value of its class."""
    source = draws(by_op("hazards")[op], f"ranges:{op}")
    assert source is not None
    seen: dict[str, list[Any]] = {}
    missing: list[tuple[str, str]] = []
    for _ in range(ROUNDS):  # more draws only while a value is still missing
        for _ in range(DRAWS):
            _, data = next(source)
            for path, value in _paths(data):
                seen.setdefault(path, []).append(value)
        classes = {path: _class(values) for path, values in seen.items()}
        missing = [
            (path, need)
            for path, values in seen.items()
            if _field(path, classes)
            for need, test in NEEDS.get(classes[path], [])
            if not _exempt(op, path, need) and not any(test(v) for v in values)
        ]
        if not missing:
            break
    assert not missing, missing
    assert {c for p, c in classes.items() if _field(p, classes)} & set(NEEDS)
