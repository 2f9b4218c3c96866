"""The output folder of ``chunkspec ingest``: part files written aside, then swapped in.

A run writes into a fresh hidden folder beside ``--out`` and, only when every part file is
complete, renames the old folder away, renames the new one to ``--out`` and deletes the
old one. So ``--out`` holds one whole result, never a mix of two runs, and re-running
replaces the result instead of adding to it (docs/scale.md, "Re-running").
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from ._io import CliError, json_line
from ._signals import held, removed_on_failure

__all__ = ["MANIFEST", "PartWriter", "check_out", "staging"]

#: The file that marks a folder as ingest output; Parquet readers skip names starting with _.
MANIFEST = "_chunkspec.json"

#: Rows per Parquet row group (a group is buffered in memory before it is written).
ROW_GROUP = 10_000

#: The suffix of the part files of each format.
SUFFIX = {"parquet": ".parquet", "jsonl": ".jsonl"}


def check_out(out: str, output_format: str) -> None:
    """Refuse an ``--out`` that is a file, or a folder holding anything but ingest output."""
    path = Path(out)
    if output_format == "parquet":
        try:
            import pyarrow.parquet  # noqa: F401
        except ImportError:
            raise CliError(
                "--format parquet needs pyarrow: pip install 'chunkspec[arrow]' "
                "(or use --format jsonl)"
            ) from None
    if not path.parent.is_dir():
        raise CliError(f"--out {out}: no such folder {str(path.parent)!r}")
    if path.exists() and not path.is_dir():
        raise CliError(f"--out {out}: is a file, not a folder")
    if path.is_dir() and any(path.iterdir()) and not (path / MANIFEST).is_file():
        # Replacing deletes the old folder: never do that to a folder ingest did not write.
        raise CliError(
            f"--out {out}: folder is not empty and holds no {MANIFEST} (not ingest output); "
            "choose a new or empty folder"
        )


@contextlib.contextmanager
def staging(out: str) -> Iterator[Path]:
    """Yield a new hidden folder beside ``out``; on success swap it in, else delete it.

    CLI-13: a signal deletes the folder too, a second one without waiting (emergency), and
    signals are held during the swap, so ``out`` is always the old or the new result.
    """
    target = Path(out)
    with removed_on_failure(
        lambda: Path(tempfile.mkdtemp(prefix=f".{target.name}.chunkspec-", dir=target.parent)),
        functools.partial(shutil.rmtree, ignore_errors=True),
    ) as folder:
        yield folder
        folder.chmod(0o777 & ~_umask())  # mkdtemp makes 0700; give the folder a usual mode
        old = None
        with held():  # the old result's removal too: a part of it must not be left behind
            if target.exists():
                old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
                os.rename(target, old / target.name)
            try:
                os.rename(folder, target)
            except BaseException:
                if old is not None:  # put the old result back rather than lose it
                    os.rename(old / target.name, target)
                raise
            finally:
                if old is not None:
                    shutil.rmtree(old, ignore_errors=True)


def _umask() -> int:
    """Return the process's umask."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_manifest(folder: Path, summary: dict[str, Any]) -> None:
    """Write ``_chunkspec.json``: what was run and what came out."""
    (folder / MANIFEST).write_text(json.dumps(summary, indent=2) + "\n", "utf-8")


class PartWriter:
    """Write rows into ``part-00000.EXT``, ``part-00001.EXT``... of ``rows_per_file`` rows.

    A new part starts only between two calls of :meth:`write`, so a document's rows are
    never split across files; the parts depend on the rows alone (the same for any number
    of workers).
    """

    def __init__(self, folder: Path, output_format: str, rows_per_file: int) -> None:
        self.folder = folder
        self.format = output_format
        self.rows_per_file = rows_per_file
        self.parts = 0
        self.rows_in_part = 0
        self._jsonl: IO[str] | None = None
        self._parquet: Any = None
        self._buffer: list[dict[str, Any]] = []

    def _open(self) -> None:
        """Start the next part file."""
        self.close()
        path = self.folder / f"part-{self.parts:05d}{SUFFIX[self.format]}"
        self.parts += 1
        self.rows_in_part = 0
        if self.format == "jsonl":
            self._jsonl = path.open("w", encoding="utf-8", newline="\n")
        else:
            import pyarrow.parquet as pq

            from ..arrow import chunk_table_schema

            self._parquet = pq.ParquetWriter(str(path), chunk_table_schema())

    def write(self, rows: list[dict[str, Any]]) -> None:
        """Append the rows of whole documents."""
        if not rows:
            return
        if self.parts == 0 or self.rows_in_part >= self.rows_per_file:
            self._open()
        self.rows_in_part += len(rows)
        if self._jsonl is not None:
            self._jsonl.writelines(json_line(row) for row in rows)
            return
        self._buffer.extend(rows)
        if len(self._buffer) >= ROW_GROUP:
            self._flush()

    def _flush(self) -> None:
        """Write the buffered rows as one Parquet row group."""
        if self._buffer:
            from ..arrow import rows_to_table

            table = rows_to_table(self._buffer)  # META-6: metadata as JSON text
            self._parquet.write_table(table)
            self._buffer = []

    def close(self) -> None:
        """Close the open part file, if any."""
        if self._parquet is not None:
            self._flush()
        if self._jsonl is not None:
            self._jsonl.close()
            self._jsonl = None
        if self._parquet is not None:
            self._parquet.close()
            self._parquet = None
