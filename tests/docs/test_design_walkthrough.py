"""docs/design.md's "How to add a chunker" and "How to add an option" walk-throughs run as
written (OPT-1, OPT-5, OPT-6)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from chunkspec._chunkers._strategies import STRATEGIES

DESIGN = Path(__file__).resolve().parents[2] / "docs" / "design.md"


def _walkthrough_blocks() -> list[str]:
    """The Python blocks of the section, in order (fenced ``py``, so that
    tests/test_docs_examples.py does not register ``lines`` for the rest of its process)."""
    text = DESIGN.read_text("utf-8")
    section = text.split("\n## How to add a chunker\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```py\n(.*?)```", section, re.DOTALL)


def test_the_toy_chunker_registers_and_chunks() -> None:
    """OPT-5: the section's two blocks, run in order, register ``lines`` and its asserted
    records come out; the CLI and ChunkOptions take the new name from the registry."""
    blocks = _walkthrough_blocks()
    assert len(blocks) == 2
    namespace: dict[str, object] = {}
    try:
        for block in blocks:
            exec(compile(block, str(DESIGN), "exec"), namespace)
        assert "lines" in STRATEGIES
        from chunkspec import ChunkOptions, ChunkRecord, chunk_document, document_from_text

        document = document_from_text("a b\n\n# H\nc\n", doc_id="w")
        records = chunk_document(document, "lines", max_tokens=1)
        got = [(r.text, r.heading_path, r.oversized) for r in records]
        assert got == [("a b", (), True), ("# H", ("H",), True), ("c", ("H",), False)]
        for record in records:
            assert ChunkRecord.from_dict(record.to_dict()) == record  # RECORD-2's checks
            assert record.text == document.text[record.start : record.end]
        assert ChunkOptions.from_strategy_string("lines:max_tokens=3").strategy == "lines"
    finally:
        STRATEGIES.pop("lines", None)


def test_chunkers_do_not_import_the_layers_above() -> None:
    """OPT-5's layering: a chunker module hands back spans; it imports no records,
    evaluation or command-line module."""
    folder = DESIGN.parent.parent / "src" / "chunkspec" / "_chunkers"
    above = re.compile(r"^\s*(?:from|import)\s+\S*(?:_records|_evaluation|_cli)\b", re.MULTILINE)
    for path in sorted(folder.glob("*.py")):
        assert not above.search(path.read_text("utf-8")), path.name


def _option_section() -> str:
    """docs/design.md's "How to add an option" section."""
    return DESIGN.read_text("utf-8").split("\n## How to add an option\n", 1)[1].split("\n## ", 1)[0]


#: What the walk-through's code sends through every other entry point in the patched copy.
_ENTRY_POINTS = """
import io, json, pathlib, sys, contextlib
import pyarrow as pa
from chunkspec.arrow import chunk_table
from chunkspec.integrations.langchain import ChunkspecSplitter
from chunkspec.integrations.llama_index import ChunkspecNodeParser
from chunkspec.integrations.haystack import ChunkspecDocumentSplitter
from chunkspec._cli import main
from llama_index.core.schema import Document as LlamaDocument
from haystack import Document as HaystackDocument

text = "# Notes\\n\\nfirst line\\n"
want = ["first line"]
table = pa.table({"doc_id": ["n"], "text": [text]})
rows = chunk_table(
    table, strategy="lines", max_tokens=8, skip_headings=True, input_format="markdown"
).to_pylist()
assert [row["text"] for row in rows] == want, rows
assert ChunkspecSplitter("lines", max_tokens=8, skip_headings=True).split_text(text) == want
parser = ChunkspecNodeParser(strategy="lines", max_tokens=8, skip_headings=True)
assert parser.options["skip_headings"] is True
nodes = parser.get_nodes_from_documents([LlamaDocument(text=text, id_="n")])
assert [node.text for node in nodes] == want
splitter = ChunkspecDocumentSplitter(strategy="lines", max_tokens=8, skip_headings=True)
assert splitter.to_dict()["init_parameters"]["skip_headings"] is True
chunks = splitter.run(documents=[HaystackDocument(content=text, id="n")])["documents"]
assert [chunk.content for chunk in chunks] == want
path = pathlib.Path(sys.argv[1])
path.write_text(text, "utf-8")
out = io.StringIO()
with contextlib.redirect_stdout(out):
    code = main(["chunk", "--strategy", "lines", "--max-tokens", "8", "--skip-headings", str(path)])
assert code == 0, code
lines = [json.loads(line) for line in out.getvalue().splitlines()]
assert [line["text"] for line in lines] == want, lines
assert lines[0]["strategy"] == "lines:max_tokens=8,skip_headings=true"
import chunkspec
out = path.parent / "out"
chunkspec.ingest(
    path, out, strategy="lines", max_tokens=8, skip_headings=True, output_format="jsonl",
    workers=1,
)
manifest = json.loads((out / "_chunkspec.json").read_text("utf-8"))
assert manifest["skip_headings"] is True, manifest
parts = [json.loads(line) for part in sorted(out.glob("part-*.jsonl")) for line in open(part)]
assert [row["text"] for row in parts] == want, parts
print("every entry point took skip_headings")
"""


def test_the_option_walkthrough_touches_three_files_and_reaches_every_entry_point(
    tmp_path: Path,
) -> None:
    """OPT-1, OPT-5, OPT-6: the section's three diffs apply to a copy of the package and
    docs, touch exactly the options module, a spec chapter and the flag table, and with
    them the section's code and every other entry point take the new option."""
    section = _option_section()
    diffs = re.findall(r"```diff\n(.*?)```", section, re.DOTALL)
    blocks = re.findall(r"```py\n(.*?)```", section, re.DOTALL)
    assert len(diffs) == 3
    assert len(blocks) == 1
    touched = sorted(
        name for diff in diffs for name in re.findall(r"^\+\+\+ b/(\S+)$", diff, re.MULTILINE)
    )
    assert touched == [
        "docs/spec/records.md",
        "src/chunkspec/_chunkers/_options.py",
        "src/chunkspec/_cli/_chunking_flags.py",
    ]
    root = DESIGN.parent.parent
    copy = tmp_path / "copy"
    shutil.copytree(root / "src", copy / "src", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(root / "docs" / "spec", copy / "docs" / "spec")
    for number, diff in enumerate(diffs):
        patch = tmp_path / f"{number}.diff"
        patch.write_text(diff, "utf-8")
        subprocess.run(
            ["git", "apply", "--whitespace=nowarn", str(patch)],
            cwd=copy,
            check=True,
            capture_output=True,
        )
    script = blocks[0] + _ENTRY_POINTS
    environment = {**os.environ, "PYTHONPATH": str(copy / "src")}
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "notes.md")],
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().endswith("every entry point took skip_headings")


def test_the_option_keywords_are_the_options_fields() -> None:
    """OPT-1: ChunkKeywords declares exactly ChunkOptions' fields, in order, so an option is
    declared in one module; JobKeywords adds exactly ChunkJob's reading fields."""
    import dataclasses

    from chunkspec._chunkers._options import OPTION_KEYWORDS, ChunkKeywords, ChunkOptions
    from chunkspec._records._job import READING_KEYWORDS, JobKeywords

    fields = tuple(field.name for field in dataclasses.fields(ChunkOptions))
    assert tuple(ChunkKeywords.__annotations__) == fields == OPTION_KEYWORDS
    assert tuple(JobKeywords.__annotations__) == fields + READING_KEYWORDS
