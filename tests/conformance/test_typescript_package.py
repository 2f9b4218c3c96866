"""The TypeScript port as a package a TypeScript user installs (ports/typescript).

``npm pack`` gives a tarball of the shipped build (``dist/``) that holds no fault-injection
code, and that a fresh ESM project installs without the network (``npm ci --offline`` from a
lockfile naming the tarball and the port's runtime dependencies by integrity, whose tarballs
are in the npm cache the port's ``npm ci`` filled) and uses from an ``.mjs`` file and from a
``.ts`` file compiled with ``tsc --strict`` against the package's types. Needs Node.js and
npm; without them these tests are skipped, saying so.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import tarfile
from pathlib import Path
from typing import Any

import pytest

from chunkspec import assemble, split_section, split_sentences
from chunkspec._conformance.markdown._markdown_ops import (
    heading_aware_records,
    split_markdown_records,
)
from chunkspec._conformance.windows._windows_ops import page_records, token_window_records
from chunkspec.core import words
from tests.typescript_port import PORT_DIR, Port, built, faults

ROOT = Path(__file__).resolve().parents[2]

#: What a user's program calls, and what it must print (JSON).
MAIN = """\
import {
  assemble, splitSection, words, chunkWindows, tokenWindows, chunkPages, splitSentences,
  splitMarkdownRecords, headingAwareRecords,
} from "chunkspec";
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
import { assemble, splitSection, type Chunk } from "chunkspec";
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


#: Where a registry package's lockfile entry without ``resolved`` comes from (npm rewrites
#: this host to the configured registry; the tarball itself is read from the cache by its
#: ``integrity``, so no package metadata is fetched).
REGISTRY = "https://registry.npmjs.org"


