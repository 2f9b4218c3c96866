"""The TypeScript port as a package a TypeScript user installs (ports/typescript).

``npm pack`` gives a tarball of the shipped build (``dist/``) that holds no fault-injection
code, and that a fresh ESM project installs without the network (``npm install --offline``:
whatever it depends on is in the npm cache ``npm ci`` filled) and uses from an ``.mjs`` file
and from a ``.ts`` file compiled with ``tsc --strict`` against the package's types. Needs
Node.js and npm; without them these tests are skipped, saying so.
"""

from __future__ import annotations

import json
import re
import subprocess
import tarfile
from pathlib import Path

import pytest

from chunkspec import assemble, split_section, split_sentences
from chunkspec._conformance.markdown._ops import heading_aware_records, split_markdown_records
from chunkspec._conformance.windows._ops import page_records, token_window_records
from chunkspec.core import words
from tests.typescript_port import PORT_DIR, Port, built, faults

#: What a user's program calls, and what it must print (JSON).
MAIN = """\
import {
  assemble, splitSection, words, chunkWindows, tokenWindows, chunkPages, splitSentences,
  splitMarkdownRecords, headingAwareRecords,
} from "chunkspec-port-typescript";
const chunks = splitSection("d", "T", "a b\\n\\nc d e", 3);
const packed = assemble(chunks, 5, 0);
const MD = "# H \\u{1F600}\\r\\n\\nSome words here. And more words.\\n\\n" +
  "| a | b |\\n|---|---|\\n| 1 | 2 |\\n\\n```\\n# not a heading\\n```\\n";
console.log(JSON.stringify([
  chunks.map((c) => [c.id, c.text, c.tokens]),
  packed,
  words(3, Number.MAX_SAFE_INTEGER),
  chunkWindows("d", "T", "ab\\u{1F600}c", 2, 0).map((r) => [r.start, r.end]),
  tokenWindows("d", "T", MD, 4, 1),
  chunkPages("d", "T", ["One two. Three four.", "Five \\u{1F600} six."], 3, 1),
  splitSentences("One. Two? \\u{1F600} Three!"),
  splitMarkdownRecords("d", "T", MD, 6, false, false),
  headingAwareRecords("d", "T", MD, 6, 1),
]));
"""
#: The Markdown MAIN's MD spells: an astral heading, CRLF, a table, a fence with a # line.
_MD = (
    "# H \U0001f600\r\n\nSome words here. And more words.\n\n"
    "| a | b |\n|---|---|\n| 1 | 2 |\n\n```\n# not a heading\n```\n"
)
_CHUNKS = split_section("d", "T", "a b\n\nc d e", 3)
_PACKED = assemble(_CHUNKS, 5, 0)
assert _PACKED is not None
EXPECTED = [
    [[c.id, c.text, c.tokens] for c in _CHUNKS],
    [_PACKED[0], _PACKED[1]],
    words(3, start=2**53 - 1),
    [[0, 2], [2, 4]],  # code points: the emoji is one (HAZ-12)
    token_window_records("d", "T", _MD, 4, 1),
    page_records("d", "T", ["One two. Three four.", "Five \U0001f600 six."], 3, 1),
    split_sentences("One. Two? \U0001f600 Three!"),
    split_markdown_records("d", "T", _MD, 6),  # markdown-it and zod installed offline too
    heading_aware_records("d", "T", _MD, 6, 1),
]
#: The TypeScript program: typed uses, and a call the package's types must reject (an
#: unused ``@ts-expect-error`` fails the compile, so types that were ``any`` would show).
MAIN_TS = """\
import { assemble, splitSection, type Chunk } from "chunkspec-port-typescript";
const chunks: Chunk[] = splitSection("d", "T", "a b\\n\\nc d e", 3);
const packed: [string, string[]] | null = assemble(chunks, 5, 0);
export function misuse(): void {
  // @ts-expect-error: doc_id is a string
  splitSection(1, "T", "a", 1);
}
console.log(JSON.stringify([chunks.map((c) => [c.id, c.text, c.tokens]), packed]));
"""
TSCONFIG = {
    "compilerOptions": {
        "target": "ES2022",
        "module": "NodeNext",
        "moduleResolution": "NodeNext",
        "strict": True,
        "noUncheckedIndexedAccess": True,
        "exactOptionalPropertyTypes": True,
        "types": [],
        "outDir": "out",
    },
    "files": ["main.ts"],
}


