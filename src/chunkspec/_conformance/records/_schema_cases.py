"""The record's JSON Schema as a conformance object: the ``validate_record`` op (CONF-17).

A port validates a record with its own schema and answers ``true`` (accepted) or ``false``.
The kit sends valid records (records chunkspec writes, and variants at the schema's edges:
every kind, null and set optional fields, integers at ``2**53 - 1``) and invalid ones, one
per constraint of ``chunk-record.schema.json``. The invalid records are derived from the
schema itself (:func:`constraints` walks its ``required``, ``additionalProperties`` and
each property's ``type``, ``minimum``, ``maximum``, ``minLength``, ``pattern``, ``enum``
and ``items``), so a field added to the schema is checked with no change here. The oracle,
:func:`accepts`, validates that subset of JSON Schema; a test checks it against a full
validator.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..._records._schema import record_json_schema

__all__ = ["Constraint", "accepts", "constraints", "field_rules", "schema_vectors"]

#: The rule each field's content belongs to besides RECORD-7 (the schema); RECORD-1 else.
_FIELD_RULES = {
    "id": "RECORD-2",
    "index": "RECORD-2",
    "content_hash": "RECORD-2",
    "kind": "RECORD-4",
    "counter": "RECORD-5",
    "strategy": "RECORD-6",
    "page_start": "RECORD-14",
    "page_end": "RECORD-14",
    "tokens": "RECORD-14",
    "oversized": "RECORD-14",
}

#: A value of each JSON type, for "another type" (integers stand in for numbers).
_OF_TYPE: dict[str, Any] = {
    "string": "x",
    "integer": 1,
    "number": 1.5,
    "boolean": True,
    "null": None,
    "array": [],
    "object": {},
}


@dataclass(frozen=True)
class Constraint:
    """One way to break the schema: the field, what is broken, and how."""

    field: str
    what: str  # e.g. "required", "type", "minimum"
    slug: str
    breaks: Callable[[dict[str, Any]], dict[str, Any]]


def field_rules(field: str) -> list[str]:
    """The rules a record that breaks ``field``'s schema constraint breaks."""
    return ["RECORD-7", _FIELD_RULES.get(field, "RECORD-1")]


def _types(spec: dict[str, Any]) -> list[str]:
    """The JSON types a property allows (``enum`` values' types when it has no ``type``)."""
    kind = spec.get("type")
    if kind is None and "enum" in spec:
        return sorted({_json_type(v) for v in spec["enum"]})
    return [kind] if isinstance(kind, str) else list(kind or [])


def _json_type(value: Any) -> str:
    """The JSON type of a Python value (an integral number is an integer)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _set(field: str, value: Any) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A change that sets ``field`` to ``value``."""
    return lambda record: {**record, field: value}


