"""Blaming a wrong answer on the rule it breaks (CONF-9).

A vector names its rules. A generated case does not, so a wrong answer is diagnosed: the
kit re-runs the case through small models of the classic porting mistakes (each written
here beside the rule it breaks) and, when the port's answer equals a mistake's answer,
blames that rule and says which mistake it looks like. Otherwise the first differing field
decides (``tokens`` is TOK-1, ``content_hash`` HASH-1, ...).
"""

from __future__ import annotations

import functools
import hashlib
import math
import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .._core._tokens import SEPARATORS
from .._core._validate import MAX_SAFE_INTEGER
from .._records._key import keyed_rows
from ._compare import first_difference
from ._js_space import JS_SPACE_CLASS, JS_SPACE_RUN
from ._rules import broken_rules
from ._wire import NUMERIC_FIELDS, decode_number
from .code._code_blame import code_error_rules, code_field_rules, code_mistakes
from .documents._documents_blame import (
    document_error_rules,
    document_field_rules,
    document_mistakes,
)
from .html._html_blame import (
    html_diagnosis,
    html_error_rules,
    html_field_rules,
    html_mistakes,
)
from .markdown._markdown_blame import (
    MARKDOWN_OPS,
    markdown_by_field,
    markdown_error_rules,
    markdown_mistakes,
)
from .packing._checks import pack_field_rules, pack_traps
from .records._record_object import record_object
from .windows._windows_blame import error_rules, field_rules, window_traps

__all__ = ["blame", "mistakes"]

#: JavaScript's /\s/ at either end (WS-1 says why it is not Python's set).
_JS_EDGES = re.compile(f"^[{JS_SPACE_CLASS}]+|[{JS_SPACE_CLASS}]+$")


def _js_trim(text: str) -> str:
    """``String.prototype.trim()``."""
    return _JS_EDGES.sub("", text)


def _js_words(text: str) -> int:
    """``text.split(/\\s+/).filter(Boolean).length``."""
    return len([w for w in JS_SPACE_RUN.split(text) if w])


def _js_split_length(text: str) -> int:
    """``text.split(/\\s+/).length`` (empty strings at the ends count)."""
    return len(JS_SPACE_RUN.split(text))


def _py_words(text: str) -> int:
    """``len(text.split())``."""
    return len(text.split())


def _same(text: str) -> str:
    """No strip at all."""
    return text


def _split_model(
    text: str,
    max_tokens: int,
    strip: Callable[[str], str] = str.strip,
    count: Callable[[str], int] = _py_words,
    merge_last: bool = False,
    *,
    strip_whole: bool = True,
    strip_kept: bool = False,
    drop_blank: bool = False,
    fits_lt: bool = False,
    literal_next: bool = False,
) -> list[tuple[str, int]]:
    """split_section (SPLIT rules), literally, with one step swappable for a mistake."""
    out: list[tuple[str, int]] = []

    def fits(total: int) -> bool:
        return total < max_tokens if fits_lt else total <= max_tokens

    def split(part: str, whole: bool, level: int) -> None:
        if literal_next and not whole:  # SPLIT-7's mistake: only the next separator
            sep = (
                SEPARATORS[level] if level < len(SEPARATORS) and SEPARATORS[level] in part else None
            )
        else:
            sep = next((s for s in SEPARATORS if s in part), None)
        if sep is None:
            out.append((strip(part), count(part)))
            return
        pieces = part.split(sep)
        if whole and fits(sum(map(count, pieces))):
            out.append((strip(part) if strip_whole else part, sum(map(count, pieces))))
            return
        kept = [strip(p) if strip_kept else p for p in pieces if count(p) > 0]
        i = 0
        while i < len(kept):
            j, total = i, 0
            while j < len(kept) and fits(total + count(kept[j])):
                total += count(kept[j])
                j += 1
            if j == i:
                split(kept[i], False, SEPARATORS.index(sep) + 1)
                i += 1
                if merge_last and i < len(kept) and out[-1][1] + count(kept[i]) <= max_tokens:
                    out[-1] = (strip(out[-1][0] + sep + kept[i]), out[-1][1] + count(kept[i]))
                    i += 1
            else:
                out.append((strip(sep.join(kept[i:j])), total))
                i = j

    split(text, True, 0)
    if drop_blank and out == [("", 0)]:
        return []
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
    ("does not strip a text that fits whole", ["SPLIT-1"], {"strip_whole": False}),
    ("does not strip the chunks it finishes", ["SPLIT-1", "SPLIT-3"], {"strip": _same}),
    ("strips the kept pieces before joining them", ["SPLIT-3"], {"strip_kept": True}),
    ("gives no chunk for a blank text", ["SPLIT-10"], {"drop_blank": True}),
    ("tests 'fits' with < instead of <=", ["SPLIT-1", "SPLIT-4"], {"fits_lt": True}),
    (
        "splits an oversized piece only on the literal next separator",
        ["SPLIT-7"],
        {"literal_next": True},
    ),
]


