"""The corpus engine: chunk a corpus of files into an output folder, incrementally.

:func:`ingest` is ``chunkspec ingest`` without its argument parsing: the same part files,
manifest and change set, byte for byte (docs/scale.md). The run says what it has to say
through an :class:`IngestListener` (the command prints it); it installs no signal handler
and prints nothing itself. pyarrow and Ray are imported only when a run uses them.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._chunkers._options import ChunkOptions
from .._core._collector import collector_paused
from .._core._metadata import Metadata
from .._errors import ArgumentTypeError, ArgumentValueError
from .._records._job import ChunkJob, JobKeywords, job_of
from .._records._size_policy import BIG_BYTES, TASK_BYTES, tasks
from .._version import __version__
from ._file_io import IngestError, os_reason
from ._incremental import (
    CHANGES,
    ChangeSet,
    Previous,
    content_hash,
    manifest_entry,
    previous_result,
    read_encoding,
    refuse_dropped_sidecar,
    run_fingerprint,
    say_damage,
    sidecar_hash,
    summarise,
)
from ._local_engine import item_of, run_local
from ._out_folder import PartWriter, check_out, read_manifest, staging, write_manifest
from ._part_files import part_files
from ._repository import CATEGORIES, WalkRules, skip_summary
from ._reuse_checks import Summaries
from ._sidecar_file import read_sidecar
from ._walk import Input, find_inputs, shown
from ._worker_pool import worker_count

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "DEFAULT_MAX_BYTES",
    "IngestListener",
    "IngestResult",
    "Tally",
    "check_run",
    "find_files",
    "ingest",
]

#: The default size cap: a bigger file is an error row, not a worker's death (SCALE-5).
DEFAULT_MAX_BYTES = 256 * 1024 * 1024

#: The engines: local processes, or Ray Data (chunkspec[ray]).
ENGINES = ("local", "ray")

#: The part files' formats (SCALE-2).
FORMATS = ("parquet", "jsonl")


class IngestListener:
    """What a run tells its caller as it goes; this base class keeps it all to itself.

    ``chunkspec ingest`` prints :meth:`note` lines and each error row's message on standard
    error, with a progress line on a terminal (``progress`` true).
    """

    #: Whether the caller shows progress (Ray's own bars too, with ``verbose``).
    progress = False

    def note(self, message: str) -> None:
        """One line about the run: an entry the walk skipped (TRUST-33), a capped worker
        count (TRUST-27), why nothing is reused (INCR-2), a removed leftover (TRUST-24)."""

    def document(self, tally: Tally, error: str | None) -> None:
        """A document's rows are written (``error``: its error row's message, SCALE-3)."""


class Tally:
    """Counts the documents, chunks and errors as their rows are written."""

    def __init__(self, total: int, listener: IngestListener) -> None:
        self.total = total
        self.listener = listener
        self.documents = 0
        self.chunks = 0
        self.errors = 0
        self.skipped = 0  # TRUST-30, TRUST-31, REPO-9: entries the walk did not read
        self.started = time.perf_counter()
        self.show = listener.progress

    def add(self, rows: list[dict[str, Any]]) -> None:
        """Count one document's rows and tell the listener."""
        self.documents += 1
        error = None
        if len(rows) == 1 and rows[0]["error"] is not None:
            self.errors += 1
            error = rows[0]["error"]
        else:
            self.chunks += len(rows)
        self.listener.document(self, error)


@dataclass(frozen=True)
class IngestResult:
    """What :func:`ingest` did: the counts, the manifest and the change set it wrote.

    ``manifest`` is ``_chunkspec.json`` as written (INCR-1); ``changes`` the rows of
    ``_changes/changes.jsonl`` in order (INCR-6): one per document and per chunk, each with
    ``scope``, ``change`` (``added``, ``removed``, ``changed`` or ``unchanged``) and, for a
    document chunked again, the ``reason`` (TRUST-44).
    """

    out: str
    documents: int
    chunks: int
    errors: int
    reused: int
    skipped: int
    seconds: float
    manifest: dict[str, Any] = field(repr=False)
    changes: list[dict[str, Any]] = field(repr=False)

    @property
    def changed(self) -> list[str]:
        """The doc ids whose documents were added, removed or changed, in change-set order."""
        return [
            change["doc_id"]
            for change in self.changes
            if change["scope"] == "document" and change["change"] != "unchanged"
        ]


