"""Drawing generated cases fast: a strategy's examples from a seeded random source (CONF-10).

Hypothesis's test engine costs about 20 ms of CPU per case sent in the batch stage: it
keeps, replays and mutates examples, and its mutations repeat inputs (about four draws per
distinct case). The batch stage needs none of that, only many independent examples of each
op's strategy, so it draws each case straight from the strategy with Hypothesis's own
choice source (``ConjectureData`` over a ``random.Random`` seeded by the run's seed, the
profile and the op), nearly all distinct. The first case is the simplest one, as under the
engine. Shrinking still runs under the engine (``_runner``).

Even outside the engine, ``ConjectureData`` records every choice and every span for the
shrinker and the observability reports (half its cost); a batch case is never shrunk, so
the cases after the first are drawn by :class:`_Bare`, which asks the same provider for
the same choices with the same limits (so the same cases come out, CONF-19) and records
nothing. These are Hypothesis internals: if they change, :func:`draws` returns None (the
runner draws through the engine, only slower) or draws with plain ``ConjectureData``.
"""

from __future__ import annotations

import contextlib
import math
import random
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from hypothesis import strategies as st

__all__ = ["draws"]

T = TypeVar("T")

#: Choices one case may make before it counts as an overrun (and is drawn again).
_MAX_CHOICES = 10_000

#: Strategies a source keeps validated and unwrapped (each entry keeps its strategy alive).
_READY = 4096


def _bare_data() -> Callable[..., Any] | None:
    """The class of :class:`_Bare` data, or None when Hypothesis lacks what it needs."""
    try:
        from hypothesis.internal.conjecture.choice import choice_size
        from hypothesis.internal.conjecture.data import ConjectureData
        from hypothesis.internal.floats import float_to_int, int_to_float
        from hypothesis.strategies._internal.lazy import unwrap_strategies
    except ImportError:  # pragma: no cover - depends on the Hypothesis version
        return None

    no_labels: contextlib.nullcontext[dict[str, int]] = contextlib.nullcontext({})

    class _Bare(ConjectureData):
        """``ConjectureData`` that draws the same choices and records none of them."""

        ready: dict[int, tuple[Any, Any]]
        made = 0  # choices observed (ConjectureData counts its nodes)

        def _pooled_constraints(self, choice_type: str, constraints: Any) -> Any:
            return constraints

        def _draw(self, choice_type: str, constraints: Any, *, observe: bool, forced: Any) -> Any:
            # ConjectureData._draw without the prefix, the nodes and the observer: the same
            # provider call, the same NaN normalisation and the same overrun limits.
            if forced is not None:
                value = forced
            else:
                value = getattr(self.provider, "draw_" + choice_type)(**constraints)
                if choice_type == "float" and math.isnan(value):
                    value = int_to_float(float_to_int(value))
            if observe:
                if self.made == self.max_choices:
                    self.mark_overrun()
                self.made += 1
                self.length += choice_size(value)
                if self.length > self.max_length:
                    self.mark_overrun()
            return value

        def draw(self, strategy: Any, label: Any = None, observe_as: Any = None) -> Any:
            # By id, the strategy kept in the entry (so its id is not reused while there):
            # a strategy need not be hashable.
            kept, unwrapped = self.ready.get(id(strategy), (None, None))
            if kept is not strategy:
                strategy.validate()
                if strategy.is_empty:
                    self.mark_invalid(f"empty strategy {strategy!r}")
                unwrapped = unwrap_strategies(strategy)  # type: ignore[no-untyped-call]
                if len(self.ready) >= _READY:  # strategies a flatmap builds as it draws
                    self.ready.clear()
                self.ready[id(strategy)] = (strategy, unwrapped)
            self.depth += 1
            try:
                return unwrapped.do_draw(self)
            finally:
                self.depth -= 1

        def start_span(self, label: int) -> None:
            self.depth += 1

        def stop_span(self, *, discard: bool = False) -> None:
            self.depth -= 1

        def track_arg_label(self, label: str) -> Any:
            return no_labels

    return _Bare


