"""Drawing generated cases fast: a strategy's examples from a seeded random source (CONF-10).

Hypothesis's test engine costs about 20 ms of CPU per case sent in the batch stage: it
keeps, replays and mutates examples, and its mutations repeat inputs (about four draws per
distinct case). The batch stage needs none of that, only many independent examples of each
op's strategy, so it draws each case straight from the strategy with Hypothesis's own
choice source (``ConjectureData`` over a ``random.Random`` seeded by the run's seed, the
profile and the op): about 0.8 ms a case, nearly all distinct. The first case is the
simplest one, as under the engine. Shrinking still runs under
the engine (``_runner``). These are Hypothesis internals: if they change, :func:`draws`
returns None and the runner draws through the engine as before, only slower.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, TypeVar

from hypothesis import strategies as st

__all__ = ["draws"]

T = TypeVar("T")

#: Choices one case may make before it counts as an overrun (and is drawn again).
_MAX_CHOICES = 10_000


def draws(strategy: st.SearchStrategy[T], seed: str) -> Iterator[T] | None:
    """Endless independent examples of ``strategy`` for ``seed``, or None when this
    Hypothesis has no usable choice source (the caller falls back to the engine)."""
    try:
        from hypothesis.control import BuildContext
        from hypothesis.errors import StopTest
        from hypothesis.internal.conjecture.choice import ChoiceTemplate
        from hypothesis.internal.conjecture.data import ConjectureData
    except ImportError:  # pragma: no cover - depends on the Hypothesis version
        return None
    source = random.Random(seed)
    # The first case is the simplest (every choice at its minimum), as the engine's is.
    prefix: list[Any] = [ChoiceTemplate("simplest", count=None)]

    def one() -> Any:
        data = ConjectureData(random=source, max_choices=_MAX_CHOICES, prefix=list(prefix) or None)
        prefix.clear()
        with BuildContext(data, wrapped_test=None):  # type: ignore[arg-type]
            return data.draw(strategy)

    def next_one() -> Any:
        while True:
            try:
                return one()
            except StopTest:  # an overrun or a rejected draw: draw again
                continue

    try:
        first = next_one()
    except (TypeError, AttributeError):  # pragma: no cover - another internal signature
        return None

    def forever() -> Iterator[T]:
        yield first
        while True:
            yield next_one()

    return forever()
