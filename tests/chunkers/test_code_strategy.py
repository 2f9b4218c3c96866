"""The code strategy as a user meets it: read_document, the CLI, ingest, bad input, hostile
files (docs/spec/code.md, CODE-1..CODE-11; docs/security.md, "Source code")."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import chunkspec
from chunkspec._cli import main

pytest.importorskip("tree_sitter")

SOURCE = '''"""Tools."""
import os


def grüße(名前: str) -> str:
    """Say hello."""
    return "héllo " + 名前


class Store:
    def get(self, key):
        return self.data[key]
'''


STORE = """class Store:
    def get(self, key):
        value = self.data[key]
        return value

    def put(self, key, value):
        self.data[key] = value
        return value
"""


def _equation(document: chunkspec.SourceDocument, records: list[chunkspec.ChunkRecord]) -> None:
    """CODE-10: the contract on every record, and what lies between records is white space."""
    position = 0
    for record in records:
        assert record.text == record.prefix + document.text[record.start : record.end]
        assert document.text[position : record.start].strip() == ""
        position = record.end
    assert document.text[position:].strip() == ""


def test_read_document_and_chunk(tmp_path: Path) -> None:
    """CODE-1, CODE-7, CODE-11: a .py file is code in Python; paths and metadata."""
    path = tmp_path / "tools.py"
    path.write_text(SOURCE, "utf-8")
    document = chunkspec.read_document(path)
    assert (document.format, document.language, document.title) == ("code", "python", "tools")
    records = chunkspec.chunk_document(document, "code", max_tokens=12)
    _equation(document, records)
    assert all(r.kind == "code" for r in records)
    paths = [r.heading_path for r in records]
    assert ("tools", "def grüße") in paths
    assert any(p[:2] == ("tools", "class Store") for p in paths)
    code = records[-1].metadata["code"]
    assert code["language"] == "python"
    assert code["parser"] == "tree-sitter"
    assert code["lines"][1] == SOURCE.count("\n")


def test_every_language_parses(tmp_path: Path) -> None:
    """CODE-1, CODE-2: one small file of each language gives its tree and its symbols."""
    files = {
        "a.js": "function f(x) { return x; }\n",
        "a.ts": "function f(x: number): number { return x; }\n",
        "a.tsx": "export function A() { return <div/>; }\n",
        "a.go": "package a\n\nfunc F() int { return 1 }\n",
        "a.rs": "fn f() -> i32 { 1 }\n",
        "A.java": "class A { int f() { return 1; } }\n",
        "a.c": "int f(void) { return 1; }\n",
        "a.cpp": "namespace n { int f() { return 1; } }\n",
        "a.py": "def f():\n    return 1\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, "utf-8")
        document = chunkspec.read_document(tmp_path / name)
        records = chunkspec.chunk_document(document, "code", max_tokens=64)
        assert records[0].metadata["code"]["parser"] == "tree-sitter", name
        symbols = [s for r in records for s in r.metadata["code"]["symbols"]]
        assert symbols, name
        assert symbols[-1] in ("f", "F", "A"), (name, symbols)


def test_grammars_load_with_no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """CODE-2: nothing is downloaded: with sockets refused, every grammar still loads."""
    from chunkspec._code import _grammar
    from chunkspec._code._languages import LANGUAGES

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a socket was opened")

    _grammar.parser_for.cache_clear()
    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    for language in LANGUAGES:
        assert _grammar.parser_for(language).parse(b"x").root_node is not None


def test_bad_language_is_a_clear_error() -> None:
    """CODE-1: a language not in the table, or one on a Markdown text, names ``language``."""
    with pytest.raises(ValueError, match=r"^language must be one of python"):
        chunkspec.document_from_text("x", doc_id="d", input_format="code", language="cobol")
    with pytest.raises(ValueError, match=r"^language applies to input_format code"):
        chunkspec.document_from_text("x", doc_id="d", language="python")
    with pytest.raises(TypeError, match=r"^language must be a str"):
        chunkspec.document_from_text(
            "x",
            doc_id="d",
            input_format="code",
            language=3,  # type: ignore[arg-type]
        )


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   \n\t\n",
        "a = 1\rb = 2\r",  # lone CRs
        "\ufeffdef f():\n    pass\n",
        "def f(:\n" * 500,  # syntax errors all the way
        "é" * 5000,  # one long non-ASCII word
    ],
)
def test_hostile_sources_chunk_exactly(text: str) -> None:
    """CODE-3, CODE-9, CODE-10: broken, empty and odd sources chunk with exact spans."""
    document = chunkspec.document_from_text(
        text, doc_id="h", input_format="code", language="python"
    )
    records = chunkspec.chunk_document(document, "code", max_tokens=8, counter="chars4")
    _equation(document, records)
    assert all(r.tokens <= 8 for r in records)


def test_code_on_markdown_is_lines() -> None:
    """CODE-3: a document without a language is chunked by whole lines."""
    document = chunkspec.document_from_text("# T\n\nsome text here\nmore\n", doc_id="m")
    records = chunkspec.chunk_document(document, "code", max_tokens=3)
    assert [r.text for r in records] == ["# T", "some text here", "more"]
    assert records[0].metadata["code"]["parser"] == "lines: no language"


def test_cli_chunk_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The command line: a folder of code, --strategy code --scope-prefix, JSON Lines."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "tools.py").write_text(SOURCE, "utf-8")
    (tmp_path / "pkg" / "tools.h").write_text("int f(void);\n", "utf-8")
    (tmp_path / "pkg" / "tools.c").write_text("int f(void) { return 1; }\n", "utf-8")
    (tmp_path / "pkg" / "store.py").write_text(STORE, "utf-8")
    argv = ["chunk", str(tmp_path / "pkg"), "--strategy", "code", "--max-tokens", "10"]
    status = main([*argv, "--scope-prefix"])
    out, err = capsys.readouterr()
    assert status == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert {row["doc_id"] for row in rows} == {"store.py", "tools.c", "tools.h", "tools.py"}
    assert all(row["strategy"].startswith("code:max_tokens=10") for row in rows)
    assert all(row["tokens"] <= 10 for row in rows)
    assert any(row["prefix"].startswith("class Store:\n") for row in rows)


def test_cli_language_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CODE-1: --language names the language of a file with no suffix or shebang."""
    (tmp_path / "tool").write_text("def f():\n    return 1\n", "utf-8")
    argv = ["chunk", str(tmp_path / "tool"), "--strategy", "code", "--input-format", "code"]
    status = main([*argv, "--language", "python"])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert json.loads(out.splitlines()[0])["metadata"]["code"]["language"] == "python"
    with pytest.raises(SystemExit) as info:
        main(["chunk", str(tmp_path / "tool"), "--language", "cobol"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'cobol'" in err
    assert "Traceback" not in err


def test_ingest_a_repository(tmp_path: Path) -> None:
    """ingest --strategy code over a repository folder: every record exact, the manifest
    names the strategy and the language option."""
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "tools.py").write_text(SOURCE, "utf-8")
    (repo / "src" / "main.go").write_text("package main\n\nfunc main() {}\n", "utf-8")
    (repo / "node_modules" / "x").mkdir(parents=True)
    (repo / "node_modules" / "x" / "index.js").write_text("module.exports = 1;\n", "utf-8")
    out = tmp_path / "out"
    argv = ["ingest", str(repo), "--out", str(out), "--strategy", "code", "--format", "jsonl"]
    result = subprocess.run(
        [sys.executable, "-m", "chunkspec", *argv, "--max-tokens", "16"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    manifest = json.loads((out / "_chunkspec.json").read_text("utf-8"))
    assert manifest["strategy"] == "code"
    assert manifest["language"] is None
    rows = [
        json.loads(line)
        for part in sorted(out.glob("*.jsonl"))
        for line in part.read_text("utf-8").splitlines()
    ]
    assert {row["doc_id"] for row in rows} == {"src/tools.py", "src/main.go"}
    texts = {"src/tools.py": SOURCE, "src/main.go": "package main\n\nfunc main() {}\n"}
    for row in rows:
        assert row["text"] == row["prefix"] + texts[row["doc_id"]][row["start"] : row["end"]]
