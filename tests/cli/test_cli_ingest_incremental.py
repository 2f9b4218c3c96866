"""Incremental ``chunkspec ingest`` and ``chunkspec diff`` (docs/spec/incremental.md).

Random edit scripts against a full run: the incremental result is byte for byte the full
run's (INCR-3), its change set is ``diff``'s (CLI-28) and applying it to the old result gives
the new one (INCR-8); an interrupted run leaves the previous result as it was (INCR-4).
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from chunkspec._cli import main
from chunkspec._cli._io import json_line
from chunkspec._corpus._part_files import result_rows
from chunkspec._records._changes import apply_changes
from tests.corpus_files import write_corpus
from tests.tamper import tamper

OPTIONS = ["--strategy", "structural", "--max-tokens", "12"]


def _files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` but the manifest (it holds the run's time), by path."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != "_chunkspec.json"
    }


def _parts(folder: Path) -> dict[str, bytes]:
    """The part files of a result, by name."""
    return {k: v for k, v in _files(folder).items() if not k.startswith("_changes/")}


def without_reasons(text: str) -> str:
    """A change set's JSON Lines with every ``reason`` null (what ``diff`` writes)."""
    lines = [json.loads(line) for line in text.splitlines()]
    return "".join(json_line({**line, "reason": None}) for line in lines)


def _ingest(corpus: Path, out: Path, *extra: str) -> None:
    """Run ingest, one worker; it must succeed."""
    assert main(["ingest", str(corpus), "--out", str(out), "--workers", "1", *extra]) == 0


def _edit(corpus: Path, rng: random.Random, step: int) -> None:
    """One random edit script: change, remove and add a few documents."""
    files = sorted(p for p in corpus.rglob("*") if p.is_file() and p.suffix in (".md", ".txt"))
    for path in rng.sample(files, min(2, len(files))):
        text = path.read_text("utf-8")
        cut = rng.randrange(len(text) + 1)
        inserted = rng.choice(["\n\nNew paragraph here.\n\n", " extra", "\n## Added\n\nbody\n"])
        path.write_text(text[:cut] + inserted + text[cut:], "utf-8")
    for path in rng.sample(files, 1):
        path.unlink()
    (corpus / f"added{step}.md").write_text(f"# Added {step}\n\nfresh words {step}\n", "utf-8")


@pytest.mark.parametrize("output_format", ["parquet", "jsonl"])
def test_incremental_equals_full_run(tmp_path: Path, output_format: str) -> None:
    """INCR-3, INCR-6, INCR-8: after each random edit script, the incremental result's files
    are a full run's, its change set is diff's, and applying it gives the new result."""
    rng = random.Random(7)
    corpus = tmp_path / "in"
    write_corpus(corpus, 16)
    out = tmp_path / "out"
    fmt = ["--format", output_format]
    _ingest(corpus, out, *fmt, *OPTIONS)
    for step in range(3):
        old = result_rows(out, "old")
        (tmp_path / "before").mkdir(exist_ok=True)
        before = tmp_path / "before" / str(step)
        before.mkdir()
        for name, data in _files(out).items():
            (before / name).parent.mkdir(parents=True, exist_ok=True)
            (before / name).write_bytes(data)
        (before / "_chunkspec.json").write_bytes((out / "_chunkspec.json").read_bytes())
        _edit(corpus, rng, step)
        _ingest(corpus, out, *fmt, *OPTIONS)
        manifest = json.loads((out / "_chunkspec.json").read_text("utf-8"))
        assert manifest["reused"] > 0
        full = tmp_path / f"full{step}"
        _ingest(corpus, full, *fmt, *OPTIONS)
        assert _parts(out) == _parts(full)
        new = result_rows(out, "new")
        text = (out / "_changes" / "changes.jsonl").read_text("utf-8")
        changes = [json.loads(line) for line in text.splitlines()]
        by_key = {row["key"]: row for rows in new.values() for row in rows if row["key"]}
        assert apply_changes(old, changes, by_key) == by_key
        assert main(["diff", str(before), str(out), "-o", str(tmp_path / "d.jsonl")]) == 0
        # TRUST-44: diff's change set is the run's, less the reasons only ingest knows
        assert (tmp_path / "d.jsonl").read_text("utf-8") == without_reasons(text)


def test_same_corpus_again_reuses_everything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """INCR-2, INCR-5: a second run on the same files reuses every readable one, says so in
    the summary, and writes the same part files; every document is unchanged."""
    write_corpus(tmp_path / "in", 8)
    out = tmp_path / "out"
    _ingest(tmp_path / "in", out, *OPTIONS)
    first = _files(out)
    capsys.readouterr()
    _ingest(tmp_path / "in", out, *OPTIONS)
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1  # the corrupt PDF's line, nothing about a full run
    assert ", 8 reused, " in captured.out
    assert _parts(out) == {k: v for k, v in first.items() if not k.startswith("_changes/")}
    manifest = json.loads((out / "_chunkspec.json").read_text("utf-8"))
    assert manifest["changes"]["documents"]["unchanged"] == 8
    assert [entry["doc_id"] for entry in manifest["inputs"]][:2] == [
        "part0/doc0000",
        "part0/doc0003",
    ]
    assert all(len(entry["content_hash"]) == 64 for entry in manifest["inputs"])