def _locale_key(ident: str) -> tuple[str, str, str]:
    """A rough ``localeCompare`` (ICU root collation): letters before case and accents."""
    decomposed = unicodedata.normalize("NFD", ident)
    base = "".join(c for c in decomposed if not unicodedata.combining(c))
    return base.casefold(), decomposed, ident.swapcase()


def _subtraction_order(chunks: list[dict[str, Any]], score: Callable[[Any], float]) -> list[Any]:
    """``sort((a, b) => b.score - a.score || ...)`` as V8 runs it: NaN (two equal
    infinities) counts as equal, so such ties keep their input order (HAZ-7)."""

    def compare(a: dict[str, Any], b: dict[str, Any]) -> int:
        d = score(b) - score(a)
        if math.isnan(d):
            return 0
        if d != 0:
            return -1 if d < 0 else 1
        return -1 if a["id"] < b["id"] else (1 if a["id"] > b["id"] else 0)

    return sorted(chunks, key=functools.cmp_to_key(compare))


def _assemble_model(
    data: dict[str, Any],
    *,
    key: str = "code-point",
    stop_le: bool = False,
    break_over: bool = False,
    dedupe_seen: bool = False,
    no_dedupe: bool = False,
    fits_lt: bool = False,
    empty_answer: bool = False,
) -> Any:
    """assemble (PACK rules) on wire chunks, literally, with one step swappable for a mistake."""
    chunks = data["chunks"]
    budget = data["budget"]
    min_score = decode_number(data.get("min_score", 0.35))

    def score(c: dict[str, Any]) -> float:
        return float(decode_number(c.get("score", 0.0)))

    orders: dict[str, Callable[[dict[str, Any]], Any]] = {
        "code-point": lambda c: (-score(c), c["id"]),
        "utf-16": lambda c: (-score(c), c["id"].encode("utf-16-be", "surrogatepass")),
        "score-only": lambda c: -score(c),
        "locale": lambda c: (-score(c), _locale_key(c["id"])),
        # Object.is or a sign-aware comparison: -0.0 after 0.0 (HAZ-6)
        "signed-zero": lambda c: (-score(c), math.copysign(1.0, score(c)) < 0, c["id"]),
    }
    if key == "subtraction":
        ranked = _subtraction_order(chunks, score)
    else:
        ranked = sorted(chunks, key=orders[key])
    picked: list[dict[str, Any]] = []
    hashes: set[str] = set()
    room = budget
    for c in ranked:
        if score(c) <= min_score if stop_le else score(c) < min_score:
            break
        if c["content_hash"] in hashes and not no_dedupe:
            continue
        if dedupe_seen:
            hashes.add(c["content_hash"])
        if c["tokens"] >= room if fits_lt else c["tokens"] > room:
            if break_over:
                break
            continue
        picked.append(c)
        hashes.add(c["content_hash"])
        room -= c["tokens"]
    if not picked:
        return {"context": "", "ids": []} if empty_answer else None
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
    ("does not skip duplicate hashes", ["PACK-6"], {"no_dedupe": True}),
    ("orders tied ids with localeCompare", ["PACK-2"], {"key": "locale"}),
    (
        "sorts with a subtracting comparator (Infinity - Infinity is NaN)",
        ["PACK-1", "PACK-5"],
        {"key": "subtraction"},
    ),
    ("orders -0.0 after 0.0 (a sign-aware comparison)", ["PACK-5"], {"key": "signed-zero"}),
    ("picks a chunk only if tokens < room (off by one)", ["PACK-7"], {"fits_lt": True}),
    ("answers an empty context instead of None", ["PACK-8"], {"empty_answer": True}),
]

