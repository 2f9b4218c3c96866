"""Metadata: a read-only JSON object of string keys, checked once (rules META-1, META-2).

A document's metadata is checked and frozen once, into a :class:`Metadata`; every record of
the document shares that one object (META-4), so a record costs no copy and no re-check.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any

from .._errors import ArgumentTypeError, ArgumentValueError
from ._strict_json import JsonTextError, RepeatedKeyError, strict_json
from ._validate import MAX_SAFE_INTEGER, require_text

__all__ = [
    "EMPTY_METADATA",
    "MAX_METADATA_DEPTH",
    "Metadata",
    "metadata_from_json",
    "metadata_json",
    "thaw",
]

#: META-2: containers nest at most this deep (the object itself is depth 1).
MAX_METADATA_DEPTH = 32


def _empty(data: object) -> bool:
    """True for an empty mapping: no items to check (``Metadata()``'s default)."""
    return isinstance(data, Mapping) and not data


class Metadata(Mapping[str, Any]):
    """A read-only JSON object (META-1): str keys in sorted order, frozen JSON values.

    Lists are tuples and objects are :class:`Metadata`, so nothing reachable from a record
    can change; :func:`thaw` gives the plain ``dict``/``list`` form JSON writes. Equal to
    any mapping with the same items, lists and tuples alike; hashable, so a record stays
    hashable.
    """

    __slots__ = ("_hash", "_items")

    _items: dict[str, Any]
    _hash: int | None

    def __init__(
        self, data: Mapping[str, Any] = MappingProxyType({}), *, argument: str = "metadata"
    ) -> None:
        # TRUST-1: ``Metadata()`` is the empty object; ``Metadata(None)`` is a TypeError
        # naming ``argument``, so a null read from a record never becomes "no labels".
        if isinstance(data, Metadata):
            items = data._items
        elif _empty(data):
            items = {}
        else:
            items = _freeze_object(argument, data, 1)
        object.__setattr__(self, "_items", items)
        object.__setattr__(self, "_hash", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Metadata is read-only")

    def __getitem__(self, key: str) -> Any:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Metadata):
            return self._items == other._items
        if isinstance(other, Mapping):  # a dict with lists equals its frozen form
            return bool(thaw(self) == _plain(other))
        return NotImplemented

    def __hash__(self) -> int:
        cached = self._hash
        if cached is None:
            cached = hash(frozenset(self._items.items()))
            object.__setattr__(self, "_hash", cached)
        return cached

    def __repr__(self) -> str:
        return f"Metadata({self._items!r})"

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickle (worker processes, Ray) as the plain JSON object, checked again on load."""
        return Metadata, (thaw(self),)


#: The metadata of a document that has none: one shared empty object.
EMPTY_METADATA = Metadata()


def _freeze_object(argument: str, data: object, depth: int) -> dict[str, Any]:
    """META-2: the checked, sorted, frozen items of a JSON object."""
    if not isinstance(data, Mapping):
        raise ArgumentTypeError(argument, "a mapping of str keys to JSON values", data)
    if depth > MAX_METADATA_DEPTH:
        raise ArgumentValueError(argument, f"nests deeper than {MAX_METADATA_DEPTH}", "...")
    items: dict[str, Any] = {}
    for key in data:
        if not isinstance(key, str):
            raise ArgumentTypeError(f"{argument} key", "a str", key)
        require_text(f"{argument} key", key)
    for key in sorted(data):
        items[key] = _freeze(f"{argument}[{key!r}]", data[key], depth)
    return items


def _freeze(argument: str, value: object, depth: int) -> Any:
    """META-2: ``value`` checked as a JSON value and frozen (lists as tuples)."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        if not -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
            raise ArgumentValueError(argument, "must be in [-(2**53 - 1), 2**53 - 1]", value)
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ArgumentValueError(argument, "must be a finite number", value)
        return float(value)
    if isinstance(value, str):
        return require_text(argument, value)
    if isinstance(value, Metadata):
        if depth + 1 > MAX_METADATA_DEPTH:
            raise ArgumentValueError(argument, f"nests deeper than {MAX_METADATA_DEPTH}", "...")
        return value
    if isinstance(value, Mapping):
        frozen = Metadata.__new__(Metadata)
        object.__setattr__(frozen, "_items", _freeze_object(argument, value, depth + 1))
        object.__setattr__(frozen, "_hash", None)
        return frozen
    if isinstance(value, (list, tuple)):
        if depth + 1 > MAX_METADATA_DEPTH:
            raise ArgumentValueError(argument, f"nests deeper than {MAX_METADATA_DEPTH}", "...")
        return tuple(
            _freeze(f"{argument}[{position}]", item, depth + 1)
            for position, item in enumerate(value)
        )
    raise ArgumentTypeError(
        argument, "a JSON value (str, int, float, bool, None, list or mapping)", value
    )


def thaw(value: Any) -> Any:
    """Return ``value`` with every :class:`Metadata` a ``dict`` and every tuple a ``list``."""
    if isinstance(value, Metadata):
        return {key: thaw(item) for key, item in value._items.items()}
    if isinstance(value, tuple):
        return [thaw(item) for item in value]
    return value


def _plain(value: Any) -> Any:
    """``value`` with every mapping a ``dict`` and every tuple a ``list`` (for equality)."""
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def metadata_json(metadata: Mapping[str, Any]) -> str:
    """META-6: the canonical JSON text of ``metadata``: sorted keys, no spaces, UTF-8 as is."""
    return json.dumps(
        thaw(metadata), ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False
    )


def metadata_from_json(text: object, argument: str = "record.metadata") -> dict[str, Any]:
    """META-6: the JSON object an Arrow ``metadata`` cell's text holds; ValueError if none.

    A null cell (None) is a TypeError naming ``argument`` (TRUST-1); a key named twice in
    any object of the text is a ValueError ``ARGUMENT: repeated key 'K'`` (TRUST-2).
    """
    if not isinstance(text, str):
        raise ArgumentTypeError(argument, "a JSON object's text", text)
    try:
        value = strict_json(text, argument)
    except RepeatedKeyError:
        raise
    except JsonTextError:
        raise ArgumentValueError(argument, "must be a JSON object's text", text) from None
    if not isinstance(value, dict):
        raise ArgumentValueError(argument, "must be a JSON object's text", text)
    return value
