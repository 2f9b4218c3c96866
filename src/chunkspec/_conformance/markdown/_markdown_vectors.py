"""The Markdown goldens as record vectors for the ``split_markdown`` and ``heading_aware`` ops.

A golden of ``tests/golden/split_markdown.json`` or ``heading_aware.json`` states a few
fields of each chunk (text, kind, offsets, heading path, parent position). Its vector sends
the same Markdown as a record request (``doc_id``, ``title "T"``, ``text``, the budget; the
seeds' defaults made explicit: ``max_tokens`` 512, ``overlap_tokens`` 64) and expects whole
records. The records come from the oracle, and every field the golden states is checked
against them here, so a vector can never say something its golden does not.
Goldens with a counter other than the whitespace counter, or with block input (MD-13),
have no wire form in these ops and are left out.
"""

from __future__ import annotations

from typing import Any

from ._markdown_ops import markdown_answer

__all__ = ["MARKDOWN_OPS", "markdown_case"]

#: The ops whose vectors are built here, and the record rules each vector checks too.
MARKDOWN_OPS = {
    "split_markdown": ["RECORD-2", "RECORD-3", "RECORD-6", "RECORD-12"],
    "heading_aware": ["RECORD-2", "RECORD-3", "RECORD-6", "HEAD-2"],
}

_DEFAULTS = {
    "split_markdown": {"max_tokens": 512},
    "heading_aware": {"max_tokens": 512, "overlap_tokens": 64},
}
_NAMES = {"source": "text", "markdown": "text"}


def markdown_case(function: str, raw: dict[str, Any]) -> dict[str, Any] | None:
    """Return the record vector of one Markdown golden, or None when it has no wire form."""
    given = raw["input"]
    if "counter" in given or "blocks" in given or "context" in given:
        return None
    data: dict[str, Any] = {"doc_id": given.get("doc_id", "d"), "title": "T"}
    for key, value in given.items():
        if key != "doc_id":
            data[_NAMES.get(key, key)] = value
    for key, value in _DEFAULTS[function].items():
        data.setdefault(key, value)
    out: dict[str, Any] = {**raw, "input": data}
    answer = markdown_answer(function, data)
    if "error" in raw:
        error = dict(raw["error"])
        error["argument"] = _NAMES.get(str(error.get("argument")), error.get("argument"))
        out["error"] = error
        if answer.get("error", {}).get("argument") != error["argument"]:
            raise ValueError(f"{function}/{raw['id']}: the oracle answers {answer}")
        return out
    records = answer["ok"]
    _check(function, raw, records)
    out["output"] = records
    out["rules"] = [*raw["rules"], *(r for r in MARKDOWN_OPS[function] if r not in raw["rules"])]
    return out


def _position(chunk_id: str | None, doc_id: str) -> int | None:
    """The position in ``f"{doc_id}:{position}"``, or None."""
    return None if chunk_id is None else int(chunk_id[len(doc_id) + 1 :])


def _check(function: str, raw: dict[str, Any], records: list[dict[str, Any]]) -> None:
    """Raise ValueError unless ``records`` agree with every field the golden states."""
    want = raw["output"]
    if function == "split_markdown":
        fields = ("text", "heading_path", "kind", "start", "end", "prefix")
        got = [{k: r[k] for k in fields} for r in records]
        expected = [{k: c[k] for k in fields if k in c} for c in want]
        got = [{k: v for k, v in g.items() if k in e} for g, e in zip(got, expected, strict=False)]
    else:
        doc_id = raw["input"].get("doc_id", "d")
        got = [
            {
                "position": r["index"],
                "parent": _position(r["parent_id"], doc_id),
                "kind": r["kind"],
                "text": r["text"],
            }
            for r in records
        ]
        expected = [{k: c[k] for k in ("position", "parent", "kind", "text")} for c in want]
    if len(records) != len(want) or got != expected:
        raise ValueError(f"{function}/{raw['id']}: the records do not agree with the golden")