def _drop(field: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A change that removes ``field``."""
    return lambda record: {k: v for k, v in record.items() if k != field}


def _other_type(allowed: list[str]) -> Any:
    """A value of a type ``allowed`` does not admit (a float for an integer, a string else)."""
    if "integer" in allowed and "number" not in allowed:
        return 1.5
    if "string" not in allowed:
        return "1"
    return 1 if "integer" not in allowed else False


def _breaking_pattern(pattern: str) -> str:
    """A string that ``pattern`` does not match."""
    for candidate in ("", "x", "d-0", "A" * 64, "d:01"):
        if not re.search(pattern, candidate):
            return candidate
    raise ValueError(f"no string breaks {pattern!r}")  # pragma: no cover - a new pattern


def constraints(schema: dict[str, Any] | None = None) -> list[Constraint]:
    """One Constraint per constraint the schema states, in the schema's order."""
    schema = record_json_schema() if schema is None else schema
    out: list[Constraint] = []
    required = schema.get("required", [])
    for field, spec in schema["properties"].items():
        if field in required:
            out.append(Constraint(field, "required", f"missing-{field}", _drop(field)))
        allowed = _types(spec)
        if allowed:
            out.append(
                Constraint(field, "type", f"type-{field}", _set(field, _other_type(allowed)))
            )
        if "minimum" in spec:
            out.append(
                Constraint(
                    field, "minimum", f"below-minimum-{field}", _set(field, spec["minimum"] - 1)
                )
            )
        if "maximum" in spec:
            out.append(
                Constraint(
                    field, "maximum", f"above-maximum-{field}", _set(field, spec["maximum"] + 1)
                )
            )
        if "minLength" in spec:
            short = "x" * (spec["minLength"] - 1)
            out.append(Constraint(field, "minLength", f"too-short-{field}", _set(field, short)))
        if "pattern" in spec:
            bad = _breaking_pattern(spec["pattern"])
            out.append(Constraint(field, "pattern", f"pattern-{field}", _set(field, bad)))
        if "enum" in spec:
            outside = "not-" + "-".join(str(v) for v in spec["enum"][:1])
            out.append(Constraint(field, "enum", f"enum-{field}", _set(field, outside)))
        items = spec.get("items")
        if isinstance(items, dict) and _types(items):
            bad_item = _other_type(_types(items))
            out.append(Constraint(field, "items", f"items-{field}", _set(field, [bad_item])))
    if schema.get("additionalProperties") is False:
        out.append(Constraint("", "additionalProperties", "extra-field", _set("not_a_field", "x")))
    return out


def accepts(record: Any) -> bool:
    """The oracle: does ``record`` satisfy the record's JSON Schema (the subset it uses)?"""
    return _valid(record_json_schema(), record)


def _valid(schema: dict[str, Any], value: Any) -> bool:
    """``value`` against one (sub)schema: type, enum, bounds, length, pattern, items,
    required, properties and additionalProperties."""
    allowed = _types(schema)
    if allowed and not any(_is(value, t) for t in allowed):
        return False
    if "enum" in schema and not any(
        _is(value, _json_type(v)) and value == v for v in schema["enum"]
    ):
        return False
    if _is(value, "number"):
        if "minimum" in schema and value < schema["minimum"]:
            return False
        if "maximum" in schema and value > schema["maximum"]:
            return False
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            return False
        if "pattern" in schema and not re.search(schema["pattern"], value):
            return False
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return all(_valid(schema["items"], item) for item in value)
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        if any(field not in value for field in schema.get("required", [])):
            return False
        if schema.get("additionalProperties") is False and set(value) - set(properties):
            return False
        return all(_valid(properties[k], v) for k, v in value.items() if k in properties)
    return True


def _is(value: Any, kind: str) -> bool:
    """JSON Schema's type test (an integral float is an integer, a bool is no number)."""
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "integer":
        return (isinstance(value, int) and not isinstance(value, bool)) or (
            isinstance(value, float) and value.is_integer()
        )
    return _json_type(value) == kind


def _valid_records(
    window: dict[str, Any], heading: dict[str, Any], page: dict[str, Any]
) -> Iterator[tuple[str, dict[str, Any]]]:
    """Valid records: chunkspec's own answers (a window, a heading body and a page record,
    which the caller gets from the oracle), then variants at the schema's edges that keep
    RECORD-2's facts (id is doc_id:index, text starts with prefix, start <= end)."""
    yield "window-record", window
    yield "heading-body-record", heading
    yield "page-record", page
    schema = record_json_schema()
    for kind in schema["properties"]["kind"]["enum"]:
        yield f"kind-{kind}", {**window, "kind": kind}
    big = schema["properties"]["index"]["maximum"]
    yield (
        "largest-integers",
        {
            **page,
            "id": f"d:{big}",
            "index": big,
            "start": big,
            "end": big,
            "tokens": big,
            "page_start": big,
            "page_end": big,
        },
    )
    yield "prefix-and-oversized", {**window, "prefix": "a", "oversized": True, "tokens": 0}
    yield (
        "other-counter-and-source",
        {
            **heading,
            "counter": "tiktoken:cl100k_base",
            "source": "docs/a.md",
            "heading_path": ["A", "B"],
            "section": None,
            "parent_id": None,
        },
    )


def schema_vectors(
    window: dict[str, Any], heading: dict[str, Any], page: dict[str, Any]
) -> list[dict[str, Any]]:
    """The ``validate_record`` vectors (CONF-17): every valid record accepted, and each
    constraint broken on the window record rejected. ``window``, ``heading`` and ``page``
    are chunkspec's records of the ``chunk``, ``heading_aware`` and ``chunk_pages`` ops."""
    out: list[dict[str, Any]] = []
    valid = dict(_valid_records(window, heading, page))
    for slug, record in valid.items():
        out.append(
            {
                "id": f"schema-valid-{slug}",
                "rules": ["RECORD-7", "RECORD-1"],
                "note": "a valid record: the port's schema must accept it",
                "input": {"record": record},
                "output": True,
            }
        )
    base = valid["window-record"]
    for c in constraints():
        out.append(
            {
                "id": f"schema-invalid-{c.slug.replace('_', '-')}",
                "rules": field_rules(c.field),
                "note": f"breaks the schema's {c.what} constraint"
                + (f" of {c.field}" if c.field else ""),
                "input": {"record": c.breaks(base)},
                "output": False,
            }
        )
    return out
