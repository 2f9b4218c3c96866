"""Critical sections and clean-ups of a corpus run, which a signal handler honours (CLI-13).

The engine marks what a signal must not cut in half (:func:`held`) and what a second signal
must still clean up (:func:`emergency`, :func:`removed_on_failure`); it installs no handler.
The command line installs one (``chunkspec._cli._signals.stop_on_signals``), registered here
(``HANDLERS``, ``STATES``) so that the engine can put it back after Ray replaced it
(:func:`take_back`). Imports only the standard library.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import TypeVar

__all__ = [
    "EMERGENCY",
    "HANDLERS",
    "HOLD",
    "PENDING",
    "SIGNALS",
    "STATES",
    "STDERR",
    "Interrupted",
    "SignalState",
    "emergency",
    "held",
    "removed_on_failure",
    "signalled",
    "take_back",
]

#: The signals that stop a run.
SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(KeyboardInterrupt):
    """A run stopped by a signal; ``status`` is 128 + the signal's number (CLI-13)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def status(self) -> int:
        """The exit status: 130 for SIGINT, 143 for SIGTERM."""
        return 128 + self.signum


class SignalState:
    """What the handler has seen: the first signal, and whether its line is printed."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.first: int | None = None
        self.reported = False


#: The handlers of the :func:`stop_on_signals` blocks running, innermost last.
HANDLERS: list[Callable[[int, FrameType | None], None]] = []

#: The states of the :func:`stop_on_signals` blocks running, innermost last.
STATES: list[SignalState] = []

#: Clean-ups a second signal runs before the process ends (kill workers, delete staging).
EMERGENCY: list[Callable[[], None]] = []


@contextlib.contextmanager
def emergency(cleanup: Callable[[], None]) -> Iterator[None]:
    """Register ``cleanup`` for a second signal while the block runs (CLI-13)."""
    EMERGENCY.append(cleanup)
    try:
        yield
    finally:
        with contextlib.suppress(ValueError):
            EMERGENCY.remove(cleanup)


_T = TypeVar("_T")


@contextlib.contextmanager
def removed_on_failure(make: Callable[[], _T], remove: Callable[[_T], None]) -> Iterator[_T]:
    """Yield ``make()``, a temporary file or folder; ``remove`` it if the block fails (CLI-13).

    It is made with signals held, so no signal comes between making it and knowing its
    name, and its removal is an emergency clean-up until the block and the removal itself
    are over: a second signal at any moment, even during the removal, removes it too.
    """
    made: list[_T] = []

    def urgent() -> None:
        for thing in made:
            remove(thing)

    with emergency(urgent):
        try:
            with held():
                made.append(make())
            yield made[0]
        except BaseException:
            urgent()
            raise


#: The descriptor a second signal's line is written to: standard error, or while CLI-19
#: points descriptor 2 at Ray's log, the descriptor standard error was before.
STDERR = [2]


#: How deep the main thread is in :func:`held` blocks, and the signals this module's handler
#: took meanwhile (CLI-13): they are raised again, in order, when the outermost block ends.
HOLD = [0]
PENDING: list[int] = []


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM while the block runs; they are delivered after it (POSIX).

    A child process started in the block inherits the held mask (CLI-20). The mask holds the
    signals for the calling thread only: a process-directed signal may reach another thread
    (pyarrow's pool, jemalloc's), whose C handler then has Python run the handler in the main
    thread at once. So the main thread's blocks are also counted, and the handler of
    :func:`stop_on_signals` defers what it takes inside one; the first deferred signal is
    raised when the outermost block ends (a later one finds the run already stopping).
    """
    if not hasattr(signal, "pthread_sigmask"):  # Windows: nothing to hold with
        yield
        return
    main = threading.current_thread() is threading.main_thread()
    old = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
    if main:
        HOLD[0] += 1
    try:
        yield
    finally:
        if main:
            HOLD[0] -= 1
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
        if main and not HOLD[0] and PENDING:
            pending = PENDING[:]
            PENDING.clear()
            for signum in pending:
                signal.raise_signal(signum)  # the handler runs here, as if it came now


def signalled(signum: int) -> Interrupted:
    """Return the :class:`Interrupted` for ``signum`` caught by another handler (Ray's),
    counted as the first signal, and install this module's handler again."""
    if STATES and STATES[-1].first is None:
        STATES[-1].first = signum
    take_back()
    return Interrupted(signum)


def take_back() -> None:
    """Install this module's handler again, after a library (Ray) put in its own (CLI-13)."""
    if HANDLERS and threading.current_thread() is threading.main_thread():
        for signum in SIGNALS:
            signal.signal(signum, HANDLERS[-1])