def app_manifests(tarball: Path, project: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """A fresh ESM project's package.json and package-lock.json: the tarball as a ``file:``
    dependency, and the port's runtime dependencies as its lockfile pins them, each with its
    ``resolved`` URL and ``integrity`` (``npm ci --offline`` then needs only their tarballs)."""
    port_lock: dict[str, Any] = json.loads((PORT_DIR / "package-lock.json").read_text("utf-8"))
    port_root = port_lock["packages"][""]
    name: str = port_root["name"]
    spec = "file:" + Path(os.path.relpath(tarball, project)).as_posix()
    digest = base64.b64encode(hashlib.sha512(tarball.read_bytes()).digest()).decode("ascii")
    packed = {"version": port_root["version"], "resolved": spec, "integrity": f"sha512-{digest}"}
    packed |= {
        k: port_root[k] for k in ("license", "dependencies", "bin", "engines") if k in port_root
    }
    packages: dict[str, Any] = {"": {"name": "app", "dependencies": {name: spec}}}
    packages[f"node_modules/{name}"] = packed
    for path, entry in port_lock["packages"].items():
        if path and not entry.get("dev"):
            runtime = {k: v for k, v in entry.items() if k != "devOptional"}
            if "resolved" not in runtime:  # a registry package (omit-lockfile-registry-resolved)
                full = entry.get("name", path.rpartition("node_modules/")[2])
                runtime["resolved"] = (
                    f"{REGISTRY}/{full}/-/{full.rpartition('/')[2]}-{entry['version']}.tgz"
                )
            if entry.get("devOptional"):
                runtime["optional"] = True  # without dev, only an optional dependency needs it
            packages[path] = runtime
    package = {"name": "app", "private": True, "type": "module", "dependencies": {name: spec}}
    lockfile = {"name": "app", "lockfileVersion": 3, "requires": True, "packages": packages}
    return package, lockfile


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
        shipped = {"package/package.json", "package/README.md", "package/LICENSE"}
        assert shipped <= set(paths)
        assert all(
            p in shipped
            or re.fullmatch(r"package/dist/src/\w+\.(js|d\.ts)", p)
            or re.fullmatch(r"package/dist/browser/chunkspec(\.iife)?\.js", p)
            for p in paths
        ), paths
        for member in members:
            extracted = archive.extractfile(member)
            assert extracted is not None
            text = extracted.read().decode("utf-8")
            if member.name in shipped:
                continue
            found = re.findall(r"\bfaults?\b|enableFaults|--break|CHUNKSPEC_PORT_BREAK", text, re.I)
            assert not found, (member.name, found)
            assert not [n for n in distinctive if f'"{n}"' in text], member.name


def install(port: Port, tarball: Path, tmp_path: Path) -> Path:
    """A fresh ESM project with the tarball installed offline; its folder."""
    project = tmp_path / "app"
    project.mkdir()
    package, lockfile = app_manifests(tarball, project)
    (project / "package.json").write_text(json.dumps(package, indent=2), "utf-8")
    (project / "package-lock.json").write_text(json.dumps(lockfile, indent=2), "utf-8")
    npm_ci = subprocess.run(
        [port.npm, "ci", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"],
        cwd=project, capture_output=True, text=True,
    )  # fmt: skip
    assert npm_ci.returncode == 0, npm_ci.stdout + npm_ci.stderr
    return project


def test_the_tarball_installs_offline_in_a_fresh_project(
    port: Port, tarball: Path, tmp_path: Path
) -> None:
    """A fresh ESM project installs the tarball with no network and imports the package by
    name through ``exports``, from JavaScript and from strict TypeScript with its types."""
    project = install(port, tarball, tmp_path)
    installed = project / "node_modules" / "chunkspec"
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


#: A fenced example of the README: a whole program, then ``// Output:`` and its stdout.
_EXAMPLE = re.compile(r"^```(js|ts)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def readme_examples() -> list[tuple[str, str, str]]:
    """(language, program, expected stdout) of each ``js`` and ``ts`` block of the README."""
    found = []
    for language, body in _EXAMPLE.findall((PORT_DIR / "README.md").read_text("utf-8")):
        program, marker, output = body.partition("// Output:\n")
        assert marker, f"a README example states no output:\n{body}"
        lines = [line.removeprefix("//").removeprefix(" ") for line in output.splitlines()]
        found.append((language, program, "".join(line + "\n" for line in lines)))
    return found


def test_the_readme_has_an_example_per_chunker() -> None:
    """NPM-3: the README shows every strategy, the seed functions and a TypeScript program."""
    examples = readme_examples()
    programs = "\n".join(program for _, program, _ in examples)
    for strategy in ("heading", "structural", "window", "pages"):
        assert f'strategy: "{strategy}"' in programs, strategy
    for call in ("splitSection({", 'splitSection("', "assemble(scored, {", "chars1"):
        assert call in programs, call
    assert {language for language, _, _ in examples} == {"js", "ts"}


def test_the_readme_examples_run_from_the_tarball(
    port: Port, tarball: Path, tmp_path: Path
) -> None:
    """NPM-3: each README example, installed from the packed tarball into a fresh project,
    prints what the README says, as ``.mjs`` (js blocks) and as strict ``.ts`` (ts blocks)."""
    project = install(port, tarball, tmp_path)
    tsc = PORT_DIR / "node_modules" / "typescript" / "bin" / "tsc"
    for n, (language, program, expected) in enumerate(readme_examples()):
        if language == "js":
            (project / f"example{n}.mjs").write_text(program, "utf-8")
            script = f"example{n}.mjs"
        else:
            (project / f"example{n}.ts").write_text(program, "utf-8")
            config = {**TSCONFIG, "files": [f"example{n}.ts"]}
            (project / f"tsconfig{n}.json").write_text(json.dumps(config), "utf-8")
            compiled = subprocess.run(
                [port.node, str(tsc), "-p", f"tsconfig{n}.json"],
                cwd=project, capture_output=True, text=True,
            )  # fmt: skip
            assert compiled.returncode == 0, compiled.stdout + compiled.stderr
            script = f"out/example{n}.js"
        done = subprocess.run([port.node, script], cwd=project, capture_output=True, text=True)
        assert done.returncode == 0, (program, done.stderr)
        assert done.stdout == expected, program


def test_the_package_is_publishable_in_step_with_python() -> None:
    """package.json: the name says what it is, the version is the Python package's, it is
    not private, and it ships the README and LICENSE beside the build."""
    from chunkspec import __version__

    manifest = json.loads((PORT_DIR / "package.json").read_text("utf-8"))
    assert manifest["name"] == "chunkspec"
    assert manifest["version"] == __version__
    assert "private" not in manifest
    assert {"README.md", "LICENSE"} <= set(manifest["files"])
    assert manifest["exports"]["."]["types"].endswith(".d.ts")
    assert (PORT_DIR / "LICENSE").read_text("utf-8") == (PORT_DIR.parents[1] / "LICENSE").read_text(
        "utf-8"
    )


def test_only_the_hash_imports_a_node_module(port: Port) -> None:
    """NPM-4: of the shipped modules only hashing.js (node:crypto), the conformance
    adapter (node:fs) and the grammar loader of the code strategy import a Node.js built-in;
    the chunkers run anywhere."""
    found = {}
    for module in sorted((PORT_DIR / "dist" / "src").glob("*.js")):
        names = re.findall(r"""from\s*["'](node:[a-z_]+)["']""", module.read_text("utf-8"))
        if names:
            found[module.name] = names
    assert found == {
        "adapter.js": ["node:fs"],
        "grammars.js": ["node:fs", "node:module", "node:path"],
        "hashing.js": ["node:crypto"],
    }


def test_a_tarball_packed_in_place_is_ignored(tarball: Path) -> None:
    """``npm pack`` run in ports/typescript (docs/conformance.md) leaves its tarball there:
    git ignores it, so it is never committed by accident nor shown as untracked."""
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    where = (PORT_DIR / tarball.name).relative_to(ROOT).as_posix()
    done = subprocess.run([git, "check-ignore", "-q", where], cwd=ROOT, check=False)
    assert done.returncode == 0, f"{where} is not ignored"


def test_api_docs_build_without_a_git_remote(port: Port, tmp_path: Path) -> None:
    """The gate's ``npm run docs`` (TypeDoc, warnings as errors) builds in a checkout with no
    git remote (a fresh ``git init``, a source archive): the pages carry no source links
    (``disableSources``), so TypeDoc never asks git for one."""
    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    skip = shutil.ignore_patterns("node_modules", "dist", "dist-test", "dist-api", "*.tgz")
    shutil.copytree(PORT_DIR, repo / "ports" / "typescript", ignore=skip)
    shutil.copytree(ROOT / "docs", repo / "docs")  # the README's relative links
    shutil.copy(ROOT / "README.md", repo / "README.md")
    (repo / "ports" / "typescript" / "node_modules").symlink_to(PORT_DIR / "node_modules")
    for argv in (["init", "-q"], ["add", "-A"]):
        subprocess.run([git, *argv], cwd=repo, check=True, capture_output=True)
    subprocess.run(
        [git, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "t"],
        cwd=repo, check=True, capture_output=True,
    )  # fmt: skip
    done = subprocess.run(
        [port.npm, "run", "docs"],
        cwd=repo / "ports" / "typescript", capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, (done.stdout + done.stderr)[-2000:]
    assert (repo / "ports" / "typescript" / "dist-api" / "index.html").is_file()