def find_files(
    paths: Sequence[str],
    pattern: str | None,
    out: str | None = None,
    *,
    follow_links: bool = False,
    skipped: list[str] | None = None,
    rules: WalkRules | None = None,
    counts: Counter[str] | None = None,
) -> list[Input]:
    """CLI-7 and CLI-8's inputs and doc ids; ``-`` and a missing path are errors here.

    ``out`` (TRUST-20 refused it inside an input already) is never walked. TRUST-30,
    TRUST-31: links out of an input folder (unless ``follow_links``) and names that are not
    regular files are skipped, each as a line appended to ``skipped``; TRUST-34: two inputs
    with one doc id are refused, naming both. ``rules`` and ``counts``: REPO-3..REPO-11.
    """
    for path in paths:
        if path == "-":
            raise IngestError("ingest reads files and folders, not standard input (-)")
        if not os.path.lexists(path):
            raise IngestError(f"{shown(path)}: no such file or folder")
    return find_inputs(
        list(paths),
        pattern,
        None,
        skip=out,
        follow_links=follow_links,
        skipped=skipped,
        rules=rules,
        counts=counts,
    )


def check_run(
    engine: str,
    workers: int | None,
    oversubscribe: bool,
    rows_per_file: int,
    max_bytes: int | None = None,
    *,
    flags: bool = False,
    **ray_only: object,
) -> None:
    """Refuse the settings of a run that cannot be (CLI-12), each error naming the setting.

    ``max_bytes`` is the command's ``--max-bytes`` as given (0: no cap), when it is checked;
    ``ray_only`` the settings only the Ray engine reads (``address=...``), in flag order.
    An error names :func:`ingest`'s argument (``workers``), or with ``flags`` the command's
    flag (``--workers``): each caller is told what it can change (CLI-12, COUNT-10).
    """

    def name(argument: str) -> str:
        return "--" + argument.replace("_", "-") if flags else argument

    if engine not in ENGINES:
        raise ArgumentValueError("engine", f"must be one of {', '.join(ENGINES)}", engine)
    for argument, value in (("workers", workers), ("rows_per_file", rows_per_file)):
        if value is not None and value < 1:
            raise IngestError(f"{name(argument)} must be >= 1, got {value}")
    if max_bytes is not None and max_bytes < 0:
        raise IngestError(f"{name('max_bytes')} must be >= 0 (0: no cap), got {max_bytes}")
    # CLI-12: an option the chosen engine would ignore is refused, never silently dropped
    ray = "--engine ray" if flags else "engine='ray'"
    if engine != "ray":
        for argument, given in ray_only.items():
            if given is not None and given is not False:
                raise IngestError(f"{name(argument)} needs {ray}")
    if oversubscribe and (engine != "local" or workers is None):
        needs = "--workers N and the local engine" if flags else "workers=N and engine='local'"
        raise IngestError(f"{name('oversubscribe')} needs {needs}")


def _path(name: str, value: object) -> str:
    """A path argument as the str the command line would have given."""
    if isinstance(value, (str, os.PathLike)):
        path = os.fspath(value)
        if isinstance(path, str):
            return path
    raise ArgumentTypeError(name, "a str or os.PathLike path", value)


