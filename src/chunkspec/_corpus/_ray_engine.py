"""The Ray corpus engine (``chunkspec ingest --engine ray``): the same rows, by Ray Data.

Files are read with ``ray.data.read_binary_files(include_paths=True)``, chunked by
``chunkspec.ray.job_dataset`` (``chunk_dataset``'s engine, the job whole) and written with
``Dataset.write_parquet`` into the staging folder; the summary is counted from the written
files.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import stat
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._core._metadata import Metadata, metadata_json
from .._records._job import ChunkJob
from .._records._rows import input_error_row
from .._records._size_policy import size_groups
from .._text._regular_files import OverCap
from ._critical import STDERR, emergency, signalled, take_back
from ._file_io import IngestError
from ._local_engine import item_of, read_rows
from ._process_family import descendants, kill

if TYPE_CHECKING:
    import pyarrow as pa

    from ._engine import Tally
    from ._walk import Input

__all__ = ["RAY_LOG", "RayRun", "ray_messages", "run_ray"]

#: CLI-19: where Ray's own messages go, in the output folder, unless ``--verbose``.
RAY_LOG = "_ray.log"


@dataclass(frozen=True)
class RayRun:
    """How a run uses Ray: the cluster, the local Ray's CPUs, where Ray's messages go
    (CLI-19) and the big/small-file policy's two settings (SCALE-5)."""

    address: str | None
    workers: int | None
    verbose: bool
    big_bytes: int
    big_memory: int | None


@contextlib.contextmanager
def ray_messages(folder: Path, verbose: bool, say: Callable[[str], None]) -> Iterator[None]:
    """CLI-19: send what Ray writes on standard error to ``folder/_ray.log``.

    Ray's driver, its logging and its native core write to file descriptor 2, so the
    descriptor itself is pointed at a log file while Ray runs. If the run fails, the log
    is kept in the system's temporary folder and one line names it; a run stopped by a
    signal (CLI-13) deletes it, and a second signal's line goes to the real standard error.
    ``say`` names the kept log.
    """
    if verbose:
        yield
        return
    sys.stderr.flush()
    kept = os.dup(2)
    with tempfile.NamedTemporaryFile(prefix="chunkspec-ray-", suffix=".log", delete=False) as log:
        os.dup2(log.fileno(), 2)
    STDERR[0] = kept
    try:
        yield
    except KeyboardInterrupt:
        _restore(kept)
        Path(log.name).unlink(missing_ok=True)
        raise
    except BaseException:
        _restore(kept)
        say(f"Ray's messages: {log.name}")
        raise
    _restore(kept)
    shutil.move(log.name, folder / RAY_LOG)


def _restore(kept: int) -> None:
    """Point standard error back at the descriptor ``ray_messages`` kept."""
    sys.stderr.flush()
    os.dup2(kept, 2)
    STDERR[0] = 2
    os.close(kept)


def _attach_ids(batch: pa.Table, names: dict[str, tuple[str, str, str | None]]) -> pa.Table:
    """Add ``doc_id``, ``source`` (as the local engine names them) and ``metadata`` (the
    sidecar's JSON text or null, META-8) from ``path``."""
    import pyarrow as pa

    found = [names[os.path.abspath(path)] for path in batch.column("path").to_pylist()]
    return pa.table(
        {
            "doc_id": pa.array([doc_id for doc_id, _, _ in found], pa.string()),
            "source": pa.array([source for _, source, _ in found], pa.string()),
            "bytes": batch.column("bytes"),
            "metadata": pa.array([metadata for _, _, metadata in found], pa.string()),
        }
    )


def start_ray(address: str | None, workers: int | None) -> Any:
    """Join ``address`` (or RAY_ADDRESS), else start Ray on 127.0.0.1 without telemetry."""
    from ..ray import _ray

    try:
        ray = _ray()
    except ImportError as error:
        raise IngestError(str(error)) from None
    # Ray's deprecation notices about its own settings are not the user's to act on.
    warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"ray\.")
    if ray.is_initialized():
        return ray
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    # CLI-13: ray.init installs its own SIGTERM handler (sys.exit); ours comes back after.
    # Ray's C++ failure handler would print a stack dump on SIGTERM: not a crash here, and
    # CLI-13's output is one line (set RAY_DISABLE_FAILURE_SIGNAL_HANDLER=0 to keep it).
    os.environ.setdefault("RAY_DISABLE_FAILURE_SIGNAL_HANDLER", "1")
    chosen = address or os.environ.get("RAY_ADDRESS")
    quiet: dict[str, Any] = {"logging_level": logging.WARNING, "log_to_driver": False}
    try:
        if chosen:
            ray.init(address=chosen, **quiet)
        else:
            ray.init(
                num_cpus=workers or os.cpu_count() or 1,
                include_dashboard=False,
                _node_ip_address="127.0.0.1",
                # A task killed for memory is retried at most 3 times, not forever (SCALE-5).
                _system_config={"task_oom_retries": 3},
                **quiet,
            )
    except SystemExit as stop:  # Ray's handler during ray.init: sys.exit(SIGTERM)
        if stop.code == signal.SIGTERM:
            raise signalled(signal.SIGTERM) from None
        raise
    take_back()
    return ray


