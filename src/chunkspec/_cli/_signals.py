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

The handler lives here, in the command; the critical sections it honours and the clean-ups
it runs (``held``, ``emergency``, ``removed_on_failure``) are the corpus engine's, in
``chunkspec._corpus._critical``, so that :func:`chunkspec.ingest` runs the same way
without a handler.
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

from .._corpus._critical import (
    EMERGENCY,
    HANDLERS,
    HOLD,
    PENDING,
    SIGNALS,
    STATES,
    STDERR,
    Interrupted,
    SignalState,
)

__all__ = ["SIGNALS", "Interrupted", "interrupted_line", "stop_on_signals"]


def interrupted_line(command: str, signum: int) -> str:
    """Return the one line of CLI-13: ``interrupted``, naming any signal but SIGINT."""
    if signum == signal.SIGINT:
        return f"chunkspec {command}: interrupted\n"
    return f"chunkspec {command}: interrupted ({signal.Signals(signum).name})\n"


@contextlib.contextmanager
def stop_on_signals(command: str) -> Iterator[Callable[[], None]]:
    """Turn SIGINT and SIGTERM into :class:`Interrupted` while the block runs (CLI-13).

    Yields a function to call once the interrupted line is printed. Outside the main thread
    (where Python cannot set handlers) nothing is installed. The old handlers come back after,
    unless a signal came: then the process is ending, and another signal ends it at once.
    """
    state = SignalState(command)

    def reported() -> None:
        state.reported = True

    if threading.current_thread() is not threading.main_thread():
        yield reported
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        if HOLD[0]:
            # CLI-13: a held block is never cut in half, though its thread holds the signal
            # only for itself: another thread (pyarrow's, a Timer) may take it for the process.
            PENDING.append(signum)
            return
        if state.first is None:
            state.first = signum
            raise Interrupted(signum)
        # A second signal: do not wait for the clean-up under way; do its urgent part here.
        for cleanup in reversed(EMERGENCY):
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
    HANDLERS.append(handler)
    STATES.append(state)
    try:
        yield reported
    finally:
        sys.unraisablehook = unraisable
        HANDLERS.remove(handler)
        STATES.remove(state)
        first = state.first
        for signum, old in previous.items():
            if first is None:
                signal.signal(signum, old)
            else:  # the process is on its way out: another signal ends it, same status
                signal.signal(signum, functools.partial(_exit, 128 + first))


#: Seconds before a swallowed first signal is delivered again: time for the code that
#: swallowed it to return to the run's own.
_AGAIN = 0.005


def _deliver(state: SignalState, signum: int) -> None:
    """Deliver a swallowed first signal again, unless another came meanwhile (CLI-13)."""
    if state.first is None:
        _thread.interrupt_main(signal.Signals(signum))


def _exit(status: int, signum: int, frame: FrameType | None) -> None:
    """End the process at once with ``status``."""
    os._exit(status)