def ingest(
    inputs: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    out: str | os.PathLike[str],
    job: ChunkJob | ChunkOptions | None = None,
    *,
    engine: str = "local",
    output_format: str = "parquet",
    incremental: bool = True,
    glob: str | None = None,
    follow_links: bool = False,
    no_skip: bool = False,
    gitignore: bool = False,
    metadata: str | os.PathLike[str] | None = None,
    no_metadata: bool = False,
    workers: int | None = None,
    oversubscribe: bool = False,
    rows_per_file: int = 100_000,
    address: str | None = None,
    big_bytes: int | None = None,
    big_memory: int | None = None,
    verbose: bool = False,
    listener: IngestListener | None = None,
    **keywords: Unpack[JobKeywords],
) -> IngestResult:
    """Chunk every file of ``inputs`` into part files in ``out``, as ``chunkspec ingest``.

    ``inputs`` are files and folders (folders searched recursively, names starting with
    ``.`` skipped; ``glob`` keeps the files whose relative path or name matches; tool and
    vendored folders and generated and binary files skipped and counted unless
    ``no_skip``, and with ``gitignore`` what the ``.gitignore`` files inside ignore,
    REPO-3..REPO-11). ``job``
    decides every document's records: a :class:`ChunkJob`, or a :class:`ChunkOptions` or
    the job's keywords (:class:`chunkspec.records.JobKeywords`, OPT-1) with the command's
    defaults for the rest (a 256 MiB size cap). With ``incremental`` (the default), a
    re-run into the same ``out`` with the same job reuses the rows of every file provably
    unchanged (INCR-1..5);
    the result is the same either way. Each keyword is the command's flag of that name
    (``output_format`` is ``--format``), and an error is a :class:`IngestError` or an
    argument error of one line (CLI-1) naming the keyword (``workers must be >= 1``); the
    output folder's errors say ``--out`` and the sidecar's ``--metadata``, as the command
    does; ``out`` is left as it was.
    """
    if not isinstance(inputs, (str, os.PathLike, list, tuple)):
        raise ArgumentTypeError("inputs", "a path or a list of paths", inputs)
    if not isinstance(incremental, bool):
        raise ArgumentTypeError("incremental", "a bool", incremental)
    for name, number in (("workers", workers), ("rows_per_file", rows_per_file)):
        if number is not None and (isinstance(number, bool) or not isinstance(number, int)):
            raise ArgumentTypeError(name, "an int", number)  # its range: the flag's (CLI-12)
    given = [inputs] if isinstance(inputs, (str, os.PathLike)) else list(inputs)
    paths = [_path("inputs", path) for path in given]
    if not paths:
        raise ArgumentValueError("inputs", "must name at least one file or folder", inputs)
    shown_out = _path("out", out)
    sidecar_path = None if metadata is None else _path("metadata", metadata)
    if isinstance(job, ChunkJob):
        job = job_of(job, keywords)  # OPT-1: a job and a keyword is a ValueError
    else:
        job = job_of(job, {"max_bytes": DEFAULT_MAX_BYTES, **keywords})
    if output_format not in FORMATS:
        raise ArgumentValueError(
            "output_format", f"must be one of {', '.join(FORMATS)}", output_format
        )
    check_run(
        engine,
        workers,
        oversubscribe,
        rows_per_file,
        None,
        address=address,
        big_bytes=big_bytes,
        big_memory=big_memory,
        verbose=verbose,
    )
    if engine == "ray" and big_bytes is None:
        big_bytes = BIG_BYTES
    told = listener if listener is not None else IngestListener()
    say = told.note
    real_out = check_out(shown_out, output_format, paths)  # TRUST-20..22: its real path
    if engine == "local":
        workers = worker_count(workers, oversubscribe, say)  # TRUST-27
    skipped: list[str] = []
    walked: Counter[str] = Counter()
    rules = WalkRules(skip=not no_skip, gitignore=gitignore, input_format=job.input_format)
    found = find_files(
        paths,
        glob,
        real_out,
        follow_links=follow_links,
        skipped=skipped,
        rules=rules,
        counts=walked,
    )
    for line in skipped:  # TRUST-30, TRUST-31, TRUST-33: said before any work
        say(f"skipped: {line}")
    walk_summary = skip_summary(walked)
    if walk_summary is not None:  # REPO-9: one line counting the repository rules' skips
        say(walk_summary)
    sidecar: dict[str, Metadata] = {}
    if sidecar_path is not None:  # META-7: checked before anything is written
        sidecar = read_sidecar(sidecar_path, [item.doc_id for item in found])
    refuse_dropped_sidecar(real_out, sidecar_path is not None, no_metadata)  # TRUST-43
    run = _Run(found, job, output_format, rows_per_file, workers, sidecar, told)
    run.engine, run.address, run.verbose = engine, address, verbose
    run.big_bytes, run.big_memory = big_bytes, big_memory
    run.tally.skipped = len(skipped) + sum(walked.values())
    fingerprint = run_fingerprint(job, output_format)
    run.previous = previous_result(real_out, fingerprint, say)  # INCR-2, TRUST-41
    run.judge(incremental)
    stored = _store_state(Path(real_out))
    try:
        with staging(real_out, say, shown_out) as folder:
            counts = run.write(folder)
            manifest = _manifest(output_format, job, run.tally)
            manifest["fingerprint"] = fingerprint
            manifest["metadata_sidecar"] = sidecar_path is not None  # TRUST-43
            manifest["reused"] = sum(run.keep)
            manifest["changes"] = counts
            manifest["walk"] = {  # REPO-9: the walk's rules and what they skipped
                "no_skip": no_skip,
                "gitignore": gitignore,
                "skipped": {name: walked[name] for name in CATEGORIES if walked[name]},
            }
            manifest["inputs"] = run.listed
            if stored is not None:  # STORE-8: what the store holds did not change
                manifest["store"] = stored
            write_manifest(folder, manifest)
    except OSError as error:  # TRUST-26: a full disk; staging removed the new folder
        raise IngestError(f"--out {shown_out}: cannot write: {os_reason(error)}") from None
    tally = run.tally
    return IngestResult(
        out=shown_out,
        documents=tally.documents,
        chunks=tally.chunks,
        errors=tally.errors,
        reused=sum(run.keep),
        skipped=tally.skipped,
        seconds=time.perf_counter() - tally.started,
        manifest=manifest,
        changes=_changes_of(Path(real_out)),
    )


