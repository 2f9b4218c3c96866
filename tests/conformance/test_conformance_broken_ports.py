"""Proof that the gate can fail: the TypeScript port with one deliberate fault at a time.

The test-only adapter's ``--break=NAME`` (ports/typescript/dist-test/, never packed) enables
one classic porting mistake (the catalogue ports/typescript/faults.json). For each,
``chunkspec conformance`` must exit 1 and blame the rule the mistake breaks, both on the
vectors and on generated cases alone.
Needs Node.js (and npm to build the port once); without them these tests are skipped.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from chunkspec._conformance._generate import by_op
from tests.typescript_port import PORT_DIR, faults_of

#: Each fault of the core ops and the rule it breaks (ports/typescript/faults.json).
FAULTS = {f["name"]: f["rule"] for f in faults_of(None)}

#: The ops whose generated cases a fault's run gets: the port announces only these through
#: CHUNKSPEC_PORT_OPS, so the run spends its cases where the fault is.
_OPS = {f["name"]: ",".join(f["ops"]) for f in faults_of(None)}


def _ops_of(fault: str) -> str:
    """The ops a fault's generated cases go to (its catalogue ``ops``)."""
    return _OPS[fault]


#: The fewest chunks an assemble counterexample of each assemble fault needs: two to order
#: or to skip one and take the other, one for a bound or a check (CONF-10).
FEWEST_CHUNKS = {
    "utf16-order": 2,
    "locale-compare": 2,
    "subtraction-comparator": 2,
    "dedupe-seen": 2,
    "break-over-budget": 2,
    "min-score-le": 1,
    "budget-off-by-one": 1,
    "assemble-no-surrogate-check": 1,
}


#: Faults diagnosed without a model of the answer: the explanation says why instead.
WHY = {
    "assemble-no-surrogate-check": "does not reject a lone surrogate (HAZ-4)",
    "trim-title": "first difference at $[0].title",
    "words-unbounded-start": "does not bound integers at 2**53 - 1 (HAZ-9)",
    "window-utf16": "cuts an astral character in two",
    "window-tokens-utf16": "rules' own checks",
    "window-strategy-no-overlap": "first difference at",
    "window-id-from-one": "rules' own checks",
    "key-no-occurrence": "rules' own checks",
    "key-path-joined": "rules' own checks",
    "window-boolean-size": "expected TypeError naming 'max_tokens'",
    "window-end-unclamped": "first difference at",
    "hash-no-surrogate-check": "Node's hash of U+FFFD for the lone surrogate (HAZ-4)",
    "words-from-one": "first difference at",
    "count-no-type-check": "expected TypeError naming 'text'",
    "count-rejects-lone-surrogate": "the port rejected a valid input",
    "count-space-only": "first difference at $",
    "count-chars-over-4": "first difference at $",
    "count-word-regex": "first difference at $",
    "count-nbsp-not-space": "first difference at $",
    "hash-empty-skipped": "first difference at $",
    "hash-no-type-check": "expected TypeError naming 'text'",
    "hash-trimmed": "first difference at $",
    "hash-crlf-normalised": "first difference at $",
    "hash-latin1": "first difference at $",
    "hash-uppercase-hex": "first difference at $",
    "render-no-type-check": "expected TypeError naming 'c'",
    "render-no-newline": "first difference at $",
    "render-crlf": "first difference at $",
    "render-trim-title": "first difference at $",
    "render-doc-id": "first difference at $",
    "render-empty-title": "first difference at $",
    "render-trailing-newline": "first difference at $",
    "render-title-no-space": "first difference at $",
    "render-collapse-whitespace": "first difference at $",
    "words-float-n": "expected TypeError naming 'n'",
    "words-bool-n": "expected TypeError naming 'n'",
    "words-negative-start": "expected ValueError naming 'start'",
    "words-start-bound-off-by-one": "the port rejected a valid input",
    "words-no-word-check": "expected TypeError naming 'word'",
    "words-n-inclusive": "first difference at $",
    "split-ids-from-one": "first difference at $[0].id",
    "words-trailing-space": "first difference at $",
    "split-hash-with-title": "first difference at $[0].content_hash",
    "split-max-tokens-zero": "expected ValueError naming 'max_tokens'",
    "assemble-blank-line-join": "first difference at $.context",
    "assemble-nan-score": "expected ValueError naming 'chunks[0].score'",
    "window-overlap-unchecked": "expected ValueError naming 'overlap_tokens'",
    "window-strip-pieces": "rules' own checks",
    "pack-titles-by-default": "rules' own checks",
    "pack-duplicates-kept": "rules' own checks",
    "pack-trim-twice": "rules' own checks",
    "pack-budget-ignores-headers": "rules' own checks",
    "pack-keys-from-zero": "rules' own checks",
    "pack-touching-apart": "rules' own checks",
    "pack-pages-of-first": "rules' own checks",
    "pack-reading-as-score": "rules' own checks",
    "pack-shared-text-twice": "rules' own checks",
    "pack-withheld-above-min-score": "rules' own checks",
    "pack-unreadable-labels-as-none": "rules' own checks",
}


