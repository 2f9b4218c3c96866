"""Generated cases for ``chunk_document`` (CONF-10): raw Markdown files under every strategy.

A file is a front matter (none, YAML, TOML, one holding a page break, one setting an access
key in a form FM-3 cannot read, an unclosed one) and a body of ONE byte-string draw whose
bytes pick pieces: words, line breaks, ATX and setext headings, fences holding a ``#`` line,
lists, tables, form feeds. The ``hazards`` profile adds CRLF, NBSP lines before a setext
title (RECORD-12's line start), astral characters, a script written without spaces
(SCRIPT-6) and U+FEFF. Each case picks a strategy, a small budget and the input format
(left out, that is ``markdown``, mostly). About one case in four sets one argument out of
range (``_pools``).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from .._pools import (
    FAULT,
    HAZARD_NAMES,
    NAMES,
    OUT_OF_RANGE,
    PORTABLE_OUT_OF_RANGE,
    Field,
    replace_field,
)
from ._documents_ops import DOCUMENT_STRATEGIES

__all__ = ["document_cases"]

Case = tuple[str, dict[str, Any]]

#: FM-1: the front matters a file may open with ("" for none).
_FRONT_MATTERS = [
    "",
    "",
    "---\ntitle: Guide\nowner: docs\n---\n",
    '+++\ntitle = "T"\n+++\n',
    "---\nk: v\n\f\n---\n",
    "---\ntenant_id: t1\n---\n",
    "---\nacl_labels:\n  - hr\n---\n",  # TRUST-3: refused
    "---\nnot closed\n",  # FM-5: text
    "---\n---\n",
]
_PORTABLE_PIECES = [
    "a",
    "b c",
    "xy",
    "19",
    " ",
    " ",
    "\n",
    "\n\n",
    "\n\n",
    "\n# H\n\n",
    "\n## Sub\n\n",
    "\n### Deep\n\n",
    "\nTitle\n=====\n\n",
    "\nPart\n---\n\n",
    "\n```\n# not a heading\n```\n",
    "\n- one\n- two\n",
    "\n| a | b |\n|---|---|\n| 1 | 2 |\n",
    "\f",
]
_HAZARD_PIECES = [
    *_PORTABLE_PIECES,
    "\r\n",
    "\r\n# R\r\n\r\n",
    "\n\u00a0\nTitle\n===\n\n",  # a setext title opened by a line of NBSP (RECORD-12)
    "\n  ## Indented\n\n",
    "\U0001f600",
    "\u4e2d\u6587",
    "\ufeff",
    "\u00a0",
    "\n~~~\n## fenced\n",  # unclosed fence
]
_POOLS: dict[bool, dict[str, list[Any]]] = {False: PORTABLE_OUT_OF_RANGE, True: OUT_OF_RANGE}
_FORMATS: list[str | None] = [None, None, None, "markdown", "text"]


def _file(hazards: bool) -> st.SearchStrategy[str]:
    """A front matter and a body of one byte-string draw."""
    table = _HAZARD_PIECES if hazards else _PORTABLE_PIECES

    def expand(args: tuple[int, bytes]) -> str:
        head, code = args
        front = _FRONT_MATTERS[head % len(_FRONT_MATTERS)]
        return front + "".join(table[b % len(table)] for b in code)

    return st.tuples(st.integers(0, 255), st.binary(max_size=48)).map(expand)


def _chunk_document(hazards: bool) -> st.SearchStrategy[Case]:
    """chunk_document inputs: a doc id, a file, a strategy, a budget, maybe a format."""
    names = HAZARD_NAMES if hazards else NAMES
    fields: list[Field] = [
        (("doc_id",), "str"),
        (("text",), "text"),
        (("strategy",), "str"),
        (("max_tokens",), "int"),
        (("input_format",), "str"),  # picked when absent: the key is added
    ]

    def build(args: tuple[str, int, int, int, int, int]) -> Case:
        text, strategy, size, form, name, fault = args
        data: dict[str, Any] = {
            "doc_id": names[name % len(names)],
            "text": text,
            "strategy": DOCUMENT_STRATEGIES[strategy % len(DOCUMENT_STRATEGIES)],
            "max_tokens": size,
        }
        chosen = _FORMATS[form % len(_FORMATS)]
        if chosen is not None:
            data["input_format"] = chosen
        replace_field(data, fault, fields, _POOLS[hazards])
        return "chunk_document", data

    return st.tuples(
        _file(hazards),
        st.integers(0, 3),
        st.integers(1, 12),
        st.integers(0, 4),
        st.integers(0, len(names) - 1),
        FAULT,
    ).map(build)


def document_cases(hazards: bool) -> dict[str, st.SearchStrategy[Case]]:
    """The op's strategy for the profile."""
    return {"chunk_document": _chunk_document(hazards)}
