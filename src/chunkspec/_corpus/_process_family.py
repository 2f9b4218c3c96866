"""The processes a run started, found through /proc, so that none outlives it (CLI-20).

Ray's node processes (raylet, its agents) are started by Ray, not by chunkspec; after an
interrupted run, ``ray.shutdown()`` leaves some of them running. So ``ingest --engine ray``
notes its descendants before the shut-down and kills those still alive after it. Linux only
(elsewhere the list is empty).
"""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

__all__ = ["descendants", "kill"]


def _command(pid: int) -> bytes | None:
    """Return the command line of ``pid``, None when it is gone."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None


def descendants(pid: int) -> dict[int, bytes]:
    """Every live descendant of ``pid`` -> its command line (to know it again)."""
    found: dict[int, bytes] = {}
    pending = [pid]
    while pending:
        parent = pending.pop()
        try:
            children = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
        except OSError:
            continue
        for child in map(int, children):
            command = _command(child)
            if command is not None and child not in found:
                found[child] = command
                pending.append(child)
    return found


def kill(family: dict[int, bytes]) -> None:
    """SIGKILL each process of ``family`` still alive with the same command line."""
    for pid, command in family.items():
        if _command(pid) == command:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
