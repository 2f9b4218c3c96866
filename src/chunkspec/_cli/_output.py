"""Writing records: standard output or ``--output FILE`` (.jsonl, .parquet), atomically (CLI-11)."""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from .._corpus._critical import removed_on_failure
from .._records._record import ChunkRecord
from .._records._record_files import record_line
from ._io import CliError, os_reason

__all__ = [
    "Progress",
    "add_output_options",
    "atomic_file",
    "check_output",
    "record_writer",
]

#: The suffixes ``--output`` accepts and the format each means.
OUTPUT_SUFFIXES = {".jsonl": "jsonl", ".parquet": "parquet"}


def add_output_options(parser: Any) -> None:
    """Add ``--output FILE``."""
    parser.add_argument(
        "--output",
        "-o",
        metavar="FILE",
        help="write records to FILE (.jsonl or .parquet) instead of standard output; "
        "written to a temporary file and renamed, so an interrupted run leaves no half file",
    )


def check_output(path: str | None) -> None:
    """Refuse an ``--output`` whose suffix or folder cannot work, before any work is done."""
    if path is None:
        return
    suffix = Path(path).suffix.lower()
    if suffix not in OUTPUT_SUFFIXES:
        raise CliError(f"--output {path}: use a .jsonl or .parquet file name")
    if os.path.isdir(path):  # TRUST-25 (a link to a folder too)
        raise CliError(f"--output {path}: is a folder; name a file")
    real = os.path.realpath(path)  # TRUST-25: a link is written through
    folder = Path(real).parent
    if not folder.is_dir():
        raise CliError(f"--output {path}: no such folder {str(folder)!r}")
    if os.path.lexists(real) and not os.path.isfile(real):
        raise CliError(f"--output {path}: is not a regular file")
    if suffix == ".parquet":
        try:
            import pyarrow.parquet  # noqa: F401
        except ImportError:
            raise CliError(
                "--output .parquet needs pyarrow: pip install 'chunkspec[arrow]'"
            ) from None


@contextlib.contextmanager
def atomic_file(path: str, mode: str) -> Iterator[IO[Any]]:
    """Open a temporary file beside ``path``; rename it onto ``path`` only on success.

    CLI-11, CLI-13: on any exception (a signal included) the temporary file is deleted, by
    a second signal too, so ``path`` holds its old content or the new one, never a part.
    TRUST-25: a link is written through (its target is replaced, the link stays) and an
    existing file keeps its permission bits. TRUST-26: a write that fails (a full disk) is
    one line naming ``path``, the temporary file removed.
    """
    real = os.path.realpath(path)
    folder = os.path.dirname(real)
    try:
        kept = stat.S_IMODE(os.stat(real).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        kept = 0o666 & ~umask  # mkstemp makes 0600; give a new file a usual mode
    try:
        with removed_on_failure(
            lambda: tempfile.mkstemp(prefix=".chunkspec-", suffix=".part", dir=folder),
            lambda made: _unlink(made[1]),
        ) as (handle, temporary):
            os.chmod(temporary, kept)
            with os.fdopen(handle, mode, encoding=None if "b" in mode else "utf-8") as out:
                yield out
            os.replace(temporary, real)
    except OSError as error:
        raise CliError(f"{path}: cannot write: {os_reason(error)}") from None


def _unlink(path: str) -> None:
    """Delete ``path`` if it is there."""
    with contextlib.suppress(OSError):
        os.unlink(path)


@contextlib.contextmanager
def record_writer(path: str | None) -> Iterator[Callable[[Sequence[ChunkRecord]], None]]:
    """Yield ``write(records)``, called once per document; the output appears only when the
    block ends without an exception (CLI-10, CLI-11).

    A ``.jsonl`` file gets each document's lines as they come (into the temporary file
    renamed at the end), so a run holds no document's records past its own; standard
    output gets the lines at the end (a bad document must leave it empty); ``.parquet``
    takes every record at the end (one table).
    """
    if path is not None and Path(path).suffix.lower() == ".parquet":
        kept: list[ChunkRecord] = []
        yield kept.extend
        import pyarrow.parquet as pq

        from ..arrow import records_to_table

        table = records_to_table(kept)
        with atomic_file(path, "wb") as binary:
            pq.write_table(table, binary)
        return
    if path is None:
        lines: list[str] = []
        yield lambda records: lines.extend(map(record_line, records))
        out = sys.stdout
        try:
            out.writelines(lines)
            out.flush()
        except BrokenPipeError:
            raise
        except OSError as error:  # TRUST-26: /dev/full, a full disk
            raise CliError(f"standard output: cannot write: {os_reason(error)}") from None
        return
    with atomic_file(path, "w") as text:
        yield lambda records: text.writelines(map(record_line, records))


class Progress:
    """A one-line progress count on stderr, shown only on a terminal for several inputs."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0
        self.shown = total > 1 and sys.stderr.isatty()

    def step(self, label: str) -> None:
        """Count one document done."""
        self.done += 1
        if self.shown:
            name = label if len(label) <= 50 else "..." + label[-47:]
            sys.stderr.write(f"\r\x1b[2K{self.done}/{self.total} documents  {name}")
            sys.stderr.flush()

    def close(self) -> None:
        """End the progress line."""
        if self.shown:
            sys.stderr.write("\r\x1b[2K")
            sys.stderr.flush()