_COUNT_TRAPS: list[tuple[str, list[str], Callable[[str], int]]] = [
    ("counts with split(/\\s+/)", ["TOK-1", "WS-1"], _js_split_length),
    ("uses JavaScript's /\\s/ whitespace", ["WS-1", "TOK-1"], _js_words),
]


_LONE = re.compile("[\ud800-\udfff]")


def _node_utf8(text: str) -> bytes:
    """Node's UTF-8 encoder: a lone surrogate becomes U+FFFD (HAZ-4)."""
    return _LONE.sub("\ufffd", text).encode("utf-8")


def _hash_models(text: str) -> Iterator[tuple[list[str], str, str]]:
    """``(rules, mistake, hash)`` of the classic hash_text mistakes."""
    yield (
        ["HASH-3"],
        "normalises to NFC before hashing",
        _sha(unicodedata.normalize("NFC", text).encode("utf-8", "surrogatepass")),
    )
    yield (
        ["HASH-3"],
        "normalises to NFKC before hashing",
        _sha(unicodedata.normalize("NFKC", text).encode("utf-8", "surrogatepass")),
    )
    yield ["HASH-1"], "hashes UTF-16 code units", _sha(text.encode("utf-16-le", "surrogatepass"))


def _sha(data: bytes) -> str:
    """SHA-256 hex digest."""
    return hashlib.sha256(data).hexdigest()


def _double_words(data: dict[str, Any]) -> str:
    """``words`` with ``start + i`` in doubles: past 2**53 - 1 it rounds (HAZ-11)."""
    start, word = data.get("start", 0), data.get("word", "w")
    return " ".join(f"{word}{int(float(start) + float(i))}" for i in range(data["n"]))


def _window_model(
    data: dict[str, Any], *, utf16: bool = False, scrap: bool = False, blank: bool = False
) -> list[dict[str, Any]]:
    """Character windows (WIN rules) as records, with one mistake swappable: UTF-16
    offsets (HAZ-12), a trailing scrap window (WIN-6), windows of a blank text (SOURCE-7)."""
    text, size, overlap = data["text"], data["max_tokens"], data["overlap_tokens"]
    units = text.encode("utf-16-le", "surrogatepass")
    n = len(units) // 2 if utf16 else len(text)

    def cut(a: int, b: int) -> str:
        if not utf16:
            return str(text[a:b])
        return str(units[2 * a : 2 * b].decode("utf-16-le", "surrogatepass"))

    if not text.strip() and not blank:
        return []
    step, out, i = size - overlap, [], 0
    while i < n:
        piece = cut(i, i + size)
        out.append((i, min(i + size, n), piece))
        if i + size >= n and not scrap:
            break
        i += step
    return keyed_rows(
        [
            record_object(
                data["doc_id"],
                k,
                piece,
                (a, b),
                title=data["title"],
                strategy=f"window:max_tokens={size},overlap_tokens={overlap}",
            )
            for k, (a, b, piece) in enumerate(out)
        ]
    )


def _cuts_astral(data: dict[str, Any]) -> bool:
    """True when UTF-16 windows of this ``chunk`` input hold a lone surrogate (HAZ-12)."""
    try:
        pieces = _window_model(data, utf16=True)
    except (KeyError, TypeError, ValueError, AttributeError):
        return False
    return any(_LONE.search(p["text"]) for p in pieces)


