"""Properties of incremental ingest and change sets (docs/spec/incremental.md, INCR, CLI-28..30).

The change set is checked against ``model_change_set`` (a literal reading of INCR-6/INCR-7);
the command line against a full run on random edit scripts over a small corpus.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chunkspec import chunk_document, document_from_text
from chunkspec._cli import main
from chunkspec._cli._io import json_line
from chunkspec._corpus._part_files import result_rows
from chunkspec._records._changes import CHUNK_CHANGES, apply_changes, change_rows
from properties.models import model_change_set

VOCABULARY = ["alpha", "beta", "gamma", "delta"]
paragraphs = st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=6).map(" ".join)
pages = st.lists(st.lists(paragraphs, min_size=1, max_size=3), min_size=1, max_size=3).map(
    lambda sections: (
        "# Page\n\n"
        + "".join(
            f"## S{n}\n\n" + "".join(p + "\n\n" for p in section)
            for n, section in enumerate(sections)
        )
    )
)
corpora = st.dictionaries(st.sampled_from(["a", "b", "c", "d", "e"]), pages, max_size=5)


def _rows(corpus: dict[str, str]) -> dict[str, list[dict[str, Any]]]:
    """Each document's output rows (records plus ``error`` null), by doc_id."""
    out = {}
    for doc_id, text in sorted(corpus.items()):
        document = document_from_text(text, doc_id=doc_id, input_format="markdown")
        out[doc_id] = [
            {**r.to_dict(), "error": None}
            for r in chunk_document(document, "structural", max_tokens=4)
        ]
    return out


@settings(max_examples=80)
@given(corpora, corpora)
def test_change_set_is_the_model_and_applies(old: dict[str, str], new: dict[str, str]) -> None:
    """INCR-6, INCR-7, INCR-8: the change set holds the model's states, documents before
    their chunks, and applied to the old chunks gives the new ones."""
    before, after = _rows(old), _rows(new)
    changes = list(change_rows(before, after))
    got = sorted(
        ((c["scope"], c["change"], c["doc_id"], c["key"]) for c in changes),
        key=lambda item: (item[0], item[1], item[2], item[3] or ""),
    )
    assert got == model_change_set(before, after)
    seen: set[str] = set()
    for change in changes:
        if change["scope"] == "document":
            seen.add(change["doc_id"])
        else:
            assert change["doc_id"] in seen
            assert change["change"] in CHUNK_CHANGES
    by_key = {row["key"]: row for rows in after.values() for row in rows}
    assert apply_changes(before, changes, by_key) == by_key


def _ingest(corpus: Path, out: Path, *extra: str) -> int:
    """Run ingest quietly."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return main(["ingest", str(corpus), "--out", str(out), "--workers", "1", *extra])


def _write(folder: Path, corpus: dict[str, str]) -> None:
    """Make ``folder`` hold exactly ``corpus`` (name -> text)."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    for name, text in corpus.items():
        (folder / f"{name}.md").write_text(text, "utf-8")


