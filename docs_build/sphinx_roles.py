"""Griffe extension for the API reference: Sphinx roles in docstrings rendered as code.

The docstrings cross-reference with Sphinx roles (``:func:`chunk_document```,
``:class:`~chunkspec.records.ChunkRecord```), which mkdocstrings shows as raw text. Each
role becomes Markdown inline code of its target (the last component with ``~``; an explicit
title ``T <target>`` gives ``T``), so the reference reads as the source meant.
"""

from __future__ import annotations

import re
from typing import Any

from griffe import Extension

#: ``:role:`target```, ``:py:role:`~a.b```, ``:role:`title <target>```.
ROLE = re.compile(
    r":(?:py:)?(?:func|class|meth|data|attr|mod|exc|obj|const|type)"
    r":`(?P<tilde>~)?(?P<body>[^`]+)`"
)


def _code(match: re.Match[str]) -> str:
    """Inline code for one role."""
    body = match.group("body").strip()
    titled = re.fullmatch(r"(?P<title>.+?)\s*<(?P<target>[^>]+)>", body)
    if titled:
        return f"`{titled.group('title')}`"
    if match.group("tilde"):
        body = body.rsplit(".", 1)[-1]
    return f"`{body}`"


def rewrite(text: str) -> str:
    """``text`` with every Sphinx role as inline code."""
    return ROLE.sub(_code, text)


class SphinxRoles(Extension):
    """Rewrite the roles of every docstring as it is loaded."""

    def on_instance(self, *, obj: Any, **kwargs: Any) -> None:
        """Rewrite ``obj``'s docstring, if it has one."""
        docstring = getattr(obj, "docstring", None)
        if docstring is not None:
            docstring.value = rewrite(docstring.value)
