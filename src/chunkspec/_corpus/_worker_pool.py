"""Worker processes for the local engine that a signal stops at once (SCALE-2, CLI-13).

A small pool instead of ``ProcessPoolExecutor``, whose shutdown waits for the task under
way: a worker deep in a slow document would hold up Ctrl-C for as long as that document
takes, and a second Ctrl-C during that wait could leave the parent and its workers waiting
on each other. Here each worker has its own pipe; the parent hands out one task at a time,
and on any exception (a signal included) it kills every worker (SIGKILL: they may be stuck
in C code) and reaps them before the exception goes on. A worker that dies on its own is
:class:`BrokenProcessPool`. Workers ignore SIGINT and SIGTERM (a terminal's Ctrl-C reaches
the whole process group): the parent alone decides, and on Linux a worker dies with it.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import resource_tracker
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from types import TracebackType
from typing import Any

from .._errors import ArgumentValueError
from ._critical import SIGNALS, emergency, held

__all__ = ["BrokenProcessPool", "WorkerPool", "spawnable", "usable_cores", "worker_count"]

#: How long a worker that was asked to stop may take before it is killed (seconds).
STOP_GRACE = 5.0

#: ``prctl`` option: the signal a process gets when its parent dies (Linux).
_PR_SET_PDEATHSIG = 1


def usable_cores() -> int:
    """The cores this process may run on: its affinity set where the system has one."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def worker_count(asked: int | None, oversubscribe: bool, say: Callable[[str], None]) -> int:
    """TRUST-27: the local engine's worker count: ``asked``, capped at the usable cores
    with one line to ``say`` unless ``oversubscribe``; the cores when not asked."""
    cores = usable_cores()
    if asked is None:
        return cores if spawnable() else 1  # a main read from stdin: this process alone
    if asked > 1 and not spawnable():
        main = sys.modules["__main__"].__file__
        raise ArgumentValueError(
            "workers",
            f"needs a main module that is a file: each worker imports it again, and {main} "
            "is none (run from a script, or give workers=1)",
            asked,
        )
    if asked > cores and not oversubscribe:
        say(f"--workers {asked} capped at {cores}, the usable cores (--oversubscribe runs {asked})")
        return cores
    return asked


def spawnable() -> bool:
    """Whether spawned workers can start: each imports ``__main__`` again from its file, so
    a main read from standard input (``python - <<EOF``, whose file is ``<stdin>``) would
    kill every worker at its start. A main with no file (``-c``, a notebook) is not imported."""
    path = getattr(sys.modules.get("__main__"), "__file__", None)
    return not isinstance(path, str) or os.path.isfile(path)


def _serve(conn: Connection, function: Callable[[Any], Any], parent: int) -> None:
    """A worker's life: run ``function`` on each task received until told to stop."""
    for signum in SIGNALS:
        signal.signal(signum, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGNALS)  # held by the parent at start
    if sys.platform == "linux":
        with contextlib.suppress(Exception):
            import ctypes

            ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before prctl took effect
        return
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        index, argument = message
        try:
            reply = (index, True, function(argument))
        except Exception as error:
            reply = (index, False, error)
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
        except Exception as error:  # a result or error that cannot be pickled
            conn.send((index, False, RuntimeError(f"{type(error).__name__}: {error}")))


class _Worker:
    """One worker process, the parent's end of its pipe, and the task it is running."""

    def __init__(self, process: BaseProcess, conn: Connection) -> None:
        self.process = process
        self.conn = conn
        self.task: int | None = None


class WorkerPool:
    """``workers`` spawned processes running ``function``; killed on any exception."""

    def __init__(self, function: Callable[[Any], Any], workers: int) -> None:
        self._function = function
        self._size = workers
        self._workers: list[_Worker] = []
        self._emergency = emergency(self.kill)

    def __enter__(self) -> WorkerPool:
        """Start the workers (spawn: nothing inherited but the function's module)."""
        self._emergency.__enter__()
        context = multiprocessing.get_context("spawn")
        # Started here, not inside the first start: starting it unblocks SIGINT and SIGTERM
        # (SIG_UNBLOCK, not the old mask), which would let a signal cut a start in half.
        resource_tracker.ensure_running()
        try:
            for _ in range(self._size):
                parent, child = context.Pipe()
                process = context.Process(
                    target=_serve, args=(child, self._function, os.getpid()), daemon=True
                )
                # Signals stay blocked from fork to the worker's SIG_IGN, so a Ctrl-C while
                # it imports cannot kill it with a traceback; the parent gets it just after.
                with held():
                    process.start()
                    self._workers.append(_Worker(process, parent))
                child.close()
        except BaseException:
            try:
                self.kill()
            finally:
                self._emergency.__exit__(None, None, None)
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Stop the workers: ask them when all went well, else kill them (CLI-13)."""
        try:
            if kind is None:
                self._stop()
            else:
                self.kill()
        finally:
            self._emergency.__exit__(None, None, None)

    def _stop(self) -> None:
        """Tell every worker to stop, wait a little, kill any that did not."""
        for worker in self._workers:
            with contextlib.suppress(OSError):
                worker.conn.send(None)
        for worker in self._workers:
            worker.process.join(STOP_GRACE)
        self.kill()

    def kill(self) -> None:
        """Kill every worker at once and reap it; safe to call twice, or from a handler."""
        for worker in self._workers:
            with contextlib.suppress(Exception):
                if worker.process.exitcode is None:
                    worker.process.kill()
        for worker in self._workers:
            with contextlib.suppress(Exception):
                worker.process.join(1.0)
            with contextlib.suppress(Exception):
                worker.conn.close()

    def map_in_order(self, arguments: Iterable[Any], ahead: int) -> Iterator[Any]:
        """Yield ``function(argument)`` for each argument, in order, at most ``ahead`` tasks
        past the oldest one not yet yielded; a worker's exception is raised here."""
        pending = iter(arguments)
        results: dict[int, Any] = {}
        idle = list(reversed(self._workers))
        busy: list[_Worker] = []
        submitted = delivered = 0
        exhausted = False
        while True:
            while idle and not exhausted and submitted < delivered + ahead:
                argument = next(pending, _END)
                if argument is _END:
                    exhausted = True
                    break
                worker = idle.pop()
                try:
                    worker.conn.send((submitted, argument))
                except OSError:
                    raise BrokenProcessPool("a worker process died") from None
                worker.task = submitted
                busy.append(worker)
                submitted += 1
            if delivered in results:
                yield results.pop(delivered)
                delivered += 1
                continue
            if exhausted and delivered == submitted:
                return
            # Every worker's sentinel, idle ones too: a worker killed while idle would
            # otherwise leave the parent waiting for ever on the busy ones.
            ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in self._workers]))
            for worker in list(busy):
                if worker.conn in ready:
                    try:
                        index, ok, value = worker.conn.recv()
                    except (EOFError, OSError):
                        raise BrokenProcessPool("a worker process died") from None
                    if not ok:
                        raise value
                    results[index] = value
                    worker.task = None
                    busy.remove(worker)
                    idle.append(worker)
            if any(w.process.sentinel in ready for w in self._workers):
                raise BrokenProcessPool("a worker process died")


#: The end of the arguments.
_END = object()
