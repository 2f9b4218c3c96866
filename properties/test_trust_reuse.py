"""Reuse only what is provably the same (docs/spec/trust.md, TRUST-40..TRUST-46).

Random incremental scripts whose output folder is edited between runs (tests/tamper.py:
labels stripped, rows removed, text changed under a stale content_hash, keys replaced,
part files deleted, rows without doc_id) and whose runs are killed at random (SIGKILL of a
real ``python -m chunkspec ingest``): the next run's part files are byte for byte a full
run's, its change set is the rows' own and says why each document was chunked again.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.tamper import EDITS, tamper

from chunkspec import ChunkJob, ChunkOptions
from chunkspec._cli import main
from chunkspec._corpus._incremental import fingerprint_data, run_fingerprint
from chunkspec._corpus._part_files import iter_part, part_files, result_rows
from chunkspec._records._changes import change_rows

NAMES = ["a", "b", "c", "d"]
VOCABULARY = ["alpha", "beta", "gamma", "délta", "ñu"]
paragraphs = st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=5).map(" ".join)
pages = st.lists(paragraphs, min_size=1, max_size=4).map(
    lambda body: "# Page\n\n" + "".join(f"## S{n}\n\n{p}\n\n" for n, p in enumerate(body))
)
corpora = st.dictionaries(st.sampled_from(NAMES), pages, min_size=1, max_size=4)
labels = st.sampled_from([None, ["hr"], ["hr", "legal"]])
edits = st.lists(
    st.tuples(st.sampled_from(EDITS), st.sampled_from(NAMES), st.integers(0, 2)), max_size=3
)
steps = st.tuples(
    st.dictionaries(st.sampled_from(NAMES), st.one_of(st.none(), pages), max_size=1),  # edits
    edits,  # of the output folder
    st.one_of(st.none(), st.none(), st.floats(0.0, 1.2)),  # SIGKILL the run this long after
    st.booleans(),  # first try the run without its --metadata (TRUST-43)
)
OPTIONS = ["--strategy", "structural", "--max-tokens", "4", "--workers", "1"]


def _write(folder: Path, corpus: dict[str, str]) -> None:
    """Make ``folder`` hold exactly ``corpus`` (name -> text)."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    for name, text in corpus.items():
        (folder / f"{name}.md").write_text(text, "utf-8")


def _sidecar(path: Path, corpus: dict[str, str], given: dict[str, Any]) -> list[str]:
    """Write the --metadata entries of the corpus's labelled documents; return the flag."""
    lines = [
        json.dumps({"doc_id": name, "metadata": {"acl_labels": given[name]}}) + "\n"
        for name in sorted(corpus)
        if given[name] is not None
    ]
    path.write_text("".join(lines) or "\n", "utf-8")
    return ["--metadata", str(path)]


def _parts(folder: Path) -> dict[str, bytes]:
    """The part files of a result, by name."""
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.name.startswith("part-")}


def _files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder``, by relative path."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def _readable(folder: Path) -> dict[str, list[dict[str, Any]]]:
    """The rows of a result that can be read, by doc_id, damaged rows left out (TRUST-46)."""
    found: dict[str, list[dict[str, Any]]] = {}
    for path in part_files(folder):
        for _, _, row in iter_part(path, []):
            found.setdefault(row["doc_id"], []).append(row)
    return found


def _ingest(corpus: Path, out: Path, *extra: str) -> tuple[int, str]:
    """Run ingest in this process; its status and stderr."""
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        status = main(["ingest", str(corpus), "--out", str(out), *OPTIONS, *extra])
    return status, err.getvalue()


