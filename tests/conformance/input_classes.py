"""The input classes each operation's rules talk about, and how often the generators draw them
(CONF-13).

A class is a predicate over a case's wire input, the rules that speak of it, and the least
share of generated cases that fall into it in each profile (``None``: the profile never draws
it on purpose). tests/conformance/test_conformance_classes.py draws the default run's cases and
fails when a class is drawn less often than stated, so a rule's inputs cannot silently drop out
of the generators.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from chunkspec._code._grammar import parser_for
from chunkspec._code._languages import LANGUAGES
from chunkspec._core._tokens import WHITESPACE
from chunkspec._core._units import has_cluster_script
from chunkspec._text._sentences import CLOSERS, TERMINATORS

__all__ = ["CLASSES", "InputClass", "classes_table"]

MAX_SAFE = 2**53 - 1

Test = Callable[[dict[str, Any]], bool]


@dataclass(frozen=True)
class InputClass:
    """One class of inputs: its name, its rules, its least share per profile, its test."""

    name: str
    rules: tuple[str, ...]
    portable: float | None
    hazards: float | None
    test: Test


#: Python whitespace that JavaScript's /\s/ does not match, and the reverse (WS-1, HAZ-1).
_PY_ONLY = "".join(
    sorted(
        set(WHITESPACE)
        - set(" \t\n\x0b\x0c\r\xa0\u1680\u2028\u2029\u202f\u205f\u3000")
        - {chr(c) for c in range(0x2000, 0x200B)}
    )
)
_JS_ONLY = "\ufeff"
_LONE = re.compile("[\ud800-\udfff]")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_CLOSER = "".join(sorted(CLOSERS))
_NON_ASCII_TERMINATOR = "".join(sorted(TERMINATORS - set(".!?")))
#: A PAGE-9 mark followed by closers and then whitespace: not a sentence end (the last
#: non-whitespace character is the closer).
_MARK_CLOSER = re.compile(f"[.?!][{re.escape(_CLOSER)}]+\\s")
_UNICODE_MARK = re.compile(f"[{re.escape(_NON_ASCII_TERMINATOR)}]\\s")
_MARK_NO_SPACE = re.compile(r"[.?!][^\s.?!\"')\]}]")
#: A blank line after a word that ends no sentence.
_BLANK_LINE = re.compile(r"[^\s.?!][ \t]*\n[ \t]*\n")


#: A paragraph line underlined by ``===`` or ``---``: a setext heading (MD-5, HEAD-2).
_SETEXT_LINES = re.compile(r"^[^\s#>|`~-][^\r\n]*\r?\n(?:===|---)[ \t]*$", re.MULTILINE)


def _str(data: Any, *path: Any) -> str:
    """The string at ``path`` in ``data``, else ''."""
    value = data
    for key in path:
        try:
            value = value[key]
        except (KeyError, IndexError, TypeError):
            return ""
    return value if isinstance(value, str) else ""


def _text(data: dict[str, Any]) -> str:
    """The case's text: ``text``, or its pages joined by form feeds."""
    pages = data.get("pages")
    if isinstance(pages, list):
        return "\f".join(p for p in pages if isinstance(p, str))
    return _str(data, "text")


def _scripts(data: dict[str, Any]) -> bool:
    """True when the text holds a character of SCRIPT-2's table (SCRIPT-6 applies)."""
    return has_cluster_script(_text(data))


def _has(chars: str) -> Test:
    """True when the text holds any of ``chars``."""
    return lambda d: any(c in _text(d) for c in chars)


def _matches(pattern: re.Pattern[str]) -> Test:
    """True when ``pattern`` occurs in the text."""
    return lambda d: pattern.search(_text(d)) is not None


def _int(data: dict[str, Any], key: str) -> int | None:
    """The argument if it is a valid int (not a bool), else None."""
    value = data.get(key)
    return value if type(value) is int else None


def _longer(data: dict[str, Any]) -> bool:
    """More whitespace tokens than ``max_tokens``: the text takes more than one window."""
    size = _int(data, "max_tokens")
    return size is not None and 0 < size < len(_text(data).split())


#: The integer arguments ``_bad`` knows.
_INT_ARGUMENTS = ("max_tokens", "budget", "n", "start")


def _bad(*keys: str) -> Test:
    """True when one of ``keys`` is not a valid int or string of its kind (an error is due)."""

    def test(data: dict[str, Any]) -> bool:
        for key in keys:
            if key not in data:
                continue
            value = data[key]
            if key in _INT_ARGUMENTS:
                if type(value) is not int or not 0 <= value <= MAX_SAFE:
                    return True
            elif not isinstance(value, str) or _LONE.search(value):
                return True
        return False

    return test


def _chunks(data: dict[str, Any]) -> list[dict[str, Any]]:
    """assemble's chunks that are objects."""
    chunks = data.get("chunks")
    return [c for c in chunks if isinstance(c, dict)] if isinstance(chunks, list) else []


def _tied_ids(data: dict[str, Any]) -> bool:
    """Two chunks with the same score and different ids (PACK-2's tie order)."""
    seen: dict[str, set[str]] = {}
    for c in _chunks(data):
        seen.setdefault(repr(c.get("score")), set()).add(repr(c.get("id")))
    return any(len(ids) > 1 for ids in seen.values())


