"""Blaming a wrong answer on the rule it breaks (CONF-9).

A vector names its rules. A generated case does not, so a wrong answer is diagnosed: the
kit re-runs the case through small models of the classic porting mistakes (each written
here beside the rule it breaks) and, when the port's answer equals a mistake's answer,
blames that rule and says which mistake it looks like. Otherwise the first differing field
decides (``tokens`` is TOK-1, ``content_hash`` HASH-1, ...).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator
from typing import Any

from .._tokens import SEPARATORS
from ._compare import first_difference
from ._wire import NUMERIC_FIELDS, decode_number

__all__ = ["blame"]

#: JavaScript's /\s/ (WS-1 says why it is not Python's set).
_JS_SPACE = "\t\n\x0b\x0c\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_JS_RUN = re.compile(f"[{_JS_SPACE}]+")
_JS_EDGES = re.compile(f"^[{_JS_SPACE}]+|[{_JS_SPACE}]+$")


def _js_trim(text: str) -> str:
    """``String.prototype.trim()``."""
    return _JS_EDGES.sub("", text)


def _js_words(text: str) -> int:
    """``text.split(/\\s+/).filter(Boolean).length``."""
    return len([w for w in _JS_RUN.split(text) if w])


def _js_split_length(text: str) -> int:
    """``text.split(/\\s+/).length`` (empty strings at the ends count)."""
    return len(_JS_RUN.split(text))


def _py_words(text: str) -> int:
    """``len(text.split())``."""
    return len(text.split())


def _split_model(
    text: str,
    max_tokens: int,
    strip: Callable[[str], str] = str.strip,
    count: Callable[[str], int] = _py_words,
    merge_last: bool = False,
) -> list[tuple[str, int]]:
    """Seed-000 split_section, literally, with one step swappable for a mistake."""
    out: list[tuple[str, int]] = []

    def split(part: str, whole: bool) -> None:
        sep = next((s for s in SEPARATORS if s in part), None)
        if sep is None:
            out.append((strip(part), count(part)))
            return
        pieces = part.split(sep)
        if whole and sum(map(count, pieces)) <= max_tokens:
            out.append((strip(part), sum(map(count, pieces))))
            return
        kept = [p for p in pieces if count(p) > 0]
        i = 0
        while i < len(kept):
            j, total = i, 0
            while j < len(kept) and total + count(kept[j]) <= max_tokens:
                total += count(kept[j])
                j += 1
            if j == i:
                split(kept[i], False)
                i += 1
                if merge_last and i < len(kept) and out[-1][1] + count(kept[i]) <= max_tokens:
                    out[-1] = (strip(out[-1][0] + sep + kept[i]), out[-1][1] + count(kept[i]))
                    i += 1
            else:
                out.append((strip(sep.join(kept[i:j])), total))
                i = j

    split(text, True)
    return out


def _chunks(data: dict[str, Any], parts: list[tuple[str, int]]) -> list[dict[str, Any]]:
    """Wire chunks for the model's ``(text, tokens)`` parts (SPLIT-9)."""
    return [
        {
            "id": f"{data['doc_id']}:{n}",
            "doc_id": data["doc_id"],
            "title": data["title"],
            "text": body,
            "tokens": tokens,
            "content_hash": hashlib.sha256(body.encode()).hexdigest(),
            "score": 0.0,
        }
        for n, (body, tokens) in enumerate(parts)
    ]


_SPLIT_TRAPS: list[tuple[str, list[str], dict[str, Any]]] = [
    ("strips with JavaScript trim()", ["WS-1", "SPLIT-9"], {"strip": _js_trim}),
    ("counts tokens with split(/\\s+/)", ["TOK-1", "WS-1"], {"count": _js_split_length}),
    (
        "uses JavaScript's whitespace (/\\s/, trim())",
        ["WS-1", "TOK-1"],
        {"strip": _js_trim, "count": _js_words},
    ),
    (
        "merges an oversized piece's last sub-chunk with the next piece",
        ["SPLIT-8"],
        {"merge_last": True},
    ),
]


def _assemble_model(
    data: dict[str, Any],
    *,
    key: str = "code-point",
    stop_le: bool = False,
    break_over: bool = False,
    dedupe_seen: bool = False,
) -> Any:
    """Seed-000 assemble on wire chunks, literally, with one step swappable for a mistake."""
    chunks = data["chunks"]
    budget = data["budget"]
    min_score = decode_number(data.get("min_score", 0.35))

    def score(c: dict[str, Any]) -> float:
        return float(decode_number(c.get("score", 0.0)))

    orders: dict[str, Callable[[dict[str, Any]], Any]] = {
        "code-point": lambda c: (-score(c), c["id"]),
        "utf-16": lambda c: (-score(c), c["id"].encode("utf-16-be")),
        "score-only": lambda c: -score(c),
    }
    ranked = sorted(chunks, key=orders[key])
    picked: list[dict[str, Any]] = []
    hashes: set[str] = set()
    room = budget
    for c in ranked:
        if score(c) <= min_score if stop_le else score(c) < min_score:
            break
        if c["content_hash"] in hashes:
            continue
        if dedupe_seen:
            hashes.add(c["content_hash"])
        if c["tokens"] > room:
            if break_over:
                break
            continue
        picked.append(c)
        hashes.add(c["content_hash"])
        room -= c["tokens"]
    if not picked:
        return None
    context = "\n".join(f"[{c['id']}] {c['title']}\n{c['text']}" for c in picked)
    return {"context": context, "ids": [c["id"] for c in picked]}


