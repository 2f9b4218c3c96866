"""``pack_records`` on the wire: full chunk records in, ``PackedContext.to_dict()`` out.

The goldens (tests/golden/pack_records.json) write a record as the keyword arguments of
tests/pack_records.py's ``pack_record``; :func:`golden_record` fills in the same defaults,
so a vector carries every record field and a port needs no defaults of its own.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ..._packing._access import Principal
from ..._packing._pack_records import pack_records
from ..._records._record import ChunkRecord
from ..records._record_object import record_object

__all__ = ["golden_record", "pack_case", "pack_records_op"]

_NONFINITE = {"Infinity": math.inf, "-Infinity": -math.inf, "NaN": math.nan}


def _number(value: Any) -> Any:
    """A score on the wire: the three non-finite spellings as floats, the rest unchanged."""
    return _NONFINITE.get(value, value) if isinstance(value, str) else value


def golden_record(doc: str, index: int, source: str, fields: Mapping[str, Any]) -> dict[str, Any]:
    """The record object a golden's short form stands for (``pack_record``'s defaults)."""
    rest = dict(fields)
    start = int(rest.pop("start", 0))
    end = int(rest.pop("end", len(source)))
    prefix = str(rest.pop("prefix", ""))
    text = rest.pop("text", None)
    body = prefix + source[start:end] if text is None else str(text)
    record = record_object(
        doc,
        index,
        body,
        (start, end),
        title=doc.upper(),
        strategy="window:max_tokens=8,overlap_tokens=2",
        counter="whitespace",
        source=f"{doc}.md",
        prefix=prefix,
    )
    record.update(rest)
    return record


def pack_case(raw: dict[str, Any]) -> dict[str, Any]:
    """A pack_records golden as a vector: records in full, ``principal_raw`` as ``principal``."""
    data = raw["input"]
    documents = data.get("documents", {})
    given: dict[str, Any] = {
        "records": [
            golden_record(
                spec["doc"],
                spec["index"],
                documents.get(spec["doc"], ""),
                {k: v for k, v in spec.items() if k not in ("doc", "index")},
            )
            for spec in data["records"]
        ],
    }
    for key, value in data.items():
        if key in ("documents", "records"):
            continue
        given["principal" if key == "principal_raw" else key] = value
    return {**raw, "input": given}


def pack_records_op(
    records: Any,
    scores: Any,
    budget: Any,
    *,
    principal: Any = None,
    **options: Any,
) -> dict[str, Any]:
    """``pack_records`` over wire records; a principal object ``{labels, tenant}`` becomes a
    :class:`Principal` (anything else is passed on, to be refused, CTX-15)."""
    if isinstance(records, list):
        records = [
            ChunkRecord.from_dict(r, check_hash=False) if isinstance(r, dict) else r
            for r in records
        ]
    if isinstance(scores, list):
        scores = [_number(s) for s in scores]
    for name in ("min_score", "expand"):  # the non-finite spellings, as the scores'
        if name in options:
            options[name] = _number(options[name])
    if isinstance(principal, dict):
        principal = Principal(principal.get("labels", []), principal.get("tenant"))
    return pack_records(records, scores, budget, principal=principal, **options).to_dict()