def _utf16_order(data: dict[str, Any]) -> bool:
    """An astral id and a BMP id at or past U+E000 in one case (HAZ-2)."""
    ids = [str(c.get("id")) for c in _chunks(data)]
    return any(_ASTRAL.search(i) for i in ids) and any(
        any("\ue000" <= ch <= "\uffff" for ch in i) for i in ids
    )


def _duplicate_hashes(data: dict[str, Any]) -> bool:
    """Two chunks with the same content hash (PACK-6)."""
    hashes = [repr(c.get("content_hash")) for c in _chunks(data)]
    return len(hashes) != len(set(hashes))


def _at_min_score(data: dict[str, Any]) -> bool:
    """A chunk whose score equals min_score (PACK-4's boundary)."""
    least = data.get("min_score", 0.35)
    return any(
        c.get("score") == least and type(c.get("score")) is type(least) for c in _chunks(data)
    )


def _over_then_fits(data: dict[str, Any]) -> bool:
    """A chunk over the whole budget before a chunk that fits (PACK-7: skip, not stop)."""
    budget = _int(data, "budget")
    if budget is None:
        return False
    tokens = [c.get("tokens") for c in _chunks(data)]
    big = [k for k, t in enumerate(tokens) if type(t) is int and t > budget]
    return bool(big) and any(type(t) is int and t <= budget for t in tokens[big[0] + 1 :])


def _scores(*values: Any) -> Test:
    """A chunk whose score is one of ``values`` (by repr, so -0.0 is not 0.0)."""
    wanted = {repr(v) for v in values}
    return lambda d: any(repr(c.get("score")) in wanted for c in _chunks(d))


def _words_past_safe(data: dict[str, Any]) -> bool:
    """words with start + n - 1 at or past 2**53 - 1 - 8 (HAZ-11)."""
    start, n = _int(data, "start"), _int(data, "n")
    return start is not None and n is not None and start + n >= MAX_SAFE - 8


def _render_edges(data: dict[str, Any]) -> bool:
    """A chunk field with whitespace at an edge that render keeps (RENDER-1)."""
    chunk = data.get("c")
    fields = [chunk.get(k) for k in ("title", "text")] if isinstance(chunk, dict) else []
    return any(isinstance(v, str) and v != v.strip() for v in fields)


def _lines(pattern: str) -> Test:
    """A Markdown line (multiline regex) in the text."""
    compiled = re.compile(pattern, re.MULTILINE)
    return lambda d: compiled.search(_text(d)) is not None


def _oversized_code(data: dict[str, Any]) -> bool:
    """A fenced code block with more whitespace tokens than max_tokens (MD-9)."""
    size = _int(data, "max_tokens")
    if size is None:
        return False
    for block in re.findall(r"^```[^\n]*\n(.*?)^```", _text(data), re.MULTILINE | re.DOTALL):
        if len(("```\n" + block + "```").split()) > size:
            return True
    return False


def _oversized_table(data: dict[str, Any]) -> bool:
    """A table with more whitespace tokens than max_tokens (MD-9)."""
    size = _int(data, "max_tokens")
    rows = re.findall(r"(?:^\|.*\|[ \t]*\r?\n?)+", _text(data), re.MULTILINE)
    return size is not None and any(len(t.split()) > size and t.count("|---") for t in rows)


def _heading_levels_back(data: dict[str, Any]) -> bool:
    """A heading followed later by one of a higher level (HEAD-3, HEAD-4: the path pops)."""
    levels = [len(m) for m in re.findall(r"^(#{1,6}) ", _text(data), re.MULTILINE)]
    return any(b < a for a, b in itertools.pairwise(levels))


def _overlap(least: int) -> Test:
    """overlap_tokens given and at least ``least``."""
    return lambda d: (_int(d, "overlap_tokens") or 0) >= least


def _default_overlap(data: dict[str, Any]) -> bool:
    """chunk_pages with no overlap_tokens (RECORD-13's default)."""
    return "overlap_tokens" not in data or data["overlap_tokens"] is None


def _huge_default(data: dict[str, Any]) -> bool:
    """The default overlap of a budget at or past 2**31 (RECORD-13)."""
    size = _int(data, "max_tokens")
    return _default_overlap(data) and size is not None and 2**31 <= size <= MAX_SAFE


def _pages(test: Callable[[list[Any]], bool]) -> Test:
    """A test over the pages list."""
    return lambda d: isinstance(d.get("pages"), list) and test(d["pages"])


def _astral_before_cut(data: dict[str, Any]) -> bool:
    """An astral character right before whitespace or at a token's end (HAZ-12, HAZ-15)."""
    return re.search("[\U00010000-\U0010ffff]", _text(data)[:-1]) is not None


_SETEXT = _matches(_SETEXT_LINES)

#: A document in a script written without spaces: the whitespace counter counts unicode units.
_SCRIPTS = InputClass(
    "a script written without spaces (unicode units)",
    ("SCRIPT-6", "SCRIPT-8"),
    None,
    0.05,
    _scripts,
)

