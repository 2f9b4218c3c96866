"""Signals sent to a real ``python -m chunkspec`` process (CLI-13, CLI-20).

Fault injection: a document that never ends (a named pipe nobody writes, named on the
command line: the reader blocks in the kernel, as a worker deep in a slow document would in
C code; a FIFO found in a folder is skipped, never opened, TRUST-31), signals sent to the
parent or to its whole process group (a terminal's Ctrl-C), once or twice, and a worker
killed from outside. Each case checks the exit status, the one stderr line, that the process
ended within 5 s of the last signal (a liveness bound, not a timing measurement), that no
process of its session is left, and that the output is byte for byte what it was before.
The cases are data: tests/golden/signals.json.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.goldens import cases
from tests.processes import environment, no_processes_left, reap, snapshot

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc; Linux signals")

#: The liveness bound: a run ends within this many seconds of its last signal.
BOUND = 5.0


def workers(pid: int) -> list[int]:
    """The children of ``pid`` that are worker processes (not the resource tracker)."""
    found = []
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        with contextlib.suppress(OSError):
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.append(int(child))
    return found


def wait_for_reader(fifo: Path, process: subprocess.Popen[bytes]) -> int:
    """Wait until someone opens ``fifo`` to read; return our write end (kept open, unwritten)."""
    end = time.monotonic() + 30.0
    while time.monotonic() < end:
        assert process.poll() is None, "the run ended before reading the endless document"
        try:
            return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # ENXIO: no reader yet
            time.sleep(0.02)
    raise AssertionError("no one read the endless document within 30 s")


def wait_for_workers(process: subprocess.Popen[bytes]) -> None:
    """Wait until the run has started its first worker process."""
    end = time.monotonic() + 30.0
    while not workers(process.pid):
        assert process.poll() is None, "the run ended before starting a worker"
        assert time.monotonic() < end, "no worker started within 30 s"
        time.sleep(0.005)


class Setup:
    """A command line over a small corpus, its output path, and an earlier output there."""

    def __init__(self, tmp: Path, command: str, workers: int) -> None:
        self.tmp = tmp
        corpus = tmp / "corpus"
        corpus.mkdir()
        for n in range(6):
            (corpus / f"d{n}.md").write_text(f"# Doc {n}\n\nSome words in document {n}.\n")
        self.fifo: Path | None = None
        env = environment()
        if command == "ingest":
            self.out = tmp / "out"
            old = tmp / "old"
            old.mkdir()
            (old / "a.md").write_text("# An earlier corpus\n\nIts one document.\n")
            # The same options as the run under test: no "full run" line (INCR-2) on stderr.
            argv = ["ingest", str(old), "--out", str(self.out), "--format", "jsonl"]
            _run([*argv, "--max-tokens", "100000"], env)
            # Two files of 1 MiB each fill a task (SCALE-2), so the small ones and the endless
            # one make a third task and every worker gets one: both are busy.
            for n in range(2):
                (corpus / f"big{n}.md").write_text("# Big\n\n" + "word " * 210_000 + "\n")
            # TRUST-31: the endless FIFO is read because it is named, after the folder's
            # files: the small ones and it still make the third task.
            self.fifo = tmp / "d3-endless.md"
            self.argv = ["ingest", str(corpus), str(self.fifo), "--out", str(self.out)]
            self.argv += ["--format", "jsonl", "--workers", str(workers), "--max-tokens", "100000"]
        elif command == "chunk":
            self.out = tmp / "out.jsonl"
            self.out.write_text("an earlier result\n")
            self.fifo = tmp / "d3-endless.md"  # named, so read (TRUST-31)
            self.argv = ["chunk", str(corpus), str(self.fifo), "--output", str(self.out)]
        else:
            self.out = tmp / "report.json"
            self.out.write_text("an earlier report\n")
            self.argv = ["eval", "--json", str(self.out), "--strategies", "recursive-200"]
            self.argv += ["--bootstrap", "20000", "--no-progress"]
        if self.fifo is not None:
            os.mkfifo(self.fifo)
        self.old = snapshot(self.out)

    @contextlib.contextmanager
    def started(self) -> Iterator[subprocess.Popen[bytes]]:
        """Start the run in its own session; kill whatever is left of it at the end."""
        process = subprocess.Popen(
            [sys.executable, "-m", "chunkspec", *self.argv],
            cwd=self.tmp,
            env=environment(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        try:
            yield process
        finally:
            reap(process)

    def leftovers(self) -> list[str]:
        """Temporary files or folders a run left beside its output."""
        return [p.name for p in self.out.parent.iterdir() if ".chunkspec-" in p.name]


def _run(argv: list[str], env: dict[str, str]) -> None:
    """Run a command to the end; it must succeed."""
    done = subprocess.run(
        [sys.executable, "-m", "chunkspec", *argv], env=env, capture_output=True, check=False
    )
    assert done.returncode == 0, done.stderr


def send(process: subprocess.Popen[bytes], name: str, to: str) -> None:
    """Send signal ``name`` to the process or its group; a run already gone is no error."""
    with contextlib.suppress(ProcessLookupError):
        if to == "group":
            os.killpg(process.pid, signal.Signals[name])
        else:
            os.kill(process.pid, signal.Signals[name])


@pytest.mark.parametrize("case", cases("signals"))
def test_signals_golden(case: dict[str, Any], tmp_path: Path) -> None:
    """Each scenario of tests/golden/signals.json (CLI-13, CLI-20)."""
    given, expected = case["input"], case["output"]
    setup = Setup(tmp_path, given["command"], given.get("workers", 1))
    writer = None
    with setup.started() as process:
        try:
            if given["when"] == "stuck":
                assert setup.fifo is not None
                writer = wait_for_reader(setup.fifo, process)
            elif given["when"] == "workers":
                wait_for_workers(process)
            else:
                time.sleep(given["when"])
            if given.get("kill_worker"):
                os.kill(workers(process.pid)[0], signal.SIGKILL)
            last = time.monotonic()
            for n, name in enumerate(given["signals"]):
                if n:
                    time.sleep(0.2)
                last = time.monotonic()
                send(process, name, given["to"])
            try:
                status = process.wait(timeout=BOUND + 30)
            except subprocess.TimeoutExpired:
                pytest.fail(f"the run did not end within {BOUND + 30} s of the last signal")
            took = time.monotonic() - last
            assert process.stderr is not None
            stderr = process.stderr.read().decode()
            left = no_processes_left(process.pid)
        finally:
            if writer is not None:
                os.close(writer)
    assert status == expected["status"], stderr
    assert took <= BOUND, f"ended {took:.1f} s after the last signal"
    assert re.fullmatch(expected["stderr_match"], stderr), stderr
    assert left == [], f"processes left: {left}"
    assert expected["out"] == "old"
    assert snapshot(setup.out) == setup.old
    assert setup.leftovers() == []


#: A run whose clean-up after the first signal is slow (30 s), with an emergency clean-up.
SLOW_CLEANUP = """
import sys, time
from pathlib import Path
from chunkspec._cli._signals import stop_on_signals
from chunkspec._corpus._critical import emergency
with stop_on_signals("test"):
    with emergency(lambda: Path(sys.argv[1]).write_text("emergency")):
        try:
            Path(sys.argv[2]).write_text("running")
            time.sleep(60)
        finally:
            time.sleep(30)  # a clean-up that takes its time