def _killed(corpus: Path, out: Path, delay: float, *extra: str) -> None:
    """Start a real ingest and SIGKILL it ``delay`` seconds later (if it still runs)."""
    argv = [sys.executable, "-m", "chunkspec", "ingest", str(corpus), "--out", str(out)]
    with subprocess.Popen(
        [*argv, *OPTIONS, *extra],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    ) as process:
        time.sleep(delay)
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGKILL)
        process.wait()


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    corpora,
    st.fixed_dictionaries(dict.fromkeys(NAMES, labels)),
    st.lists(steps, min_size=1, max_size=3),
    st.sampled_from(["jsonl", "parquet"]),
)
def test_edited_or_killed_results_are_never_reused_unproved(
    files: dict[str, str], given: dict[str, Any], script: list[tuple[Any, ...]], fmt: str
) -> None:
    """TRUST-40, TRUST-41, TRUST-43, TRUST-44, TRUST-45, TRUST-46: after any edits of the
    output folder and a run killed at any moment, the next incremental run's part files are
    byte for byte a full run's; its change set is the one the rows give (less reasons) and
    names a reason for every document it did not reuse; a run that forgets the sidecar is
    refused and leaves --out as it was."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        out, corpus = root / "out", root / "in"
        fmt_flags = ["--format", fmt]
        _write(corpus, files)
        _ingest(corpus, out, *fmt_flags, *_sidecar(root / "side.jsonl", files, given))
        for step, (corpus_edits, script_edits, kill, forget) in enumerate(script):
            for name, page in corpus_edits.items():  # most documents stay as they were
                if page is not None:
                    files[name] = page
                elif len(files) > 1:
                    files.pop(name, None)
            _write(corpus, files)
            sidecar = _sidecar(root / f"side{step}.jsonl", files, given)
            if out.exists():
                for edit, doc_id, index in script_edits:
                    tamper(out, edit, doc_id, index)
                if forget:  # TRUST-43
                    before = _files(out)
                    status, err = _ingest(corpus, out, *fmt_flags)
                    assert status == 2
                    assert err.count("\n") == 1
                    assert "--no-metadata" in err
                    assert _files(out) == before
            if kill is not None:
                _killed(corpus, out, kill, *fmt_flags, *sidecar)
            old = _readable(out) if (out / "_chunkspec.json").is_file() else {}
            status, err = _ingest(corpus, out, *fmt_flags, *sidecar)
            assert status == 0, err
            full = root / f"full{step}"
            assert _ingest(corpus, full, *fmt_flags, *sidecar)[0] == 0
            assert _parts(out) == _parts(full)  # TRUST-40
            changes = [
                json.loads(line)
                for line in (out / "_changes" / "changes.jsonl").read_text("utf-8").splitlines()
            ]
            # TRUST-45: the streamed change set is the rows' own
            assert [{**c, "reason": None} for c in changes] == list(
                change_rows(old, result_rows(out, "new"))
            )
            manifest = json.loads((out / "_chunkspec.json").read_text("utf-8"))
            documents = [c for c in changes if c["scope"] == "document"]
            given_back = [c for c in documents if c["change"] != "removed"]
            # TRUST-44: a reason for every document chunked again, none for a reused one
            assert sum(c["reason"] is None for c in given_back) == manifest["reused"]
            assert all(c["reason"] is None for c in changes if c["scope"] == "chunk")


@settings(max_examples=15, deadline=None)
@given(
    st.lists(st.sampled_from(["x", "y", "z", "ü"]), min_size=1, max_size=3, unique=True),
    st.lists(st.sampled_from(["x", "y", "z", "ü"]), min_size=1, max_size=3, unique=True),
)
def test_the_fingerprint_reads_the_tokenizer_file(first: list[str], second: list[str]) -> None:
    """TRUST-42: the fingerprint holds the parser's and PDF library's versions and changes
    exactly when the tokenizer file named by the counter changes its bytes, same name."""
    from importlib.metadata import version

    def tokenizer(words: list[str]) -> str:
        vocab = {"[UNK]": 0, **{word: n + 1 for n, word in enumerate(words)}}
        return json.dumps(
            {
                "version": "1.0",
                "truncation": None,
                "padding": None,
                "added_tokens": [],
                "normalizer": None,
                "pre_tokenizer": {"type": "Whitespace"},
                "post_processor": None,
                "decoder": None,
                "model": {"type": "WordLevel", "vocab": vocab, "unk_token": "[UNK]"},
            }
        )

    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "tokenizer.json"
        path.write_text(tokenizer(first), "utf-8")
        job = ChunkJob(ChunkOptions(counter=f"huggingface:{path}"))
        data = fingerprint_data(job, "parquet")
        assert data["libraries"]["markdown-it-py"] == version("markdown-it-py")
        assert data["libraries"]["mdit-py-plugins"] == version("mdit-py-plugins")
        assert "pypdf" in data["libraries"]
        before = run_fingerprint(job, "parquet")
        path.write_text(tokenizer(second), "utf-8")
        after = run_fingerprint(job, "parquet")
        assert (before == after) == (first == second)