_WINDOW_TRAPS: list[tuple[str, list[str], Callable[[dict[str, Any]], Any]]] = [
    (
        "indexes UTF-16 code units (JavaScript slice and length)",
        ["WIN-9"],
        lambda d: _window_model(d, utf16=True),
    ),
    (
        "keeps stepping after a window reached the end (a trailing scrap)",
        ["WIN-6"],
        lambda d: _window_model(d, scrap=True),
    ),
    ("gives windows for a blank text", ["SOURCE-7"], lambda d: _window_model(d, blank=True)),
]


def _trap(
    op: str, data: dict[str, Any], expected: Any, actual: Any
) -> tuple[list[str], str] | None:
    """Return ``(rules, mistakes)`` of the known mistakes whose answer is ``actual``.

    When several match, a mistake whose rules include another match's rules is dropped:
    the narrower diagnosis names the broken rule.
    """
    found = list(_traps(op, data, expected, actual))
    # A JavaScript hazard's model explains the answer from the language; a logic slip
    # that happens to give the same answer on this input is the less likely reading.
    hazards = [(rules, mistake) for rules, mistake in found if _is_hazard(mistake)]
    found = hazards or found
    found = [
        (rules, mistake)
        for rules, mistake in found
        if not any(set(other) < set(rules) for other, _ in found)
    ]
    if not found:
        return None
    rules = list(dict.fromkeys(rule for rules, _ in found for rule in rules))
    return rules, " or ".join(dict.fromkeys(mistake for _, mistake in found))


def _is_hazard(mistake: str) -> bool:
    """True for the models of a JavaScript hazard (HAZ rules)."""
    return any(
        word in mistake
        for word in ("JavaScript", "split(/", "UTF-16", "localeCompare", "subtracting",
                     "sign-aware", "CRLF", "doubles", "Node")
    )  # fmt: skip


def mistakes(op: str, data: dict[str, Any], expected: Any) -> Iterator[tuple[str, list[str], Any]]:
    """Yield ``(mistake, rules, answer)``: the answer a port with each modelled mistake gives
    for ``data`` (``expected`` is the oracle's answer, which some models start from). A
    model that cannot run on this input yields nothing."""
    try:
        if op == "split_section":
            text, max_tokens = data["text"], decode_number(data["max_tokens"])
            for mistake, rules, swap in _SPLIT_TRAPS:
                yield mistake, rules, _chunks(data, _split_model(text, max_tokens, **swap))
            crlf = _chunks(data, _split_model(text.replace("\r\n", "\n"), max_tokens))
            yield "normalises CRLF to LF", ["SPLIT-11"], crlf
        elif op == "assemble":
            for mistake, rules, options in _ASSEMBLE_TRAPS:
                yield mistake, rules, _assemble_model(data, **options)
        elif op == "count_tokens":
            for mistake, rules, count in _COUNT_TRAPS:
                yield mistake, rules, count(data["text"])
        elif op == "hash_text":
            for rules, mistake, digest in _hash_models(data["text"]):
                yield mistake, rules, digest
        elif op == "render":
            c = data["c"]
            yield (
                "trims the text with JavaScript trim()",
                ["RENDER-1"],
                f"[{c['id']}] {c['title']}\n{_js_trim(c['text'])}",
            )
        elif op == "chunk":
            for mistake, rules, model in _WINDOW_TRAPS:
                yield mistake, rules, model(data)
        elif op in MARKDOWN_OPS:
            yield from markdown_mistakes(op, data, expected)
        elif op in _WINDOW_OPS:
            yield from window_traps(op, data)
        elif op == "pack_records":
            yield from pack_traps(data)
        elif op == "read_html":
            yield from html_mistakes(data, expected)
        elif op == "chunk_code":
            yield from code_mistakes(data, expected)
        elif op == "chunk_document":
            yield from document_mistakes(data, expected)
        elif op == "words":
            yield (
                "adds start + i in doubles, which round past 2**53 - 1",
                ["WORDS-1"],
                _double_words(data),
            )
    except (KeyError, TypeError, ValueError, AttributeError, UnicodeError, OverflowError):
        return


