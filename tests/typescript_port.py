"""The TypeScript port's two builds, for the tests that run it (ports/typescript).

``npm run build`` writes ``dist/`` (what ``npm pack`` ships: no fault code) and ``dist-test/``
(the same sources with the deliberate faults of ``src/faults.ts`` switchable, and
``dist-test/test/broken-adapter.js --break=NAME``). :func:`built` builds both once, under a
file lock (pytest-xdist workers share the folder), when a source is newer than the build.
:func:`faults` reads the one catalogue of those faults, ``faults.json``.
"""

from __future__ import annotations

import fcntl
import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

PORT_DIR = Path(__file__).resolve().parents[1] / "ports" / "typescript"
#: The shipped adapter (dist/, what the package installs) and the test-only one with faults.
ADAPTER = PORT_DIR / "dist" / "src" / "adapter.js"
BROKEN_ADAPTER = PORT_DIR / "dist-test" / "test" / "broken-adapter.js"
#: The catalogue of planted faults: src/faults.ts, scripts/build.mjs and the tests read it.
FAULTS_FILE = PORT_DIR / "faults.json"

#: The ops of each broken-port test file besides the core's (by the ops a fault changes).
MARKDOWN_OPS = frozenset({"split_markdown", "heading_aware"})
WINDOW_OPS = frozenset({"token_windows", "chunk_pages", "split_sentences"})
HTML_OPS = frozenset({"read_html"})
CODE_OPS = frozenset({"chunk_code"})
DOCUMENT_OPS = frozenset({"chunk_document"})


def faults() -> list[dict[str, Any]]:
    """The planted faults in catalogue order: ``name``, ``ops``, ``rule`` (the rule the kit
    must blame), ``related`` and ``description``."""
    entries: list[dict[str, Any]] = json.loads(FAULTS_FILE.read_text("utf-8"))["faults"]
    return entries


def faults_of(ops: frozenset[str] | None) -> list[dict[str, Any]]:
    """The faults whose ops all lie in ``ops``; ``None``: those of neither family above."""
    if ops is None:
        return [
            f
            for f in faults()
            if not set(f["ops"]) <= MARKDOWN_OPS | WINDOW_OPS | HTML_OPS | CODE_OPS | DOCUMENT_OPS
        ]
    return [f for f in faults() if set(f["ops"]) <= ops]


@dataclass(frozen=True)
class Port:
    """The tools and the built adapters."""

    node: str
    npm: str

    @property
    def adapter(self) -> list[str]:
        """The command that runs the shipped adapter."""
        return [self.node, str(ADAPTER)]

    def broken(self, fault: str) -> list[str]:
        """The command that runs the test-only adapter with ``fault`` enabled."""
        return [self.node, str(BROKEN_ADAPTER), f"--break={fault}"]


def _stale() -> bool:
    """True when a build is missing or older than a source file."""
    if not ADAPTER.is_file() or not BROKEN_ADAPTER.is_file():
        return True
    built = min(ADAPTER.stat().st_mtime, BROKEN_ADAPTER.stat().st_mtime)
    sources = [
        *PORT_DIR.joinpath("src").glob("*.ts"),
        *PORT_DIR.joinpath("test").glob("*.ts"),
        *PORT_DIR.joinpath("scripts").glob("*.mjs"),
        PORT_DIR / "package-lock.json",
        PORT_DIR / "tsconfig.json",
        FAULTS_FILE,
    ]
    return any(p.stat().st_mtime > built for p in sources)


def built() -> Port:
    """Node and npm, with both builds up to date; skips the test without Node.js."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("Node.js and npm are not installed: the TypeScript port cannot run")
    with PORT_DIR.joinpath(".build.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _stale():
            installed = PORT_DIR / "node_modules" / ".package-lock.json"
            lockfile = PORT_DIR / "package-lock.json"
            if not installed.is_file() or installed.stat().st_mtime < lockfile.stat().st_mtime:
                subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=PORT_DIR, check=True)
            subprocess.run([npm, "run", "build"], cwd=PORT_DIR, check=True)
    return Port(node, npm)


#: Calls the package's public API (dist/src/index.js) for tests: one JSON array of
#: ``[function, args]`` on stdin, one JSON array of results on stdout, where a thrown
#: ArgumentTypeError/ArgumentValueError is ``{"error": TypeError|ValueError, "argument": ...}``
#: and a Chunk is its fields under Python's names. ``pureHashText`` is the browser build's
#: SHA-256 (src/sha256.ts) in ``hashText``'s place (NPM-4).
_API_RUNNER = """
import * as api from "INDEX";
import * as sha from "SHA256";
let input = "";
for await (const piece of process.stdin) input += piece;
const wire = (v) => v instanceof api.Chunk
  ? {id: v.id, doc_id: v.docId, title: v.title, text: v.text, tokens: v.tokens,
     content_hash: v.contentHash, score: v.score}
  : Array.isArray(v) ? v.map(wire) : v;
const out = JSON.parse(input).map(([name, args]) => {
  try {
    if (name === "pureHashText") {
      return sha.createHash("sha256").update(args[0], "utf8").digest("hex");
    }
    if (name === "assemble") args = [args[0].map((c) => new api.Chunk(c.id, c.doc_id, c.title,
      c.text, c.tokens, c.content_hash, c.score)), ...args.slice(1)];
    return wire(api[name](...args));
  } catch (e) {
    if (e instanceof api.ArgumentTypeError) return {error: "TypeError", argument: e.argument};
    if (e instanceof api.ArgumentValueError) return {error: "ValueError", argument: e.argument};
    if (e instanceof api.InputError) return {error: "InputError", message: e.message};
    throw e;
  }
});
process.stdout.write(JSON.stringify(out));
"""


def call_api(port: Port, calls: list[tuple[str, list[Any]]]) -> list[Any]:
    """Run ``calls`` (function name, arguments) through the shipped package's exports."""
    program = _API_RUNNER.replace("INDEX", (PORT_DIR / "dist" / "src" / "index.js").as_uri())
    program = program.replace("SHA256", (PORT_DIR / "dist" / "src" / "sha256.js").as_uri())
    done = subprocess.run(
        [port.node, "--input-type=module", "--eval", program],
        input=json.dumps(calls),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    results: list[Any] = json.loads(done.stdout)
    return results
