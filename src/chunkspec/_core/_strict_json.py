"""JSON text read strictly: a key named twice in one object is an error, at any depth (TRUST-2).

The one loader every reader of records and of sidecar lines uses (``ChunkRecord`` lines
read by ``pack``, ``view`` and incremental ``ingest``; Parquet's ``metadata`` JSON text;
the ``--metadata`` sidecar), so each refuses the same inputs with the same one-line
message: ``WHERE: repeated key 'metadata'``, ``WHERE: malformed JSON (...)``,
``WHERE: expected a JSON object, got list``. Python's ``json.loads`` keeps the last of two
equal keys, so ``{"metadata": {"acl_labels": ["hr"]}, "metadata": {}}`` would read as a
record without labels.
"""

from __future__ import annotations

import json
from typing import Any

from .._errors import JsonTextError, RepeatedKeyError

__all__ = ["JsonTextError", "RepeatedKeyError", "strict_json", "strict_json_object"]


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json.loads``' object hook: the object; _RepeatedKeyError for a key named twice."""
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _RepeatedKeyError(key)
            seen.add(key)
    return found


class _RepeatedKeyError(Exception):
    """Raised inside the decoder, turned into a JsonTextError naming the place."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def strict_json(text: str, where: str) -> Any:
    """Return the JSON value of ``text``; JsonTextError ``WHERE: ...`` if it is not JSON or
    names a key twice in one object, at any depth (TRUST-2)."""
    try:
        return json.loads(text, object_pairs_hook=_unique)
    except _RepeatedKeyError as error:
        raise RepeatedKeyError(f"{where}: repeated key {error.key!r}") from None
    except json.JSONDecodeError as error:
        raise JsonTextError(f"{where}: malformed JSON ({error.msg})") from None
    except RecursionError:
        # json.loads recurses once per nesting level: "[[[[..." 1,000+ deep overflows it.
        raise JsonTextError(f"{where}: malformed JSON (nested too deeply)") from None


def strict_json_object(text: str, where: str) -> dict[str, Any]:
    """Return the JSON object ``text`` holds, read by :func:`strict_json`; anything but an
    object is JsonTextError ``WHERE: expected a JSON object, got TYPE`` (TRUST-2)."""
    value = strict_json(text, where)
    if not isinstance(value, dict):
        raise JsonTextError(f"{where}: expected a JSON object, got {type(value).__name__}")
    return value