_ASSEMBLE_TRAPS: list[tuple[str, list[str], dict[str, Any]]] = [
    ("orders tied ids by UTF-16 code unit (JavaScript <)", ["PACK-2"], {"key": "utf-16"}),
    ("does not break score ties by id", ["PACK-1", "PACK-2"], {"key": "score-only"}),
    ("stops at score <= min_score instead of < min_score", ["PACK-4"], {"stop_le": True}),
    (
        "stops at the first chunk over budget instead of skipping it",
        ["PACK-7"],
        {"break_over": True},
    ),
    (
        "dedupes against every hash seen, not only the picked ones",
        ["PACK-6"],
        {"dedupe_seen": True},
    ),
]

_COUNT_TRAPS: list[tuple[str, list[str], Callable[[str], int]]] = [
    ("counts with split(/\\s+/)", ["TOK-1", "WS-1"], _js_split_length),
    ("uses JavaScript's /\\s/ whitespace", ["WS-1", "TOK-1"], _js_words),
]


def _trap(
    op: str, data: dict[str, Any], expected: Any, actual: Any
) -> tuple[list[str], str] | None:
    """Return ``(rules, mistakes)`` of every known mistake whose answer is ``actual``."""
    found = list(_traps(op, data, expected, actual))
    if not found:
        return None
    rules = list(dict.fromkeys(rule for rules, _ in found for rule in rules))
    return rules, " or ".join(mistake for _, mistake in found)


def _traps(
    op: str, data: dict[str, Any], expected: Any, actual: Any
) -> Iterator[tuple[list[str], str]]:
    """Yield ``(rules, mistake)`` for each known mistake whose answer is ``actual``."""

    def matches(model: Any) -> bool:
        return (
            first_difference(model, actual) is None
            and first_difference(model, expected) is not None
        )

    try:
        if op == "split_section":
            text, max_tokens = data["text"], decode_number(data["max_tokens"])
            for mistake, rules, swap in _SPLIT_TRAPS:
                if matches(_chunks(data, _split_model(text, max_tokens, **swap))):
                    yield rules, mistake
            crlf = text.replace("\r\n", "\n")
            if crlf != text and matches(_chunks(data, _split_model(crlf, max_tokens))):
                yield ["SPLIT-11"], "normalises CRLF to LF"
        elif op == "assemble":
            for mistake, rules, options in _ASSEMBLE_TRAPS:
                if matches(_assemble_model(data, **options)):
                    yield rules, mistake
        elif op == "count_tokens":
            for mistake, rules, count in _COUNT_TRAPS:
                if matches(count(data["text"])):
                    yield rules, mistake
    except (KeyError, TypeError, ValueError, AttributeError, UnicodeError):
        return


def _error_rules(op: str, data: dict[str, Any], argument: str) -> list[str]:
    """The rules about the argument an error names (or should name)."""
    base = {
        "split_section": ["SPLIT-12"],
        "assemble": ["PACK-10"],
        "count_tokens": ["TOK-1"],
        "hash_text": ["HASH-2"],
        "render": ["RENDER-1"],
        "words": ["WORDS-2"],
    }[op]
    leaf = argument.rsplit(".", 1)[-1] if argument else ""
    if leaf in ("score", "min_score"):
        base = [*base, "PACK-5"]
    if leaf in NUMERIC_FIELDS - {"score", "min_score"}:
        base = [*base, "PORT-1"]
    if leaf in ("text", "title", "doc_id", "id"):
        base = [*base, "PORT-2"]
    return base


def blame(
    op: str, data: dict[str, Any], expected: dict[str, Any], outcome: str, field: str, actual: Any
) -> tuple[list[str], str]:
    """Return ``(rules, explanation)`` for a failed case."""
    if "error" in expected:
        argument = expected["error"].get("argument") or ""
        return _error_rules(
            op, data, argument
        ), f"expected {expected['error']['kind']} naming {argument!r}"
    if outcome == "rejected":
        argument = actual.get("argument", "") if isinstance(actual, dict) else ""
        return _error_rules(op, data, argument), "the port rejected a valid input"
    if outcome != "wrong":
        return [], outcome
    found = _trap(op, data, expected["ok"], actual)
    if found is not None:
        rules, mistake = found
        return rules, f"the answer is what a port gives that {mistake}"
    leaf = re.sub(r"\[\d+\]", "", field).rsplit(".", 1)[-1]
    if op == "split_section":
        rules = {
            "tokens": ["TOK-1", "SPLIT-9"],
            "content_hash": ["HASH-1", "SPLIT-9"],
            "id": ["SPLIT-9"],
            "doc_id": ["SPLIT-9"],
            "title": ["SPLIT-9"],
            "score": ["SPLIT-9"],
        }.get(leaf, ["SPLIT-4", "SPLIT-7"])
    elif op == "assemble":
        if expected["ok"] is None or actual is None:
            rules = ["PACK-8"]
        elif _ids(actual) is not None and sorted(_ids(actual) or []) == sorted(
            expected["ok"]["ids"]
        ):
            rules = ["PACK-9"] if _ids(actual) == expected["ok"]["ids"] else ["PACK-1", "PACK-2"]
        else:
            rules = ["PACK-1", "PACK-4", "PACK-6", "PACK-7"]
    else:
        rules = {
            "count_tokens": ["TOK-1", "WS-1"],
            "hash_text": ["HASH-1"],
            "render": ["RENDER-1"],
            "words": ["WORDS-1"],
        }[op]
    return rules, f"first difference at {field}"


def _ids(answer: Any) -> list[str] | None:
    """The ids of an assemble answer, if it has the right shape."""
    if isinstance(answer, dict) and isinstance(answer.get("ids"), list):
        return [str(i) for i in answer["ids"]]
    return None
