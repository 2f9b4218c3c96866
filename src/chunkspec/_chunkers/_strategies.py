"""The strategy registry: name -> spans function and the options that apply (OPT-5).

Adding a chunker is one module with a ``(document, options) -> list[Span]`` function and
one :func:`register` call here; ``ChunkOptions``, ``chunk_document``, every adapter and every
command read the strategies from this table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .._errors import ArgumentValueError
from ._code import code_spans
from ._heading_aware import heading_spans
from ._pages import page_spans
from ._recursive import recursive_spans
from ._split_markdown import structural_spans
from ._window import window_spans

if TYPE_CHECKING:
    from .._text._documents import SourceDocument
    from ._options import ChunkOptions
    from ._span import Span

__all__ = ["STRATEGIES", "SpansFunction", "Strategy", "register"]

#: A strategy's one entry point: the spans of a document under checked options.
SpansFunction = Callable[["SourceDocument", "ChunkOptions"], "list[Span]"]


@dataclass(frozen=True, slots=True)
class Strategy:
    """One strategy: its spans function, its default overlap and the flags it takes.

    ``default_overlap`` maps ``max_tokens`` to RECORD-13's default overlap; None means the
    strategy does not overlap and refuses ``overlap_tokens`` (CHUNK-6). ``flags`` are the
    boolean options only this strategy takes (``count_headings``, ``split_tables``).
    ``page_numbers`` gives a document without pages page 1 in its records (RECORD-14);
    ``help`` is the one line ``--help`` shows. ``retrieval`` marks the strategies that
    take ``min_tokens`` and ``budget_includes_headings`` (SIZE-1). ``words_only`` marks a
    strategy that counts whitespace words and refuses any other counter (RECORD-11).
    ``default_counter`` is the counter name used when none is given (SCRIPT-35:
    ``subword``; ``whitespace`` for seed 000's ``recursive``).

    What an entry refuses is all it declares: :class:`ChunkOptions` reads these fields and
    refuses an option the strategy does not take when the options are made (OPT-5), so no
    document is ever chunked to find out.
    """

    name: str
    spans: SpansFunction
    default_overlap: Callable[[int], int] | None = None
    flags: frozenset[str] = frozenset()
    help: str = ""
    page_numbers: bool = False
    retrieval: bool = False
    words_only: bool = False
    default_counter: str = "subword"


#: RECORD-10: strategy name -> :class:`Strategy`, in the order ``--help`` lists them.
STRATEGIES: dict[str, Strategy] = {}


def register(strategy: Strategy) -> Strategy:
    """Add ``strategy`` to :data:`STRATEGIES` (a name is registered once); return it."""
    if strategy.name in STRATEGIES:
        raise ArgumentValueError("strategy", "is already registered", strategy.name)
    STRATEGIES[strategy.name] = strategy
    return strategy


def _chunk6(max_tokens: int) -> int:
    """CHUNK-6's default overlap: ``min(64, max_tokens // 8)``."""
    return min(64, max_tokens // 8)


def _quarter(max_tokens: int) -> int:
    """RECORD-13's pages default: ``max_tokens // 4``."""
    return max_tokens // 4


register(
    Strategy(
        "heading",
        heading_spans,
        _chunk6,
        help="heading-aware sections with overlap (HEAD rules)",
        retrieval=True,
    )
)
register(
    Strategy(
        "structural",
        structural_spans,
        flags=frozenset({"count_headings", "split_tables", "split_code"}),
        help="Markdown blocks packed under the budget (MD rules)",
        retrieval=True,
    )
)
register(
    Strategy(
        "recursive",
        recursive_spans,
        help="split_section over the text (RECORD-11)",
        words_only=True,
        default_counter="whitespace",
    )
)
register(Strategy("window", window_spans, _chunk6, help="fixed token windows (TOKWIN rules)"))
register(
    Strategy(
        "pages",
        page_spans,
        _quarter,
        help="token windows over pages (PAGE rules)",
        page_numbers=True,
    )
)
register(
    Strategy(
        "code",
        code_spans,
        flags=frozenset({"scope_prefix"}),
        help="source files split on their syntax tree (CODE rules)",
    )
)
