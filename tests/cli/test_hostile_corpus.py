"""The hostile corpus (tests/hostile_corpus.py) through every path a user takes (CLI-17).

Each path -- ``chunk``, ``ingest`` with 1 and 2 workers, and the three framework
adapters -- must give every input its expected outcome: records, or one line (an error row
in ``ingest``) naming it with the expected reason; and the inputs chunked plus the inputs
reported must be exactly the inputs present, nothing lost, nothing doubled. What the walk
must not read (links out of the corpus, a FIFO, a socket: TRUST-30, TRUST-31) is one skip
line each, and no output holds text from outside the corpus. In-process runs are bounded
by a timer (a FIFO opened fails the test in seconds); runs that could read without end
(``/dev/zero``, ``/proc``) are subprocesses with a memory limit and a timeout.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_cli import run_cli
from tests.hostile_corpus import (
    COUNTED,
    COUNTED_LINE,
    IGNORED,
    LOCKED,
    OUTSIDE_TEXT,
    no_wait,
    refuse_listing,
    write_hostile_corpus,
    write_unbounded_corpus,
)
from tests.processes import environment

try:
    import resource
except ImportError:  # Windows: no memory limit (and no FIFO, /dev/zero or /proc to read)
    resource = None  # type: ignore[assignment]

#: An in-process run that takes longer than this waits on something: it fails.
BOUND = 120.0

_ROOT = "corpus"


def _check(expected: dict[str, str | None], got: dict[str, list[str | None]]) -> None:
    """Every input has exactly one outcome, the expected one; no other path appears."""
    assert sorted(got) == sorted(expected), "inputs lost or invented"
    for path, outcomes in got.items():
        wanted = expected[path]
        if wanted is None:
            assert outcomes, path
            assert all(o is None for o in outcomes), (path, outcomes)
        else:
            assert len(outcomes) == 1, (path, outcomes)
            message = outcomes[0]
            assert message is not None, (path, "gave records, expected", wanted)
            assert re.fullmatch(wanted, message), (path, message, wanted)
    for ignored in IGNORED + COUNTED:
        assert ignored not in got


def _relative(source: str) -> str:
    """``corpus/x`` -> ``x``."""
    assert source.startswith(_ROOT + "/"), source
    return source[len(_ROOT) + 1 :]


Corpus = tuple[Path, dict[str, str | None], dict[str, Path], dict[str, str]]


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Corpus]:
    """The corpus in ``tmp_path/corpus``, the working directory ``tmp_path``, one folder
    unreadable; the test fails, never hangs, if a run waits (TRUST-31)."""
    if sys.platform == "win32":
        pytest.skip("symbolic links, FIFOs and sockets are POSIX")
    expected, files, skipped = write_hostile_corpus(tmp_path / _ROOT)
    refuse_listing(monkeypatch, tmp_path / _ROOT / LOCKED)
    monkeypatch.chdir(tmp_path)
    with no_wait(BOUND):
        yield tmp_path, expected, files, skipped


def _skips(lines: list[str], command: str, skipped: dict[str, str]) -> list[str]:
    """TRUST-30, TRUST-31, TRUST-33: the walk's skip lines come first, one per entry to
    skip, each with its reason; return the other lines."""
    prefix = f"chunkspec {command}: skipped: {_ROOT}/"
    got = {}
    rest = []
    for line in lines:
        name, _, reason = line.removeprefix(prefix).partition(": ")
        if line.startswith(prefix) and name in skipped:
            assert name not in got, line
            got[name] = reason
        else:
            rest.append(line)
    assert sorted(got) == sorted(skipped)
    for name, reason in got.items():
        assert re.fullmatch(skipped[name], reason), (name, reason)
    assert lines[: len(got)] == [line for line in lines if line not in rest]
    return rest


def test_chunk_names_every_input(
    corpus: Corpus,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """CLI-10, CLI-17, SOURCE-7: ``chunk --keep-going`` writes the records of every good input
    and one line for every other; the count line counts the inputs present."""
    _, expected, _, skips = corpus
    status, out, err = run_cli(["chunk", _ROOT, "--keep-going"], b"", monkeypatch, capsys)
    assert status == 2
    assert OUTSIDE_TEXT not in out
    got: dict[str, list[str | None]] = {}
    for line in out.splitlines():
        record = json.loads(line)
        assert record["text"]
        got.setdefault(_relative(record["source"]), []).append(None)
    lines = _skips(err.splitlines(), "chunk", skips)
    lines.remove(f"chunkspec chunk: {COUNTED_LINE}")  # REPO-9, REPO-12
    skipped = 0
    for line in lines[:-1]:
        body = line.removeprefix("chunkspec chunk: ")
        if body.startswith("skipped: "):
            body = body.removeprefix("skipped: ")
            skipped += 1
        name, _, reason = body.partition(": ")
        got.setdefault(_relative(name), []).append(reason)
    reported = sum(1 for outcome in expected.values() if outcome is not None)
    assert lines[-1] == (
        f"chunkspec chunk: error: {skipped} of {len(expected)} documents could not be read"
    )
    assert skipped == reported - sum(
        1 for outcome in expected.values() if outcome == "no text to chunk"
    )
    _check(expected, got)


@pytest.mark.parametrize(("workers", "output_format"), [("1", "jsonl"), ("2", "parquet")])
def test_ingest_names_every_input(
    workers: str,
    output_format: str,
    corpus: Corpus,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """SCALE-3, SCALE-7, CLI-17: ``ingest`` gives every input its records or one error row;
    the summary counts every input; any number of workers gives the same rows."""
    where, expected, _, skips = corpus
    argv = ["ingest", _ROOT, "--out", "out", "--workers", workers, "--format", output_format]
    status, out, err = run_cli(argv, b"", monkeypatch, capsys)
    assert status == 0, err
    errors = sum(1 for outcome in expected.values() if outcome is not None)
    assert out.startswith(f"{len(expected)} documents, ")
    counted = len(COUNTED)  # TRUST-33, REPO-9: lines and counts
    assert f" chunks, {errors} errors, {len(skips) + counted} skipped, " in out
    lines = _skips(err.splitlines(), "ingest", skips)
    lines.remove(f"chunkspec ingest: {COUNTED_LINE}")
    for part in (where / "out").rglob("*"):
        assert part.is_dir() or OUTSIDE_TEXT.encode() not in part.read_bytes(), part
    if output_format == "jsonl":
        rows = [
            json.loads(line)
            for part in sorted((where / "out").glob("part-*.jsonl"))
            for line in part.read_text("utf-8").splitlines()
        ]
    else:
        import pyarrow.parquet as pq

        rows = pq.read_table(where / "out").to_pylist()
    got: dict[str, list[str | None]] = {}
    for row in rows:
        path = _relative(row["source"])
        if row["error"] is None:
            got.setdefault(path, []).append(None)
        else:
            prefix = f"{row['source']}: "
            assert row["error"].startswith(prefix), row["error"]
            got.setdefault(path, []).append(row["error"][len(prefix) :])
    _check(expected, got)
    stderr_errors = [line for line in lines if line.startswith("chunkspec ingest: ")]
    assert len(stderr_errors) == errors


def _loaded(files: dict[str, Path]) -> list[tuple[str, str]]:
    """The text files a framework loader would give: (``str(path)``, text) for every input
    that decodes as UTF-8 (loaders read text, not PDFs), as ``TextLoader`` reads it."""
    loaded = []
    for _, path in sorted(files.items()):
        if path.suffix.lower() not in (".md", ".txt"):
            continue
        try:
            text = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            continue
        loaded.append((str(path), text))
    return loaded


def _adapter_chunks(framework: str, loaded: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Run ``framework``'s adapter over the loaded files; return (source, text) per chunk."""
    options: dict[str, Any] = {"strategy": "heading", "max_tokens": 64}
    if framework == "langchain":
        pytest.importorskip("langchain_text_splitters")
        from langchain_core.documents import Document

        from chunkspec.integrations.langchain import ChunkspecSplitter

        splitter = ChunkspecSplitter(**options)
        docs = [Document(page_content=t, metadata={"source": s}) for s, t in loaded]
        return [(d.metadata["source"], d.page_content) for d in splitter.split_documents(docs)]
    if framework == "llama_index":
        pytest.importorskip("llama_index.core")
        from llama_index.core import Document as LlamaDocument

        from chunkspec.integrations.llama_index import ChunkspecNodeParser

        parser = ChunkspecNodeParser(**options)
        llama = [LlamaDocument(text=t, id_=s, metadata={"source": s}) for s, t in loaded]
        nodes = parser.get_nodes_from_documents(llama)
        return [(n.metadata["source"], n.get_content()) for n in nodes]
    pytest.importorskip("haystack")
    from haystack import Document as HaystackDocument

    from chunkspec.integrations.haystack import ChunkspecDocumentSplitter

    component = ChunkspecDocumentSplitter(**options)
    hay = [HaystackDocument(content=t, meta={"source": s}) for s, t in loaded]
    split = component.run(documents=hay)["documents"]
    return [(d.meta["source"], d.content) for d in split]


