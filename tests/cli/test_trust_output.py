"""The output folder and output files (TRUST-20..TRUST-27), through the real command line.

Each test is a case of the "output folder" part of the trust boundaries: a folder holding
files ingest did not write, ``--out`` around an input, ``.``/``..`` and links, staging
folders of a run killed with a real SIGKILL, ``-o`` through links and folders, writes that
fail (``/dev/full``, a file size limit: EFBIG, as a full disk gives ENOSPC) and the worker
cap. Each failed on the code before these rules (a deletion, a traceback or exit 0).
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.processes import environment

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="Linux /proc, signals, rlimits")

#: The options of every ingest run here: JSON Lines (no pyarrow needed), one process.
INGEST = ["--format", "jsonl", "--workers", "1"]


def cli(
    cwd: Path, *argv: str, fsize: int | None = None, stdout: int | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m chunkspec ARGV`` in ``cwd``; ``fsize`` caps the size of files it
    writes (RLIMIT_FSIZE, SIGXFSZ ignored: a write past it fails with EFBIG)."""

    def limited() -> None:
        if fsize is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    return subprocess.run(
        [sys.executable, "-m", "chunkspec", *argv],
        cwd=cwd,
        env={**environment(), "PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=stdout is None,
        stdout=stdout,
        stderr=subprocess.PIPE if stdout is not None else None,
        text=True,
        preexec_fn=limited,
        timeout=120,
        check=False,
    )


def corpus(tmp: Path, name: str = "in") -> Path:
    """A two-document corpus."""
    folder = tmp / name
    folder.mkdir()
    (folder / "a.md").write_text("# Alpha\n\nFirst words here.\n", "utf-8")
    (folder / "b.txt").write_text("Plain text of b.\n", "utf-8")
    return folder


def files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by relative path, with its bytes."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def one_error(run: subprocess.CompletedProcess[str], start: str) -> None:
    """Exit 2, one line on stderr beginning with ``start``, no traceback."""
    assert run.returncode == 2, (run.returncode, run.stderr)
    assert run.stderr.count("\n") == 1, run.stderr
    assert run.stderr.startswith(start), run.stderr
    assert "Traceback" not in run.stderr


def leftovers(folder: Path) -> list[str]:
    """The hidden temporary files and staging folders in ``folder``."""
    return sorted(p.name for p in folder.iterdir() if ".chunkspec-" in p.name)


# TRUST-22: a folder is replaced only when everything in it is ingest's


@pytest.mark.parametrize("manifest", ["", "{}", "[]", '{"format": "jsonl"}', "not json"])
def test_a_folder_whose_manifest_is_not_ingests_is_never_replaced(
    tmp_path: Path, manifest: str
) -> None:
    """An empty or ``{}`` _chunkspec.json used to make ingest delete everything beside it."""
    corpus(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "_chunkspec.json").write_text(manifest, "utf-8")
    (out / "thesis.txt").write_text("two years of work\n", "utf-8")
    before = files(out)
    run = cli(tmp_path, "ingest", "in", "--out", "out", *INGEST)
    one_error(run, "chunkspec ingest: error: --out out: folder is not empty and holds no ingest")
    assert files(out) == before
    assert leftovers(tmp_path) == []


def test_files_added_to_an_earlier_result_are_named_and_kept(tmp_path: Path) -> None:
    """Files a user added to a result used to vanish on the next run."""
    corpus(tmp_path)
    out = tmp_path / "out"
    assert cli(tmp_path, "ingest", "in", "--out", "out", *INGEST).returncode == 0
    (out / "notes.txt").write_text("mine\n", "utf-8")
    before = files(out)
    run = cli(tmp_path, "ingest", "in", "--out", "out", *INGEST)
    one_error(
        run,
        "chunkspec ingest: error: --out out: holds 1 entry ingest did not write: 'notes.txt'",
    )
    assert files(out) == before


def test_many_unknown_entries_are_counted_after_the_first_three(tmp_path: Path) -> None:
    """A user's subfolder, a link, a hidden file and a part-like file the manifest does not
    list are all unknown; the line names three and counts the rest."""
    corpus(tmp_path)
    out = tmp_path / "out"
    assert cli(tmp_path, "ingest", "in", "--out", "out", *INGEST).returncode == 0
    (out / "drafts").mkdir()
    (out / "drafts" / "x.md").write_text("draft\n", "utf-8")
    (out / ".hidden").write_text("h\n", "utf-8")
    (out / "mine.jsonl").write_text("{}\n", "utf-8")
    (out / "part-00001.jsonl").symlink_to(tmp_path / "in" / "a.md")
    (out / "_changes" / "mine.txt").write_text("m\n", "utf-8")
    before = files(out)
    run = cli(tmp_path, "ingest", "in", "--out", "out", *INGEST)
    one_error(
        run,
        "chunkspec ingest: error: --out out: holds 5 entries ingest did not write: "
        "'.hidden', '_changes', 'drafts' and 2 more;",
    )
    assert files(out) == before


def test_a_result_is_replaced_and_its_manifest_lists_its_files(tmp_path: Path) -> None:
    """TRUST-23: the manifest's ``files``; a re-run into ingest's own folder replaces it."""
    corpus(tmp_path)
    out = tmp_path / "out"
    assert cli(tmp_path, "ingest", "in", "--out", "out", *INGEST).returncode == 0
    manifest = json.loads((out / "_chunkspec.json").read_text("utf-8"))
    assert manifest["files"] == ["_changes", "part-00000.jsonl"]
    (tmp_path / "in" / "a.md").write_text("# Alpha\n\nOther words.\n", "utf-8")
    run = cli(tmp_path, "ingest", "in", "--out", "out", *INGEST)
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in out.iterdir()) == [
        "_changes",
        "_chunkspec.json",
        "part-00000.jsonl",
    ]
    assert b"Other words" in (out / "part-00000.jsonl").read_bytes()