def _traps(
    op: str, data: dict[str, Any], expected: Any, actual: Any
) -> Iterator[tuple[list[str], str]]:
    """Yield ``(rules, mistake)`` for each known mistake whose answer is ``actual``."""
    for mistake, rules, model in mistakes(op, data, expected):
        if (
            first_difference(model, actual) is None
            and first_difference(model, expected) is not None
        ):
            yield rules, mistake


#: The ops whose models and rules are in ``windows._windows_blame``.
_WINDOW_OPS = ("token_windows", "chunk_pages", "split_sentences")


def _error_rules(op: str, data: dict[str, Any], argument: str) -> list[str]:
    """The rules about the argument an error names (or should name)."""
    if op in MARKDOWN_OPS:
        return markdown_error_rules(op, argument)
    if op == "read_html":
        return html_error_rules(argument)
    if op == "chunk_code":
        return code_error_rules(argument)
    if op == "chunk_document":
        return document_error_rules(argument)
    if op in _WINDOW_OPS:
        return _generic_error_rules(
            error_rules(op, argument, _argument_value(data, argument)), argument
        )
    base = {
        "split_section": ["SPLIT-12"],
        "assemble": ["PACK-10"],
        "count_tokens": ["TOK-1"],
        "hash_text": ["HASH-2"],
        "render": ["RENDER-1"],
        "words": ["WORDS-2"],
        "chunk": ["WIN-1"],
        "validate_record": ["RECORD-7"],
        "pack_records": ["CTX-15"],
    }[op]
    leaf = argument.rsplit(".", 1)[-1] if argument else ""
    if op == "chunk" and leaf in ("max_tokens", "overlap_tokens"):
        base = [*base, "WIN-2" if leaf == "max_tokens" else "WIN-3"]
    return _generic_error_rules(base, argument)


def _generic_error_rules(base: list[str], argument: str) -> list[str]:
    """``base`` and the porting rules of the argument's kind (PORT-1, PORT-2, PACK-5)."""
    leaf = argument.rsplit(".", 1)[-1] if argument else ""
    if leaf in ("score", "min_score"):
        base = [*base, "PACK-5"]
    if leaf in NUMERIC_FIELDS - {"score", "min_score"}:
        base = [*base, "PORT-1"]
    if leaf in ("text", "title", "doc_id", "id"):
        base = [*base, "PORT-2"]
    return base


_STEP = re.compile(r"\.?([A-Za-z_]+)|\[(\d+)\]")


def _argument_value(data: dict[str, Any], argument: str) -> Any:
    """The value of ``argument`` (``chunks[1].score``) in the wire input, else None."""
    value: Any = data
    for name, index in _STEP.findall(argument):
        try:
            value = value[int(index)] if index else value[name]
        except (KeyError, IndexError, TypeError, ValueError):
            return None
    return value


def _missed_check(data: dict[str, Any], argument: str, actual: Any) -> str:
    """Which hazard a port that answered where an error was due fell into, if known."""
    value = decode_number(_argument_value(data, argument)) if argument else None
    if isinstance(value, str) and _LONE.search(value):
        if isinstance(actual, str) and actual == _sha(_node_utf8(value)):
            return "; the answer is Node's hash of U+FFFD for the lone surrogate (HAZ-4)"
        return "; the port does not reject a lone surrogate (HAZ-4)"
    if isinstance(value, float) and value == 0 and math.copysign(1.0, value) < 0:
        return "; the port takes -0.0 for the integer 0 (HAZ-6)"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_SAFE_INTEGER:
        return "; the port does not bound integers at 2**53 - 1 (HAZ-9)"
    if isinstance(value, bool):
        return "; the port takes a boolean for a number"
    return ""


#: How a diagnosis that names the broken rule itself begins (a model, the rule checks).
_DECIDED = ("the answer is what a port gives that", "decided by the rules' own checks")