def _provider() -> Any:
    """Hypothesis's provider without the constants of local modules, or None (the default).

    Hypothesis's provider sometimes draws a constant found in the source of the modules
    loaded so far that are not installed packages (chunkspec in a checkout, the tests), so
    its draws would depend on what the process had imported: the kit's own process and a
    worker would draw different cases for one seed. This one draws only Hypothesis's global
    constants, as its provider does when no local module is loaded (CONF-19).
    """
    try:
        from hypothesis.internal.conjecture.choice import (
            choice_constraints_key,
            choice_permitted,
        )
        from hypothesis.internal.conjecture.providers import GLOBAL_CONSTANTS, HypothesisProvider
    except ImportError:  # pragma: no cover - depends on the Hypothesis version
        return None
    pools: dict[Any, tuple[Any, ...]] = {}

    class _Provider(HypothesisProvider):
        """HypothesisProvider whose constants are the global ones only."""

        def _maybe_draw_constant(
            self, choice_type: Any, constraints: Any, *, p: float = 0.05
        ) -> Any:
            chance = self._random
            assert chance is not None
            if chance.random() > p:
                return None
            key = (choice_type, choice_constraints_key(choice_type, constraints))
            pool = pools.get(key)
            if pool is None:
                pool = pools[key] = tuple(
                    c
                    for c in GLOBAL_CONSTANTS.set_for_type(choice_type)
                    if choice_permitted(c, constraints)
                )
            if not pool:
                return None
            return chance.choice(chance.choice([pool]))  # the pool first, as Hypothesis does

    return _Provider


def draws(strategy: st.SearchStrategy[T], seed: str, *, bare: bool = True) -> Iterator[T] | None:
    """Endless independent examples of ``strategy`` for ``seed``, or None when this
    Hypothesis has no usable choice source (the caller falls back to the engine).
    ``bare=False`` draws every case with plain ``ConjectureData`` (the same cases, slower)."""
    try:
        from hypothesis.control import BuildContext
        from hypothesis.errors import StopTest
        from hypothesis.internal.conjecture.choice import ChoiceTemplate
        from hypothesis.internal.conjecture.data import ConjectureData
    except ImportError:  # pragma: no cover - depends on the Hypothesis version
        return None
    source = random.Random(seed)
    bare_class = _bare_data() if bare else None
    provider = _provider()
    given = {} if provider is None else {"provider": provider}
    ready: dict[int, tuple[Any, Any]] = {}  # strategies validated and unwrapped

    def plain(prefix: list[Any] | None) -> Any:
        return ConjectureData(random=source, max_choices=_MAX_CHOICES, prefix=prefix, **given)

    def bare_data() -> Any:
        data = bare_class(random=source, max_choices=_MAX_CHOICES, **given)  # type: ignore[misc]
        data.ready = ready
        return data

    def one(data: Any) -> Any:
        with BuildContext(data, wrapped_test=None):  # type: ignore[arg-type]
            return data.draw(strategy)

    def next_one(make: Callable[[], Any]) -> Any:
        while True:
            try:
                return one(make())
            except StopTest:  # an overrun or a rejected draw: draw again
                continue

    try:
        # The first case is the simplest (every choice at its minimum), as the engine's is.
        first = next_one(lambda: plain([ChoiceTemplate("simplest", count=None)]))
    except (TypeError, AttributeError):  # pragma: no cover - another internal signature
        return None
    make: Callable[[], Any] = lambda: plain(None)  # noqa: E731
    if bare_class is not None:
        try:
            state = source.getstate()
            second = next_one(bare_data)
        except (TypeError, AttributeError):  # pragma: no cover - another internal signature
            source.setstate(state)
        else:
            make = bare_data

            def forever_bare() -> Iterator[T]:
                yield first
                yield second
                while True:
                    yield next_one(make)

            return forever_bare()

    def forever() -> Iterator[T]:
        yield first
        while True:
            yield next_one(make)

    return forever()