def _changes_of(folder: Path) -> list[dict[str, Any]]:
    """The change set the run wrote (``_changes/changes.jsonl``), as rows."""
    import json

    with (folder / CHANGES / "changes.jsonl").open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


class _Run:
    """One run's inputs, what is reused, and its writing (INCR-3, INCR-6, TRUST-45)."""

    def __init__(
        self,
        inputs: list[Input],
        job: ChunkJob,
        output_format: str,
        rows_per_file: int,
        workers: int | None,
        sidecar: dict[str, Metadata],
        listener: IngestListener,
    ) -> None:
        self.inputs = inputs
        self.job = job
        self.output_format = output_format
        self.rows_per_file = rows_per_file
        self.workers = workers
        self.sidecar = sidecar
        self.listener = listener
        self.tally = Tally(len(inputs), listener)
        self.engine = "local"
        self.address: str | None = None
        self.verbose = False
        self.big_bytes: int | None = None
        self.big_memory: int | None = None
        self.previous = Previous()
        self.hashes: list[str | None] = []
        self.givens: list[str | None] = []
        self.reasons: list[str | None] = []
        self.keep: list[bool] = []
        self.encodings: list[str | None] = []
        self.listed: list[dict[str, Any]] = []

    def judge(self, incremental: bool) -> None:
        """INCR-1, TRUST-41, TRUST-44: each input's hashes, and whether its rows are reused."""
        cap = self.job.max_bytes
        self.hashes = [content_hash(item, cap) for item in self.inputs]
        self.givens = [sidecar_hash(self.sidecar.get(item.doc_id)) for item in self.inputs]
        self.reasons = [
            self.previous.reason(item, digest, given)
            for item, digest, given in zip(self.inputs, self.hashes, self.givens, strict=True)
        ]
        self.keep = [incremental and reason is None for reason in self.reasons]
        say_damage(self.reasons, self.listener.note)  # TRUST-44
        self.encodings = [read_encoding(item, self.job) for item in self.inputs]
        for item, encoding in zip(self.inputs, self.encodings, strict=True):
            if encoding is not None:  # SOURCE-9: each fallback said, before any work
                self.listener.note(f"{item.source}: not UTF-8, read as {encoding}")

    def write(self, folder: Path) -> dict[str, dict[str, int]]:
        """Write the part files and the change set into ``folder``; the change counts."""
        changes = ChangeSet(folder, self.previous)  # INCR-6, TRUST-45: written as rows come
        try:
            if self.engine == "ray":
                self._ray(folder, changes)
            else:
                self._local(folder, changes)
            return changes.finish()
        finally:
            changes.close()

    def _entry(self, position: int, found: Any, changes: ChangeSet) -> None:
        """Add one input's change rows and manifest entry."""
        item = self.inputs[position]
        changes.document(
            item.doc_id, None if found is None else found.entries, self.reasons[position]
        )
        self.listed.append(
            manifest_entry(
                item,
                self.hashes[position],
                self.givens[position],
                found,
                self.encodings[position],
            )
        )

    def _ray(self, folder: Path, changes: ChangeSet) -> None:
        """Chunk the changed inputs on Ray, then write the reused rows as part files (INCR-3);
        a document's sidecar metadata travels as its row's ``metadata`` column (META-8)."""
        from ._ray_engine import RayRun, run_ray

        if self.output_format != "parquet":
            raise IngestError("--engine ray writes Parquet only (Ray Data's writer); drop --format")
        chunked = [item for item, kept in zip(self.inputs, self.keep, strict=True) if not kept]
        if chunked or not any(self.keep):
            assert self.big_bytes is not None
            settings = RayRun(
                self.address, self.workers, self.verbose, self.big_bytes, self.big_memory
            )
            run_ray(chunked, self.job, settings, folder, self.tally, self.sidecar)
        if any(self.keep):
            writer = PartWriter(folder, self.output_format, self.rows_per_file)
            try:
                for item, kept in zip(self.inputs, self.keep, strict=True):
                    if kept:
                        rows = self.previous.load(item.doc_id)  # TRUST-41: checked again
                        writer.write(rows)
                        self.tally.add(rows)
            finally:
                writer.close()
        written = Summaries(check=False)
        with collector_paused():  # many small objects, none cyclic
            for number, path in enumerate(part_files(folder)):
                written.read_part(path, number)
            written.close()
        for position, item in enumerate(self.inputs):
            self._entry(position, written.documents.get(item.doc_id), changes)

    def _local(self, folder: Path, changes: ChangeSet) -> None:
        """Chunk with the local engine, write the part files in input order, each document's
        change rows and manifest entry as it is written (INCR-6), holding no other rows
        (TRUST-45). Each document's sidecar metadata travels with its item (META-7).

        INCR-3: the rows of a reused input are the previous result's, written where a full
        run would write that input's rows, so the part files are those of a full run.
        """
        inputs, keep, previous = self.inputs, self.keep, self.previous
        chunked = [index for index, kept in enumerate(keep) if not kept]
        items = [item_of(inputs[i], self.sidecar) for i in chunked]
        sizes = []
        for i in chunked:
            item = inputs[i]
            try:
                sizes.append(0 if item.problem else os.path.getsize(item.path))
            except OSError:
                sizes.append(0)  # the worker reports it as an error row
        workers = self.workers or os.cpu_count() or 1
        groups = list(tasks(items, sizes, bytes_per_task=TASK_BYTES))
        writer = PartWriter(folder, self.output_format, self.rows_per_file)
        order = iter(chunked)
        written = 0  # the inputs before this one are written

        def emit(position: int, rows: list[dict[str, Any]]) -> None:
            writer.write(rows)
            self.tally.add(rows)
            # TRUST-41: a reused document's rows were read back and gave its summary
            if keep[position]:
                found = previous.documents[inputs[position].doc_id]
            else:
                found = summarise(rows)
            self._entry(position, found, changes)

        def reuse_until(stop: int) -> None:
            nonlocal written
            for position in range(written, stop):
                if keep[position]:  # TRUST-41: read back and checked again
                    emit(position, previous.load(inputs[position].doc_id))
            written = max(written, stop)

        def done(rows: list[dict[str, Any]]) -> None:
            nonlocal written
            position = next(order)
            reuse_until(position)
            emit(position, rows)
            written = position + 1

        try:
            if groups:
                run_local(groups, self.job, min(workers, len(groups)), done)
            reuse_until(len(inputs))
        except BrokenProcessPool:
            raise IngestError(
                "a worker process died (killed, or out of memory); --out left as it was; "
                "try a lower --max-bytes or fewer --workers"
            ) from None
        finally:
            writer.close()


def _store_state(out: Path) -> dict[str, Any] | None:
    """STORE-8: the previous manifest's record of what a store holds, carried to the new
    manifest (a run that changes the result does not change the store)."""
    manifest = read_manifest(out) if out.is_dir() else None
    state = None if manifest is None else manifest.get("store")
    return state if isinstance(state, dict) else None


def _manifest(output_format: str, job: ChunkJob, tally: Tally) -> dict[str, Any]:
    """What the run did, for ``_chunkspec.json``."""
    return {
        "chunkspec": __version__,
        "format": output_format,
        **job.options.to_dict(),  # every option, in field order (OPT-3)
        "min_tokens": job.options.minimum,  # the value in effect (OPT-7)
        "input_format": job.input_format,
        "input_encoding": job.encoding,
        # CLI-18: whether a password was given, never the password itself
        "pdf_password": job.pdf_password is not None,
        "keep_furniture": job.keep_furniture,
        "language": job.language,
        "max_bytes": job.max_bytes,
        "documents": tally.documents,
        "chunks": tally.chunks,
        "errors": tally.errors,
    }