def blame(
    op: str,
    data: dict[str, Any],
    expected: dict[str, Any],
    outcome: str,
    field: str,
    actual: Any,
    declared: Sequence[str] = (),
) -> tuple[list[str], str]:
    """Return ``(rules, explanation)`` for a failed case.

    A wrong answer decided by a model of a known mistake or by the rules' own checks is
    blamed on those rules, a vector's or not. Otherwise a vector's ``declared`` rules win:
    the diagnosis narrows them when it names some of them, and is only reported beside them
    otherwise. An empty list means the kit cannot tell which rule is broken, and the
    explanation says so.
    """
    if op == "validate_record" and outcome == "wrong" and "ok" in expected:
        # CONF-17: the vector's rules are the schema's (RECORD-7) and the field's.
        loose = expected["ok"] is False
        why = (
            "the port's record schema is too loose: it accepts a record that breaks the schema"
            if loose
            else "the port's record schema is too strict: it rejects a valid record"
        )
        return list(declared) or ["RECORD-7"], why
    rules, why = _diagnose(op, data, expected, outcome, field, actual)
    if not declared:
        return rules, why
    if outcome == "wrong" and rules and why.startswith(_DECIDED):
        return rules, why
    narrowed = [rule for rule in rules if rule in declared]
    if narrowed:
        return narrowed, why
    if outcome == "rejected" and rules:
        # A valid input refused: the bound the port checks breaks the argument's rules,
        # whatever else the vector exercises.
        return [*declared, *(r for r in rules if r not in declared)], (
            f"{why}; blamed on the vector's rules and the rejected argument's"
        )
    if outcome not in ("wrong", "rejected"):
        return list(declared), why
    return list(declared), f"{why}; blamed on the vector's rules"


def _diagnose(
    op: str, data: dict[str, Any], expected: dict[str, Any], outcome: str, field: str, actual: Any
) -> tuple[list[str], str]:
    """Blame without a vector's rules (CONF-9)."""
    if "error" in expected:
        argument = expected["error"].get("argument") or ""
        why = f"expected {expected['error']['kind']} naming {argument!r}"
        if field == "error":
            why += _missed_check(data, argument, actual)
        return _error_rules(op, data, argument), why
    if outcome == "rejected":
        if op == "chunk" and _cuts_astral(data):
            return ["WIN-9"], (
                "the port rejected a valid input: a window over UTF-16 code units cuts an "
                "astral character in two, leaving lone surrogates (HAZ-12)"
            )
        argument = actual.get("argument", "") if isinstance(actual, dict) else ""
        return _error_rules(op, data, argument), "the port rejected a valid input"
    if outcome != "wrong":
        return [], outcome
    found = _trap(op, data, expected["ok"], actual)
    broken = broken_rules(op, data, expected["ok"], actual)
    if found is not None:
        rules, mistake = found
        # A rule whose own check fails as well is another reading of the same answer
        # (JavaScript's trim() in the parser, MD-4, or in the blank test, HEAD-10).
        also = [(rule, what) for rule, what in broken if rule not in rules]
        why = f"the answer is what a port gives that {mistake}"
        if also:
            checks = "; ".join(f"{rule}: {what}" for rule, what in also)
            why += f"; the rules' own checks fail too ({checks})"
        return [*rules, *(rule for rule, _ in also)], why
    if op == "read_html":
        pinned = html_diagnosis(data, expected["ok"], actual)
        if pinned is not None:
            return pinned
    if broken:
        checks = "; ".join(f"{rule}: {what}" for rule, what in broken)
        return [rule for rule, _ in broken], (
            f"decided by the rules' own checks, which fail on the port's answer and hold on "
            f"chunkspec's ({checks})"
        )
    where = f"first difference at {field}"
    rules = _by_field(op, data, field, expected["ok"], actual)
    if not rules:
        return [], (
            "cannot tell which rule is broken (no known mistake gives this answer and no "
            f"rule's check separates the answers); {where}: expected "
            f"{_short(_at(expected['ok'], field))}, got {_short(_at(actual, field))}"
        )
    return rules, where


_PATH = re.compile(r"\.([A-Za-z_]+)|\[(\d+)\]")


