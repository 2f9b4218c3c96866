"""``chunkspec.ingest``: the corpus engine from Python is the command, byte for byte.

An incremental run from Python reuses every unchanged file and its change set names exactly
the edited one (INCR-1..INCR-6); the output folder it writes is the one ``chunkspec ingest``
writes with the same options; an impossible run is one line (CLI-1) and leaves ``out`` alone.
The README's "Ingest a corpus from Python" example runs as written (tests/docs runs it too).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import chunkspec
from chunkspec import ArgumentValueError, ChunkJob, ChunkOptions, ChunkspecError, IngestResult
from chunkspec._cli import main

ROOT = Path(__file__).resolve().parents[2]

FILES = {
    "a.md": "# Alpha\n\nThe first file, with a paragraph of words.\n",
    "b.md": "# Beta\n\nThe second file.\n\n## More\n\nAnd a second section.\n",
    "notes/c.txt": "A plain text file, chunked as one paragraph.\n",
    "empty.md": "   \n",
}


def _corpus(root: Path) -> Path:
    """Write the corpus under ``root``; return its folder."""
    corpus = root / "corpus"
    for name, text in FILES.items():
        path = corpus / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return corpus


def _tree(folder: Path) -> dict[str, bytes]:
    """Every file of ``folder`` by relative path, with its bytes."""
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def test_an_incremental_run_says_exactly_the_edited_file_changed(tmp_path: Path) -> None:
    """INCR-3, INCR-5, INCR-6: the second run reuses every file but the edited one, and its
    change set lists that one document (and its chunks) as changed, nothing else."""
    corpus = _corpus(tmp_path)
    out = tmp_path / "out"
    job = ChunkJob(ChunkOptions(max_tokens=64))
    first = chunkspec.ingest([corpus], out, job, output_format="jsonl", workers=1)
    assert isinstance(first, IngestResult)
    assert (first.documents, first.errors, first.reused) == (4, 1, 0)
    assert first.chunks > 0
    assert first.manifest["documents"] == 4
    assert sorted(first.changed) == ["a", "b", "empty", "notes/c"]

    with (corpus / "b.md").open("a", encoding="utf-8") as edited:
        edited.write("\nOne more line.\n")
    second = chunkspec.ingest([corpus], out, job, output_format="jsonl", workers=1)
    assert (second.documents, second.reused) == (4, 3)
    assert second.changed == ["b"]
    documents = [change for change in second.changes if change["scope"] == "document"]
    assert {change["doc_id"]: change["change"] for change in documents} == {
        "a": "unchanged",
        "b": "changed",
        "empty": "unchanged",
        "notes/c": "unchanged",
    }
    assert {c["doc_id"] for c in second.changes if c["change"] != "unchanged"} == {"b"}
    assert second.manifest["reused"] == 3
    lines = (out / "_changes" / "changes.jsonl").read_text("utf-8").splitlines()
    assert len(lines) == len(second.changes)


@pytest.mark.parametrize("output_format", ["jsonl", "parquet"])
def test_the_api_writes_what_the_command_writes(tmp_path: Path, output_format: str) -> None:
    """The output folder of ``chunkspec.ingest`` is ``chunkspec ingest``'s, byte for byte,
    on a first run and on an incremental re-run after an edit."""
    if output_format == "parquet":
        pytest.importorskip("pyarrow")
    corpus = _corpus(tmp_path)
    api, command = tmp_path / "api", tmp_path / "command"
    job = ChunkJob(ChunkOptions(strategy="structural", max_tokens=64), max_bytes=1 << 20)
    argv = ["--strategy", "structural", "--max-tokens", "64", "--max-bytes", str(1 << 20)]
    argv = ["ingest", str(corpus), "--out", str(command), "--format", output_format, *argv]

    def both() -> None:
        chunkspec.ingest([corpus], api, job, output_format=output_format, workers=1)
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            status = main([*argv, "--workers", "1"])
        assert status == 0
        assert _tree(api) == _tree(command)

    both()
    (corpus / "a.md").write_text("# Alpha\n\nEdited.\n", encoding="utf-8")
    (corpus / "notes" / "c.txt").unlink()
    both()


def test_the_default_job_is_the_commands(tmp_path: Path) -> None:
    """Without a job, the run uses the command's defaults: the same manifest."""
    corpus = _corpus(tmp_path)
    chunkspec.ingest(corpus, tmp_path / "api", output_format="jsonl", workers=1)
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        argv = ["ingest", str(corpus), "--out", str(tmp_path / "cli"), "--format", "jsonl"]
        assert main([*argv, "--workers", "1"]) == 0
    assert _tree(tmp_path / "api") == _tree(tmp_path / "cli")


def test_not_incremental_chunks_everything_into_the_same_output(tmp_path: Path) -> None:
    """``incremental=False`` reuses nothing and writes the same part files (INCR-3); its
    change set still compares with the previous result: nothing changed."""
    corpus = _corpus(tmp_path)
    out = tmp_path / "out"
    chunkspec.ingest([corpus], out, output_format="jsonl", workers=1)
    before = _tree(out)
    again = chunkspec.ingest([corpus], out, output_format="jsonl", workers=1, incremental=False)
    assert again.reused == 0
    assert again.changed == []
    after = _tree(out)
    parts = [name for name in before if name.startswith("part-")]
    assert parts
    assert {name: after[name] for name in parts} == {name: before[name] for name in parts}
    assert set(after) == set(before)


