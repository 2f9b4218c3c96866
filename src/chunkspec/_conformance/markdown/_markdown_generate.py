"""Generated differential cases for the Markdown ops ``split_markdown`` and ``heading_aware``.

A document is ONE byte-string draw: each byte picks a line from a small table (headings of
every level and an empty ``#``, table rows and whole tables, fences and whole fenced blocks
with ``#`` lines inside, list items,
quotes, words, blank and whitespace-only lines, front-matter markers: one document in eight
opens with one, FM-1) and, in the hazards profile, the line break
after it (``\\n``, ``\\r\\n`` or ``\\r``: MD-2, HAZ-13). Hazard lines add astral characters
before chunk boundaries (HAZ-16) and edge whitespace that Python and JavaScript strip
differently (WS-1). Few Hypothesis choices a case keep generation cheap; shrinking aims at
byte 0, a one-word line. About one case in four sets one argument out of its range
(CONF-10): lone surrogates, integers at and past 2**53 - 1, -0.0, booleans, the wrong type.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

__all__ = ["markdown_cases"]

MAX_SAFE = 2**53 - 1

_PORTABLE_LINES = [
    "a b",
    "x",
    "# A",
    "## B",
    "### C",
    "",
    "one two three four",
    "| h | k |",
    "|---|---|",
    "| 1 | 2 |",
    "```",
    "# not a heading",
    "~~~",
    "- item a",
    "1. first",
    "> quoted x",
    "#",
    "#### D",
    "Setext",
    "===",
    "e. f! g?",
    "    indented code",
    "[ref]: /url",
    "Term",
    ": definition",
    "## B",
    "",
    "| h | k |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n| 5 | 6 |",
    "Title x\n===",
    "Sub y\n---",
    "```sh\n# not a heading\nx y z\n```",
    "---",
    "+++",
    "...",
    "title: x y",
    # FM-3 fields (META-3: they become every record's metadata): quotes, comments, no value
    'tags = "a \\"b\\"" # c',
    "k: 'it''s' # note",
    "x-y: &anchor",
    "v = 'raw\\n'",
]
#: FM-1: a document whose first byte is at least this opens with a front-matter marker line.
_FRONT = 224
_MARKERS = ["---", "+++", "----", "--- x"]
_HAZARD_LINES = [
    *_PORTABLE_LINES,
    "\U0001f600 a",
    "# \U0001f600",
    "| \U0001f600 | x |",
    "\U0001f600\U0001f600 b c",
    " x ",
    "\x85",
    "\ufeff",
    "\x1c y",
    "\u3000",
    "## \x85",
    "# \ufeff",
    "\u00e9\u0301 w",
    "a\rb c",
    "\t",
    # SCRIPT-6, SCRIPT-8, SENT-6: scripts without spaces, clusters, bidi controls.
    "机器学习。它使计算机学习！真的吗？",
    "日本語の文です。「はい。」 한국어 \u1100\u1161\u11a8",
    "ภาษาไทยกำ \u202bשלום\u202c \U0001f468\u200d\U0001f469\u200d\U0001f467",
    "\U0001f1ef\U0001f1f5e\u0301 \u2067عربي\u2069",
    # CONF-13: the scripts above diluted MD-1's fence class below its stated share.
    "```sh\n# not a heading\nx y z\n```",
]
_BREAKS = ["\n", "\n", "\n", "\r\n", "\r\n", "\r"]

_NAMES = ["d", "T", "", "d:1", " T ", "\tT\n"]
_HAZARD_NAMES = [*_NAMES, "\u00e9", "\x1cT\x85", "\ufeffT\ufeff", "\U0001f600"]

_STR = ["\ud800", "T\udfff", " T ", "\x85T\x1c", None, 1]
_PORTABLE_STR = [" T ", None, 1, "\tT\n"]
_INT = [MAX_SAFE, MAX_SAFE + 1, 2**64, -1, 0, -0.0, True, False, 1.5, "Infinity", "NaN", None, "2"]
_PORTABLE_INT = [-1, 0, True, 1.5, None, "2", MAX_SAFE + 1, MAX_SAFE]
_BOOL = [0, 1, None, "true"]
_TEXT = ["\ud800", "# A\n\ud800", "\udc00x", "\r\n\r\n", " ", "", None, 3]
_PORTABLE_TEXT = ["", " ", None, 3]

_BUDGETS = [1, 2, 2, 3, 3, 4, 5, 6, 8, 12, 512]
_OVERLAPS = [0, 0, 1, 1, 2, 3, 8, 64]


def _document(hazards: bool) -> st.SearchStrategy[str]:
    """A Markdown text from one byte-string draw (line and, in hazards, its break)."""
    lines = _HAZARD_LINES if hazards else _PORTABLE_LINES

    def expand(code: bytes) -> str:
        out = []
        for b in code:
            out.append(lines[b % len(lines)])
            out.append(_BREAKS[(b // len(lines)) % len(_BREAKS)] if hazards else "\n")
        if out and code and code[-1] % 2:
            out.pop()  # about half the documents do not end with a line break
        if code and code[0] >= _FRONT:  # one document in eight: front matter (FM-1, FM-2)
            out[0] = _MARKERS[code[0] % len(_MARKERS)]
        return "".join(out)

    return (
        st.sampled_from([1, 4, 10, 16])
        .flatmap(lambda least: st.binary(min_size=least, max_size=least + 16))
        .map(expand)
    )


def _pools(hazards: bool) -> dict[str, list[Any]]:
    """Out-of-range values by kind of argument (CONF-10)."""
    if hazards:
        return {"str": _STR, "int": _INT, "bool": _BOOL, "text": _TEXT}
    return {"str": _PORTABLE_STR, "int": _PORTABLE_INT, "bool": _BOOL, "text": _PORTABLE_TEXT}


def _case(op: str, hazards: bool, fields: list[tuple[str, str]]) -> Any:
    """Build one case of ``op`` from its drawn arguments."""
    names = _HAZARD_NAMES if hazards else _NAMES
    pools = _pools(hazards)

    def build(args: tuple[str, int, int, int, int, int]) -> tuple[str, dict[str, Any]]:
        text, size, overlap, name, flags, fault = args
        data: dict[str, Any] = {
            "doc_id": names[name % len(names)],
            "title": names[(name // len(names) + 1) % len(names)],
            "text": text,
            "max_tokens": _BUDGETS[size % len(_BUDGETS)],
        }
        if op == "heading_aware":
            data["overlap_tokens"] = _OVERLAPS[overlap % len(_OVERLAPS)]
        else:
            if flags & 1:
                data["count_headings"] = bool(flags & 2)
            if flags & 4:
                data["split_tables"] = bool(flags & 8)
        if fault % 4 == 3:
            pick = fault // 4
            key, kind = fields[pick % len(fields)]
            pool = pools[kind]
            data[key] = pool[pick // len(fields) % len(pool)]
        return op, data

    return st.tuples(
        _document(hazards),
        st.integers(0, len(_BUDGETS) - 1),
        st.integers(0, len(_OVERLAPS) - 1),
        st.integers(0, len(names) ** 2 - 1),
        st.integers(0, 15),
        # Far more values than fields times pool sizes, and at most 24 bits, so that the
        # field and the value are each drawn about uniformly.
        st.integers(0, 4 * 2**20 - 1),
    ).map(build)


def markdown_cases(hazards: bool) -> dict[str, st.SearchStrategy[tuple[str, dict[str, Any]]]]:
    """The strategies of the two Markdown ops for a profile."""
    common = [("doc_id", "str"), ("title", "str"), ("text", "text"), ("max_tokens", "int")]
    return {
        "split_markdown": _case(
            "split_markdown",
            hazards,
            [*common, ("count_headings", "bool"), ("split_tables", "bool")],
        ),
        "heading_aware": _case("heading_aware", hazards, [*common, ("overlap_tokens", "int")]),
    }
