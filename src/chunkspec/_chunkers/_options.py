"""One chunking call's options, built and checked in one place (rules OPT-1..OPT-5).

Every entry point (``chunk_document``, ``chunkspec.arrow.chunk_table``,
``chunkspec.ray.chunk_dataset``, the framework adapters and every command) takes a
:class:`ChunkOptions`; it travels to worker processes and into the ingest manifest as one
value (:meth:`ChunkOptions.to_dict`), and its :attr:`ChunkOptions.strategy_string` is the
record's ``strategy`` field (RECORD-6).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, TypedDict

from .._core._validate import require_int
from .._counters._builtin import TokenSpanCounter, WhitespaceCounter
from .._counters._registry import counter_name, resolve_counter
from .._errors import ArgumentTypeError, ArgumentValueError
from ._strategies import STRATEGIES

__all__ = [
    "OPTION_KEYWORDS",
    "OVERLAPPING",
    "STRATEGY_NAMES",
    "ChunkKeywords",
    "ChunkOptions",
    "default_minimum",
    "default_overlap",
    "options_of",
]

#: The strategy names, in the order ``--help`` lists them (RECORD-10, OPT-5).
STRATEGY_NAMES = tuple(STRATEGIES)

#: The strategies that overlap consecutive chunks (CHUNK-6).
OVERLAPPING = frozenset(
    name for name, entry in STRATEGIES.items() if entry.default_overlap is not None
)


def default_overlap(strategy: str, max_tokens: int) -> int:
    """RECORD-13: ``max_tokens // 4`` for pages, else ``min(64, max_tokens // 8)``
    (CHUNK-6); 0 for the strategies that do not overlap."""
    entry = STRATEGIES[strategy].default_overlap
    return 0 if entry is None else entry(max_tokens)


def default_minimum(strategy: str, max_tokens: int) -> int:
    """SIZE-2: ``min(64, max_tokens // 8)`` for the retrieval strategies, else 0."""
    return min(64, max_tokens // 8) if STRATEGIES[strategy].retrieval else 0


def _retrieval() -> list[str]:
    """The registered strategies that take ``min_tokens`` and the trail budget (SIZE-1)."""
    return [name for name, entry in STRATEGIES.items() if entry.retrieval]


def _overlapping() -> list[str]:
    """The registered strategies that overlap, in registry order (CHUNK-6, OPT-5)."""
    return [name for name, entry in STRATEGIES.items() if entry.default_overlap is not None]


def _listed(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _flag_owners(flag: str) -> list[str]:
    """The strategies that take the boolean option ``flag`` (OPT-5)."""
    return [name for name, entry in STRATEGIES.items() if flag in entry.flags]


class ChunkKeywords(TypedDict, total=False):
    """The option keywords every entry point takes beside (or instead of) one options object
    (OPT-1): :class:`ChunkOptions`' fields by name, declared here once and nowhere else.

    ``chunk_document``, ``chunkspec.arrow.chunk_table``, ``chunkspec.ray.chunk_dataset`` and
    the three framework adapters take ``**keywords: Unpack[ChunkKeywords]`` (the Arrow and
    Ray paths add the reading keywords of :class:`chunkspec.ChunkJob`).
    """

    strategy: str
    max_tokens: int
    overlap_tokens: int | None
    counter: str | TokenSpanCounter | None
    encoding_file: str | None
    count_headings: bool
    split_tables: bool
    min_tokens: int | None
    budget_includes_headings: bool
    scope_prefix: bool
    split_code: bool


def options_of(options: object, keywords: Mapping[str, object]) -> ChunkOptions:
    """Return ``options``, or the ChunkOptions of the option keywords given (OPT-1).

    The one way every entry point turns its arguments into options: ``options`` is a
    :class:`ChunkOptions`, a strategy name (``chunk_document(document, "window")``) or None;
    ``keywords`` are the :class:`ChunkKeywords` the caller gave. An options object together
    with any keyword is a ValueError naming the keywords: the call would state the options
    twice. A keyword that is not an option is a TypeError naming it.
    """
    unknown = sorted(str(key) for key in keywords if key not in OPTION_KEYWORDS)
    if unknown:
        raise ArgumentTypeError(
            unknown[0], f"an option keyword ({', '.join(OPTION_KEYWORDS)})", keywords[unknown[0]]
        )
    if options is None:
        return ChunkOptions(**keywords)  # type: ignore[arg-type]  # ChunkOptions checks each
    if isinstance(options, str):
        if "strategy" in keywords:
            raise ArgumentValueError(
                "strategy", "is given twice (as options and as strategy=)", keywords["strategy"]
            )
        return ChunkOptions(options, **keywords)  # type: ignore[arg-type]
    if not isinstance(options, ChunkOptions):
        raise ArgumentTypeError(
            "options", "a chunkspec.ChunkOptions or a strategy name (str)", options
        )
    if keywords:
        raise ArgumentValueError(
            "options",
            f"is given, so the option keywords must not be ({', '.join(sorted(keywords))})",
            sorted(keywords),
        )
    return options


@dataclass(frozen=True, slots=True)
class ChunkOptions:
    """The chunking options of a call or a job, checked when made (OPT-1).

    ``strategy`` is ``heading``, ``structural``, ``recursive``, ``window`` or ``pages``;
    ``counter`` a counter name (RECORD-5: ``subword``, ``whitespace``, ``chars{N}``,
    ``tiktoken:{encoding}``, ``huggingface:{path}``) or a counter object; None (the
    default) is the strategy's default counter, ``subword`` (``whitespace`` for
    ``recursive``), and the options hold that name once made (SCRIPT-35);
    ``encoding_file`` a tiktoken rank file for offline use (COUNT-9). ``overlap_tokens``
    ``None`` means RECORD-13's default; the strategies that do not overlap refuse any other
    value, and ``count_headings``/``split_tables`` belong to ``structural`` (CHUNK-6).
    ``min_tokens`` None means SIZE-2's default (``min(64, max_tokens // 8)`` for
    ``heading`` and ``structural``, 0 elsewhere): smaller chunks are merged with their
    section's neighbours (SIZE-3..SIZE-6); 0 turns merging off. ``budget_includes_headings``
    makes the budget and ``tokens`` cover the embedded text, heading trail included
    (SIZE-8). ``scope_prefix`` (``code`` only) starts a chunk inside a definition with
    the first lines of the definitions it is in (CODE-8); ``split_code`` (``structural``
    only) splits a fenced code block over the budget by its syntax tree (MD-18). A bad option is a
    TypeError/ValueError naming the field and the value.
    """

    strategy: str = "heading"
    max_tokens: int = 512
    overlap_tokens: int | None = None
    counter: str | TokenSpanCounter | None = None  # SCRIPT-35: the strategy's, once made
    encoding_file: str | None = None
    count_headings: bool = False
    split_tables: bool = False
    min_tokens: int | None = None
    budget_includes_headings: bool = False
    scope_prefix: bool = False
    split_code: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.strategy, str):
            raise ArgumentTypeError("strategy", "a str", self.strategy)
        if self.strategy not in STRATEGIES:
            raise ArgumentValueError(
                "strategy", f"must be one of {', '.join(sorted(STRATEGIES))}", self.strategy
            )
        size = require_int("max_tokens", self.max_tokens, minimum=1)
        if self.overlap_tokens is not None:
            if STRATEGIES[self.strategy].default_overlap is None:
                raise ArgumentValueError(
                    "overlap_tokens",
                    f"applies to {_listed(_overlapping())}, not {self.strategy} (CHUNK-6)",
                    self.overlap_tokens,
                )
            overlap = require_int("overlap_tokens", self.overlap_tokens, minimum=0)
            if self.strategy != "heading" and overlap >= size:
                raise ArgumentValueError(
                    "overlap_tokens", f"must be < max_tokens ({size})", overlap
                )
        for flag in _BOOL_OPTIONS:
            value = getattr(self, flag)
            if not isinstance(value, bool):
                raise ArgumentTypeError(flag, "a bool", value)
            owners = _flag_owners(flag)
            if value and owners and self.strategy not in owners:  # OPT-5: the entry's flags
                raise ArgumentValueError(
                    flag, f"applies to {_listed(owners)}, not {self.strategy}", value
                )
        if self.min_tokens is not None:
            least = require_int("min_tokens", self.min_tokens, minimum=0)
            if least and not STRATEGIES[self.strategy].retrieval:
                raise ArgumentValueError(
                    "min_tokens",
                    f"applies to {_listed(_retrieval())}, not {self.strategy} (SIZE-1)",
                    least,
                )
            if least > size:
                raise ArgumentValueError("min_tokens", f"must be <= max_tokens ({size})", least)
        if self.budget_includes_headings and not STRATEGIES[self.strategy].retrieval:
            raise ArgumentValueError(
                "budget_includes_headings",
                f"applies to {_listed(_retrieval())}, not {self.strategy} (SIZE-8)",
                True,
            )
        chosen = self.counter
        if chosen is None:  # SCRIPT-35: the strategy's default counter
            chosen = STRATEGIES[self.strategy].default_counter
            object.__setattr__(self, "counter", chosen)
        counter = resolve_counter(chosen, encoding_file=self.encoding_file)  # OPT-2
        if STRATEGIES[self.strategy].words_only and not isinstance(counter, WhitespaceCounter):
            raise ArgumentValueError(  # RECORD-11, OPT-5: the entry refuses, not a document
                "counter",
                f"must be whitespace for {self.strategy} (seed 000 counts words)",
                counter_name(counter),
            )

    @property
    def overlap(self) -> int:
        """The overlap in tokens: ``overlap_tokens``, else RECORD-13's default."""
        if self.overlap_tokens is None:
            return default_overlap(self.strategy, self.max_tokens)
        return self.overlap_tokens

    @property
    def minimum(self) -> int:
        """The smallest chunk in tokens: ``min_tokens``, else SIZE-2's default."""
        if self.min_tokens is None:
            return default_minimum(self.strategy, self.max_tokens)
        return self.min_tokens

    def token_counter(self) -> TokenSpanCounter:
        """Return the counter object (built once per process and name, OPT-2)."""
        assert self.counter is not None  # SCRIPT-35: set when the options were made
        return resolve_counter(self.counter, encoding_file=self.encoding_file)

    @property
    def counter_name(self) -> str:
        """The record's ``counter`` field (RECORD-5)."""
        return counter_name(self.token_counter())

    @property
    def strategy_string(self) -> str:
        """RECORD-6, RECORD-16: ``name:max_tokens=N[,overlap_tokens=M][,min_tokens=K]
        [,flag=true...]``; ``min_tokens`` only when it is not 0."""
        parts = [f"max_tokens={self.max_tokens}"]
        if STRATEGIES[self.strategy].default_overlap is not None:
            parts.append(f"overlap_tokens={self.overlap}")
        if self.minimum:
            parts.append(f"min_tokens={self.minimum}")
        parts.extend(f"{flag}=true" for flag in _BOOL_OPTIONS if getattr(self, flag))
        return f"{self.strategy}:{','.join(parts)}"

    def replace(self, **changes: Any) -> ChunkOptions:
        """Return a copy with ``changes`` applied, checked again. A new ``strategy`` without
        a ``counter`` takes its own default counter when these options hold the old
        strategy's default (SCRIPT-35)."""
        if (
            "strategy" in changes
            and "counter" not in changes
            and self.strategy in STRATEGIES
            and self.counter == STRATEGIES[self.strategy].default_counter
        ):
            changes["counter"] = None
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Return the options as plain JSON values (OPT-3); the counter by its name.

        ``ChunkOptions.from_dict(o.to_dict()) == o`` whenever ``o.counter`` is a name.
        """
        data = {name: getattr(self, name) for name in OPTION_KEYWORDS}
        if not isinstance(self.counter, str):
            data["counter"] = self.counter_name
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ChunkOptions:
        """Return the options :meth:`to_dict` wrote; an unknown key is a ValueError (OPT-3)."""
        if not isinstance(data, Mapping):
            raise ArgumentTypeError("options", "a mapping", data)
        known = {field.name for field in dataclasses.fields(cls)}
        unknown = sorted(str(key) for key in data if key not in known)
        if unknown:
            raise ArgumentValueError("options", f"has unknown key {unknown[0]!r}", unknown)
        return cls(**data)

    @classmethod
    def from_strategy_string(
        cls,
        value: str,
        *,
        counter: str | TokenSpanCounter | None = None,
        encoding_file: str | None = None,
    ) -> ChunkOptions:
        """Return the options a record's ``strategy`` field (RECORD-6) states (OPT-4).

        The counter is not part of that string (it is the record's ``counter`` field), so
        it is given separately (None: the strategy's default, SCRIPT-35).
        ``from_strategy_string(o.strategy_string, counter=c) == o`` up to an explicit
        ``overlap_tokens`` and ``min_tokens`` equal to the defaults. A string without
        ``min_tokens`` states 0 (RECORD-16: records written before SIZE-2).
        """
        if not isinstance(value, str):
            raise ArgumentTypeError("strategy", "a str", value)
        name, sep, rest = value.partition(":")
        if not sep:
            raise ArgumentValueError("strategy", "must be NAME:max_tokens=N[,...]", value)
        fields: dict[str, Any] = {}
        for part in rest.split(","):
            key, eq, text = part.partition("=")
            if not eq or key in fields:
                raise ArgumentValueError("strategy", f"has a bad part {part!r}", value)
            if key in ("max_tokens", "overlap_tokens", "min_tokens"):
                if not (text.isascii() and text.isdigit()):
                    raise ArgumentValueError("strategy", f"{key} must be a whole number", value)
                fields[key] = int(text)
            elif key in _BOOL_OPTIONS and text == "true":
                fields[key] = True
            else:
                raise ArgumentValueError("strategy", f"has an unknown part {part!r}", value)
        if "max_tokens" not in fields:
            raise ArgumentValueError("strategy", "lacks max_tokens", value)
        fields.setdefault("min_tokens", 0)
        return cls(name, counter=counter, encoding_file=encoding_file, **fields)


#: The option keywords, in field order: :class:`ChunkKeywords` is :class:`ChunkOptions`' fields
#: (a test holds the two together, so an option is declared in this module alone).
OPTION_KEYWORDS: Final = tuple(field.name for field in dataclasses.fields(ChunkOptions))

#: The boolean options, in field order: each is checked to be a bool, belongs to the
#: strategies whose registry entry lists it in ``flags`` (any strategy when none does), and
#: is ``NAME=true`` in the strategy string when set (OPT-5, RECORD-6).
_BOOL_OPTIONS: Final = tuple(
    field.name for field in dataclasses.fields(ChunkOptions) if field.type == "bool"
)