def _conformance(
    tmp_path: Path, command: list[str], *options: str, ops: str | None = None
) -> tuple[int, list[dict[str, Any]]]:
    """Run the kit as a user would; return the exit status and the failure records. With
    ``ops``, the port offers only those (CHUNKSPEC_PORT_OPS) and skipped ops are allowed."""
    only = {} if ops is None else {"CHUNKSPEC_PORT_OPS": ops}
    if ops is not None:
        options = ("--allow-skips", *options)
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
        env={**os.environ, "PYTHONUTF8": "1", **only},
    )
    assert done.returncode in (0, 1), done.stderr
    records = [json.loads(line) for line in report.read_text("utf-8").splitlines()]
    return done.returncode, [r for r in records[:-1] if r["status"] == "fail"]


def test_the_port_passes(shipped: list[str], tmp_path: Path) -> None:
    """The shipped port passes every vector and generated cases in both profiles."""
    status, failures = _conformance(tmp_path, shipped, "--cases", "200")
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


#: The faults of ops the kit generates cases for (validate_record has vectors only, CONF-17).
GENERATED_FAULTS = {
    name: rule
    for name, rule in FAULTS.items()
    if set(_OPS[name].split(",")) & set(by_op("portable"))
}


@pytest.mark.parametrize(("fault", "rule"), GENERATED_FAULTS.items())
def test_generated_cases_alone_catch_the_fault(
    adapter: list[str], tmp_path: Path, fault: str, rule: str
) -> None:
    """Without vectors, generated cases find each fault, shrink it, and blame its rule
    because the answer is exactly what the mistake gives (or, for a missed check or a
    copied field, because of what the error or the field is); an assemble counterexample
    keeps only the chunks the failure needs."""
    status, failures = _conformance(
        tmp_path,
        [*adapter, f"--break={fault}"],
        "--no-vectors",
        "--cases",
        "150",
        ops=_ops_of(fault),
    )
    assert status == 1
    shrunk = [f for f in failures if f["source"] == "shrunk"] or failures
    why = WHY.get(fault, "a port gives that")
    assert any(rule in f["blamed"] and why in str(f["explanation"]) for f in shrunk), [
        (f["input"], f["blamed"], f["explanation"]) for f in failures
    ]
    if fault in FEWEST_CHUNKS:  # each profile's smallest counterexample has the fewest chunks
        smallest = {f["profile"]: f for f in failures if f["op"] == "assemble"}
        assert smallest
        assert {len(f["input"]["chunks"]) for f in smallest.values()} == {FEWEST_CHUNKS[fault]}


def test_the_guide_adapter_passes(adapter: list[str], tmp_path: Path) -> None:
    """docs/conformance.md: the ten-minute adapter, as printed, passes against the port."""
    guide = Path(__file__).resolve().parents[2] / "docs" / "conformance.md"
    source = guide.read_text("utf-8").split("```js\n", 1)[1].split("```", 1)[0]
    dist = PORT_DIR / "dist" / "src"
    for module in ("index.js", "grammars.js"):
        source = source.replace(f'"./{module}"', f'"{(dist / module).as_uri()}"')
    script = tmp_path / "adapter.mjs"
    script.write_text(source, "utf-8")
    status, failures = _conformance(tmp_path, [adapter[0], str(script)], "--cases", "100")
    assert (status, failures) == (0, [])