def _parts(folder: Path) -> dict[str, bytes]:
    """The part files of a result by name."""
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.name.startswith("part-")}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(corpora.filter(bool), min_size=2, max_size=3), st.sampled_from(["jsonl", "parquet"])
)
def test_incremental_runs_equal_full_runs(script: list[dict[str, str]], fmt: str) -> None:
    """INCR-1, INCR-2, INCR-3, INCR-5, INCR-9, CLI-28: after every step of a random edit
    script the incremental result's part files are a full run's, the manifest lists every
    input with its hash and record count, and diff of the two results is the run's change
    set."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        out, corpus = root / "out", root / "in"
        options = ["--format", fmt, "--strategy", "structural", "--max-tokens", "4"]
        previous: Path | None = None
        for step, files in enumerate(script):
            _write(corpus, files)
            assert _ingest(corpus, out, *options) == 0
            full = root / f"full{step}"
            assert _ingest(corpus, full, *options) == 0
            assert _parts(out) == _parts(full)
            manifest = json.loads((out / "_chunkspec.json").read_text("utf-8"))
            rows = result_rows(out, "out")
            assert [(e["doc_id"], e["records"]) for e in manifest["inputs"]] == [
                (name, len(rows[name])) for name in sorted(files)
            ]
            if previous is not None:
                report = root / f"diff{step}.jsonl"
                with contextlib.redirect_stderr(io.StringIO()):
                    assert main(["diff", str(previous), str(out), "-o", str(report)]) == 0
                # TRUST-44: the run's change set, less the reasons only ingest knows
                lines = (out / "_changes" / "changes.jsonl").read_text("utf-8").splitlines()
                assert report.read_text("utf-8") == "".join(
                    json_line({**json.loads(line), "reason": None}) for line in lines
                )
            previous = root / f"copy{step}"
            shutil.copytree(out, previous)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora.filter(bool), corpora.filter(bool), st.integers(1, 6))
def test_a_failing_incremental_run_keeps_the_previous_result(
    first: dict[str, str], second: dict[str, str], fail_at: int
) -> None:
    """INCR-4: an error at any write of an incremental run leaves --out byte for byte as
    it was, and no staging folder behind."""
    from chunkspec._corpus._out_folder import PartWriter

    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        out, corpus = root / "out", root / "in"
        _write(corpus, first)
        assert _ingest(corpus, out) == 0
        before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
        _write(corpus, second)
        original = PartWriter.write
        calls = []

        def failing(self: PartWriter, rows: list[dict[str, Any]]) -> None:
            calls.append(1)
            if len(calls) == fail_at:
                raise OSError(28, "No space left on device")
            original(self, rows)

        PartWriter.write = failing  # type: ignore[method-assign]
        try:
            with contextlib.suppress(OSError):
                _ingest(corpus, out)
        finally:
            PartWriter.write = original  # type: ignore[method-assign]
        after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
        if len(calls) >= fail_at:
            assert after == before
        assert sorted(p.name for p in root.iterdir()) == ["in", "out"]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora.filter(bool), corpora.filter(bool))
def test_the_ray_path_reuses_as_the_local_one(
    first: dict[str, str], second: dict[str, str]
) -> None:
    """INCR-10: with Ray's chunking replaced by a stand-in that writes the given inputs'
    rows in reverse order, an incremental --engine ray run hands Ray exactly the inputs
    the local engine chunks and holds a full local run's rows."""
    import pyarrow.parquet as pq

    from chunkspec._corpus import _ray_engine as _ingest_ray
    from chunkspec._corpus._local_engine import item_of, read_rows
    from chunkspec.arrow import rows_to_table

    given_to_ray: list[list[str]] = []

    def stand_in(
        inputs: list[Any], job: Any, settings: Any, folder: Path, tally: Any, sidecar: Any
    ) -> None:
        given_to_ray.append([item.doc_id for item in inputs])
        written = []
        for item in reversed(inputs):
            rows = read_rows(item_of(item, sidecar), job)
            written.extend(rows)
            tally.add(rows)
        # a name apart from the reused rows' part-NNNNN files, as Ray's are
        pq.write_table(rows_to_table(written), str(folder / "ray-0.parquet"))

    original = _ingest_ray.run_ray
    _ingest_ray.run_ray = stand_in
    try:
        with tempfile.TemporaryDirectory() as scratch:
            root = Path(scratch)
            out, corpus, full = root / "out", root / "in", root / "full"
            _write(corpus, first)
            assert _ingest(corpus, out, "--engine", "ray") == 0
            _write(corpus, second)
            assert _ingest(corpus, out, "--engine", "ray") == 0
            assert _ingest(corpus, full) == 0
            assert result_rows(out, "out") == result_rows(full, "full")
            changed = sorted(
                name for name in second if name not in first or first[name] != second[name]
            )
            assert given_to_ray[-1] == changed or (not changed and len(given_to_ray) == 1)
    finally:
        _ingest_ray.run_ray = original


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["missing", "plain", "suffix"]))
def test_diff_refuses_with_one_line(problem: str) -> None:
    """CLI-29, CLI-30: a bad OLD/NEW or --output is one line and exit 2; a good call's
    stderr is the one summary line."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        (root / "in").mkdir()
        (root / "in" / "a.md").write_text("# A\n\nwords here\n", "utf-8")
        assert _ingest(root / "in", root / "out") == 0
        (root / "plain").mkdir()
        argv = {
            "missing": [str(root / "nope"), str(root / "out")],
            "plain": [str(root / "out"), str(root / "plain")],
            "suffix": [str(root / "out"), str(root / "out"), "-o", str(root / "x.txt")],
        }[problem]
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            assert main(["diff", *argv]) == 2
        assert err.getvalue().count("\n") == 1
        assert err.getvalue().startswith("chunkspec diff: error: ")
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            assert main(["diff", str(root / "out"), str(root / "out")]) == 0
        assert err.getvalue().startswith("chunkspec diff: documents: 0 added, 0 changed")
        assert err.getvalue().count("\n") == 1