def test_other_options_are_a_full_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """INCR-2: a changed fingerprint is a full run, said in one line on stderr."""
    write_corpus(tmp_path / "in", 4, corrupt_pdf=False)
    out = tmp_path / "out"
    _ingest(tmp_path / "in", out, *OPTIONS)
    capsys.readouterr()
    _ingest(tmp_path / "in", out, "--strategy", "structural", "--max-tokens", "13")
    captured = capsys.readouterr()
    assert captured.err == (
        "chunkspec ingest: full run: the options differ from the previous result's "
        "(fingerprint changed)\n"
    )
    assert " reused, " not in captured.out


def test_interrupted_incremental_run_keeps_the_previous_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """INCR-4: an error half way through an incremental run leaves --out as it was."""
    corpus = tmp_path / "in"
    write_corpus(corpus, 12)
    out = tmp_path / "out"
    _ingest(corpus, out, *OPTIONS)
    before = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    _edit(corpus, random.Random(1), 0)
    calls = []

    def failing(self: Any, rows: list[dict[str, Any]]) -> None:
        calls.append(1)
        if len(calls) == 5:
            raise OSError(28, "No space left on device")
        original(self, rows)

    from chunkspec._corpus._out_folder import PartWriter

    original = PartWriter.write
    monkeypatch.setattr(PartWriter, "write", failing)
    # TRUST-26: a failed write is one line and exit 2 (it was an OSError traceback)
    assert main(["ingest", str(corpus), "--out", str(out), "--workers", "1", *OPTIONS]) == 2
    after = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in", "out"]


def test_diff_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CLI-30: a missing folder, a folder that is not a result, a bad --output: exit 2."""
    (tmp_path / "plain").mkdir()
    write_corpus(tmp_path / "in", 2, corrupt_pdf=False)
    _ingest(tmp_path / "in", tmp_path / "out", *OPTIONS)
    capsys.readouterr()
    result = str(tmp_path / "out")
    for argv, message in (
        ([str(tmp_path / "nope"), result], "OLD"),
        ([result, str(tmp_path / "plain")], "NEW"),
        ([result, result, "-o", str(tmp_path / "x.csv")], "--output"),
    ):
        assert main(["diff", *argv]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"chunkspec diff: error: {message}")
        assert err.count("\n") == 1
    assert main(["diff", result, result]) == 0
    captured = capsys.readouterr()
    chunks = sum(1 for line in captured.out.splitlines() if '"scope": "chunk"' in line)
    assert chunks > 2
    assert captured.err == (
        "chunkspec diff: documents: 0 added, 0 changed, 0 removed, 2 unchanged; "
        f"chunks: 0 added, 0 removed, 0 updated, {chunks} unchanged\n"
    )


def test_a_changed_metadata_entry_rechunks_its_document(tmp_path: Path) -> None:
    """INCR-1: an input's --metadata entry is part of its content hash, so changing only the
    entry re-chunks that document (its rows carry the new metadata) and reuses the rest."""
    corpus = tmp_path / "in"
    write_corpus(corpus, 4, corrupt_pdf=False)
    out, sidecar = tmp_path / "out", tmp_path / "meta.jsonl"
    for version in ("v1", "v2"):
        line = {"doc_id": "part1/doc0001", "metadata": {"version": version}}
        sidecar.write_text(json.dumps(line) + "\n", "utf-8")
        _ingest(corpus, out, "--metadata", str(sidecar), "--format", "jsonl", *OPTIONS)
    manifest = json.loads((out / "_chunkspec.json").read_text("utf-8"))
    assert manifest["reused"] == 3
    rows = result_rows(out, "out")["part1/doc0001"]
    assert {row["metadata"]["version"] for row in rows} == {"v2"}
    assert manifest["changes"]["documents"]["changed"] == 1


def _changes(out: Path) -> list[dict[str, Any]]:
    """The run's change set."""
    text = (out / "_changes" / "changes.jsonl").read_text("utf-8")
    return [json.loads(line) for line in text.splitlines()]


def test_rows_changed_during_the_run_stop_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """TRUST-41: a reused document's rows are read again when written; another writer that
    edits them after the checks stops the run with one line and exit 2, --out as it was."""
    from chunkspec._corpus._part_files import ReadBack

    write_corpus(tmp_path / "in", 4, corrupt_pdf=False)
    out = tmp_path / "out"
    _ingest(tmp_path / "in", out, "--format", "jsonl", *OPTIONS)
    original = ReadBack.rows

    def edited_first(self: ReadBack, path: Path, offset: int, count: int) -> list[dict[str, Any]]:
        assert tamper(out, "set_text")  # another writer, between the checks and the copy
        monkeypatch.setattr(ReadBack, "rows", original)
        return original(self, path, offset, count)

    monkeypatch.setattr(ReadBack, "rows", edited_first)
    expected = tmp_path / "expected"  # the first result with the other writer's edit
    shutil.copytree(out, expected)
    assert tamper(expected, "set_text")
    capsys.readouterr()
    argv = ["ingest", str(tmp_path / "in"), "--out", str(out), "--workers", "1"]
    status = main([*argv, "--format", "jsonl", *OPTIONS])
    captured = capsys.readouterr()
    assert status == 2
    assert captured.err.count("\n") == 1
    assert "changed while this run read it" in captured.err
    assert _files(out) == _files(expected)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["expected", "in", "out"]