def run_ray(
    inputs: list[Input],
    job: ChunkJob,
    settings: RayRun,
    folder: Path,
    tally: Tally,
    sidecar: dict[str, Metadata],
) -> None:
    """Chunk every input on Ray and write Parquet part files into ``folder``; a document's
    sidecar metadata travels as its row's ``metadata`` column (META-8)."""
    from ..ray import _ray

    try:
        ray = _ray()
    except ImportError as error:
        raise IngestError(str(error)) from None
    started = not ray.is_initialized()
    family: dict[int, bytes] = {}

    def stop() -> None:
        """Kill what Ray started for this run (a second signal's emergency, CLI-13)."""
        kill({**family, **descendants(os.getpid())})

    with ray_messages(folder, settings.verbose, tally.listener.note), emergency(stop):
        try:
            start_ray(settings.address, settings.workers)
            result = _dataset(ray, inputs, job, sidecar, settings, tally.show)
            result.write_parquet(str(folder))
        finally:
            if started:  # CLI-20: stop the Ray this run started, and all its processes
                family = descendants(os.getpid())
                ray.shutdown()
                kill({**family, **descendants(os.getpid())})
    _count(folder, tally)


def _dataset(
    ray: Any,
    inputs: list[Input],
    job: ChunkJob,
    sidecar: dict[str, Metadata],
    settings: RayRun,
    show: bool,
) -> Any:
    """The dataset of every input's rows: files read by Ray, grouped by the size policy, and
    the inputs read here (Ray's progress bars only if ``show`` and ``--verbose``)."""
    from ..arrow import rows_to_table
    from ..ray import job_dataset

    ray.data.DataContext.get_current().enable_progress_bars = show and settings.verbose
    names: dict[str, tuple[str, str, str | None]] = {}
    sizes: dict[str, int] = {}
    paths: list[str] = []
    refused: list[dict[str, Any]] = []
    cap = job.max_bytes
    for item in inputs:
        if item.problem is not None:  # CLI-17: as the local engine's error row
            refused.append(input_error_row(item.doc_id, item.source, item.source, item.problem))
            continue
        try:
            info = os.stat(item.path)
        except OSError as error:
            refused.append(input_error_row(item.doc_id, item.source, item.source, error))
            continue
        if item.stream or not stat.S_ISREG(info.st_mode):
            # TRUST-31: Ray's reader would wait on a FIFO and read a device to its end; such
            # an input is read here, as the local engine reads it (capped, or refused).
            refused.extend(read_rows(item_of(item, sidecar), job))
            continue
        size = info.st_size
        if cap is not None and size > cap:  # SCALE-5: never read into the object store
            refused.append(
                input_error_row(item.doc_id, item.source, item.source, OverCap(cap, size))
            )
            continue
        if item.source != item.path:
            # CLI-16: Ray's file reader takes UTF-8 paths only; such a file is chunked here,
            # into the same rows the local engine gives it.
            refused.extend(read_rows(item_of(item, sidecar), job))
            continue
        absolute = os.path.abspath(item.path)
        given = sidecar.get(item.doc_id)
        names[absolute] = (
            item.doc_id,
            item.source,
            None if given is None else metadata_json(given),
        )
        sizes[absolute] = size
        paths.append(absolute)
    # SCALE-5: big files each alone in a task, with memory reserved for their size class
    groups = size_groups(paths, sizes, settings.big_bytes, settings.big_memory or None, cap)
    datasets = []
    for chosen, batch, reserve in groups:
        files = ray.data.read_binary_files(chosen, include_paths=True)
        files = files.map_batches(_attach_ids, batch_format="pyarrow", fn_kwargs={"names": names})
        datasets.append(job_dataset(files, job, batch, reserve))  # the job whole (OPT-3)
    if refused:
        datasets.append(ray.data.from_arrow(rows_to_table(refused)))  # META-6: metadata as text
    return datasets[0] if len(datasets) == 1 else datasets[0].union(*datasets[1:])


def _count(folder: Path, tally: Tally) -> None:
    """Count the written rows into ``tally``, which prints each error row's line."""
    import pyarrow.parquet as pq

    written = pq.read_table(str(folder), columns=["doc_id", "index", "error"])
    for doc_id, index, message in zip(
        *(written.column(name).to_pylist() for name in ("doc_id", "index", "error")), strict=True
    ):
        if message is not None:
            tally.add([{"doc_id": doc_id, "error": message}])
        elif index == 0:
            tally.add([{"doc_id": doc_id, "error": None}])
    tally.chunks = written.num_rows - tally.errors