@pytest.mark.parametrize(
    ("extra", "replaced"),
    [("part-00003.jsonl", True), ("part-3.jsonl", False), ("part-00003.parquet", False)],
)
def test_an_older_manifest_covers_only_the_local_engines_part_names(
    tmp_path: Path, extra: str, replaced: bool
) -> None:
    """TRUST-23: a manifest without ``files`` covers ``part-NNNNN.EXT`` of its format only."""
    corpus(tmp_path)
    out = tmp_path / "out"
    assert cli(tmp_path, "ingest", "in", "--out", "out", *INGEST).returncode == 0
    manifest = json.loads((out / "_chunkspec.json").read_text("utf-8"))
    del manifest["files"]
    (out / "_chunkspec.json").write_text(json.dumps(manifest), "utf-8")
    (out / extra).write_text("", "utf-8")  # an empty part: no rows
    run = cli(tmp_path, "ingest", "in", "--out", "out", *INGEST)
    if replaced:
        assert run.returncode == 0, run.stderr
        assert not (out / extra).exists()
    else:
        one_error(
            run,
            f"chunkspec ingest: error: --out out: holds 1 entry ingest did not write: '{extra}'",
        )
        assert (out / extra).read_text("utf-8") == ""


def test_a_file_added_while_the_run_works_stops_the_swap(tmp_path: Path) -> None:
    """TRUST-22: checked again just before the swap: a file added during the run is kept."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "big.md").write_text("# Big\n\n" + "word " * 400_000 + "\n", "utf-8")
    out = tmp_path / "out"
    out.mkdir()
    process = subprocess.Popen(
        [sys.executable, "-m", "chunkspec", "ingest", "in", "--out", "out", *INGEST],
        cwd=tmp_path,
        env=environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        end = time.monotonic() + 60
        while not leftovers(tmp_path):
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < end
            time.sleep(0.002)
        (out / "late.txt").write_text("added during the run\n", "utf-8")
        _, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 2, err
    assert err.startswith("chunkspec ingest: error: --out out: folder is not empty"), err
    assert err.endswith(
        ": 1 entry ingest did not write: 'late.txt'; choose a new or empty folder\n"
    )
    assert files(out) == {"late.txt": b"added during the run\n"}
    assert leftovers(tmp_path) == []


# TRUST-20: the output folder is apart from the inputs


@pytest.mark.parametrize(
    ("out", "where"),
    [
        ("in", "is the input in"),
        (".", "holds the input in"),
        ("in/out", "lies inside the input in"),
    ],
)
def test_out_equal_to_around_or_inside_an_input_is_refused(
    tmp_path: Path, out: str, where: str
) -> None:
    """``--out`` at an input, or a folder holding one, deleted the inputs after chunking."""
    corpus(tmp_path)
    before = files(tmp_path)
    run = cli(tmp_path, "ingest", "in", "--out", out, *INGEST)
    one_error(run, f"chunkspec ingest: error: --out {out}: {where};")
    assert files(tmp_path) == before


def test_out_holding_an_input_that_is_an_earlier_result_is_refused(tmp_path: Path) -> None:
    """The deletion of the issue: an input folder inside an earlier result, ``--out`` that
    result: the run chunked the input, then deleted it with the old result."""
    corpus(tmp_path)
    assert cli(tmp_path, "ingest", "in", "--out", "out", *INGEST).returncode == 0
    (tmp_path / "out" / "docs").mkdir()
    (tmp_path / "out" / "docs" / "c.md").write_text("# C\n\nkeep me\n", "utf-8")
    before = files(tmp_path)
    run = cli(tmp_path, "ingest", "out/docs", "--out", "out", *INGEST)
    one_error(run, "chunkspec ingest: error: --out out: holds the input out/docs;")
    assert files(tmp_path) == before


def test_out_through_a_linked_input_is_refused(tmp_path: Path) -> None:
    """Real paths are compared: an input given through a link to the output folder."""
    corpus(tmp_path)
    (tmp_path / "alias").symlink_to(tmp_path / "in")
    run = cli(tmp_path, "ingest", "alias", "--out", "in", *INGEST)
    one_error(run, "chunkspec ingest: error: --out in: is the input alias;")


# TRUST-21: --out is a real folder, named by its real path


def test_out_dot_is_the_real_folder(tmp_path: Path) -> None:
    """``--out .`` in an empty folder was a traceback; now that folder is written."""
    corpus(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    run = cli(work, "ingest", str(tmp_path / "in"), "--out", ".", *INGEST)
    assert run.returncode == 0, run.stderr
    assert run.stdout.endswith(" -> .\n")
    names = sorted(p.name for p in work.iterdir())
    assert names == ["_changes", "_chunkspec.json", "part-00000.jsonl"]
    assert leftovers(tmp_path) == []


def test_out_dot_dot_holding_the_working_folder_is_refused(tmp_path: Path) -> None:
    """``--out ..`` whose folder holds a user's folder is refused, naming it."""
    corpus(tmp_path)
    work = tmp_path / "work" / "here"
    work.mkdir(parents=True)
    (work / "mine.txt").write_text("mine\n", "utf-8")
    run = cli(work, "ingest", str(tmp_path / "in"), "--out", "..", *INGEST)
    one_error(run, "chunkspec ingest: error: --out ..: folder is not empty and holds no ingest")
    assert (work / "mine.txt").read_text("utf-8") == "mine\n"


