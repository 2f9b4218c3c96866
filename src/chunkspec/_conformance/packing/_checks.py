"""Blame by rule for ``pack_records`` (CONF-9): the CTX rules' statements checked on an
answer, models of known mistakes, and the rules a differing field pins down.

Each check reads the wire input (full records, scores, budget, options) and an answer
(``PackedContext.to_dict()``); it returns True when the rule holds (or does not apply).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator
from typing import Any

from ..._counters._registry import counter_from_name
from ..._packing._access import Principal, readable
from ..._packing._context import passage_label
from ._packing_ops import pack_records_op

__all__ = ["CHECKS", "pack_field_rules", "pack_traps"]

Check = Callable[[dict[str, Any], Any], bool]


def _number(value: Any) -> float:
    """A wire number as a float (non-finite spellings included)."""
    spelled = {"Infinity": math.inf, "-Infinity": -math.inf, "NaN": math.nan}
    return spelled[value] if isinstance(value, str) else float(value)


def _citations(answer: Any) -> list[tuple[str, dict[str, Any]]]:
    """The answer's citations in key order as written (a KeyError/TypeError if malformed)."""
    return list(answer["citations"].items())


def _records(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The input records by id."""
    return {r["id"]: r for r in data["records"]}


def _verbatim(record: dict[str, Any]) -> bool:
    """CTX-4: every strategy but ``recursive`` is verbatim."""
    return str(record["strategy"]).partition(":")[0] != "recursive"


def _blocks(answer: Any) -> list[tuple[str, str]]:
    """The context split into (header line, passage text), one per passage (CTX-9)."""
    context = answer["context"]
    if context == "":
        return []
    out = []
    keys = [k for k, _ in _citations(answer)]
    rest = context
    for n in range(len(keys)):
        head, _, rest = rest.partition("\n")
        if n + 1 < len(keys):
            marker = f"\n\n[{keys[n + 1]}]"
            at = rest.find(marker)
            body, rest = (rest, "") if at < 0 else (rest[:at], rest[at + 2 :])
        else:
            body, rest = rest, ""
        out.append((head, body))
    return out


def _passage_text(data: dict[str, Any], cite: dict[str, Any]) -> str | None:
    """CTX-3: ``prefix + source[start:end]`` rebuilt from the passage's records."""
    records = _records(data)
    members = [records[i] for i in cite["record_ids"]]
    if len(members) == 1 and not _verbatim(members[0]):
        return str(members[0]["text"])
    start, end = cite["start"], cite["end"]
    chars: dict[int, str] = {}
    for r in members:
        body = str(r["text"])[len(str(r["prefix"])) :]
        for k, ch in enumerate(body):
            chars.setdefault(r["start"] + k, ch)
    first = min(members, key=lambda r: (r["start"], r["index"], r["id"]))
    if any(at not in chars for at in range(start, end)):
        return None
    return str(first["prefix"]) + "".join(chars[at] for at in range(start, end))


def _budget(data: dict[str, Any], answer: Any) -> bool:
    """CTX-8: ``tokens == count(context) <= budget`` under the counter the answer names."""
    measure = counter_from_name(str(answer["counter"]))
    counted = measure.count(answer["context"])
    return bool(answer["tokens"] == counted and counted <= answer["budget"])


def _empty(data: dict[str, Any], answer: Any) -> bool:
    """CTX-1: nothing packed is no citations, an empty context and 0 tokens."""
    nothing = answer["citations"] == {}
    return nothing == (answer["context"] == "") and (not nothing or answer["tokens"] == 0)


def _keys(data: dict[str, Any], answer: Any) -> bool:
    """CTX-11: passages are keyed "1", "2", ... in rendered order, and headed by their key."""
    cites = _citations(answer)
    if [k for k, _ in cites] != [str(n) for n in range(1, len(cites) + 1)]:
        return False
    return all(
        head == f"[{k}]" or head.startswith(f"[{k}] ")
        for (head, _), (k, _) in zip(_blocks(answer), cites, strict=True)
    )


def _defaults(data: dict[str, Any], answer: Any) -> bool:
    """CTX-20: without ``titles`` the answer says titles false and every header is the key."""
    if "titles" in data:
        return True
    heads = [head for head, _ in _blocks(answer)]
    return answer["titles"] is False and heads == [f"[{k}]" for k, _ in _citations(answer)]


def _headers(data: dict[str, Any], answer: Any) -> bool:
    """CTX-9, CTX-17: with titles, ``[key] title > headings``; without, ``[key]`` alone."""
    titles = data.get("titles", False)
    if answer["titles"] is not titles:
        return False
    for (head, _), (key, cite) in zip(_blocks(answer), _citations(answer), strict=True):
        label = passage_label(cite["title"], tuple(cite["heading_path"]))
        if head != (f"[{key}] {label}" if titles else f"[{key}]"):
            return False
    return True


def _texts(data: dict[str, Any], answer: Any) -> bool:
    """CTX-3: each passage's text is ``prefix + source[start:end]``, each character once."""
    for (_, body), (_, cite) in zip(_blocks(answer), _citations(answer), strict=True):
        if body != _passage_text(data, cite):
            return False
    return True


def _merged(data: dict[str, Any], answer: Any) -> bool:
    """CTX-2: no two verbatim passages of one document overlap or touch."""
    records = _records(data)
    spans: dict[str, list[tuple[int, int]]] = {}
    for _, cite in _citations(answer):
        if all(_verbatim(records[i]) for i in cite["record_ids"]):
            spans.setdefault(cite["doc_id"], []).append((cite["start"], cite["end"]))
    for pieces in spans.values():
        pieces.sort()
        if any(b[0] <= a[1] for a, b in itertools.pairwise(pieces)):
            return False
    return True


def _unique(data: dict[str, Any], answer: Any) -> bool:
    """CTX-7, CTX-12: every packed record once, and no two with the same content hash."""
    records = _records(data)
    ids = [i for _, cite in _citations(answer) for i in cite["record_ids"]]
    hashes = [records[i]["content_hash"] for i in ids]
    return len(set(ids)) == len(ids) and len(set(hashes)) == len(hashes)


def _principal(data: dict[str, Any]) -> Principal | None:
    """The input's principal."""
    given = data.get("principal")
    return None if given is None else Principal(given.get("labels", []), given.get("tenant"))


def _may_read(labels: dict[str, Any], principal: Principal | None) -> bool:
    """CTX-13's answer; False for labels that cannot be read (TRUST-10)."""
    try:
        return readable("metadata", labels, principal)
    except TypeError:
        return False


def _malformed(labels: dict[str, Any]) -> bool:
    """TRUST-10: labels that cannot be read (a tenant that is not a str, labels that are not
    a list of str)."""
    try:
        readable("metadata", labels, None)
    except TypeError:
        return True
    return False


def _readable(data: dict[str, Any]) -> dict[str, bool]:
    """Which records the principal may read (CTX-13, TRUST-10)."""
    principal = _principal(data)
    return {r["id"]: _may_read(r.get("metadata") or {}, principal) for r in data["records"]}


def _unreadable(data: dict[str, Any], answer: Any) -> bool:
    """TRUST-10: ``unreadable_labels`` names the records whose labels cannot be read, in
    input order."""
    named = [r["id"] for r in data["records"] if _malformed(r.get("metadata") or {})]
    return bool(answer["unreadable_labels"] == named)


def _access(data: dict[str, Any], answer: Any) -> bool:
    """CTX-13: no record the principal may not read is packed."""
    allowed = _readable(data)
    return all(allowed[i] for _, cite in _citations(answer) for i in cite["record_ids"])


def _withheld(data: dict[str, Any], answer: Any) -> bool:
    """CTX-14: ``withheld`` is the number of records the principal may not read."""
    return bool(answer["withheld"] == list(_readable(data).values()).count(False))


def _min_score(data: dict[str, Any], answer: Any) -> bool:
    """CTX-6: no packed record is scored below ``min_score`` (but a section's, CTX-18)."""
    if data.get("expand") is not None:
        return True
    floor = _number(data.get("min_score", 0.35))
    scores = {r["id"]: _number(s) for r, s in zip(data["records"], data["scores"], strict=True)}
    return all(scores[i] >= floor for _, cite in _citations(answer) for i in cite["record_ids"])


def _order(data: dict[str, Any], answer: Any) -> bool:
    """CTX-10: reading order groups a document's passages by position; score order has the
    best scores first."""
    cites = [cite for _, cite in _citations(answer)]
    if data.get("order", "reading") == "score":
        if data.get("expand") is not None:
            return True  # a section's records join with the scores they have (CTX-18)
        return all(a["score"] >= b["score"] for a, b in itertools.pairwise(cites))
    seen: list[str] = []
    for a, b in itertools.pairwise(cites):
        if a["doc_id"] == b["doc_id"] and a["start"] > b["start"]:
            return False
    for cite in cites:
        if seen and cite["doc_id"] != seen[-1] and cite["doc_id"] in seen:
            return False
        seen.append(cite["doc_id"])
    return True


def _provenance(data: dict[str, Any], answer: Any) -> bool:
    """CTX-5: pages are the least and greatest of the records', the heading path their
    common prefix, the score their best."""
    records = _records(data)
    scores = {r["id"]: _number(s) for r, s in zip(data["records"], data["scores"], strict=True)}
    for _, cite in _citations(answer):
        members = [records[i] for i in cite["record_ids"]]
        starts = [r["page_start"] for r in members if r["page_start"] is not None]
        ends = [r["page_end"] for r in members if r["page_end"] is not None]
        if cite["page_start"] != (min(starts) if starts else None):
            return False
        if cite["page_end"] != (max(ends) if ends else None):
            return False
        common = list(members[0]["heading_path"])
        for r in members[1:]:
            n = 0
            while (
                n < min(len(common), len(r["heading_path"])) and common[n] == r["heading_path"][n]
            ):
                n += 1
            common = common[:n]
        if list(cite["heading_path"]) != common:
            return False
        if cite["score"] != max(scores[r["id"]] for r in members):
            return False
    return True


def _trimmed(data: dict[str, Any], answer: Any) -> bool:
    """CTX-19: at most one passage is trimmed, none with ``trim=False``."""
    cut = sum(1 for _, cite in _citations(answer) if cite["trimmed"])
    return cut <= (1 if data.get("trim", True) else 0)


def _trim_first(data: dict[str, Any], answer: Any) -> bool:
    """CTX-19: the trimmed record is the first the walk could not fit whole and would have
    made a passage of its own: no such record, unpacked, comes before it in the walk."""
    if not data.get("trim", True):
        return True
    allowed = _readable(data)
    floor = _number(data.get("min_score", 0.35))
    cites = [cite for _, cite in _citations(answer)]
    records = _records(data)
    packed = {i for cite in cites for i in cite["record_ids"]}
    hashes = {records[i]["content_hash"] for i in packed}
    walk = sorted(
        range(len(data["records"])),
        key=lambda k: (-_number(data["scores"][k]), data["records"][k]["id"], k),
    )
    order = {data["records"][k]["id"]: n for n, k in reversed(list(enumerate(walk)))}
    for cite in cites:
        cut = [records[i] for i in cite["record_ids"] if records[i]["end"] > cite["end"]]
        if not cut:
            continue
        for k in walk[: order[cut[0]["id"]]]:
            r = data["records"][k]
            if (
                allowed[r["id"]]
                and _number(data["scores"][k]) >= floor
                and _verbatim(r)
                and r["id"] not in packed
                and r["content_hash"] not in hashes
                and not any(
                    c["doc_id"] == r["doc_id"] and r["start"] <= c["end"] and c["start"] <= r["end"]
                    for c in cites
                )
            ):
                return False
    return True


#: ``(rule, what it checks, check, rules it explains)``, most specific first.
CHECKS: list[tuple[str, str, Check, tuple[str, ...]]] = [
    ("CTX-1", "nothing packed is an empty context of 0 tokens", _empty, ()),
    ("CTX-20", "by default each header is the key alone", _defaults, ("CTX-17", "CTX-9")),
    ("CTX-11", "keys are 1, 2, ... in rendered order", _keys, ("CTX-17", "CTX-9")),
    ("CTX-17", "headers as titles says", _headers, ()),
    ("CTX-13", "no unreadable record is packed", _access, ("CTX-14",)),
    ("CTX-14", "withheld counts the unreadable records", _withheld, ()),
    ("TRUST-10", "unreadable_labels names the records with unreadable labels", _unreadable, ()),
    ("CTX-6", "no packed record scored below min_score", _min_score, ()),
    ("CTX-2", "overlapping or touching passages of a document merge", _merged, ("CTX-3",)),
    ("CTX-3", "a passage's text is prefix + source[start:end]", _texts, ()),
    ("CTX-7", "no record twice and no content hash twice", _unique, ()),
    ("CTX-10", "passages in reading or score order", _order, ()),
    ("CTX-5", "pages, heading path and score from the passage's records", _provenance, ()),
    ("CTX-19", "at most one trimmed passage", _trimmed, ()),
    ("CTX-19", "the trimmed record is the first that did not fit whole", _trim_first, ()),
    ("CTX-8", "tokens == count(context) <= budget", _budget, ()),
]


def _model(data: dict[str, Any], **changes: Any) -> Any:
    """The reference's answer with some arguments changed."""
    return pack_records_op(**{**data, **changes})


def pack_traps(data: dict[str, Any]) -> Iterator[tuple[str, list[str], Any]]:
    """Yield ``(mistake, rules, answer)`` for modelled mistakes of a packer port."""
    if "trim" not in data:
        yield "leaves trim off by default", ["CTX-20"], _model(data, trim=False)
    if data.get("principal") is None and any(r.get("metadata") for r in data["records"]):
        bare = [{**r, "metadata": {}} for r in data["records"]]
        yield (
            "reads labelled records when there is no principal",
            ["CTX-13"],
            _model(data, records=bare),
        )
    floor = data.get("min_score", 0.35)
    at = _number(floor)
    kept = [
        (r, s) for r, s in zip(data["records"], data["scores"], strict=True) if _number(s) != at
    ]
    if len(kept) != len(data["records"]):
        yield (
            "stops at a score equal to min_score (<= for <)",
            ["CTX-6"],
            _model(data, records=[r for r, _ in kept], scores=[s for _, s in kept]),
        )


def pack_field_rules(leaf: str) -> list[str]:
    """The rules a differing field alone pins down."""
    return {
        "withheld": ["CTX-14"],
        "unreadable_labels": ["TRUST-10"],
        "titles": ["CTX-17"],
        "trimmed": ["CTX-19"],
        "page_start": ["CTX-5"],
        "page_end": ["CTX-5"],
        "heading_path": ["CTX-5"],
        "record_ids": ["CTX-12"],
        "counter": ["CTX-8"],
        "order": ["CTX-10"],
        "budget": ["CTX-1"],
    }.get(leaf, [])
