"""The wire form of inputs and outputs, and how a Python function answers in it.

Wire form (CONF-3): JSON with Python's argument names; the numbers JSON cannot hold are the
strings ``"Infinity"``, ``"-Infinity"`` and ``"NaN"`` in numeric fields; a chunk is an object
with the seven ``Chunk`` fields; ``assemble``'s ``(context, ids)`` is ``{"context", "ids"}``.

The op families answer in it (:func:`answer`, given their own op function); the oracle that
knows every op (``_oracle``) is built over them, so this module imports no family.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable
from typing import Any

from .._core._seed_chunk import Chunk

__all__ = ["NUMERIC_FIELDS", "answer", "decode_number", "dumps", "encode", "python_arguments"]

#: Fields whose strings "Infinity", "-Infinity" and "NaN" stand for numbers.
NUMERIC_FIELDS = frozenset(
    {"max_tokens", "budget", "min_score", "tokens", "score", "n", "start", "overlap_tokens"}
)

_NONFINITE = {"Infinity": math.inf, "-Infinity": -math.inf, "NaN": math.nan}


def decode_number(value: Any) -> Any:
    """Map the three non-finite spellings to floats; return anything else unchanged."""
    if isinstance(value, str) and value in _NONFINITE:
        return _NONFINITE[value]
    return value


def _chunk(value: Any) -> Any:
    """Return a wire chunk object as a :class:`Chunk`, its fields unchecked (the function
    under test checks them; a missing field is None); anything else unchanged."""
    if not isinstance(value, dict):
        return value
    fields: dict[str, Any] = {
        name: value.get(name) for name in ("id", "doc_id", "title", "text", "content_hash")
    }
    fields["tokens"] = decode_number(value.get("tokens"))
    fields["score"] = decode_number(value.get("score", 0.0))
    return Chunk(**fields)


def python_arguments(op: str, data: dict[str, Any]) -> dict[str, Any]:
    """Return the keyword arguments for ``OPS[op]`` from a wire input object."""
    kwargs = {k: decode_number(v) if k in NUMERIC_FIELDS else v for k, v in data.items()}
    if op == "assemble" and isinstance(kwargs.get("chunks"), list):
        kwargs["chunks"] = [_chunk(c) for c in kwargs["chunks"]]
    elif op == "render" and "c" in kwargs:
        kwargs["c"] = _chunk(kwargs["c"])
    return kwargs


#: Types whose values are their own wire form (checked by exact type: subclasses go the
#: long way, through :func:`_encode`).
_PLAIN = frozenset({str, int, bool, type(None)})


def encode(value: Any) -> Any:
    """Return ``value`` in wire form (chunks as objects, tuples as lists, non-finite strings)."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is dict:  # records: mostly plain values, so test each before recursing
        return {k: v if type(v) in _PLAIN else encode(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _PLAIN else encode(v) for v in value]
    return _encode(value)


def _encode(value: Any) -> Any:
    """:func:`encode` for every other type."""
    if isinstance(value, Chunk):
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items()}
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    return value


def answer(function: Callable[..., Any], op: str, data: dict[str, Any]) -> dict[str, Any]:
    """``function``'s answer to ``op``'s wire input ``data``: ``{"ok": output}`` or
    ``{"error": {"kind", "argument"}}`` (a TypeError or ValueError it raised)."""
    try:
        result = function(**python_arguments(op, data))
    except (TypeError, ValueError) as error:
        kind = "ValueError" if isinstance(error, ValueError) else "TypeError"
        return {"error": {"kind": kind, "argument": getattr(error, "argument", None)}}
    if op == "assemble" and result is not None:
        context, ids = result
        return {"ok": {"context": context, "ids": list(ids)}}
    return {"ok": encode(result)}


def dumps(value: Any) -> str:
    """One JSON line: ASCII only (lone surrogates travel as escapes), no NaN literals."""
    return json.dumps(value, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