_COMMON_STR = [
    InputClass("lone surrogate in a string", ("PORT-2",), None, 0.03, _has("\ud800\udfff\udc00")),
]


def _names(*keys: str) -> list[InputClass]:
    """Classes of the name arguments: edge whitespace kept as given (RECORD-1, SPLIT-9)."""
    return [
        InputClass(
            "a name with whitespace at an edge",
            ("RECORD-1", "SPLIT-9"),
            0.2,
            0.2,
            lambda d: any(_str(d, k) != _str(d, k).strip() for k in keys),
        )
    ]


_WS = [
    InputClass(
        "whitespace JavaScript's /\\s/ lacks (U+001C, U+0085)",
        ("WS-1", "HAZ-1"),
        None,
        0.05,
        _has(_PY_ONLY),
    ),
    InputClass(
        "U+FEFF (JavaScript whitespace, not Python's)",
        ("WS-1", "HAZ-1"),
        None,
        0.05,
        _has(_JS_ONLY),
    ),
]


def _records(data: dict[str, Any]) -> list[dict[str, Any]]:
    """A pack_records case's records that are objects."""
    records = data.get("records")
    return [r for r in records if isinstance(r, dict)] if isinstance(records, list) else []


def _spans(touching: bool) -> Test:
    """Two records of one document overlap (or, ``touching``, one ends where the next starts)."""

    def test(data: dict[str, Any]) -> bool:
        spans: dict[Any, list[tuple[Any, Any]]] = {}
        for r in _records(data):
            spans.setdefault(r.get("doc_id"), []).append((r.get("start"), r.get("end")))
        for found in spans.values():
            for (s1, e1), (s2, e2) in itertools.combinations(found, 2):
                if not all(type(v) is int for v in (s1, e1, s2, e2)):
                    continue
                if touching and (e1 == s2 or e2 == s1):
                    return True
                if not touching and s1 < e2 and s2 < e1:
                    return True
        return False

    return test


def _any_record(test: Callable[[dict[str, Any]], bool]) -> Test:
    """Some record passes ``test``."""
    return lambda data: any(test(r) for r in _records(data))


def _shared_source(data: dict[str, Any]) -> bool:
    """Two documents' records carry the same text (duplicate content, CTX-7)."""
    seen: dict[Any, Any] = {}
    for r in _records(data):
        text, doc = r.get("text"), r.get("doc_id")
        if isinstance(text, str) and seen.setdefault(text, doc) != doc:
            return True
    return False


def _pack_at_min_score(data: dict[str, Any]) -> bool:
    """A score equals the given min_score (CTX-6)."""
    scores = data.get("scores")
    return isinstance(scores, list) and "min_score" in data and data["min_score"] in scores


def _best(data: dict[str, Any]) -> dict[str, Any] | None:
    """The best-scored record, when records and scores are well formed."""
    records, scores = _records(data), data.get("scores")
    if not records or not isinstance(scores, list) or len(scores) != len(records):
        return None
    if not all(type(s) in (int, float) for s in scores):
        return None
    return records[max(range(len(records)), key=lambda k: scores[k])]


def _best_over(data: dict[str, Any]) -> bool:
    """The best-scored record does not fit the budget whole (CTX-19)."""
    best, budget = _best(data), data.get("budget")
    tokens = None if best is None else best.get("tokens")
    return type(budget) is int and type(tokens) is int and tokens + 1 > budget


def _prefixed_best_tight(data: dict[str, Any]) -> bool:
    """The best-scored record carries a prefix and the budget is 2 or 3 (trim spent, CTX-19)."""
    best = _best(data)
    return best is not None and bool(best.get("prefix")) and data.get("budget") in (2, 3)


def _pack_bad(data: dict[str, Any]) -> bool:
    """An option out of range (CTX-15)."""
    budget = data.get("budget")
    return (
        type(budget) is not int
        or budget < 0
        or not isinstance(data.get("scores"), list)
        or len(data["scores"]) != len(_records(data))
        or any(type(data.get(k, True)) is not bool for k in ("titles", "trim"))
        or data.get("order", "reading") not in ("reading", "score")
        or data.get("counter", "whitespace") not in ("whitespace", "unicode", "chars4")
        or data.get("expand", 0.5) == 0
        or data.get("min_score") == "NaN"
    )


#: read_html: a tag (start or end) outside comments, and the elements the stack ignores.
_HTML_TAG = re.compile(r"<!--.*?(?:-->|$)|<(/?)([A-Za-z][A-Za-z0-9]*)[^>]*>|</>", re.DOTALL)
_VOID = frozenset({"br", "hr", "img", "meta", "input", "link", "wbr", "area", "col", "embed"})
_FORMATTING = frozenset({"a", "b", "em", "font", "i", "nobr", "strong", "u", "s"})
_IMPLICIT = frozenset({"html", "head", "body"})