def _at(value: Any, field: str) -> Any:
    """The value at a first-difference path (``$[0].text``), or None when it is missing."""
    for name, index in _PATH.findall(field):
        try:
            if name == "length" and isinstance(value, list):
                value = len(value)
                continue
            value = value[int(index)] if index else value[name]
        except (KeyError, IndexError, TypeError, ValueError):
            return None
    return value


def _short(value: Any) -> str:
    """``value`` as ASCII JSON, cut to 80 characters."""
    import json

    text = json.dumps(value, ensure_ascii=True, default=str)
    return text if len(text) <= 80 else text[:77] + "..."


def _by_field(op: str, data: dict[str, Any], field: str, expected: Any, actual: Any) -> list[str]:
    """The rules a differing field alone pins down; [] when it does not."""
    leaf = re.sub(r"\[\d+\]", "", field).rsplit(".", 1)[-1]
    if op == "split_section":
        return {
            "tokens": ["TOK-1", "SPLIT-9"],
            "content_hash": ["HASH-1", "SPLIT-9"],
            "id": ["SPLIT-9"],
            "doc_id": ["SPLIT-9"],
            "title": ["SPLIT-9"],
            "score": ["SPLIT-9"],
        }.get(leaf, [])
    if op == "assemble":
        return _assemble_by_field(data, expected, actual)
    if op in MARKDOWN_OPS:
        return markdown_by_field(op, expected, actual)
    if op in _WINDOW_OPS:
        return field_rules(op, leaf)
    if op == "pack_records":
        return pack_field_rules(leaf)
    if op == "read_html":
        return html_field_rules(field)
    if op == "chunk_code":
        return code_field_rules(field)
    if op == "chunk_document":
        return document_field_rules(leaf)
    if op == "chunk":
        return {
            "tokens": ["RECORD-14"],
            "content_hash": ["RECORD-2"],
            "strategy": ["RECORD-6"],
            "metadata": ["META-4"],
            "counter": ["RECORD-5"],
            "kind": ["RECORD-4"],
            "id": ["RECORD-2"],
            "index": ["RECORD-2"],
            "doc_id": ["RECORD-1"],
            "title": ["RECORD-1"],
            "oversized": ["RECORD-14"],
            "end": ["RECORD-3"],
            "start": ["WIN-5"],
        }.get(leaf, [])
    return {
        "count_tokens": ["TOK-1"],
        "hash_text": ["HASH-1"],
        "render": ["RENDER-1"],
        "words": ["WORDS-1"],
    }.get(op, [])


def _assemble_by_field(data: dict[str, Any], expected: Any, actual: Any) -> list[str]:
    """PACK-9 when the ids agree; when they are the same chunks in another order, PACK-2 if
    the first two out of order tie in score, else PACK-1; else [] (cannot tell)."""
    want, got = _ids(expected), _ids(actual)
    if actual is not None and (got is None or not isinstance(actual.get("context"), str)):
        return ["CONF-3"]  # not null and not {"context", "ids"}: not the wire form
    if want is None or got is None:
        return []
    if want == got:
        return ["PACK-9"]
    if sorted(want) != sorted(got):
        return []
    k = next(i for i, (a, b) in enumerate(zip(want, got, strict=True)) if a != b)
    scores: dict[str, set[float]] = {}
    for c in data.get("chunks", []):
        try:
            scores.setdefault(str(c["id"]), set()).add(float(decode_number(c.get("score", 0.0))))
        except (KeyError, TypeError, ValueError, AttributeError):
            return ["PACK-1", "PACK-2"]
    first, second = scores.get(want[k], set()), scores.get(got[k], set())
    if len(first) != 1 or len(second) != 1:
        return ["PACK-1", "PACK-2"]
    return ["PACK-2"] if first == second else ["PACK-1"]


def _ids(answer: Any) -> list[str] | None:
    """The ids of an assemble answer, if it has the right shape."""
    if isinstance(answer, dict) and isinstance(answer.get("ids"), list):
        return [str(i) for i in answer["ids"]]
    return None