@pytest.mark.parametrize(
    ("keywords", "message"),
    [
        ({"workers": 0}, "workers must be >= 1, got 0"),
        ({"rows_per_file": 0}, "rows_per_file must be >= 1, got 0"),
        ({"engine": "spark"}, "engine must be one of local, ray, got 'spark'"),
        ({"output_format": "csv"}, "output_format must be one of parquet, jsonl, got 'csv'"),
        ({"address": "ray://x"}, "address needs engine='ray'"),
        ({"big_memory": 1}, "big_memory needs engine='ray'"),
        ({"oversubscribe": True}, "oversubscribe needs workers=N and engine='local'"),
    ],
)
def test_an_impossible_run_is_one_line_and_writes_nothing(
    tmp_path: Path, keywords: dict[str, object], message: str
) -> None:
    """CLI-1, CLI-12: a ChunkspecError of one line, raised before ``out`` is made, naming
    ``ingest``'s own arguments (the command names its flags)."""
    corpus = _corpus(tmp_path)
    with pytest.raises(ChunkspecError) as raised:
        chunkspec.ingest([corpus], tmp_path / "out", **keywords)  # type: ignore[arg-type]
    assert str(raised.value) == message
    assert not (tmp_path / "out").exists()


def test_a_missing_input_is_an_error(tmp_path: Path) -> None:
    """CLI-7: a path that does not exist is refused, naming it."""
    with pytest.raises(ChunkspecError, match="no such file or folder"):
        chunkspec.ingest([tmp_path / "absent"], tmp_path / "out")


def test_the_readme_example_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's "Ingest a corpus from Python" block runs as written and prints the one
    document it edited as changed."""
    text = (ROOT / "README.md").read_text("utf-8")
    section = text.split("### Ingest a corpus from Python", 1)[1]
    block = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert block is not None
    monkeypatch.chdir(ROOT)
    examples = _tree(ROOT / "examples")
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        exec(compile(block.group(1), "README.md", "exec"), {"__name__": "readme_ingest"})
    lines = printed.getvalue().splitlines()
    assert lines[0] == "1 reused, changed: ['returns-policy']"
    assert lines[1].startswith("document changed returns-policy")
    assert all("returns-policy" in line for line in lines[1:])
    assert _tree(ROOT / "examples") == examples  # it edits a copy


def test_the_job_keywords_are_the_commands_flags(tmp_path: Path) -> None:
    """OPT-1: ``ingest`` takes the job's keywords as every entry point does (with the
    command's size cap when none is given), and a job with a keyword is refused."""
    corpus = _corpus(tmp_path)
    chunkspec.ingest(
        corpus, tmp_path / "api", output_format="jsonl", workers=1, strategy="window",
        max_tokens=9, counter="chars4",
    )  # fmt: skip
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        argv = ["ingest", str(corpus), "--out", str(tmp_path / "cli"), "--format", "jsonl"]
        flags = ["--strategy", "window", "--max-tokens", "9", "--counter", "chars4"]
        assert main([*argv, *flags, "--workers", "1"]) == 0
    assert _tree(tmp_path / "api") == _tree(tmp_path / "cli")
    with pytest.raises(ArgumentValueError) as refused:
        chunkspec.ingest(corpus, tmp_path / "x", ChunkJob(ChunkOptions()), max_tokens=9)
    assert refused.value.argument == "options"
    assert not (tmp_path / "x").exists()


def test_a_main_read_from_stdin_runs_in_this_process_or_says_why_not(tmp_path: Path) -> None:
    """SCALE-2: spawned workers import ``__main__`` again from its file; a script read from
    standard input has none, so the default runs in this process and ``workers=2`` is one
    clear error naming ``workers`` (before, every worker died at its start and the run said
    "a worker process died")."""
    corpus = _corpus(tmp_path)
    script = (
        "import sys, chunkspec\n"
        "r = chunkspec.ingest(sys.argv[1], sys.argv[2], output_format='jsonl')\n"
        "print(r.documents, r.errors)\n"
        "try:\n"
        "    chunkspec.ingest(sys.argv[1], sys.argv[3], output_format='jsonl', workers=2)\n"
        "except chunkspec.ArgumentValueError as error:\n"
        "    print(error.argument, error)\n"
    )
    done = subprocess.run(
        [sys.executable, "-", str(corpus), str(tmp_path / "a"), str(tmp_path / "b")],
        input=script,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(chunkspec.__file__).parents[1])},
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.splitlines()
    assert first == "4 1"  # empty.md is an error row (SCALE-3)
    assert second.startswith("workers workers needs a main module that is a file")
    assert not (tmp_path / "b").exists()


@pytest.mark.parametrize(
    ("keywords", "argument"),
    [
        ({"workers": "2"}, "workers"),
        ({"rows_per_file": 1.5}, "rows_per_file"),
        ({"incremental": "no"}, "incremental"),
        ({"strategy_x": 1}, "strategy_x"),
    ],
)
def test_a_wrong_type_is_a_type_error_naming_it(
    tmp_path: Path, keywords: dict[str, object], argument: str
) -> None:
    """OPT-1, CLI-1: a keyword of the wrong type, or no keyword at all, is a TypeError naming
    it (an unknown keyword lists the reading keywords too), before ``out`` is made."""
    corpus = _corpus(tmp_path)
    with pytest.raises(TypeError) as raised:
        chunkspec.ingest(corpus, tmp_path / "out", **keywords)  # type: ignore[arg-type]
    assert getattr(raised.value, "argument", None) == argument
    assert not (tmp_path / "out").exists()
    if argument == "strategy_x":
        assert "max_bytes" in str(raised.value)


@pytest.mark.parametrize("inputs", [None, b"corpus"])
def test_inputs_that_are_no_paths_are_refused(tmp_path: Path, inputs: object) -> None:
    """CLI-7: ``inputs`` is a path or a list of paths; bytes are not read one byte a path."""
    with pytest.raises(TypeError) as raised:
        chunkspec.ingest(inputs, tmp_path / "out")  # type: ignore[arg-type]
    assert getattr(raised.value, "argument", None) == "inputs"
