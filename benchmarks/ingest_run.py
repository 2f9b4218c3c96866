"""One ``chunkspec ingest`` run in a child process, timed: what the ingest benchmarks share."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The child's environment: this checkout's package, Ray's usage report off.
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "RAY_USAGE_STATS_ENABLED": "0"}


def ingest_command(folder: Path, out: Path, extra: list[str]) -> tuple[float, float]:
    """Return (CPU seconds of the command and its children, wall seconds) of one ingest."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "chunkspec", "ingest", str(folder), "--out", str(out), *extra],
        check=True,
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall
