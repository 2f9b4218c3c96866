"""Proof that the gate can fail: the TypeScript port with one deliberate fault at a time.

The adapter's ``--break=NAME`` enables one classic porting mistake (ports/typescript/src/
faults.ts). For each, ``chunkspec conformance`` must exit 1 and blame the rule the mistake
breaks, both on the vectors and on generated cases alone. Needs Node.js (and npm to build
the port once); without them these tests are skipped, saying so.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

PORT_DIR = Path(__file__).resolve().parents[1] / "ports" / "typescript"
ADAPTER = PORT_DIR / "dist" / "src" / "adapter.js"

#: Each fault and the rule it breaks (docs/portability.md, docs/spec.md).
FAULTS = {
    "trim": "WS-1",
    "utf16-order": "PACK-2",
    "locale-compare": "PACK-2",
    "break-over-budget": "PACK-7",
    "min-score-le": "PACK-4",
    "merge-last-subchunk": "SPLIT-8",
    "split-regex-tokens": "TOK-1",
    "dedupe-seen": "PACK-6",
    "assemble-no-surrogate-check": "PORT-2",
    "trim-title": "SPLIT-9",
    "words-unbounded-start": "WORDS-2",
    "words-double": "WORDS-1",
    "drop-blank-chunk": "SPLIT-10",
    "no-strip-whole": "SPLIT-1",
    "strip-kept-pieces": "SPLIT-3",
    "budget-off-by-one": "PACK-7",
    "subtraction-comparator": "PACK-1",
    "window-utf16": "WIN-9",
    "window-scrap": "WIN-6",
    "window-blank": "SOURCE-7",
    "window-tokens-utf16": "RECORD-14",
    "window-strategy-no-overlap": "RECORD-6",
    "window-id-from-one": "RECORD-2",
    "window-boolean-size": "WIN-1",
    "window-end-unclamped": "RECORD-3",
}


#: Faults diagnosed without a model of the answer: the explanation says why instead.
WHY = {
    "assemble-no-surrogate-check": "does not reject a lone surrogate (HAZ-4)",
    "trim-title": "first difference at $[0].title",
    "words-unbounded-start": "does not bound integers at 2**53 - 1 (HAZ-9)",
    "window-utf16": "cuts an astral character in two",
    "window-tokens-utf16": "first difference at",
    "window-strategy-no-overlap": "first difference at",
    "window-id-from-one": "first difference at",
    "window-boolean-size": "expected TypeError naming 'max_tokens'",
    "window-end-unclamped": "first difference at",
}


def _stale() -> bool:
    """True when the built adapter is missing or older than a source file."""
    if not ADAPTER.is_file():
        return True
    built = ADAPTER.stat().st_mtime
    sources = [*PORT_DIR.joinpath("src").glob("*.ts"), PORT_DIR / "package-lock.json"]
    return any(p.stat().st_mtime > built for p in sources)


@pytest.fixture(scope="module")
def adapter() -> list[str]:
    """The command that runs the built TypeScript adapter (building it if needed)."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("Node.js and npm are not installed: the TypeScript port cannot run")
    # A lock, so that pytest-xdist workers do not build the port at the same time.
    with PORT_DIR.joinpath(".build.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _stale():
            if not PORT_DIR.joinpath("node_modules").is_dir():
                subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=PORT_DIR, check=True)
            subprocess.run([npm, "run", "build"], cwd=PORT_DIR, check=True)
    return [node, str(ADAPTER)]


def _conformance(
    tmp_path: Path, command: list[str], *options: str
) -> tuple[int, list[dict[str, Any]]]:
    """Run the kit as a user would; return the exit status and the failure records."""
    report = tmp_path / "report.jsonl"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "chunkspec",
            "conformance",
            "-q",
            "--shrink-seconds",
            "3",
            "--jsonl",
            str(report),
            *options,
            "--",
            *command,
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONUTF8": "1"},
    )
    assert done.returncode in (0, 1), done.stderr
    records = [json.loads(line) for line in report.read_text("utf-8").splitlines()]
    return done.returncode, [r for r in records[:-1] if r["status"] == "fail"]


def test_the_port_passes(adapter: list[str], tmp_path: Path) -> None:
    """The unbroken port passes every vector and generated cases in both profiles."""
    status, failures = _conformance(tmp_path, adapter, "--cases", "500")
    assert (status, failures) == (0, [])


@pytest.mark.parametrize(("fault", "rule"), FAULTS.items())
def test_vectors_catch_the_fault_and_blame_its_rule(
    adapter: list[str], tmp_path: Path, fault: str, rule: str
) -> None:
    """Each fault fails vectors, and the kit blames the right rule."""
    status, failures = _conformance(tmp_path, [*adapter, f"--break={fault}"], "--cases", "0")
    assert status == 1
    assert failures, "no vector failed"
    assert any(rule in f["blamed"] for f in failures), [(f["id"], f["blamed"]) for f in failures]
    assert all(f["diff"] and f["field"] for f in failures)


@pytest.mark.parametrize(("fault", "rule"), FAULTS.items())
def test_generated_cases_alone_catch_the_fault(
    adapter: list[str], tmp_path: Path, fault: str, rule: str
) -> None:
    """Without vectors, generated cases find each fault, shrink it, and blame its rule
    because the answer is exactly what the mistake gives (or, for a missed check or a
    copied field, because of what the error or the field is)."""
    status, failures = _conformance(
        tmp_path, [*adapter, f"--break={fault}"], "--no-vectors", "--cases", "1000"
    )
    assert status == 1
    shrunk = [f for f in failures if f["source"] == "shrunk"] or failures
    why = WHY.get(fault, "a port gives that")
    assert any(rule in f["blamed"] and why in str(f["explanation"]) for f in shrunk), [
        (f["input"], f["blamed"], f["explanation"]) for f in failures
    ]


def test_the_guide_adapter_passes(adapter: list[str], tmp_path: Path) -> None:
    """docs/conformance.md: the ten-minute adapter, as printed, passes against the port."""
    guide = Path(__file__).resolve().parents[1] / "docs" / "conformance.md"
    source = guide.read_text("utf-8").split("```js\n", 1)[1].split("```", 1)[0]
    index = (PORT_DIR / "dist" / "src" / "index.js").as_uri()
    script = tmp_path / "adapter.mjs"
    script.write_text(source.replace('"./index.js"', f'"{index}"'), "utf-8")
    status, failures = _conformance(tmp_path, [adapter[0], str(script)], "--cases", "300")
    assert (status, failures) == (0, [])


def test_npm_pack_installs_in_a_fresh_project(adapter: list[str], tmp_path: Path) -> None:
    """The port is a package a TypeScript user installs: ``npm pack`` gives a tarball that
    a fresh ESM project installs (offline: `npm ci` put its runtime dependencies, markdown-it,
    markdown-it-deflist and zod, in npm's cache) and imports
    by name through ``exports``, with its type declarations beside the code."""
    npm = shutil.which("npm")
    assert npm is not None
    packed = subprocess.run(
        [npm, "pack", "--json", "--pack-destination", str(tmp_path)],
        cwd=PORT_DIR, capture_output=True, text=True, check=True,
    )  # fmt: skip
    tarball = tmp_path / json.loads(packed.stdout)[0]["filename"]
    project = tmp_path / "app"
    project.mkdir()
    (project / "package.json").write_text('{"name": "app", "private": true, "type": "module"}')
    subprocess.run(
        [npm, "install", "--offline", "--no-audit", "--no-fund", str(tarball)],
        cwd=project, capture_output=True, text=True, check=True,
    )  # fmt: skip
    installed = project / "node_modules" / "chunkspec-port-typescript"
    assert (installed / "dist" / "src" / "index.d.ts").is_file()
    assert not (installed / "src").exists()  # compiled code and types only
    script = project / "main.js"
    script.write_text(
        'import { words, chunkWindows, splitSection } from "chunkspec-port-typescript";\n'
        "console.log(JSON.stringify([words(3, Number.MAX_SAFE_INTEGER),\n"
        '  chunkWindows("d", "T", "ab\\u{1F600}c", 2, 0).map((r) => [r.start, r.end]),\n'
        '  splitSection("d", "T", "a b", 1).length]));\n'
    )
    done = subprocess.run([adapter[0], str(script)], cwd=project, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [
        "w9007199254740991 w9007199254740992 w9007199254740993",
        [[0, 2], [2, 4]],
        2,
    ]
