"""Chunking strategies by name, each a small adapter to chunks with exact provenance.

Rules EVAL-15 to EVAL-19 in docs/spec/eval.md. Names:

* ``recursive-N``: seed 000 ``split_section(doc_id, title, text, N)``; offsets derived from its
  word invariant (EVAL-16);
* ``fixed-N``: consecutive windows of N whitespace tokens, no overlap (``window-N-0``);
* ``window-N-O``: windows of N tokens stepping by ``N - O`` (EVAL-17);
* ``structural[-N]``: seed 001 ``split_markdown`` (issue 5), unbudgeted or at most N tokens;
  ``heading-aware[-N[-O]]``: seed 003 ``HeadingAwareChunker(N, O)``, N = 512, O = N // 8. Both
  are hooks that raise :class:`StrategyUnavailable` until those chunkers are installed
  (EVAL-19).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ._errors import ArgumentValueError
from ._split import split_section
from ._validate import MAX_SAFE_INTEGER, require_str
from ._window import token_windows

__all__ = [
    "DEFAULT_STRATEGIES",
    "DOCUMENT",
    "EvalChunk",
    "Strategy",
    "StrategyUnavailable",
    "resolve",
    "word_spans",
]

#: The no-chunking baseline: every document is one chunk (rule EVAL-36).
DOCUMENT = "document"

#: What ``chunkspec eval`` runs without ``--strategies``: the seed's pair first.
DEFAULT_STRATEGIES = (
    "fixed-512",
    "recursive-512",
    "structural",
    "heading-aware",
    "fixed-128",
    "recursive-128",
    "window-128-32",
    "structural-128",
    "heading-aware-128-32",
)


@dataclass(frozen=True, slots=True)
class EvalChunk:
    """One chunk of one strategy, satisfying :class:`chunkspec.SourceChunk`.

    ``source[start:end]`` is the chunk's region: from its first word's first character to
    its last word's last character; each adapter states how ``text`` relates to it.
    """

    id: str
    doc_id: str
    title: str
    text: str
    start: int
    end: int
    embedding_text: str


#: An adapter: ``(doc_id, title, source) -> chunks`` in source order.
Strategy = Callable[[str, str, str], list[EvalChunk]]


class StrategyUnavailable(ArgumentValueError):
    """A known strategy whose chunker is not in this installation (rule EVAL-19)."""

    def __init__(self, name: str, needs: str) -> None:
        super().__init__("strategy", f"needs {needs}", name)


_WORD = re.compile(r"\S+")
_HOOK = re.compile(r"^(structural|heading-aware)(?:-([0-9]+)(?:-([0-9]+))?)?$")
_NAME = re.compile(r"^(recursive|fixed)-([0-9]+)$|^window-([0-9]+)-([0-9]+)$")


def word_spans(text: str) -> list[tuple[int, int]]:
    """Return ``[(m.start(), m.end()) for m in re.finditer(r"\\S+", text)]``.

    ``[text[s:e] for s, e in word_spans(text)] == text.split()`` (rule EVAL-15): for ``str``
    patterns ``\\s`` is exactly the ``str.isspace()`` set that ``str.split()`` uses.
    """
    return [match.span() for match in _WORD.finditer(text)]


def resolve(name: str) -> Strategy:
    """Return the adapter for strategy ``name``; ValueError for an unknown or bad name."""
    require_str("strategy", name)
    if name == DOCUMENT:
        return _document
    hook = _HOOK.match(name)
    if hook is not None:
        family, size, overlap = hook.groups()
        if family == "structural":
            if overlap is not None:
                raise ArgumentValueError("strategy", "structural takes no overlap", name)
            return _structural(None if size is None else _size("strategy", name, int(size)))
        width = 512 if size is None else _size("strategy", name, int(size))
        lap = width // 8 if overlap is None else int(overlap)
        if lap >= width:
            raise ArgumentValueError("strategy", "heading-aware overlap must be < its size", name)
        return _heading_aware(width, lap)
    match = _NAME.match(name)
    if match is None:
        raise ArgumentValueError(
            "strategy",
            "must be document, recursive-N, fixed-N, window-N-O, structural[-N] or "
            "heading-aware[-N[-O]]",
            name,
        )
    family, size, wsize, overlap = match.groups()
    if family == "recursive":
        return _recursive(_size("strategy", name, int(size)))
    if family == "fixed":
        return _windows(_size("strategy", name, int(size)), 0)
    width = _size("strategy", name, int(wsize))
    if int(overlap) >= width:
        raise ArgumentValueError("strategy", "window overlap must be < its size", name)
    return _windows(width, int(overlap))


def _document(doc_id: str, title: str, source: str) -> list[EvalChunk]:
    """The no-chunking baseline: one chunk per document, trimmed to its words (EVAL-36)."""
    spans = word_spans(source)
    if not spans:
        return []
    start, end = spans[0][0], spans[-1][1]
    text = source[start:end]
    return [EvalChunk(doc_id, doc_id, title, text, start, end, text)]


def _size(argument: str, name: str, size: int) -> int:
    """Return ``size`` if it is in ``[1, 2**53-1]``."""
    if not 1 <= size <= MAX_SAFE_INTEGER:
        raise ArgumentValueError(argument, "size must be in [1, 2**53-1]", name)
    return size


def _recursive(max_tokens: int) -> Strategy:
    """Adapter for seed 000 ``split_section`` (rule EVAL-16).

    ``split_section`` keeps every word in order (``[w for c in chunks for w in
    c.text.split()] == text.split()``), so chunk n covers words ``[W_n, W_n + tokens_n)`` and
    its region runs from the first of them to the last: ``text.split() ==
    source[start:end].split()``. A chunk with no words (blank source) is left out.
    """

    def adapt(doc_id: str, title: str, source: str) -> list[EvalChunk]:
        spans = word_spans(source)
        out: list[EvalChunk] = []
        first = 0
        for chunk in split_section(doc_id, title, source, max_tokens):
            if chunk.tokens == 0:
                continue
            last = first + chunk.tokens - 1
            start, end = spans[first][0], spans[last][1]
            out.append(EvalChunk(chunk.id, doc_id, title, chunk.text, start, end, chunk.text))
            first = last + 1
        return out

    return adapt


def _windows(size: int, overlap: int) -> Strategy:
    """Adapter for ``token_windows(source, size, overlap)`` (issue 4) (rule EVAL-17).

    Window n holds words ``[n * step, n * step + size)`` with ``step = size - overlap``, as
    ``token_windows`` computes them (TOKWIN rules); its region here is trimmed to its words,
    ``[first word start, last word end)``, so ``text == source[start:end]`` and a window
    never claims the whitespace around it.
    """

    def adapt(doc_id: str, title: str, source: str) -> list[EvalChunk]:
        spans = word_spans(source)
        out: list[EvalChunk] = []
        for window in token_windows(source, size, overlap):
            if window.token_end == window.token_start:
                continue
            start, end = spans[window.token_start][0], spans[window.token_end - 1][1]
            text = source[start:end]
            out.append(EvalChunk(f"{doc_id}:{len(out)}", doc_id, title, text, start, end, text))
        return out

    return adapt


def _structural(max_tokens: int | None) -> Strategy:
    """Adapter for ``chunkspec.split_markdown(doc_id, source, max_tokens)`` (issue 5).

    Its chunks satisfy ``SourceChunk`` with ``text == prefix + source[start:end]`` (MD-8);
    ``embedding_text`` carries the heading trail. Ids are ``f"{doc_id}#{n}"``.
    """
    import chunkspec

    split_markdown: Any = getattr(chunkspec, "split_markdown", None)
    if split_markdown is None:
        raise StrategyUnavailable("structural", "chunkspec.split_markdown (issue 5), not here")

    def adapt(doc_id: str, title: str, source: str) -> list[EvalChunk]:
        return [
            EvalChunk(f"{doc_id}#{n}", doc_id, title, c.text, c.start, c.end, c.embedding_text)
            for n, c in enumerate(split_markdown(doc_id, source, max_tokens))
        ]

    return adapt


def _heading_aware(max_tokens: int, overlap: int) -> Strategy:
    """Adapter for ``HeadingAwareChunker(max_tokens, overlap)`` over ``parse_markdown`` (issue 5).

    Its chunks (heading chunks and body chunks alike) satisfy ``SourceChunk`` with
    ``text == source[start:end]`` (HEAD-2); their own ids are kept.
    """
    import chunkspec

    chunker_type: Any = getattr(chunkspec, "HeadingAwareChunker", None)
    parse: Any = getattr(chunkspec, "parse_markdown", None)
    if chunker_type is None or parse is None:
        raise StrategyUnavailable(
            "heading-aware", "chunkspec.HeadingAwareChunker (issue 5), not here"
        )
    chunker = chunker_type(max_tokens, overlap)

    def adapt(doc_id: str, title: str, source: str) -> list[EvalChunk]:
        return [
            EvalChunk(c.id, doc_id, title, c.text, c.start, c.end, c.embedding_text)
            for c in chunker.chunk(parse(doc_id, source))
        ]

    return adapt
