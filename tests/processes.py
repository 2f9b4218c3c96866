"""Watching a real ``python -m chunkspec`` process: its output, and what it leaves running."""

from __future__ import annotations

import contextlib
import hashlib
import os
import signal
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def environment() -> dict[str, str]:
    """The child's environment: this checkout's chunkspec first on the path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), str(ROOT)])
    return env


def snapshot(path: Path) -> dict[str, str]:
    """Every file under ``path`` (or ``path`` itself) -> the SHA-256 of its bytes."""
    if path.is_file():
        return {path.name: hashlib.sha256(path.read_bytes()).hexdigest()}
    return {
        item.relative_to(path).as_posix(): hashlib.sha256(item.read_bytes()).hexdigest()
        for item in sorted(path.rglob("*"))
        if item.is_file()
    }


def session_processes(session: int) -> list[int]:
    """The live (not zombie) processes of ``session``, read from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError):
            stat = Path(f"/proc/{entry}/stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            if fields[0] != "Z" and int(fields[3]) == session:
                found.append(int(entry))
    return found


def no_processes_left(session: int) -> list[int]:
    """Wait up to 3 s for ``session`` to empty (a helper may exit just after its parent)."""
    end = time.monotonic() + 3.0
    while (left := session_processes(session)) and time.monotonic() < end:
        time.sleep(0.05)
    return left


def reap(process: subprocess.Popen[bytes]) -> None:
    """Kill whatever is left of ``process``'s session, wait for it, close its stderr."""
    for pid in session_processes(process.pid):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    process.wait()
    if process.stderr is not None:
        process.stderr.close()
