"""Inputs stay inside the corpus (TRUST-30 to TRUST-34), through the real command line.

The cases are data (tests/golden/trust_inputs.json). Each runs ``python -m chunkspec`` in
a subprocess with a timeout, in a fresh folder holding the case's files, symbolic links,
FIFOs and sockets: a run that waits on a FIFO or reads ``/dev/zero`` fails the case within
the timeout instead of hanging the suite.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import goldens
from tests.processes import environment

pytestmark = pytest.mark.skipif(
    sys.platform == "win32", reason="symbolic links, FIFOs and sockets are POSIX cases"
)

#: A run ends within this many seconds, or the case fails (a hang is a failure, not a wait).
TIMEOUT = 60.0


def _make(folder: Path, given: dict[str, Any], stack: contextlib.ExitStack) -> None:
    """Write the case's files, links, FIFOs and sockets under ``folder``."""
    for name, text in given.get("files", {}).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, "utf-8")
    for name, target in given.get("links", {}).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        os.symlink(str(folder) + target[1:] if target.startswith("@") else target, folder / name)
    for name in given.get("fifos", []):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(folder / name)
    for name in given.get("sockets", []):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        server = stack.enter_context(socket.socket(socket.AF_UNIX, socket.SOCK_STREAM))
        cwd = os.getcwd()
        os.chdir(folder)  # a short relative name: socket paths are limited to ~107 bytes
        try:
            server.bind(name)
        finally:
            os.chdir(cwd)


@contextlib.contextmanager
def feeding(fifo: Path, text: str) -> Iterator[None]:
    """Write ``text`` into ``fifo`` once a reader opens it (from a thread that gives up at
    the timeout and never blocks on open); a reader that stops early is no error."""
    done = threading.Event()

    def feed() -> None:
        end = time.monotonic() + TIMEOUT
        while not done.is_set() and time.monotonic() < end:
            try:
                fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:  # ENXIO: no reader yet
                time.sleep(0.01)
                continue
            try:
                os.set_blocking(fd, True)
                os.write(fd, text.encode())
            except BrokenPipeError:  # the reader stopped at its cap (TRUST-32)
                pass
            finally:
                os.close(fd)
            return

    thread = threading.Thread(target=feed, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join(TIMEOUT)


def run_case(folder: Path, given: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    """Make the case under ``folder`` and run its argv there, within TIMEOUT seconds."""
    with contextlib.ExitStack() as stack:
        _make(folder, given, stack)
        for name, text in given.get("feed", {}).items():
            stack.enter_context(feeding(folder / name, text))
        try:
            return subprocess.run(
                [sys.executable, "-m", "chunkspec", *given["argv"]],
                cwd=folder,
                env=environment(),
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            pytest.fail(f"the run did not end within {TIMEOUT} s (it waits or reads forever)")


def _rows(out: Path) -> list[dict[str, Any]]:
    """The rows of an ``ingest --format jsonl`` output folder, in part order."""
    rows: list[dict[str, Any]] = []
    for part in sorted(out.glob("part-*.jsonl")):
        rows += [json.loads(line) for line in part.read_text("utf-8").splitlines()]
    return rows


def _outputs(folder: Path, stdout: str) -> str:
    """Everything the run wrote: standard output and every file under ``out``."""
    texts = [stdout]
    out = folder / "out"
    if out.is_dir():
        texts += [p.read_text("utf-8", "replace") for p in out.rglob("*") if p.is_file()]
    return "\n".join(texts)


@pytest.mark.parametrize("case", goldens.cases("trust_inputs"))
def test_trust_inputs_golden(case: dict[str, Any], tmp_path: Path) -> None:
    """Every case gives its status, documents, error rows and stderr lines; nothing it
    names as outside appears in any output."""
    given, expected = case["input"], case["output"]
    if given.get("platform", sys.platform) != sys.platform:
        pytest.skip(f"a {given['platform']} case")
    done = run_case(tmp_path, given)
    assert done.returncode == expected["status"], done.stderr
    assert re.fullmatch(expected["stderr_match"], done.stderr), done.stderr
    if "stdout_match" in expected:
        assert re.fullmatch(expected["stdout_match"], done.stdout), done.stdout
    if given["argv"][0] == "ingest":
        rows = _rows(tmp_path / "out")
        errors = {row["doc_id"]: row["error"] for row in rows if row["error"] is not None}
        assert errors == expected.get("errors", {})
        doc_ids = list(dict.fromkeys(row["doc_id"] for row in rows))
    else:
        records = [json.loads(line) for line in done.stdout.splitlines()]
        doc_ids = list(dict.fromkeys(record["doc_id"] for record in records))
    assert doc_ids == expected["doc_ids"]
    if "never" in expected:
        assert expected["never"] not in _outputs(tmp_path, done.stdout)
    if expected.get("no_out"):
        assert not (tmp_path / "out").exists()


def test_a_name_swapped_for_a_fifo_after_the_walk_is_refused(tmp_path: Path) -> None:
    """TRUST-31: the walk found a regular file; swapped for a FIFO before the read, it is
    refused on its open descriptor (``not a regular file (a FIFO)``), not waited on; so is
    ``ingest``'s worker read of the same swap."""
    from argparse import Namespace

    from chunkspec import ChunkJob, ChunkOptions, InputError
    from chunkspec._cli._inputs import read_input
    from chunkspec._corpus._local_engine import item_of, read_rows
    from chunkspec._corpus._walk import find_inputs
    from tests.hostile_corpus import no_wait

    (tmp_path / "docs").mkdir()
    path = tmp_path / "docs" / "a.md"
    path.write_text("# A\n\nwords\n")
    [found] = find_inputs([str(tmp_path / "docs")], None, None)
    path.unlink()
    os.mkfifo(path)
    args = Namespace(input_format=None, title=None, input_encoding=None, pdf_password=None)
    with no_wait(TIMEOUT), pytest.raises(InputError) as error:
        read_input(found, args)
    assert str(error.value) == f"{found.source}: not a regular file (a FIFO)"
    with no_wait(TIMEOUT):
        rows = read_rows(item_of(found, {}), ChunkJob(ChunkOptions("heading", 50)))
    assert rows[0]["error"] == f"{found.source}: not a regular file (a FIFO)"
