"""CLI-19: what is written on standard error while Ray runs goes to ``_ray.log``, whole.

The mechanism (``ray_messages``) is checked without Ray: anything written to file
descriptor 2 inside it, by Python or by native code writing the descriptor directly,
lands in the log byte for byte, and nothing reaches the real standard error but, on
failure, the one line naming the kept log.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from chunkspec._cli._ingest_command import Terminal
from chunkspec._corpus._ray_engine import RAY_LOG, ray_messages

_chunks = st.lists(st.binary(max_size=200), max_size=5)


@contextmanager
def _real_stderr() -> Iterator[Path]:
    """Point descriptor 2, and ``sys.stderr`` on it as in a CLI process, at a fresh file for
    the block (standing in for the terminal; pytest's capture replaces both)."""
    sys.stderr.flush()
    kept = os.dup(2)
    python_stderr = sys.stderr
    with tempfile.NamedTemporaryFile(delete=False) as seen:
        os.dup2(seen.fileno(), 2)
    sys.stderr = open(2, "w", encoding="utf-8", closefd=False, buffering=1)  # noqa: SIM115
    try:
        yield Path(seen.name)
    finally:
        sys.stderr.close()
        sys.stderr = python_stderr
        os.dup2(kept, 2)
        os.close(kept)


@settings(max_examples=50, deadline=None)
@given(_chunks, st.booleans())
def test_ray_messages_reach_the_log_and_only_the_log(chunks: list[bytes], fails: bool) -> None:
    """CLI-19: every byte written to descriptor 2 inside is in the log, in order, and none on
    standard error; a failure keeps the log in the temporary folder and names it in one line."""
    with tempfile.TemporaryDirectory() as folder, _real_stderr() as seen:
        try:
            with ray_messages(Path(folder), False, Terminal(progress=False).note):
                for chunk in chunks:
                    os.write(2, chunk)
                if fails:
                    raise RuntimeError("the run failed")
        except RuntimeError:
            assert fails
        shown = seen.read_bytes()
        seen.unlink()
        if fails:
            assert not (Path(folder) / RAY_LOG).exists()
            prefix = b"chunkspec ingest: Ray's messages: "
            assert shown.startswith(prefix)
            assert shown.endswith(b"\n")
            assert shown.count(b"\n") == 1
            kept = Path(shown[len(prefix) : -1].decode())
            assert kept.read_bytes() == b"".join(chunks)
            kept.unlink()
        else:
            assert shown == b""
            assert (Path(folder) / RAY_LOG).read_bytes() == b"".join(chunks)


@settings(max_examples=20, deadline=None)
@given(_chunks)
def test_verbose_leaves_standard_error_alone(chunks: list[bytes]) -> None:
    """CLI-19: with ``--verbose`` Ray's messages stay on standard error and no log is made."""
    with tempfile.TemporaryDirectory() as folder, _real_stderr() as seen:
        with ray_messages(Path(folder), True, Terminal(progress=False).note):
            for chunk in chunks:
                os.write(2, chunk)
        assert seen.read_bytes() == b"".join(chunks)
        seen.unlink()
        assert not (Path(folder) / RAY_LOG).exists()
