"""Blame by rule for ``read_html`` (CONF-9): models of a port reader's classic mistakes,
comparisons of the page's parts that pin a rule down, the rules' own checks, and the rule a
differing field names.

A model gives the whole answer a port with one mistake gives (offsets in UTF-16 code units,
markup offsets of the CRLF-normalized markup, the page parsed with scripting off). Where a
mistake changes the text in a way no model can rebuild exactly (it depends on how the port
writes), the answer's blocks are compared with the reader's, block by block: a difference
that only the mistake makes decides the rule (a tab turned into a space in a table block is
HTML-10's, a heading's permalink sign kept is HTML-7's, ...).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from ._html_ops import read_html

__all__ = [
    "HTML_CHECKS",
    "html_diagnosis",
    "html_error_rules",
    "html_field_rules",
    "html_mistakes",
]

Check = Callable[[dict[str, Any], Any], bool]

#: HTML-4: CSS's collapsible white space.
_SPACE_RUN = re.compile(r"[ \t\n\f]+")
#: HTML-7: a heading's permalink text (``_elements._PERMALINK_TEXT``, less the empty one).
_PERMALINK = frozenset({"#", "\u00b6", "\u00a7", "\U0001f517", "link", "permalink"})


def _utf16(text: str) -> list[int]:
    """For each code-point offset of ``text`` (and its end), the UTF-16 offset."""
    table = [0]
    for ch in text:
        table.append(table[-1] + (2 if ord(ch) > 0xFFFF else 1))
    return table


def _page(answer: Any) -> dict[str, Any] | None:
    """The answer as a page (text, blocks, segments), or None when it is not one."""
    if not isinstance(answer, dict):
        return None
    if not isinstance(answer.get("text"), str):
        return None
    if not isinstance(answer.get("blocks"), list) or not isinstance(answer.get("segments"), list):
        return None
    if not all(isinstance(b, dict) for b in answer["blocks"] + answer["segments"]):
        return None
    return answer


def _utf16_model(data: dict[str, Any], expected: dict[str, Any]) -> dict[str, Any]:
    """SOURCE-2, HAZ-16: every offset counted in UTF-16 code units."""
    text, markup = _utf16(expected["text"]), _utf16(data["markup"])
    return {
        **expected,
        "blocks": [
            {**b, "start": text[b["start"]], "end": text[b["end"]]} for b in expected["blocks"]
        ],
        "segments": [
            {
                **s,
                "text_start": text[s["text_start"]],
                "text_end": text[s["text_end"]],
                "markup_start": markup[s["markup_start"]],
                "markup_end": markup[s["markup_end"]],
            }
            for s in expected["segments"]
        ],
    }


def _crlf_model(data: dict[str, Any], expected: dict[str, Any]) -> dict[str, Any]:
    """HTML-18: markup offsets of the CRLF-normalized markup (no CR added back)."""
    markup: str = data["markup"]
    before = [0]
    for k, ch in enumerate(markup):
        before.append(before[-1] + (ch == "\r" and markup[k + 1 : k + 2] == "\n"))
    return {
        **expected,
        "segments": [
            {
                **s,
                "markup_start": s["markup_start"] - before[s["markup_start"]],
                "markup_end": s["markup_end"] - before[s["markup_end"]],
            }
            for s in expected["segments"]
        ],
    }


def _scripting_model(data: dict[str, Any], expected: dict[str, Any]) -> dict[str, Any]:
    """HTML-5: the page parsed with the scripting flag off (a ``noscript``'s content is
    markup, and a head's moves to the body), as ``read_markup`` reads it otherwise."""
    keep = bool(data.get("keep_furniture", False))
    return read_html(data["markup"], keep, scripting=False)


def html_mistakes(data: dict[str, Any], expected: Any) -> Iterator[tuple[str, list[str], Any]]:
    """``(mistake, rules, answer)`` for each modelled mistake of a port's reader."""
    if not isinstance(data.get("markup"), str) or _page(expected) is None:
        return
    yield (
        "counts offsets in UTF-16 code units, not code points (HAZ-16)",
        ["HTML-18"],
        _utf16_model(data, expected),
    )
    yield (
        "gives markup offsets of the CRLF-normalized markup, not of the page's own",
        ["HTML-18"],
        _crlf_model(data, expected),
    )
    if "noscript" in data["markup"].lower():
        yield (
            "parses with the scripting flag off: a noscript's content is markup, and a "
            "head's noscript text becomes the body's",
            ["HTML-5"],
            _scripting_model(data, expected),
        )


def _block_texts(page: dict[str, Any]) -> list[tuple[str, str]]:
    """``(kind, text)`` of each block of a page."""
    text = page["text"]
    return [(str(b.get("kind")), text[b["start"] : b["end"]]) for b in page["blocks"]]


def _differing(
    expected: dict[str, Any], actual: dict[str, Any]
) -> list[tuple[str, str, str]] | None:
    """``(kind, expected text, actual text)`` of each block whose text differs, when both
    pages have the same blocks of the same kinds; else None."""
    try:
        want, got = _block_texts(expected), _block_texts(actual)
    except (KeyError, TypeError):
        return None
    if len(want) != len(got) or [k for k, _ in want] != [k for k, _ in got]:
        return None
    return [(k, w, g) for (k, w), (_, g) in zip(want, got, strict=True) if w != g]


def _table_tabs_as_spaces(expected: dict[str, Any], actual: dict[str, Any]) -> bool:
    """HTML-10's mistake: the answer is the reader's with every tab of a table block a space."""
    text = list(expected["text"])
    for b in expected["blocks"]:
        if b["kind"] == "table":
            for k in range(b["start"], b["end"]):
                if text[k] == "\t":
                    text[k] = " "
    return bool("".join(text) == actual["text"] != expected["text"])


#: ``(rules, mistake, test)``: a block-by-block difference that only the mistake makes;
#: ``test(kind, expected text, actual text)`` holds for every block that differs.
_BLOCK_MISTAKES: list[tuple[list[str], str, Callable[[str, str, str], bool]]] = [
    (
        ["HTML-6"],
        "writes a pre block's leading blank lines",
        lambda kind, want, got: (
            kind == "code"
            and got.endswith(want)
            and "\n" in got[: len(got) - len(want)]
            and not got[: len(got) - len(want)].strip(" \t\n\f")
        ),
    ),
    (
        ["HTML-9"],
        "writes a br in a heading as a newline, not a space",
        lambda kind, want, got: (
            kind == "heading"
            and len(want) == len(got)
            and all(w == g or (w == " " and g == "\n") for w, g in zip(want, got, strict=True))
        ),
    ),
    (
        ["HTML-7"],
        "keeps a heading's permalink sign in its title",
        lambda kind, want, got: (
            kind == "heading" and got.startswith(want) and got[len(want) :].strip(" ") in _PERMALINK
        ),
    ),
    (
        ["HTML-4"],
        "does not collapse white space outside pre (CSS white-space: normal)",
        lambda kind, want, got: (
            kind != "code"
            and _SPACE_RUN.sub(" ", got).strip(" ") == want.replace("\t", " ").replace("\n", " ")
            and len(got) > len(want)
        ),
    ),
]


def html_diagnosis(
    data: dict[str, Any], expected: Any, actual: Any
) -> tuple[list[str], str] | None:
    """``(rules, why)`` when the pages' parts pin the broken rule down; else None."""
    want, got = _page(expected), _page(actual)
    if want is None or got is None:
        return None
    if want["text"] != got["text"]:
        if _table_tabs_as_spaces(want, got):
            return ["HTML-10"], (
                "the answer is what a port gives that separates a table row's cells with a "
                "space, not a tab"
            )
        differing = _differing(want, got)
        if differing:
            for rules, mistake, test in _BLOCK_MISTAKES:
                if all(test(*block) for block in differing):
                    return rules, (
                        f"every block whose text differs differs as in a port that {mistake}"
                    )
        if _SPACE_RUN.sub(" ", got["text"]).strip(" ") == _SPACE_RUN.sub(" ", want["text"]).strip(
            " "
        ) and len(got["text"]) > len(want["text"]):
            return ["HTML-4"], (
                "the texts agree once white space is collapsed and the port's is longer: it "
                "does not collapse white space outside pre (CSS white-space: normal)"
            )
        return None
    if [b.get("kind") for b in want["blocks"]] == [b.get("kind") for b in got["blocks"]]:
        rows = [
            (w.get("header_rows"), g.get("header_rows"))
            for w, g in zip(want["blocks"], got["blocks"], strict=True)
        ]
        bare = [{k: v for k, v in b.items() if k != "header_rows"} for b in want["blocks"]] == [
            {k: v for k, v in b.items() if k != "header_rows"} for b in got["blocks"]
        ]
        if bare and any(w != g for w, g in rows):
            return ["HTML-10"], "the text and blocks agree but a table's header_rows does not"
    segments = [tuple(sorted(s.items())) for s in got["segments"]]
    reference = [tuple(sorted(s.items())) for s in want["segments"]]
    if len(segments) < len(reference) and set(segments) < set(reference):
        return ["HTML-19"], (
            "the text agrees but runs the reader finds in the markup have no segment: the "
            "port's markup cursor ran past them (an end tag it was given out of place)"
        )
    return None


def _exact_runs(data: dict[str, Any], answer: Any) -> bool:
    """HTML-18: an exact run's text is its markup span (of the page as given, CRs and all),
    character for character."""
    page, markup = _page(answer), data.get("markup")
    if page is None or not isinstance(markup, str):
        return True
    text = page["text"]
    for s in page["segments"]:
        a, b, m, n = s["text_start"], s["text_end"], s["markup_start"], s["markup_end"]
        if not all(type(v) is int for v in (a, b, m, n)):
            return False
        if not (0 <= a <= b <= len(text) and 0 <= m <= n <= len(markup)):
            return False
        if s.get("exact") is True and text[a:b] != markup[m:n]:
            return False
    return True


def _runs_in_order(data: dict[str, Any], answer: Any) -> bool:
    """HTML-18: runs in text order, never overlapping."""
    page = _page(answer)
    if page is None:
        return True
    end = 0
    for s in page["segments"]:
        if not isinstance(s.get("text_start"), int) or s["text_start"] < end:
            return False
        end = s.get("text_end", end)
    return True


def _blocks_joined(data: dict[str, Any], answer: Any) -> bool:
    """HTML-8: the text is the blocks' texts joined by a blank line, in order, none blank
    nor ending with collapsible white space, nor starting with it but a code block's indent
    (HTML-6) and a table's leading tabs (HTML-10)."""
    page = _page(answer)
    if page is None:
        return True
    text = page["text"]
    allowed = {"code": " \t", "table": "\t"}
    try:
        parts = [(b.get("kind"), text[b["start"] : b["end"]]) for b in page["blocks"]]
        joined = "\n\n".join(p for _, p in parts) == text
        ordered = all(0 <= b["start"] < b["end"] <= len(text) for b in page["blocks"])
        ordered = ordered and all(
            not p.isspace()
            and p[-1] not in " \t\n\f"
            and p.lstrip(allowed.get(str(kind), ""))[:1] not in (" ", "\t", "\n", "\f")
            for kind, p in parts
        )
    except (KeyError, TypeError):
        return False
    return joined and ordered


#: ``read_html``'s rule checks (``_rules``): ``(rule, what, check, rules it explains)``.
HTML_CHECKS: list[tuple[str, str, Check, tuple[str, ...]]] = [
    ("HTML-18", "an exact run's text is its markup span", _exact_runs, ("HTML-8",)),
    ("HTML-18", "runs in text order, never overlapping", _runs_in_order, ()),
    ("HTML-8", "the text is the blocks joined by a blank line", _blocks_joined, ()),
]

#: The rule a differing leaf field names.
_FIELDS = {
    "title": ["HTML-13"],
    "meta": ["HTML-14"],
    "description": ["HTML-14"],
    "author": ["HTML-14"],
    "keywords": ["HTML-14"],
    "language": ["HTML-14"],
    "header_rows": ["HTML-10"],
    "kind": ["HTML-8"],
    "level": ["HTML-7"],
    "start": ["HTML-8"],
    "end": ["HTML-8"],
    "blocks": ["HTML-8"],
    "text_start": ["HTML-18"],
    "text_end": ["HTML-18"],
    "markup_start": ["HTML-19"],
    "markup_end": ["HTML-19"],
    "exact": ["HTML-18"],
    "segments": ["HTML-18"],
    "text": ["HTML-3"],
}


def html_field_rules(field: str) -> list[str]:
    """The rule a first difference at ``field`` (``$.blocks[2].header_rows``) names."""
    parts = re.sub(r"\[\d+\]", "", field).split(".")
    for name in reversed(parts):
        if name in _FIELDS:
            return list(_FIELDS[name])
    return ["HTML-3"]


def html_error_rules(argument: str) -> list[str]:
    """The rules about a wrong argument: the markup is a str (HTML-1), keep_furniture a
    bool (HTML-11)."""
    return ["HTML-11"] if argument == "keep_furniture" else ["HTML-1"]
