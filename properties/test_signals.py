"""A signal at any moment of an ``ingest`` run: its output is whole, old or new (CLI-13)."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from tests.processes import environment, no_processes_left, reap, snapshot

from properties.strategies import signal_plans

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc; Linux signals")

#: The liveness bound: a run ends within this many seconds of its last signal.
BOUND = 5.0


def corpus(folder: Path) -> Path:
    """Six small documents and two of 1 MiB (so two workers each get a task)."""
    folder.mkdir()
    for n in range(6):
        (folder / f"d{n}.md").write_text(f"# Doc {n}\n\nSome words in document {n}.\n")
    for n in range(2):
        (folder / f"big{n}.md").write_text("# Big\n\n" + "word " * 210_000 + "\n")
    return folder


def ingest(source: Path, out: Path, workers: int) -> list[str]:
    """The ingest command line."""
    command = [sys.executable, "-m", "chunkspec", "ingest", str(source), "--out", str(out)]
    return [*command, "--format", "jsonl", "--max-tokens", "100000", "--workers", str(workers)]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, str]]:
    """The corpus, an earlier corpus, and the output of an uninterrupted run of the corpus
    into an ``--out`` holding the earlier corpus's result, as each example's run is: the new
    output (CLI-13) of an incremental run includes its change set against the previous result
    and the manifest's counts of it (INCR-1, INCR-6), so only the same run, uninterrupted,
    gives it. Every byte of every file is compared, nothing masked."""
    root = tmp_path_factory.mktemp("signals")
    source = corpus(root / "corpus")
    old = root / "old"
    old.mkdir()
    (old / "a.md").write_text("# An earlier corpus\n\nIts one document.\n")
    for documents in (old, source):
        subprocess.run(
            ingest(documents, root / "new", 1), env=environment(), check=True, capture_output=True
        )
    return source, old, snapshot(root / "new")


def started(out: Path) -> bool:
    """Whether the run has begun writing (its staging folder exists)."""
    return any(".chunkspec-" in p.name for p in out.parent.iterdir())


@settings(
    max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(plan=signal_plans())
def test_a_signal_leaves_old_or_new_output(
    plan: dict[str, object],
    runs: tuple[Path, Path, dict[str, str]],
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """CLI-13, CLI-20: whatever the moment, signals and workers, the run ends within 5 s of
    its last signal with 0 (the new output) or 128 + the first signal (old or new output,
    whole), one line or none, no temporary folder and no process left."""
    source, old_corpus, new = runs
    out = tmp_path_factory.mktemp("run") / "out"
    subprocess.run(ingest(old_corpus, out, 1), env=environment(), check=True, capture_output=True)
    old = snapshot(out)
    names = plan["signals"]
    assert isinstance(names, list)
    process = subprocess.Popen(
        ingest(source, out, int(str(plan["workers"]))),
        env=environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        end = time.monotonic() + 30
        while not started(out) and process.poll() is None and time.monotonic() < end:
            time.sleep(0.005)  # the moment counts from the run's start, not Python's
        time.sleep(float(str(plan["delay"])))
        last = time.monotonic()
        for n, name in enumerate(names):
            if n:
                time.sleep(float(str(plan["gap"])))
            last = time.monotonic()
            with contextlib.suppress(ProcessLookupError):
                if plan["to"] == "group":
                    os.killpg(process.pid, signal.Signals[name])
                else:
                    os.kill(process.pid, signal.Signals[name])
        status = process.wait(timeout=BOUND + 30)
        took = time.monotonic() - last
        assert process.stderr is not None
        stderr = process.stderr.read().decode()
        left = no_processes_left(process.pid)
    finally:
        reap(process)
    first = signal.Signals[names[0]]
    if status == 128 + signal.SIGINT and "SIGINT" in names:
        # CLI-20: both signals held while a worker starts arrive in number order, INT first
        first = signal.SIGINT
    assert status in (0, 128 + first), stderr
    assert took <= BOUND or status == 0
    result = snapshot(out)
    line = "chunkspec ingest: interrupted" + ("" if first == signal.SIGINT else " (SIGTERM)")
    if status == 0:
        assert (result, stderr) == (new, "")
    else:
        assert result in (old, new)
        assert stderr == f"{line}\n" or (stderr == "" and result == new), stderr
    assert not re.search("Traceback", stderr)
    assert [p.name for p in out.parent.iterdir() if ".chunkspec-" in p.name] == []
    assert left == [], f"processes left: {left}"
