"""Properties of the chunking commands over corpora (rules CLI-7 to CLI-13, RECORD-9).

A generated folder of Markdown, text and JSON documents (some nested, some hidden, some
with other suffixes, sometimes a bad one) is chunked by the command line and compared with a
literal model: walk the folder in code-point order of relative paths, skip what CLI-7 skips,
derive doc ids as CLI-8 says, and chunk each document with the library.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from chunkspec import ChunkRecord, chunk_document, document_from_bytes
from chunkspec._cli import main
from chunkspec.records import RECORD_FIELDS
from properties.strategies import markdown_documents

#: Each example writes a small folder and runs the command in process: fewer examples than
#: the CI profile's 1,000 keep the file-system work within the gate's budget.
_FILES = settings(max_examples=100, deadline=None)

_SUFFIXES = (".md", ".txt", ".json", ".markdown", ".csv")
_segment = st.text(st.sampled_from("abcé_-"), min_size=1, max_size=4)


@st.composite
def corpora(draw: st.DrawFn) -> dict[str, bytes]:
    """A folder: relative path -> bytes; names unique, some nested or hidden."""
    files: dict[str, bytes] = {}
    for _ in range(draw(st.integers(1, 5))):
        parts = draw(st.lists(_segment, min_size=1, max_size=3))
        if draw(st.integers(0, 9)) == 0:
            parts[-1] = "." + parts[-1]  # hidden: skipped (CLI-7)
        suffix = draw(st.sampled_from(_SUFFIXES))
        if suffix == ".json":
            blocks = draw(st.lists(st.fixed_dictionaries({"text": _segment}), max_size=3))
            data = json.dumps(blocks).encode()
        else:
            data = draw(markdown_documents()).encode("utf-8")
        files["/".join(parts) + suffix] = data
    return files


def _walked(files: dict[str, bytes]) -> list[str]:
    """CLI-7 literally: the documents of a folder, in code-point order of relative paths."""
    return sorted(
        path
        for path in files
        if not any(part.startswith(".") for part in path.split("/"))
        and Path(path).suffix.lower() in (".md", ".markdown", ".txt", ".json")
    )


def _model(
    files: dict[str, bytes], strategy: str, max_tokens: int, command: str = "chunk"
) -> tuple[list[ChunkRecord], str] | None:
    """CLI-7, CLI-8 literally: the records the command must print and its standard error
    (a line for each document with no record, SOURCE-7), or None for an error."""
    taken = _walked(files)
    if not taken:
        return None  # no document at all (SOURCE-7)
    base = [path[: -len(Path(path).suffix)] for path in taken]
    ids = [  # CLI-8: ids that would be shared keep the suffix that tells them apart
        path if base.count(stem) > 1 else stem for path, stem in zip(taken, base, strict=True)
    ]
    if len(set(ids)) != len(ids):
        return None  # two inputs with one doc id
    records: list[ChunkRecord] = []
    notes = ""
    for path, doc_id in zip(taken, ids, strict=True):
        # A path that is both a file and a folder's prefix cannot be written: skipped above.
        document = document_from_bytes(
            files[path], doc_id=doc_id, source=f"corpus/{path}", name=f"corpus/{path}"
        )
        found = chunk_document(document, strategy, max_tokens=max_tokens)
        if not found:
            notes += f"chunkspec {command}: corpus/{path}: no text to chunk\n"
        records += found
    return records, notes


@contextlib.contextmanager
def _folder(files: dict[str, bytes]) -> Iterator[str | None]:
    """Write ``files`` under ``corpus/`` in a temporary working directory; None if a path is
    both a file and a folder (not a corpus a file system can hold)."""
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        try:
            try:
                for path, data in files.items():
                    target = Path("corpus", path)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(data)
            except (FileExistsError, NotADirectoryError, IsADirectoryError):
                yield None
                return
            yield tmp
        finally:
            os.chdir(here)


def _run(argv: list[str]) -> tuple[int, str, str]:
    """Run ``main(argv)`` in process; return (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


@_FILES
@given(
    corpora(),
    st.sampled_from(["heading", "structural", "recursive", "window", "pages"]),
    st.integers(2, 12),
)
def test_folder_is_the_model(files: dict[str, bytes], strategy: str, max_tokens: int) -> None:
    """CLI-7, CLI-8, CLI-2, CLI-11: ``chunk corpus/`` prints the model's records, keys in
    RECORD_FIELDS order; ``--output x.jsonl`` holds the same lines and prints nothing; a
    call with no document or duplicate ids is one error line with nothing written."""
    with _folder(files) as where:
        if where is None:
            return
        argv = ["chunk", "corpus", "--strategy", strategy, "--max-tokens", str(max_tokens)]
        status, out, err = _run(argv)
        modelled = _model(files, strategy, max_tokens)
        if modelled is None:
            assert (status, out, err.count("\n")) == (2, "", 1)
            assert not Path("x.jsonl").exists()
            return
        expected, notes = modelled
        assert (status, err) == (0, notes)
        lines = [json.loads(line) for line in out.splitlines()]
        assert lines == [r.to_dict() for r in expected]
        assert all(list(line) == list(RECORD_FIELDS) for line in lines)
        status, quiet, _ = _run([*argv, "--output", "x.jsonl"])
        assert (status, quiet) == (0, "")
        assert Path("x.jsonl").read_text("utf-8") == out
        assert [p.name for p in Path().iterdir() if p.name.startswith(".chunkspec-")] == []


@_FILES
@given(corpora(), st.integers(0, 4), st.booleans())
def test_a_bad_document_stops_or_is_skipped(
    files: dict[str, bytes], bad_at: int, keep_going: bool
) -> None:
    """CLI-10: a document that cannot be read stops the run with one line naming it and
    nothing written; with --keep-going the good documents are written as without it, the
    bad one listed, exit 2 all the same."""
    if _model(files, "recursive", 5) is None:
        return  # no document, or duplicate ids: test_folder_is_the_model's case
    taken = _walked(files)
    chosen = taken[bad_at % len(taken)]
    bad = f"corpus/{chosen}"
    # CLI-8: the bad file still takes part in naming the others (its name may make theirs
    # keep a suffix), so the model sees every file and the bad one's records and note go.
    every, every_note = _model(files, "recursive", 5, "split") or ([], "")
    good = [record for record in every if record.source != bad]
    notes = "".join(line for line in every_note.splitlines(keepends=True) if f" {bad}:" not in line)
    # REPO-11: a .json file must still open a list to be taken as JSON blocks
    json_file = chosen.lower().endswith(".json")
    files = {**files, chosen: b"[\xff not UTF-8" if json_file else b"\xff not UTF-8"}
    byte = 1 if json_file else 0
    with _folder(files) as where:
        if where is None:
            return
        argv = ["split", "corpus", "--max-tokens", "5", "--output", "x.jsonl"]
        status, out, err = _run([*argv, "--keep-going"] if keep_going else argv)
        assert status == 2
        assert out == ""
        why = f"not valid UTF-8 (byte {byte}); name its encoding with --input-encoding NAME"
        why += " (e.g. latin-1)"  # SOURCE-9: the command line's words
        if not keep_going:
            assert err == f"chunkspec split: error: {bad}: {why}\n"
            assert not Path("x.jsonl").exists()
            return
        assert f"chunkspec split: skipped: {bad}: {why}\n" in err
        assert err.startswith(notes)  # SOURCE-7: each document with no record named
        lines = Path("x.jsonl").read_text("utf-8").splitlines()
        assert [ChunkRecord.from_dict(json.loads(line)) for line in lines] == good


@_FILES
@given(markdown_documents(), st.integers(1, 4))
def test_interrupt_leaves_no_file(source: str, documents: int) -> None:
    """CLI-13, CLI-11: Ctrl-C at any document exits 130 with one line; the output file
    keeps what it held before and no temporary file remains."""
    files = {f"d{n}.md": source.encode() for n in range(documents)}
    with _folder(files) as where:
        assert where is not None
        Path("x.jsonl").write_text("before\n", "utf-8")
        from chunkspec._cli import _chunking

        real = _chunking.chunk_document  # type: ignore[attr-defined]
        calls = [0]

        def chunk(document: Any, options: Any) -> list[ChunkRecord]:
            calls[0] += 1
            if calls[0] == documents:
                raise KeyboardInterrupt
            return real(document, options)

        with mock.patch.object(_chunking, "chunk_document", chunk):
            status, out, err = _run(["split", "corpus", "--max-tokens", "3", "-o", "x.jsonl"])
        assert (status, out, err) == (130, "", "chunkspec split: interrupted\n")
        assert Path("x.jsonl").read_text("utf-8") == "before\n"
        assert [p.name for p in Path().iterdir() if p.name.startswith(".chunkspec-")] == []


@_FILES
@given(markdown_documents(), st.sampled_from(["-", "doc.md"]), st.integers(1, 40))
def test_options_are_checked_first_and_named(source: str, path: str, size: int) -> None:
    """CLI-9, CLI-12: stdin is read as Markdown (the same records as a .md file but for the
    ids and source); window's --max-tokens and --overlap-tokens are named as typed in their
    errors before any input is read (a missing file is not reported when an option is
    bad)."""
    with _folder({"doc.md": source.encode()}) as where:
        assert where is not None
        os.rename("corpus/doc.md", "doc.md")
        sizes = ["--max-tokens", str(size), "--overlap-tokens"]
        status, out, err = _run(["window", "missing.md", *sizes, "-1"])
        assert (status, out) == (2, "")
        assert err == "chunkspec window: error: --overlap-tokens must be >= 0, got -1\n"
        status, out, err = _run(["window", "missing.md", *sizes, "40"])
        assert (status, out) == (2, "")
        if size <= 40:
            assert err == (
                f"chunkspec window: error: --overlap-tokens must be < --max-tokens ({size}), "
                "got 40\n"
            )
        else:
            assert err == "chunkspec window: error: missing.md: no such file\n"
        if path == "-":
            stdin = io.TextIOWrapper(io.BytesIO(source.encode()), encoding="utf-8")
            old, sys.stdin = sys.stdin, stdin
            try:
                status, out, _ = _run(["chunk", "-", "--strategy", "structural"])
            finally:
                sys.stdin = old
            assert status == 0
            from_file = _run(["chunk", "doc.md", "--strategy", "structural", "--doc-id", "stdin"])
            assert [{**json.loads(line), "source": ""} for line in from_file[1].splitlines()] == [
                json.loads(line) for line in out.splitlines()
            ]


@given(st.lists(st.tuples(st.sampled_from(["whitespace", "chars1"]), st.floats(0, 1)), max_size=4))
@_FILES
def test_pack_reads_records_and_one_counter(scored: list[tuple[str, float]]) -> None:
    """RECORD-9: pack reads any command's records with a score; records of two counters are
    a one-line error naming the line; one counter packs as assemble does."""
    with _folder({"a.md": b"# T\n\none two three\n\nfour five six\n"}) as where:
        assert where is not None
        lines: list[str] = []
        for n, (counter, score) in enumerate(scored):
            size = "2" if counter == "chars1" else "1"
            flag = ["--counter", counter]  # OPT-9: window counts whitespace words by default
            _, out, _ = _run(["window", "corpus/a.md", "--max-tokens", size, *flag])
            record = json.loads(out.splitlines()[n % len(out.splitlines())])
            lines.append(json.dumps({**record, "score": score}))
        Path("in.jsonl").write_text("".join(line + "\n" for line in lines), "utf-8")
        status, out, err = _run(["pack", "in.jsonl", "--budget", "50", "--min-score", "0"])
        counters = [c for c, _ in scored]
        if len(set(counters)) > 1:
            second = next(i for i, c in enumerate(counters) if c != counters[0])
            assert (status, out) == (2, "")
            assert err.startswith(f"chunkspec pack: error: in.jsonl:{second + 1}: counter ")
        elif not scored:
            assert status == 1
        else:
            assert status == 0
            assert out.startswith("[a:")