"""


def test_second_signal_does_not_wait_for_the_clean_up(tmp_path: Path) -> None:
    """CLI-13: a second signal during a slow clean-up runs the emergency clean-ups and ends
    the process at once with the first signal's status and its one line."""
    marker, running = tmp_path / "emergency", tmp_path / "running"
    process = subprocess.Popen(
        [sys.executable, "-c", SLOW_CLEANUP, str(marker), str(running)],
        env=environment(),
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        end = time.monotonic() + 30
        while not running.exists():
            assert process.poll() is None
            assert time.monotonic() < end
            time.sleep(0.01)
        process.send_signal(signal.SIGTERM)
        time.sleep(0.3)
        assert process.poll() is None  # in its slow clean-up
        process.send_signal(signal.SIGINT)
        sent = time.monotonic()
        status = process.wait(timeout=30)
        took = time.monotonic() - sent
        assert process.stderr is not None
        stderr = process.stderr.read().decode()
    finally:
        with contextlib.suppress(OSError):
            process.kill()
        process.wait()
        if process.stderr is not None:
            process.stderr.close()
    assert (status, stderr) == (143, "chunkspec test: interrupted (SIGTERM)\n")
    assert took <= BOUND
    assert marker.read_text() == "emergency"


#: A run whose first signal arrives while Python runs a weakref callback, where an exception
#: cannot propagate (Python reports it as "Exception ignored in" and goes on).
SWALLOWED = """
import signal, sys, time, weakref
from chunkspec._cli._signals import Interrupted, interrupted_line, stop_on_signals

class Thing:
    pass

try:
    with stop_on_signals("test"):
        thing = Thing()
        kept = weakref.ref(thing, lambda _: signal.raise_signal(signal.SIGTERM))
        del thing  # the callback runs here; the handler's Interrupted is swallowed
        print("went on", flush=True)
        end = time.monotonic() + 30
        while time.monotonic() < end:  # the run's own code: the signal comes back here
            time.sleep(0.001)
        print("never interrupted", flush=True)
except Interrupted as stop:
    sys.stderr.write(interrupted_line("test", stop.signum))
    sys.exit(stop.status)
"""


def test_a_swallowed_first_signal_comes_back() -> None:
    """CLI-13: a first signal raised where Python cannot propagate it (a weakref callback)
    prints no traceback and still stops the run, in its own code, with its status."""
    done = subprocess.run(
        [sys.executable, "-c", SWALLOWED],
        env=environment(),
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr.decode()) == (
        143,
        b"went on\n",
        "chunkspec test: interrupted (SIGTERM)\n",
    )


def test_a_temporary_is_made_with_signals_held_and_removed_while_registered(
    tmp_path: Path,
) -> None:
    """CLI-13: ``removed_on_failure`` makes the temporary with SIGINT and SIGTERM held (no
    signal between making it and knowing its name) and, on failure, removes it while its
    removal is still an emergency clean-up (a second signal during the removal removes it
    too). The race a property run found: a second SIGTERM right after the first left
    ``.out.chunkspec-*`` behind, because the removal was unregistered before it ran."""
    from chunkspec._corpus import _critical as _signals

    seen: dict[str, Any] = {}

    def make() -> Path:
        seen["held"] = set(signal.pthread_sigmask(signal.SIG_BLOCK, []))
        folder = tmp_path / "staging"
        folder.mkdir()
        return folder

    def remove(folder: Path) -> None:
        seen["registered"] = len(_signals.EMERGENCY)
        folder.rmdir()

    def fail() -> None:
        with _signals.removed_on_failure(make, remove) as folder:
            assert folder.is_dir()
            raise _signals.Interrupted(signal.SIGTERM)

    with pytest.raises(_signals.Interrupted):
        fail()
    assert {signal.SIGINT, signal.SIGTERM} <= seen["held"]
    assert seen["registered"] == 1
    assert not (tmp_path / "staging").exists()
    assert _signals.EMERGENCY == []


#: A held block in the main thread while another thread (as pyarrow's pool and jemalloc's
#: background thread are in ``ingest``) takes a process-directed SIGTERM for the process.
HELD_WITH_ANOTHER_THREAD = """
import os, signal, sys, threading, time
from chunkspec._cli._signals import Interrupted, stop_on_signals
from chunkspec._corpus._critical import held
ready, go = threading.Event(), threading.Event()
def other():
    ready.set()
    go.wait()
    os.kill(os.getpid(), signal.SIGTERM)  # the main thread holds it: the kernel picks this one
thread = threading.Thread(target=other, daemon=True)
thread.start()
ready.wait()
steps = []
with stop_on_signals("test"):
    try:
        with held():
            go.set()
            thread.join()
            for _ in range(200):  # Python code the handler would run in, if it ran here
                time.sleep(0.001)
            steps.append("held block ended")
        steps.append("after the block")  # not reached: the signal is raised as it ends
    except Interrupted as stopped:
        steps.append(f"interrupted {stopped.status}")
print(steps)
"""


def test_a_held_block_is_not_cut_by_a_signal_another_thread_takes() -> None:
    """CLI-13, CLI-20: a signal that another thread of the process takes while the main
    thread is in a held block (a worker's start) is raised when the block ends, not inside
    it: a start cut in half left a spawned worker with no data to read (its traceback)."""
    done = subprocess.run(
        [sys.executable, "-c", HELD_WITH_ANOTHER_THREAD],
        env=environment(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "['held block ended', 'interrupted 143']\n", done.stderr