def _nesting(markup: str) -> tuple[bool, bool, bool]:
    """``(unclosed, misnested, stray)`` of a page's tags read as written (no parser): a tag
    left open at the end or reopened while open (HTML-6's implied end tags), an end tag
    crossing an open formatting element or a formatting end tag crossing an open block
    (the adoption agency), an end tag with nothing of its name open."""
    stack: list[str] = []
    unclosed = misnested = stray = False
    for match in _HTML_TAG.finditer(markup):
        if match.group(0) == "</>":
            stray = True
            continue
        name = (match.group(2) or "").lower()
        if not name or name in _VOID or name in _IMPLICIT:
            continue
        if not match.group(1):
            if name in stack and name in ("p", "li", "td", "th", "tr", "dt", "dd", "a", "nobr"):
                unclosed = True
            stack.append(name)
            continue
        if name not in stack:
            stray = True
            continue
        k = len(stack) - 1 - stack[::-1].index(name)
        above = stack[k + 1 :]
        if any(t in _FORMATTING for t in above) or (name in _FORMATTING and above):
            misnested = True
        elif above:
            unclosed = True
        del stack[k:]
    return unclosed or bool(stack), misnested, stray


def _markup(data: dict[str, Any]) -> str:
    """A read_html case's markup ("" when it is not a str)."""
    value = data.get("markup")
    return value if isinstance(value, str) else ""


def _nested(which: int, want: bool = True) -> Test:
    """A page whose :func:`_nesting` part ``which`` is ``want``."""
    return lambda d: _nesting(_markup(d))[which] is want


def _well_formed(data: dict[str, Any]) -> bool:
    """Tags balanced and nested as written, no comment, reference, CR, NUL or astral."""
    m = _markup(data)
    return (
        bool(m)
        and _nesting(m) == (False, False, False)
        and not re.search(r"<[!?]|&|[\r\x00]|[\U00010000-\U0010ffff]", m.replace("<!DOCTYPE", ""))
    )


_TABLE_TEXT = re.compile(
    r"<(?:table|tbody|tr)[^>]*>\s*(?:[^<\s]|<(?!t[dhr]|/|caption|thead|tbody|tfoot|col))|</t(?:r|body)>\s*[^<\s]"
)


#: chunk_code: brackets or braces nested N levels, spaced (the generator's deep nesting).
def _nesting_at_least(levels: int) -> Test:
    pattern = re.compile(f"(?:[\\[({{]\\s){{{levels}}}")
    return lambda d: isinstance(d.get("text"), str) and bool(pattern.search(d["text"]))


def _code_text(data: dict[str, Any]) -> str:
    """A chunk_code case's text ("" when it is not a str)."""
    value = data.get("text")
    return value if isinstance(value, str) else ""


def _syntax_error(data: dict[str, Any]) -> bool:
    """CODE-3: the text's tree has an error or a missing node (parsed as Python's side does)."""
    language, text = data.get("language"), _code_text(data)
    if not isinstance(language, str) or language not in LANGUAGES or _LONE.search(text):
        return False
    tree = parser_for(language).parse(text.encode("utf-8"))
    return bool(tree.root_node.has_error)


def _bad_code_argument(data: dict[str, Any]) -> bool:
    """An argument of chunk_code outside its type or range (CONF-10)."""
    return (
        not isinstance(data.get("text"), str)
        or (data.get("language") is not None and data.get("language") not in LANGUAGES)
        or type(data.get("max_tokens")) is not int
        or data.get("max_tokens", 1) < 1
        or type(data.get("scope_prefix", False)) is not bool
        or data.get("counter", "whitespace") not in ("whitespace", "unicode", "chars8")
    )


def _language_class(name: str) -> InputClass:
    return InputClass(
        f"a {name} program", ("CODE-1", "CODE-7"), 0.05, 0.05, lambda d: d.get("language") == name
    )


def _document_text(data: dict[str, Any]) -> str:
    """A chunk_document case's file ("" when it is not a str)."""
    text = data.get("text")
    return text if isinstance(text, str) else ""


def _front_matter_window(data: dict[str, Any]) -> bool:
    """A file opening with front matter and holding a heading, under window or pages."""
    text = _document_text(data)
    windows = data.get("strategy") in ("window", "pages")
    return windows and text.startswith(("---\n", "+++\n")) and "\n#" in text


