"""The output folder of ``chunkspec ingest``: part files written aside, then swapped in.

A run writes into a fresh hidden folder beside ``--out`` and, only when every part file is
complete, renames the old folder away, renames the new one to ``--out`` and deletes the
old one. So ``--out`` holds one whole result, never a mix of two runs, and re-running
replaces the result instead of adding to it (docs/scale.md, "Re-running").

The folder is ingest's alone (docs/spec/trust.md, TRUST-20 to TRUST-24): ``--out`` is named
by its real path and is never a link, never an input nor inside or around one; a folder is
replaced only when its manifest is an ingest manifest and every entry in it is one ingest
wrote; a staging folder left by a killed run is removed by the next run only when its
marker proves the run that made it is dead and it holds nothing ingest did not write.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from .._records._record_files import json_line
from ._critical import held, removed_on_failure
from ._file_io import IngestError, one_line

__all__ = [
    "MANIFEST",
    "MANIFEST_UPDATE",
    "PartWriter",
    "check_out",
    "foreign_entries",
    "read_manifest",
    "remove_leftovers",
    "staging",
]

#: The file that marks a folder as ingest output; Parquet readers skip names starting with _.
MANIFEST = "_chunkspec.json"

#: Rows per Parquet row group (a group is buffered in memory before it is written).
ROW_GROUP = 10_000

#: The suffix of the part files of each format.
SUFFIX = {"parquet": ".parquet", "jsonl": ".jsonl"}

#: INCR-6's change set folder, and the files ingest writes in it (TRUST-22).
CHANGES_FOLDER = "_changes"
CHANGE_FILES = frozenset({"changes.jsonl", "changes.parquet"})

#: CLI-19's log of Ray's messages (the same name as ``_ingest_ray.RAY_LOG``).
RAY_LOG = "_ray.log"

#: STORE-8: the manifest's next version while it is written (renamed over it when whole).
MANIFEST_UPDATE = MANIFEST + ".tmp"

#: TRUST-24: the marker in a staging folder: the pid, boot id and start time of its run.
STAGING_MARK = "_chunkspec.staging"

#: TRUST-23: the part files of a manifest written before manifests listed their files.
OLD_PART = re.compile(r"part-[0-9]{5}\.(parquet|jsonl)")

#: How many unknown entries a refusal names before it counts the rest (TRUST-22).
NAMED = 3


def check_out(out: str, output_format: str, inputs: Sequence[str] = ()) -> str:
    """Refuse an ``--out`` ingest must not write; return its real path (TRUST-20..22).

    TRUST-21: ``--out`` is resolved to its real path (``.``, ``..`` and links in the
    folders above it), but ``--out`` itself must not be a symbolic link. TRUST-20: it must
    not be an input, nor hold one, nor lie inside one. TRUST-22: an existing folder must be
    empty or ingest's own.
    """
    if output_format == "parquet":
        try:
            import pyarrow.parquet  # noqa: F401
        except ImportError:
            raise IngestError(
                "--format parquet needs pyarrow: pip install 'chunkspec[arrow]' "
                "(or use --format jsonl)"
            ) from None
    if not out:
        raise IngestError("--out: give a folder name")
    named = out.rstrip(os.sep) or os.sep
    if os.path.islink(named):
        raise IngestError(
            f"--out {out}: is a symbolic link; name the folder itself (replacing the "
            "result would replace the link, not the folder it points to)"
        )
    real = os.path.realpath(named)
    parent = os.path.dirname(real)
    if real == parent:
        raise IngestError(f"--out {out}: is the root folder; choose a folder inside it")
    if not os.path.isdir(parent):
        raise IngestError(f"--out {out}: no such folder {parent!r}")
    if os.path.lexists(real) and not os.path.isdir(real):
        raise IngestError(f"--out {out}: is a file, not a folder")
    for given in inputs:
        if given == "-" or not os.path.lexists(given):
            continue  # find_files names these (CLI-7)
        source = os.path.realpath(given)
        deletes = "replacing it would delete inputs"
        where = None
        if source == real:
            where = f"is the input {given}; {deletes}"
        elif source.startswith(real.rstrip(os.sep) + os.sep):
            where = f"holds the input {given}; {deletes}"
        elif real.startswith(source.rstrip(os.sep) + os.sep):
            where = f"lies inside the input {given}; the result would be read as input"
        if where is not None:
            raise IngestError(f"--out {out}: {where} (choose a folder outside every input)")
    if os.path.isdir(real):
        refuse_foreign(Path(real), out)
    return real


def read_manifest(folder: Path) -> dict[str, Any] | None:
    """Return the folder's ``_chunkspec.json``, or None when it has none or it is unreadable."""
    try:
        data = json.loads((folder / MANIFEST).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _manifest_of(folder: Path) -> dict[str, Any] | None:
    """TRUST-22: the folder's manifest when it parses as one ingest writes, else None."""
    if not _is_file(folder / MANIFEST):
        return None
    data = read_manifest(folder)
    if data is None or not isinstance(data.get("chunkspec"), str):
        return None
    if data.get("format") not in SUFFIX:
        return None
    files = data.get("files")
    if files is not None and not (
        isinstance(files, list) and all(isinstance(name, str) for name in files)
    ):
        return None
    return data


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a regular file itself (not a link, folder or device)."""
    try:
        return stat.S_ISREG(path.lstat().st_mode)
    except OSError:
        return False


def _is_changes(path: Path) -> bool:
    """Whether ``path`` is INCR-6's change set folder as ingest writes it: a real folder
    holding only the change set's regular files."""
    try:
        if not stat.S_ISDIR(path.lstat().st_mode):
            return False
        names = os.listdir(path)
    except OSError:
        return False
    return all(name in CHANGE_FILES and _is_file(path / name) for name in names)


def _part_name(name: str) -> bool:
    """Whether ingest could have written a top-level file of this name (TRUST-22)."""
    if name == RAY_LOG:
        return True
    return not name.startswith(("_", ".")) and name.endswith(tuple(SUFFIX.values()))


def foreign_entries(folder: Path) -> list[str] | None:
    """TRUST-22, TRUST-23: the entries of ``folder`` ingest did not write, sorted; None when
    the folder is not empty and has no ingest manifest (then nothing in it is ingest's)."""
    names = sorted(os.listdir(folder))
    if not names:
        return []
    manifest = _manifest_of(folder)
    if manifest is None:
        return None
    listed = manifest.get("files")
    unknown = []
    for name in names:
        path = folder / name
        if name == MANIFEST:
            continue
        if name == MANIFEST_UPDATE and _is_file(path):  # STORE-8: a manifest being replaced
            continue
        if name == CHANGES_FOLDER and _is_changes(path):
            continue
        if listed is None:  # TRUST-23: written before manifests listed their files
            known = name == RAY_LOG or (
                OLD_PART.fullmatch(name) is not None and name.endswith(SUFFIX[manifest["format"]])
            )
        else:
            known = name in listed and _part_name(name)
        if not (known and _is_file(path)):
            unknown.append(name)
    return unknown


def refuse_foreign(folder: Path, out: str) -> None:
    """Refuse to replace ``folder`` unless everything in it is ingest's (TRUST-22)."""
    try:
        unknown = foreign_entries(folder)
    except OSError as error:
        raise IngestError(f"--out {out}: cannot list: {error.strerror or error}") from None
    if unknown is None:
        raise IngestError(
            f"--out {out}: folder is not empty and holds no ingest manifest ({MANIFEST}) "
            f"(not ingest output): {_named(sorted(os.listdir(folder)))}; choose a new or "
            "empty folder"
        )
    if unknown:
        raise IngestError(
            f"--out {out}: holds {_named(unknown)}; move {'it' if len(unknown) == 1 else 'them'} "
            "away or choose another folder"
        )


def _named(unknown: Sequence[str]) -> str:
    """``1 entry ingest did not write: 'a'`` or ``5 entries ...: 'a', 'b', 'c' and 2 more``."""
    shown = ", ".join(repr(name) for name in unknown[:NAMED])
    more = f" and {len(unknown) - NAMED} more" if len(unknown) > NAMED else ""
    noun = "entry" if len(unknown) == 1 else "entries"
    return f"{len(unknown)} {noun} ingest did not write: {shown}{more}"


def _boot_id() -> str | None:
    """The kernel's boot id (Linux), else None."""
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text("ascii").strip() or None
    except OSError:
        return None


def _start_time(pid: int) -> str | None:
    """When process ``pid`` started, in clock ticks since boot (Linux), else None."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text("ascii", "replace")
        return text[text.rindex(")") + 2 :].split()[19]
    except (OSError, ValueError, IndexError):
        return None


def _mark(folder: Path) -> None:
    """TRUST-24: write the staging marker: who made the folder (pid, boot id, start time)."""
    pid = os.getpid()
    mark = {"pid": pid, "boot_id": _boot_id(), "start": _start_time(pid)}
    (folder / STAGING_MARK).write_text(json.dumps(mark) + "\n", "utf-8")


def _dead(mark: Any) -> int | None:
    """TRUST-24: the pid of the run a marker names when that run is provably over, else None."""
    if not isinstance(mark, dict) or sys.platform == "win32":
        return None  # Windows: os.kill(pid, 0) would send CTRL_C_EVENT, not test the pid
    pid = mark.get("pid")
    if not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0 or pid == os.getpid():
        return None
    boot = _boot_id()
    if boot is not None and isinstance(mark.get("boot_id"), str) and mark["boot_id"] != boot:
        return pid  # made before the machine last started
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return pid
    except OSError:  # PermissionError: alive, another user's
        return None
    start = _start_time(pid)
    made = mark.get("start")
    if start is not None and isinstance(made, str) and start != made:
        return pid  # the pid now names another process
    return None


def _leftover(folder: Path) -> int | None:
    """TRUST-24: the dead run's pid when ``folder`` is a staging folder ingest may remove."""
    try:
        status = folder.lstat()
        if not stat.S_ISDIR(status.st_mode) or status.st_uid != os.geteuid():
            return None
        names = os.listdir(folder)
        if STAGING_MARK not in names or not _is_file(folder / STAGING_MARK):
            return None
        mark = json.loads((folder / STAGING_MARK).read_text("utf-8"))
    except (OSError, ValueError, AttributeError):
        return None
    pid = _dead(mark)
    if pid is None:
        return None
    for name in names:
        path = folder / name
        if name == CHANGES_FOLDER:
            if not _is_changes(path):
                return None
        elif not (name in (STAGING_MARK, MANIFEST) or _part_name(name)) or not _is_file(path):
            return None
    return pid


def remove_leftovers(target: Path, say: Callable[[str], None]) -> None:
    """TRUST-24: remove the staging folders beside ``target`` that runs killed outright
    (SIGKILL, a power cut) left behind, each with one line to ``say``; only provably dead
    runs' and only when they hold nothing ingest did not write."""
    try:
        found = sorted(target.parent.glob(f".{glob_escape(target.name)}.chunkspec-*"))
    except OSError:
        return
    for folder in found:
        pid = _leftover(folder)
        if pid is None:
            continue
        shutil.rmtree(folder, ignore_errors=True)
        if not os.path.lexists(folder):
            say(
                f"removed {one_line(folder.name)}: the staging folder of "
                f"a run that was killed (pid {pid})"
            )


def glob_escape(name: str) -> str:
    """``name`` with glob's special characters matched literally."""
    return re.sub(r"([*?\[])", r"[\1]", name)


def _make_staging(target: Path) -> Path:
    """Make the staging folder beside ``target`` and mark it as this run's (TRUST-24)."""
    folder = Path(tempfile.mkdtemp(prefix=f".{target.name}.chunkspec-", dir=target.parent))
    try:
        _mark(folder)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return folder


@contextlib.contextmanager
def staging(out: str, say: Callable[[str], None], shown: str | None = None) -> Iterator[Path]:
    """Yield a new hidden folder beside ``out``; on success swap it in, else delete it.

    CLI-13: a signal deletes the folder too, a second one without waiting (emergency), and
    signals are held during the swap, so ``out`` is always the old or the new result.
    TRUST-24: leftovers of killed runs are removed first; the folder holds a marker naming
    this run until the swap. TRUST-22: ``out`` is checked again just before it is replaced
    (an error names it ``shown``, as the user wrote it).
    """
    target = Path(out)
    remove_leftovers(target, say)
    with removed_on_failure(
        functools.partial(_make_staging, target),
        functools.partial(shutil.rmtree, ignore_errors=True),
    ) as folder:
        yield folder
        folder.chmod(0o777 & ~_umask())  # mkdtemp makes 0700; give the folder a usual mode
        old = None
        with held():  # the old result's removal too: a part of it must not be left behind
            if os.path.lexists(target):
                refuse_foreign(target, shown or out)  # TRUST-22: nothing added meanwhile
            (folder / STAGING_MARK).unlink()
            if os.path.lexists(target):
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
    """Write ``_chunkspec.json``: what was run and what came out, and (TRUST-23) the names
    of every entry the run wrote beside it, so a later run knows what it may replace."""
    files = sorted(name for name in os.listdir(folder) if name not in (MANIFEST, STAGING_MARK))
    data = {**summary, "files": files}
    (folder / MANIFEST).write_text(json.dumps(data, indent=2) + "\n", "utf-8")


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