@pytest.mark.parametrize("target", ["folder", "dangling"])
def test_out_at_a_symbolic_link_is_refused(tmp_path: Path, target: str) -> None:
    """A link (to a folder, or dangling) was a traceback or replaced by a folder."""
    corpus(tmp_path)
    if target == "folder":
        (tmp_path / "real").mkdir()
    (tmp_path / "out").symlink_to(tmp_path / ("real" if target == "folder" else "nowhere"))
    run = cli(tmp_path, "ingest", "in", "--out", "out", *INGEST)
    one_error(run, "chunkspec ingest: error: --out out: is a symbolic link;")
    assert (tmp_path / "out").is_symlink()
    assert leftovers(tmp_path) == []


def test_out_below_a_linked_folder_is_written_in_the_real_folder(tmp_path: Path) -> None:
    """Links in the folders above ``--out`` are followed; the staging is beside the real one."""
    corpus(tmp_path)
    (tmp_path / "real").mkdir()
    (tmp_path / "via").symlink_to(tmp_path / "real")
    run = cli(tmp_path, "ingest", "in", "--out", "via/out", *INGEST)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "real" / "out" / "_chunkspec.json").is_file()


# TRUST-24: staging folders of a killed run


def _killed_run(tmp: Path) -> Path:
    """Start a real ingest, SIGKILL it while its staging folder exists; return that folder."""
    folder = tmp / "in"
    folder.mkdir()
    (folder / "big.md").write_text("# Big\n\n" + "word " * 400_000 + "\n", "utf-8")
    process = subprocess.Popen(
        [sys.executable, "-m", "chunkspec", "ingest", "in", "--out", "out", *INGEST],
        cwd=tmp,
        env=environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        end = time.monotonic() + 60
        while True:
            found = [tmp / name for name in leftovers(tmp)]
            if found and (found[0] / "_chunkspec.staging").is_file():
                break
            assert process.poll() is None, "the run ended before it could be killed"
            assert time.monotonic() < end
            time.sleep(0.002)
        process.send_signal(signal.SIGKILL)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == -signal.SIGKILL
    assert found[0].is_dir(), "SIGKILL runs no clean-up"
    return found[0]


def test_a_sigkilled_runs_staging_folder_is_removed_by_the_next_run(tmp_path: Path) -> None:
    """Staging folders left by SIGKILL were never cleaned up."""
    left = _killed_run(tmp_path)
    (tmp_path / "in" / "big.md").write_text("# Small\n\nnow small\n", "utf-8")
    run = cli(tmp_path, "ingest", "in", "--out", "out", *INGEST)
    assert run.returncode == 0, run.stderr
    assert run.stderr.startswith(
        f"chunkspec ingest: removed {left.name}: the staging folder of a run that was killed (pid "
    ), run.stderr
    assert leftovers(tmp_path) == []


def test_a_killed_runs_staging_folder_holding_a_user_file_is_left(tmp_path: Path) -> None:
    """A dead run's folder that holds anything ingest does not write is never removed."""
    left = _killed_run(tmp_path)
    (left / "moved-here.txt").write_text("mine\n", "utf-8")
    (tmp_path / "in" / "big.md").write_text("# Small\n\nnow small\n", "utf-8")
    run = cli(tmp_path, "ingest", "in", "--out", "out", *INGEST)
    assert run.returncode == 0, run.stderr
    assert "removed" not in run.stderr
    assert (left / "moved-here.txt").read_text("utf-8") == "mine\n"


def test_a_live_runs_and_an_unmarked_staging_folder_are_left(tmp_path: Path) -> None:
    """A marker naming a live process (pid and start time), a marker whose pid is alive but
    whose start time differs (a reused pid: removed), and no marker (left)."""
    corpus(tmp_path)
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        stat_fields = Path(f"/proc/{sleeper.pid}/stat").read_text().rsplit(")", 1)[1].split()
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
        marks = {
            ".out.chunkspec-live": {"pid": sleeper.pid, "boot_id": boot, "start": stat_fields[19]},
            ".out.chunkspec-reused": {"pid": sleeper.pid, "boot_id": boot, "start": "1"},
            ".out.chunkspec-reboot": {"pid": sleeper.pid, "boot_id": "other", "start": "1"},
        }
        for name, mark in marks.items():
            (tmp_path / name).mkdir()
            (tmp_path / name / "_chunkspec.staging").write_text(json.dumps(mark), "utf-8")
            (tmp_path / name / "part-00000.jsonl").write_text("{}\n", "utf-8")
        (tmp_path / ".out.chunkspec-unmarked").mkdir()
        (tmp_path / ".out.chunkspec-unmarked" / "part-00000.jsonl").write_text("{}\n", "utf-8")
        run = cli(tmp_path, "ingest", "in", "--out", "out", *INGEST)
    finally:
        sleeper.kill()
        sleeper.wait()
    assert run.returncode == 0, run.stderr
    assert leftovers(tmp_path) == [".out.chunkspec-live", ".out.chunkspec-unmarked"]
    assert run.stderr.count("removed .out.chunkspec-") == 2, run.stderr


# TRUST-25: -o files


def test_output_naming_a_folder_is_one_line(tmp_path: Path) -> None:
    """``-o`` naming a folder was an IsADirectoryError traceback."""
    corpus(tmp_path)
    (tmp_path / "d.jsonl").mkdir()
    run = cli(tmp_path, "chunk", "in/a.md", "-o", "d.jsonl")
    one_error(run, "chunkspec chunk: error: --output d.jsonl: is a folder; name a file")
    assert leftovers(tmp_path) == []


def test_output_through_a_link_writes_the_target_and_keeps_the_link(tmp_path: Path) -> None:
    """A link used to be replaced by a file, the file it named left as it was."""
    corpus(tmp_path)
    (tmp_path / "store").mkdir()
    target = tmp_path / "store" / "chunks.jsonl"
    target.write_text("old\n", "utf-8")
    (tmp_path / "link.jsonl").symlink_to(target)
    run = cli(tmp_path, "chunk", "in/a.md", "-o", "link.jsonl")
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "link.jsonl").is_symlink()
    assert b'"doc_id": "a"' in target.read_bytes()
    assert leftovers(tmp_path) == []
    assert leftovers(tmp_path / "store") == []