#: Every op's input classes (CONF-13).
CLASSES: dict[str, list[InputClass]] = {
    "chunk_document": [
        InputClass(
            "a file opening with front matter",
            ("FM-2", "META-3", "SOURCE-5"),
            0.6,
            0.6,
            lambda d: _document_text(d).startswith(("---\n", "+++\n")),
        ),
        InputClass(
            "window or pages over a file with front matter and a heading",
            ("NPM-5", "FM-2", "RECORD-12"),
            0.15,
            0.15,
            _front_matter_window,
        ),
        InputClass(
            "input_format left out (markdown)",
            ("NPM-5",),
            0.5,
            0.5,
            lambda d: "input_format" not in d,
        ),
        InputClass(
            "input_format text", ("NPM-5",), 0.15, 0.15, lambda d: d.get("input_format") == "text"
        ),
        InputClass(
            "an access key in a form FM-3 cannot read",
            ("TRUST-3",),
            0.05,
            0.05,
            lambda d: "acl_labels:\n  - hr" in _document_text(d),
        ),
        InputClass(
            "a page break", ("SOURCE-4", "FM-2"), 0.15, 0.15, lambda d: "\f" in _document_text(d)
        ),
        InputClass(
            "a setext title opened by a line of NBSP",
            ("RECORD-12",),
            None,
            0.1,
            lambda d: "\n\u00a0\nTitle\n===" in _document_text(d),
        ),
    ],
    "chunk_code": [
        *(_language_class(name) for name in LANGUAGES),
        InputClass(
            "no language", ("CODE-3", "CODE-4"), 0.2, 0.1, lambda d: d.get("language") is None
        ),
        InputClass("a syntax error", ("CODE-3", "CODE-4"), 0.15, 0.12, _syntax_error),
        InputClass(
            "nested 40 levels or more", ("CODE-3", "CODE-6"), 0.18, 0.1, _nesting_at_least(40)
        ),
        InputClass("nested past 256 levels", ("CODE-3",), 0.12, 0.07, _nesting_at_least(257)),
        InputClass(
            "a budget of at most 9 tokens",
            ("CODE-6", "CODE-9"),
            0.4,
            0.4,
            lambda d: type(d.get("max_tokens")) is int and d["max_tokens"] <= 9,
        ),
        InputClass(
            "scope_prefix true", ("CODE-8",), 0.18, 0.15, lambda d: d.get("scope_prefix") is True
        ),
        InputClass(
            "the unicode or chars8 counter",
            ("CODE-6", "SCRIPT-6"),
            0.25,
            0.2,
            lambda d: d.get("counter") in ("unicode", "chars8"),
        ),
        InputClass(
            "non-ASCII identifiers, strings or comments",
            ("CODE-2", "PORT-2"),
            None,
            0.2,
            lambda d: not _code_text(d).isascii(),
        ),
        InputClass(
            "astral characters",
            ("CODE-2", "CODE-7"),
            None,
            0.1,
            lambda d: bool(_ASTRAL.search(_code_text(d))),
        ),
        InputClass(
            "CRLF or CR line ends",
            ("CODE-4", "CODE-11"),
            None,
            0.12,
            lambda d: "\r" in _code_text(d),
        ),
        InputClass(
            "a lone surrogate",
            ("CODE-2", "HAZ-4"),
            None,
            0.1,
            lambda d: bool(_LONE.search(_code_text(d))),
        ),
        InputClass(
            "an argument of the wrong type or value",
            ("CODE-1", "CODE-6", "CODE-8"),
            0.01,
            0.01,
            _bad_code_argument,
        ),
    ],
    "read_html": [
        InputClass("well-formed markup", ("HTML-3", "HTML-8"), 0.1, 0.08, _well_formed),
        InputClass("unclosed tags", ("HTML-6", "HTML-8"), 0.3, 0.3, _nested(0)),
        InputClass("misnested inline tags", ("HTML-6", "HTML-19"), 0.08, 0.07, _nested(1)),
        InputClass("stray end tags", ("HTML-6", "HTML-19"), 0.2, 0.15, _nested(2)),
        InputClass(
            "a table with stray text or elements (foster parenting)",
            ("HTML-10", "HTML-19"),
            0.08,
            0.07,
            lambda d: bool(_TABLE_TEXT.search(_markup(d))),
        ),
        InputClass(
            "a comment, bogus comment or processing instruction",
            ("HTML-19",),
            0.1,
            0.08,
            lambda d: bool(re.search(r"<!--|<\?|<![a-z]", _markup(d))),
        ),
        InputClass("character references", ("HTML-19",), 0.1, 0.1, lambda d: "&" in _markup(d)),
        InputClass(
            "CRLF, CR or NUL",
            ("HTML-18", "HTML-19"),
            None,
            0.07,
            lambda d: bool(re.search("[\r\x00]", _markup(d))),
        ),
        InputClass(
            "astral characters",
            ("HTML-18", "SOURCE-2"),
            None,
            0.07,
            lambda d: bool(_ASTRAL.search(_markup(d))),
        ),
        InputClass(
            "a heading (HTML-7's permalink, HTML-9's br)",
            ("HTML-7", "HTML-9"),
            0.25,
            0.25,
            lambda d: bool(re.search(r"<h[1-6]|role=heading", _markup(d))),
        ),
        InputClass(
            "a table",
            ("HTML-10",),
            0.35,
            0.35,
            lambda d: "<table" in _markup(d) or "<td" in _markup(d),
        ),
        InputClass(
            "keep_furniture true",
            ("HTML-11",),
            0.15,
            0.15,
            lambda d: d.get("keep_furniture") is True,
        ),
        InputClass(
            "markup or keep_furniture of the wrong type",
            ("HTML-1", "HTML-11"),
            0.02,
            0.02,
            lambda d: (
                not isinstance(d.get("markup"), str)
                or type(d.get("keep_furniture", False)) is not bool
            ),
        ),
    ],
    "split_section": [
        InputClass(
            "a blank line (SPLIT-2's first separator)", ("SPLIT-2",), 0.3, 0.3, _has("\n\n")
        ),
        InputClass("more tokens than max_tokens", ("SPLIT-4", "SPLIT-5"), 0.3, 0.3, _longer),
        InputClass(
            "a blank text",
            ("SPLIT-10",),
            0.02,
            0.02,
            lambda d: "text" in d and isinstance(d["text"], str) and not d["text"].strip(),
        ),
        InputClass("CRLF", ("SPLIT-11", "HAZ-5"), None, 0.1, _has("\r")),
        *_WS,
        *_COMMON_STR,
        InputClass(
            "max_tokens at 2**53 - 1",
            ("PORT-1",),
            None,
            0.02,
            lambda d: d.get("max_tokens") in (MAX_SAFE, MAX_SAFE - 1),
        ),
        InputClass("a bad max_tokens", ("SPLIT-12", "PORT-1"), 0.1, 0.1, _bad("max_tokens")),
        *_names("doc_id", "title"),
    ],
    "assemble": [
        InputClass("tied scores with different ids", ("PACK-2",), 0.2, 0.3, _tied_ids),
        InputClass(
            "ids JavaScript orders differently (astral against U+E000..U+FFFF)",
            ("PACK-2", "HAZ-2"),
            None,
            0.03,
            _utf16_order,
        ),
        InputClass("duplicate content hashes", ("PACK-6",), 0.2, 0.2, _duplicate_hashes),
        InputClass("a score equal to min_score", ("PACK-4",), 0.05, 0.05, _at_min_score),
        InputClass(
            "a chunk over budget before one that fits", ("PACK-7",), 0.1, 0.1, _over_then_fits
        ),
        InputClass(
            "infinite scores", ("PACK-5", "HAZ-7"), None, 0.1, _scores("Infinity", "-Infinity")
        ),
        InputClass("-0.0 as a score", ("PACK-5", "HAZ-6"), None, 0.05, _scores(-0.0)),
        InputClass("no chunk", ("PACK-8",), 0.05, 0.05, lambda d: d.get("chunks") == []),
        InputClass("a bad budget", ("PACK-10", "PORT-1"), 0.03, 0.03, _bad("budget")),
    ],
    "count_tokens": [
        InputClass(
            "whitespace at an edge",
            ("TOK-1",),
            0.2,
            0.2,
            lambda d: _str(d, "text") != _str(d, "text").strip(),
        ),
        InputClass("an empty text", ("TOK-1",), 0.01, 0.01, lambda d: d.get("text") == ""),
        *_WS,
        *_COMMON_STR,
    ],
    "hash_text": [
        InputClass(
            "non-ASCII text", ("HASH-1",), 0.2, 0.2, lambda d: not _str(d, "text").isascii()
        ),
        InputClass("an astral character", ("HASH-1",), None, 0.05, _matches(_ASTRAL)),
        InputClass(
            "a text NFC would change",
            ("HASH-3",),
            None,
            0.02,
            lambda d: unicodedata.normalize("NFC", _str(d, "text")) != _str(d, "text"),
        ),
        *_COMMON_STR,
    ],
    "render": [
        InputClass(
            "whitespace at a title's or text's edge", ("RENDER-1",), 0.05, 0.05, _render_edges
        ),
        InputClass(
            "not a chunk", ("RENDER-1",), 0.02, 0.02, lambda d: not isinstance(d.get("c"), dict)
        ),
    ],
    "words": [
        InputClass("start + n near 2**53 - 1", ("WORDS-1", "HAZ-11"), None, 0.05, _words_past_safe),
        InputClass("a word given", ("WORDS-1",), 0.3, 0.3, lambda d: "word" in d),
        InputClass(
            "n = 0", ("WORDS-1",), 0.01, 0.01, lambda d: d.get("n") == 0 and type(d.get("n")) is int
        ),
        InputClass("a bad n or start", ("WORDS-2", "PORT-1"), 0.1, 0.1, _bad("n", "start")),
    ],
    "chunk": [
        InputClass(
            "more characters than max_tokens",
            ("WIN-5", "WIN-6"),
            0.3,
            0.3,
            lambda d: (_int(d, "max_tokens") or 10**9) < len(_text(d)),
        ),
        InputClass("an astral character", ("WIN-9", "HAZ-12"), None, 0.1, _astral_before_cut),
        InputClass(
            "a blank text",
            ("SOURCE-7",),
            0.02,
            0.02,
            lambda d: isinstance(d.get("text"), str) and not d["text"].strip(),
        ),
        InputClass(
            "overlap_tokens >= max_tokens",
            ("WIN-3",),
            0.05,
            0.05,
            lambda d: (_int(d, "overlap_tokens") or 0) >= (_int(d, "max_tokens") or 10**9),
        ),
        InputClass(
            "a boolean max_tokens",
            ("WIN-1",),
            0.005,
            0.005,
            lambda d: isinstance(d.get("max_tokens"), bool),
        ),
        *_COMMON_STR,
    ],
    "split_markdown": [
        _SCRIPTS,
        InputClass("CRLF or CR line endings", ("MD-2", "HAZ-13"), None, 0.5, _has("\r")),
        InputClass("a setext heading", ("MD-5",), 0.2, 0.2, _SETEXT),
        InputClass("a reference definition", ("MD-1",), 0.2, 0.2, _lines(r"^\[ref\]: ")),
        InputClass("a '#' line inside a fence", ("MD-1",), 0.2, 0.2, _lines(r"^```sh\r?\n# not")),
        InputClass("a fenced code block over max_tokens", ("MD-9",), 0.05, 0.05, _oversized_code),
        InputClass("a table over max_tokens", ("MD-9",), 0.05, 0.05, _oversized_table),
        InputClass(
            "U+FEFF or U+0085 lines", ("MD-4", "MD-8", "HAZ-17"), None, 0.2, _has("\ufeff\x85")
        ),
        InputClass("an astral character", ("RECORD-3", "HAZ-16"), None, 0.2, _matches(_ASTRAL)),
        InputClass(
            "split_tables or count_headings given",
            ("MD-9", "RECORD-6"),
            0.3,
            0.3,
            lambda d: "split_tables" in d or "count_headings" in d,
        ),
        InputClass("headings going back up a level", ("MD-7",), 0.3, 0.3, _heading_levels_back),
    ],
    "heading_aware": [
        _SCRIPTS,
        InputClass("CRLF or CR line endings", ("MD-2", "HAZ-13"), None, 0.5, _has("\r")),
        InputClass(
            "headings going back up a level", ("HEAD-3", "HEAD-4"), 0.3, 0.3, _heading_levels_back
        ),
        InputClass("an overlap", ("HEAD-6",), 0.5, 0.5, _overlap(1)),
        InputClass(
            "a block of several sentences over max_tokens",
            ("HEAD-7",),
            0.1,
            0.1,
            lambda d: "e. f! g?" in _text(d) and (_int(d, "max_tokens") or 10**9) < 5,
        ),
        InputClass("a fenced code block over max_tokens", ("HEAD-5",), 0.05, 0.05, _oversized_code),
        InputClass("a setext heading", ("HEAD-2",), 0.2, 0.2, _SETEXT),
        InputClass("U+FEFF or U+0085 lines", ("HEAD-10", "HAZ-17"), None, 0.2, _has("\ufeff\x85")),
        InputClass("an astral character", ("RECORD-3", "HAZ-16"), None, 0.2, _matches(_ASTRAL)),
    ],
    "token_windows": [
        _SCRIPTS,
        InputClass("more tokens than max_tokens", ("TOKWIN-3", "TOKWIN-6"), 0.3, 0.3, _longer),
        InputClass(
            "whitespace before the first token",
            ("TOKWIN-4",),
            0.1,
            0.1,
            lambda d: _text(d)[:1].isspace(),
        ),
        InputClass("an astral character", ("TOKWIN-4", "HAZ-15"), None, 0.1, _matches(_ASTRAL)),
        *_WS,
        InputClass(
            "overlap_tokens >= max_tokens",
            ("TOKWIN-1", "WIN-3"),
            0.05,
            0.05,
            lambda d: (_int(d, "overlap_tokens") or 0) >= (_int(d, "max_tokens") or 10**9),
        ),
        InputClass(
            "a blank text",
            ("SOURCE-7",),
            0.01,
            0.01,
            lambda d: isinstance(d.get("text"), str) and not d["text"].strip(),
        ),
        *_COMMON_STR,
    ],
    "chunk_pages": [
        _SCRIPTS,
        InputClass(
            "a sentence end of another script or a closer (。 ？ । ؟ 」)",
            ("PAGE-9", "SENT-5", "SENT-6"),
            None,
            0.05,
            _has(_NON_ASCII_TERMINATOR + _CLOSER),
        ),
        InputClass(
            "more tokens than max_tokens (a sentence break may apply)",
            ("PAGE-9", "PAGE-10"),
            0.3,
            0.3,
            _longer,
        ),
        InputClass(
            "an ASCII mark then whitespace", ("PAGE-9",), 0.3, 0.3, _matches(re.compile(r"[.?!]\s"))
        ),
        InputClass(
            "a closer after a mark (not a sentence end)",
            ("PAGE-9",),
            0.2,
            0.1,
            _matches(_MARK_CLOSER),
        ),
        InputClass(
            "a non-ASCII terminator then whitespace (not a sentence end)",
            ("PAGE-9",),
            0.2,
            0.1,
            _matches(_UNICODE_MARK),
        ),
        InputClass(
            "a mark with no whitespace after it", ("PAGE-9",), 0.1, 0.1, _matches(_MARK_NO_SPACE)
        ),
        InputClass(
            "a blank line after a word (not a sentence end)",
            ("PAGE-9",),
            0.1,
            0.1,
            _matches(_BLANK_LINE),
        ),
        InputClass(
            "a mark then whitespace JavaScript's /\\s/ lacks",
            ("PAGE-9", "HAZ-14"),
            None,
            0.05,
            _matches(re.compile("[.?!][\x1c-\x1f\x85]")),
        ),
        InputClass(
            "an empty or blank page",
            ("PAGE-11",),
            0.1,
            0.1,
            _pages(lambda ps: any(isinstance(p, str) and not p.strip() for p in ps)),
        ),
        InputClass("three pages or more", ("PAGE-11",), 0.2, 0.2, _pages(lambda ps: len(ps) >= 3)),
        InputClass("the default overlap", ("RECORD-13",), 0.3, 0.3, _default_overlap),
        InputClass(
            "the default overlap of max_tokens >= 2**31", ("RECORD-13",), None, 0.02, _huge_default
        ),
        InputClass("an astral character", ("PAGE-6", "HAZ-15"), None, 0.1, _matches(_ASTRAL)),
        InputClass(
            "a form feed inside a page",
            ("PAGE-2",),
            None,
            0.02,
            _pages(lambda ps: any(isinstance(p, str) and "\f" in p for p in ps)),
        ),
        *_COMMON_STR,
    ],
    "split_sentences": [
        InputClass(
            "an ASCII terminator then whitespace",
            ("SENT-1",),
            0.3,
            0.3,
            _matches(re.compile(r"[.?!]\s")),
        ),
        InputClass("a non-ASCII terminator", ("SENT-1",), None, 0.2, _has(_NON_ASCII_TERMINATOR)),
        InputClass(
            "a closer after a terminator",
            ("SENT-1",),
            0.1,
            0.1,
            _matches(re.compile(f"[.?!{re.escape(_NON_ASCII_TERMINATOR)}][{re.escape(_CLOSER)}]")),
        ),
        InputClass(
            "a non-ASCII closer",
            ("SENT-1",),
            None,
            0.1,
            _has("".join(c for c in _CLOSER if not c.isascii())),
        ),
        InputClass(
            "a terminator with no whitespace after it",
            ("SENT-1",),
            0.2,
            0.2,
            _matches(re.compile(r"[.?!][^\s.?!\"')]")),
        ),
        InputClass(
            "an abbreviation",
            ("SENT-3",),
            0.1,
            0.1,
            lambda d: "e.g." in _text(d) or "Mr." in _text(d),
        ),
        InputClass(
            "a blank text",
            ("SENT-2",),
            0.02,
            0.02,
            lambda d: isinstance(d.get("text"), str) and not d["text"].strip(),
        ),
        *_WS,
        *_COMMON_STR,
    ],
    "pack_records": [
        InputClass(
            "overlapping records of a document", ("CTX-2", "CTX-3"), 0.3, 0.3, _spans(False)
        ),
        InputClass("touching records of a document", ("CTX-2",), 0.3, 0.3, _spans(True)),
        InputClass(
            "a table-header prefix",
            ("CTX-3",),
            0.4,
            0.4,
            _any_record(lambda r: bool(r.get("prefix"))),
        ),
        InputClass(
            "pages", ("CTX-5",), 0.3, 0.3, _any_record(lambda r: r.get("page_start") is not None)
        ),
        InputClass(
            "heading paths",
            ("CTX-5", "CTX-18"),
            0.4,
            0.4,
            _any_record(lambda r: bool(r.get("heading_path"))),
        ),
        InputClass(
            "a recursive record",
            ("CTX-4",),
            0.1,
            0.1,
            _any_record(lambda r: str(r.get("strategy", "")).startswith("recursive")),
        ),
        InputClass("duplicate content across documents", ("CTX-7",), 0.03, 0.03, _shared_source),
        InputClass(
            "labelled records",
            ("CTX-13",),
            0.25,
            0.25,
            _any_record(lambda r: bool(r.get("metadata"))),
        ),
        InputClass("a principal", ("CTX-13", "CTX-14"), 0.4, 0.4, lambda d: "principal" in d),
        InputClass("a score equal to min_score", ("CTX-6",), 0.2, 0.2, _pack_at_min_score),
        InputClass("min_score left out", ("CTX-6",), 0.4, 0.4, lambda d: "min_score" not in d),
        InputClass("titles left out", ("CTX-20", "CTX-17"), 0.4, 0.4, lambda d: "titles" not in d),
        InputClass("trim left out", ("CTX-20", "CTX-19"), 0.4, 0.4, lambda d: "trim" not in d),
        InputClass("the best record over the budget", ("CTX-19", "CTX-8"), 0.25, 0.25, _best_over),
        InputClass(
            "a prefixed best record and a budget of 2 or 3",
            ("CTX-19",),
            0.1,
            0.1,
            _prefixed_best_tight,
        ),
        InputClass("order='score'", ("CTX-10",), 0.2, 0.2, lambda d: d.get("order") == "score"),
        InputClass("a counter given", ("CTX-21",), 0.25, 0.25, lambda d: "counter" in d),
        InputClass("expand given", ("CTX-18",), 0.2, 0.2, lambda d: "expand" in d),
        InputClass("an argument out of range", ("CTX-15",), 0.1, 0.08, _pack_bad),
    ],
}


def classes_table() -> str:
    """The classes as the Markdown table docs/conformance.md shows (CONF-13)."""
    rows = ["| op | input class | rules | portable | hazards |", "|---|---|---|---|---|"]
    for op, classes in CLASSES.items():
        for c in classes:
            shares = [f"{p:.1%}" if p is not None else "-" for p in (c.portable, c.hazards)]
            name = c.name.replace("|", "\\|")
            rows.append(f"| `{op}` | {name} | {', '.join(c.rules)} | {shares[0]} | {shares[1]} |")
    return "\n".join(rows) + "\n"