@pytest.fixture(scope="module")
def port() -> Port:
    """Node.js with the port's builds (tests/typescript_port.py)."""
    return built()


@pytest.fixture(scope="module")
def tarball(port: Port, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``npm pack`` of the shipped build (its scripts skipped: :func:`built` just built it)."""
    folder = tmp_path_factory.mktemp("pack")
    packed = subprocess.run(
        [port.npm, "pack", "--json", "--ignore-scripts", "--pack-destination", str(folder)],
        cwd=PORT_DIR, capture_output=True, text=True, check=True,
    )  # fmt: skip
    filename: str = json.loads(packed.stdout)[0]["filename"]
    return folder / filename


def test_the_tarball_ships_no_fault_code(tarball: Path) -> None:
    """The packed files are the compiled code, its types and package.json, and none mentions
    a fault, the ``--break`` switch or a fault's name."""
    names = [f["name"] for f in faults()]
    assert len(names) >= 17
    distinctive = [n for n in names if "-" in n]  # "trim" alone is an ordinary word
    with tarfile.open(tarball) as archive:
        members = [m for m in archive.getmembers() if m.isfile()]
        paths = sorted(m.name for m in members)
        assert "package/dist/src/index.js" in paths
        assert "package/dist/src/index.d.ts" in paths
        assert not [p for p in paths if "fault" in p.lower() or "dist-test" in p]
        assert all(
            p == "package/package.json" or re.fullmatch(r"package/dist/src/\w+\.(js|d\.ts)", p)
            for p in paths
        ), paths
        for member in members:
            extracted = archive.extractfile(member)
            assert extracted is not None
            text = extracted.read().decode("utf-8")
            if member.name.endswith("package.json"):
                continue
            found = re.findall(r"\bfaults?\b|enableFaults|--break|CHUNKSPEC_PORT_BREAK", text, re.I)
            assert not found, (member.name, found)
            assert not [n for n in distinctive if f'"{n}"' in text], member.name


def test_the_tarball_installs_offline_in_a_fresh_project(
    port: Port, tarball: Path, tmp_path: Path
) -> None:
    """A fresh ESM project installs the tarball with no network and imports the package by
    name through ``exports``, from JavaScript and from strict TypeScript with its types."""
    project = tmp_path / "app"
    project.mkdir()
    (project / "package.json").write_text('{"name": "app", "private": true, "type": "module"}')
    subprocess.run(
        [port.npm, "install", "--offline", "--ignore-scripts", "--no-audit", "--no-fund",
         str(tarball)],
        cwd=project, capture_output=True, text=True, check=True,
    )  # fmt: skip
    installed = project / "node_modules" / "chunkspec-port-typescript"
    assert (installed / "dist" / "src" / "index.d.ts").is_file()
    assert not (installed / "src").exists()  # compiled code and types only
    (project / "main.mjs").write_text(MAIN, "utf-8")
    done = subprocess.run([port.node, "main.mjs"], cwd=project, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == EXPECTED

    (project / "main.ts").write_text(MAIN_TS, "utf-8")
    (project / "tsconfig.json").write_text(json.dumps(TSCONFIG), "utf-8")
    tsc = PORT_DIR / "node_modules" / "typescript" / "bin" / "tsc"
    compiled = subprocess.run(
        [port.node, str(tsc), "-p", "tsconfig.json"], cwd=project, capture_output=True, text=True
    )
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    done = subprocess.run([port.node, "out/main.js"], cwd=project, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == EXPECTED[:2]