def test_output_at_a_dangling_link_creates_its_target_and_a_fifo_is_refused(
    tmp_path: Path,
) -> None:
    """A dangling link's target is created (its folder exists), the link kept; a FIFO is
    not a regular file: one line (a rename would have replaced it)."""
    corpus(tmp_path)
    (tmp_path / "later.jsonl").symlink_to("made.jsonl")
    run = cli(tmp_path, "chunk", "in/a.md", "-o", "later.jsonl")
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "later.jsonl").is_symlink()
    assert b'"doc_id": "a"' in (tmp_path / "made.jsonl").read_bytes()
    os.mkfifo(tmp_path / "pipe.jsonl")
    run = cli(tmp_path, "chunk", "in/a.md", "-o", "pipe.jsonl")
    one_error(run, "chunkspec chunk: error: --output pipe.jsonl: is not a regular file")
    assert stat.S_ISFIFO((tmp_path / "pipe.jsonl").lstat().st_mode)


def test_output_keeps_the_files_mode(tmp_path: Path) -> None:
    """An existing file's mode was lost (the rename put a 0666-less-umask file there)."""
    corpus(tmp_path)
    target = tmp_path / "private.jsonl"
    target.write_text("old\n", "utf-8")
    target.chmod(0o600)
    run = cli(tmp_path, "chunk", "in/a.md", "-o", "private.jsonl")
    assert run.returncode == 0, run.stderr
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert b'"doc_id": "a"' in target.read_bytes()


