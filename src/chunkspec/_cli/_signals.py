"""SIGINT and SIGTERM for every command: stop at once, clean up, exit 128 + the signal (CLI-13).

The first signal raises :class:`Interrupted` in the main thread, so ``finally`` blocks and
context managers remove what the run started (temporary files, the staging folder, worker
processes) and ``main`` prints one line. A second signal does not wait for that clean-up: it
runs the registered emergency clean-ups (kill the workers, delete the staging folder) and
ends the process at once with the first signal's status.

Python swallows an exception raised where it cannot propagate (a weakref callback, ``__del__``,
a garbage-collector callback): it reports it through ``sys.unraisablehook`` and goes on. A
first signal that lands there is not lost: the hook keeps its report off standard error and
delivers the signal again a moment later, to be raised in the run's own code (CLI-13).
"""

from __future__ import annotations

import _thread
import contextlib
import functools
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import TypeVar

__all__ = [
    "SIGNALS",
    "STDERR",
    "Interrupted",
    "emergency",
    "held",
    "interrupted_line",
    "removed_on_failure",
    "signalled",
    "stop_on_signals",
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


def interrupted_line(command: str, signum: int) -> str:
    """Return the one line of CLI-13: ``interrupted``, naming any signal but SIGINT."""
    if signum == signal.SIGINT:
        return f"chunkspec {command}: interrupted\n"
    return f"chunkspec {command}: interrupted ({signal.Signals(signum).name})\n"


#: The handlers of the :func:`stop_on_signals` blocks running, innermost last.
_HANDLERS: list[Callable[[int, FrameType | None], None]] = []

#: The states of the :func:`stop_on_signals` blocks running, innermost last.
_STATES: list[_State] = []

#: Clean-ups a second signal runs before the process ends (kill workers, delete staging).
_EMERGENCY: list[Callable[[], None]] = []


@contextlib.contextmanager
def emergency(cleanup: Callable[[], None]) -> Iterator[None]:
    """Register ``cleanup`` for a second signal while the block runs (CLI-13)."""
    _EMERGENCY.append(cleanup)
    try:
        yield
    finally:
        with contextlib.suppress(ValueError):
            _EMERGENCY.remove(cleanup)


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


class _State:
    """What the handler has seen: the first signal, and whether its line is printed."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.first: int | None = None
        self.reported = False


@contextlib.contextmanager
def stop_on_signals(command: str) -> Iterator[Callable[[], None]]:
    """Turn SIGINT and SIGTERM into :class:`Interrupted` while the block runs (CLI-13).

    Yields a function to call once the interrupted line is printed. Outside the main thread
    (where Python cannot set handlers) nothing is installed. The old handlers come back after,
    unless a signal came: then the process is ending, and another signal ends it at once.
    """
    state = _State(command)

    def reported() -> None:
        state.reported = True

    if threading.current_thread() is not threading.main_thread():
        yield reported
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        if _HOLD[0]:
            # CLI-13: a held block is never cut in half, though its thread holds the signal
            # only for itself: another thread (pyarrow's, a Timer) may take it for the process.
            _PENDING.append(signum)
            return
        if state.first is None:
            state.first = signum
            raise Interrupted(signum)
        # A second signal: do not wait for the clean-up under way; do its urgent part here.
        for cleanup in reversed(_EMERGENCY):
            with contextlib.suppress(Exception):
                cleanup()
        if not state.reported:
            with contextlib.suppress(OSError):
                os.write(STDERR[0], interrupted_line(state.command, state.first).encode())
        os._exit(128 + state.first)

    unraisable = sys.unraisablehook

    def hook(report: sys.UnraisableHookArgs) -> None:
        caught = report.exc_value
        if isinstance(caught, Interrupted) and caught.signum == state.first:
            # Raised where Python cannot propagate it: the run went on. Deliver it again.
            state.first = None
            timer = threading.Timer(_AGAIN, _deliver, (state, caught.signum))
            timer.daemon = True
            timer.start()
            return
        unraisable(report)

    previous = {signum: signal.signal(signum, handler) for signum in SIGNALS}
    sys.unraisablehook = hook
    _HANDLERS.append(handler)
    _STATES.append(state)
    try:
        yield reported
    finally:
        sys.unraisablehook = unraisable
        _HANDLERS.remove(handler)
        _STATES.remove(state)
        first = state.first
        for signum, old in previous.items():
            if first is None:
                signal.signal(signum, old)
            else:  # the process is on its way out: another signal ends it, same status
                signal.signal(signum, functools.partial(_exit, 128 + first))


#: Seconds before a swallowed first signal is delivered again: time for the code that
#: swallowed it to return to the run's own.
_AGAIN = 0.005


def _deliver(state: _State, signum: int) -> None:
    """Deliver a swallowed first signal again, unless another came meanwhile (CLI-13)."""
    if state.first is None:
        _thread.interrupt_main(signal.Signals(signum))


#: The descriptor a second signal's line is written to: standard error, or while CLI-19
#: points descriptor 2 at Ray's log, the descriptor standard error was before.
STDERR = [2]


def _exit(status: int, signum: int, frame: FrameType | None) -> None:
    """End the process at once with ``status``."""
    os._exit(status)


#: How deep the main thread is in :func:`held` blocks, and the signals this module's handler
#: took meanwhile (CLI-13): they are raised again, in order, when the outermost block ends.
_HOLD = [0]
_PENDING: list[int] = []


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
        _HOLD[0] += 1
    try:
        yield
    finally:
        if main:
            _HOLD[0] -= 1
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
        if main and not _HOLD[0] and _PENDING:
            pending = _PENDING[:]
            _PENDING.clear()
            for signum in pending:
                signal.raise_signal(signum)  # the handler runs here, as if it came now


def signalled(signum: int) -> Interrupted:
    """Return the :class:`Interrupted` for ``signum`` caught by another handler (Ray's),
    counted as the first signal, and install this module's handler again."""
    if _STATES and _STATES[-1].first is None:
        _STATES[-1].first = signum
    take_back()
    return Interrupted(signum)


def take_back() -> None:
    """Install this module's handler again, after a library (Ray) put in its own (CLI-13)."""
    if _HANDLERS and threading.current_thread() is threading.main_thread():
        for signum in SIGNALS:
            signal.signal(signum, _HANDLERS[-1])