def test_an_older_manifest_is_not_provable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """TRUST-41, TRUST-44: a manifest without the rows' digests (an older chunkspec) proves
    nothing: one line, every document chunked again as `not-provable`, a full run's rows."""
    write_corpus(tmp_path / "in", 4, corrupt_pdf=False)
    out, full = tmp_path / "out", tmp_path / "full"
    _ingest(tmp_path / "in", out, *OPTIONS)
    manifest = json.loads((out / "_chunkspec.json").read_text("utf-8"))
    for entry in manifest["inputs"]:
        for name in ("rows", "rows_hash", "metadata_hash"):
            del entry[name]
    (out / "_chunkspec.json").write_text(json.dumps(manifest), "utf-8")
    capsys.readouterr()
    _ingest(tmp_path / "in", out, *OPTIONS)
    captured = capsys.readouterr()
    assert captured.err == (
        "chunkspec ingest: full run: the previous manifest records no row digests (an older "
        "chunkspec), so no row is provably the same\n"
    )
    assert ", 0 reused" not in captured.out
    assert " reused" not in captured.out
    documents = [c for c in _changes(out) if c["scope"] == "document"]
    assert {c["reason"] for c in documents} == {"not-provable"}
    _ingest(tmp_path / "in", full, *OPTIONS)
    assert _parts(out) == _parts(full)


def test_diff_of_a_damaged_result_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """TRUST-46, CLI-30: diff of a result whose part file has a row without doc_id is one
    line naming the file and the row, exit 2 (it was a KeyError traceback)."""
    write_corpus(tmp_path / "in", 3, corrupt_pdf=False)
    out = tmp_path / "out"
    _ingest(tmp_path / "in", out, "--format", "jsonl", *OPTIONS)
    assert tamper(out, "drop_doc_id")
    capsys.readouterr()
    assert main(["diff", str(out), str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("chunkspec diff: error: OLD ")
    assert err.endswith("part-00000.jsonl:1: no doc_id\n")


def _peak_of_a_second_run(root: Path, documents: int) -> tuple[float, float]:
    """(corpus MiB, traced peak MiB of an incremental run that reuses every document)."""
    import tracemalloc

    rng = random.Random(3)
    words = [
        "the",
        "of",
        "and",
        "café",
        "naïve",
        "Straße",
        "über",
        "привет",
        "мир",
        "данные",
        "Ελλάδα",
        "λόγος",
        "señor",
    ]
    corpus, out = root / f"in{documents}", root / f"out{documents}"
    corpus.mkdir()
    for n in range(documents):
        body = "".join(
            f"\n## S{s}\n\n" + " ".join(rng.choice(words) for _ in range(150)) + "\n"
            for s in range(6)
        )
        (corpus / f"d{n:04d}.md").write_text(f"# Doc {n}\n{body}", "utf-8")
    extra = ["--max-tokens", "200", "--format", "jsonl", "--counter", "whitespace"]
    _ingest(corpus, out, *extra)
    tracemalloc.start()
    try:
        _ingest(corpus, out, *extra)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    size = sum(path.stat().st_size for path in corpus.iterdir())
    return size / 2**20, peak / 2**20


def test_the_change_set_is_streamed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """TRUST-45: an incremental run holds no rows of the corpus: doubling the corpus grows
    the run's peak memory by less than twice the added bytes (holding the previous and the
    new rows, as it did, grew it by about 4.5 times the added bytes)."""
    small = _peak_of_a_second_run(tmp_path, 60)
    large = _peak_of_a_second_run(tmp_path, 120)
    capsys.readouterr()
    assert large[1] - small[1] < 2 * (large[0] - small[0]), (small, large)


def test_rows_an_engine_wrote_unordered_are_summarised_in_index_order() -> None:
    """TRUST-45, INCR-9: the new side of an engine that writes a document's rows in another
    order (Ray may) is summarised in index order, so its digest is the ordered rows'."""
    from chunkspec._corpus._incremental import summarise
    from chunkspec._corpus._reuse_checks import Summaries

    rows = [
        {"doc_id": "d", "index": n, "id": f"d:{n}", "key": f"{n:064d}", "error": None}
        for n in range(3)
    ]
    written = Summaries(check=False)
    for ordinal, row in enumerate([rows[2], rows[0], rows[1]]):
        written.add(row, 0, ordinal)
    written.close()
    assert written.documents["d"].entries == summarise(rows).entries
    assert written.documents["d"].digest == summarise(rows).digest