# TRUST-26: a failed write


def test_standard_output_on_dev_full_is_one_line(tmp_path: Path) -> None:
    """``chunk x.md > /dev/full`` was an OSError traceback."""
    corpus(tmp_path)
    with open("/dev/full", "w") as full:
        run = cli(tmp_path, "chunk", "in/a.md", stdout=full.fileno())
    one_error(run, "chunkspec chunk: error: standard output: cannot write: No space left on device")


def test_output_file_on_a_full_filesystem_leaves_nothing(tmp_path: Path) -> None:
    """``-o`` past the file size limit: one line, no temporary file, the old file kept."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\n" + "many words here " * 2000 + "\n", "utf-8")
    (tmp_path / "out.jsonl").write_text("old\n", "utf-8")
    run = cli(tmp_path, "chunk", "in/a.md", "-o", "out.jsonl", fsize=4096)
    one_error(run, "chunkspec chunk: error: out.jsonl: cannot write: File too large")
    assert (tmp_path / "out.jsonl").read_text("utf-8") == "old\n"
    assert leftovers(tmp_path) == []


def test_ingest_on_a_full_filesystem_leaves_nothing(tmp_path: Path) -> None:
    """ingest past the file size limit: one line, no staging folder, the old result kept."""
    corpus(tmp_path)
    assert cli(tmp_path, "ingest", "in", "--out", "out", *INGEST).returncode == 0
    before = files(tmp_path / "out")
    (tmp_path / "in" / "a.md").write_text("# A\n\n" + "many words here " * 2000 + "\n", "utf-8")
    run = cli(tmp_path, "ingest", "in", "--out", "out", *INGEST, fsize=4096)
    one_error(run, "chunkspec ingest: error: --out out: cannot write: File too large")
    assert files(tmp_path / "out") == before
    assert leftovers(tmp_path) == []


# TRUST-27: the worker count


def test_workers_above_the_cores_are_capped_with_a_notice(tmp_path: Path) -> None:
    """``--workers 64`` ran 64 processes on 2 cores; now the usable cores, said in a line."""
    corpus(tmp_path)
    cores = len(os.sched_getaffinity(0))
    run = cli(tmp_path, "ingest", "in", "--out", "out", "--format", "jsonl", "--workers", "64")
    assert run.returncode == 0, run.stderr
    assert run.stderr == (
        f"chunkspec ingest: --workers 64 capped at {cores}, the usable cores "
        "(--oversubscribe runs 64)\n"
    )


def _workers_of(pid: int) -> int:
    """How many worker processes ``pid`` has now (spawned children, not the tracker)."""
    count = 0
    with contextlib.suppress(OSError):
        for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
            with contextlib.suppress(OSError):
                count += b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes()
    return count


def test_capped_workers_are_the_processes_started(tmp_path: Path) -> None:
    """The cap is what runs: ``--workers 8`` over eight 1 MiB tasks starts no more worker
    processes than the usable cores (it started 8)."""
    folder = tmp_path / "in"
    folder.mkdir()
    for n in range(8):
        (folder / f"big{n}.md").write_text("# Big\n\n" + "word " * 210_000 + "\n", "utf-8")
    argv = ["ingest", "in", "--out", "out", "--format", "jsonl", "--workers", "8"]
    process = subprocess.Popen(
        [sys.executable, "-m", "chunkspec", *argv, "--max-tokens", "100000"],
        cwd=tmp_path,
        env=environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    most = 0
    try:
        while process.poll() is None:
            most = max(most, _workers_of(process.pid))
            time.sleep(0.01)
        _, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    cores = len(os.sched_getaffinity(0))
    assert process.returncode == 0, err
    assert 1 <= most <= min(cores, 8)
    assert (f"--workers 8 capped at {cores}" in err) == (cores < 8)


def test_the_cap_is_the_affinity_set(tmp_path: Path) -> None:
    """A process allowed one core caps at 1, whatever ``os.cpu_count()`` says."""
    corpus(tmp_path)
    one = min(os.sched_getaffinity(0))
    process = subprocess.run(
        [
            sys.executable,
            "-m",
            "chunkspec",
            *("ingest", "in", "--out", "out", "--format", "jsonl", "--workers", "2"),
        ],
        cwd=tmp_path,
        env=environment(),
        capture_output=True,
        text=True,
        preexec_fn=lambda: os.sched_setaffinity(0, {one}),
        timeout=120,
        check=False,
    )
    assert process.returncode == 0, process.stderr
    assert "--workers 2 capped at 1, the usable cores" in process.stderr


def test_oversubscribe_runs_the_workers_asked_and_needs_workers(tmp_path: Path) -> None:
    """``--oversubscribe`` says nothing and runs N; without ``--workers`` it is refused."""
    corpus(tmp_path)
    cores = len(os.sched_getaffinity(0))
    argv = ["ingest", "in", "--out", "out", "--format", "jsonl"]
    run = cli(tmp_path, *argv, "--workers", str(cores + 1), "--oversubscribe")
    assert (run.returncode, run.stderr) == (0, "")
    one_error(
        cli(tmp_path, *argv, "--oversubscribe"),
        "chunkspec ingest: error: --oversubscribe needs --workers N and the local engine",
    )