@pytest.mark.parametrize("framework", ["langchain", "llama_index", "haystack"])
def test_adapters_take_every_loaded_file(framework: str, corpus: Corpus) -> None:
    """ADAPT-1, ADAPT-2, SOURCE-7: every file a loader gives is chunked in one batch (two
    files with one text, a non-UTF-8 name among them); each non-blank one has chunks, each
    blank one none, and every chunk's text is in its file."""
    _, _, files, _ = corpus
    loaded = _loaded(files)
    assert len(loaded) >= 15
    chunks = _adapter_chunks(framework, loaded)
    shown = {
        os.fsencode(source).decode("utf-8", "backslashreplace"): text for source, text in loaded
    }
    by_source: dict[str, list[str]] = {}
    for source, text in chunks:
        by_source.setdefault(source, []).append(text)
    for source, text in shown.items():
        if not text.strip():  # SOURCE-7 (WS-1: str.isspace)
            assert source not in by_source, source
        else:
            assert by_source.get(source), f"{source} gave no chunk"
            assert all(piece in text for piece in by_source[source])
    assert set(by_source) <= set(shown)


def _run(argv: list[str], cwd: Path, memory: int = 1 << 31) -> subprocess.CompletedProcess[str]:
    """Run ``python -m chunkspec`` in ``cwd`` with at most ``memory`` bytes of address space
    and a timeout: a run that reads without end fails in seconds, and cannot take the
    machine's memory."""

    def limit() -> None:  # in the child, before exec: no import, no lock taken
        if resource is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    try:
        return subprocess.run(
            [sys.executable, "-m", "chunkspec", *argv],
            cwd=cwd,
            env=environment(),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=BOUND,
            preexec_fn=limit,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{argv[0]} did not end within {BOUND} s (it waits or reads forever)")


@pytest.mark.skipif(sys.platform != "linux", reason="/dev/zero and /proc are Linux's")
@pytest.mark.parametrize("workers", ["1", "2"])
def test_unbounded_files_are_never_read_to_their_end(tmp_path: Path, workers: str) -> None:
    """TRUST-31, TRUST-32: a link to /dev/zero is never opened (even with --follow-links);
    a /proc file whose size says 0 is refused after byte 101 under --max-bytes 100; the
    run ends with its one row each, within its memory limit."""
    unbounded = write_unbounded_corpus(tmp_path / _ROOT)
    argv = ["ingest", _ROOT, "--out", "out", "--format", "jsonl", "--workers", workers]
    done = _run([*argv, "--follow-links", "--max-bytes", "100"], tmp_path)
    assert done.returncode == 0, done.stderr
    rows = [
        json.loads(line)
        for part in sorted((tmp_path / "out").glob("part-*.jsonl"))
        for line in part.read_text("utf-8").splitlines()
    ]
    said = {
        _relative(row["source"]): f"error: {row['error'].split(': ', 1)[1]}"
        for row in rows
        if row["error"] is not None
    }
    prefix = f"chunkspec ingest: skipped: {_ROOT}/"
    for line in done.stderr.splitlines():
        if line.startswith(prefix):
            name, _, reason = line.removeprefix(prefix).partition(": ")
            said[name] = f"skipped: {reason}"
    assert sorted(said) == sorted(unbounded)
    for name, pattern in unbounded.items():
        assert re.fullmatch(pattern, said[name]), (name, said[name])
    assert done.stdout.startswith("2 documents, 1 chunks, 1 error, 1 skipped, ")
    # By default the same links are out of the corpus: skipped, not read.
    default = _run(["chunk", _ROOT], tmp_path)
    assert default.returncode == 0, default.stderr
    assert [json.loads(line)["doc_id"] for line in default.stdout.splitlines()] == ["plain"]
    assert default.stderr.count("a link out of corpus, not followed") == 2


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs are POSIX")
def test_an_endless_fifo_named_is_read_only_to_the_cap(tmp_path: Path) -> None:
    """TRUST-31, TRUST-32: a FIFO named on the command line is read as a stream, and an
    endless writer is cut off after --max-bytes + 1 bytes: one error row, the run ends."""
    import threading

    fifo = tmp_path / "endless.md"
    os.mkfifo(fifo)
    stop = threading.Event()

    def write_forever() -> None:
        try:
            with open(fifo, "wb") as handle:  # waits for the reader
                while not stop.is_set():
                    handle.write(b"word " * 1000)
        except (BrokenPipeError, OSError):  # the reader stopped at its cap
            pass

    writer = threading.Thread(target=write_forever, daemon=True)
    writer.start()
    try:
        done = _run(["ingest", "endless.md", "--out", "out", "--max-bytes", "1000"], tmp_path)
    finally:
        stop.set()
        if writer.is_alive():  # the run never opened it: let the writer's open return
            with contextlib.suppress(OSError):
                os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
        writer.join(10)
    assert done.returncode == 0, done.stderr
    assert done.stderr == (
        "chunkspec ingest: endless.md: more than 1000 bytes is over max_bytes (1000)\n"
    )


def test_two_roots_with_one_relative_path_are_refused(tmp_path: Path) -> None:
    """TRUST-34: two input folders each holding ok/plain.md give one doc id twice: refused
    before any work, both named, exit 2, --out not made."""
    for top in ("one", "two"):
        (tmp_path / top / "ok").mkdir(parents=True)
        (tmp_path / top / "ok" / "plain.md").write_text(f"# {top}\n\nwords\n")
    for argv in (["ingest", "one", "two", "--out", "out"], ["chunk", "one", "two"]):
        done = _run(argv, tmp_path)
        assert done.returncode == 2
        assert done.stdout == ""
        assert done.stderr == (
            f"chunkspec {argv[0]}: error: two/ok/plain.md: doc id 'ok/plain' is also the id "
            "of one/ok/plain.md\n"
        )
        assert not (tmp_path / "out").exists()
