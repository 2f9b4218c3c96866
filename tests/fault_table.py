"""The planted faults' table: per operation, how many the kit catches and blames right.

``python -m tests.fault_table`` runs the kit at its default settings (1,000 cases of each op
in each profile, seed 0; shrinking cut to 5 s) against the TypeScript port's test adapter
once per fault of ports/typescript/faults.json, the port offering only the fault's ops
(CHUNKSPEC_PORT_OPS), and prints the Markdown table of docs/conformance.md: per op the
faults that change its answers, those a vector catches, those a generated case catches,
and those blamed right (the fault's rule is among the rules blamed on the op's first
vector failure and on its smallest generated counterexample, whichever exist). Needs the
port built (``npm run build`` in ports/typescript). ``--jobs N`` runs N kits at once.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from chunkspec._conformance._generate import by_op
from chunkspec._conformance._oracle import OPS as WIRE_OPS
from tests.typescript_port import BROKEN_ADAPTER, faults

#: Every protocol operation, in the order of the table (CONF-4).
OPS = list(WIRE_OPS)
#: The operations the kit generates cases for (validate_record has vectors only, CONF-17).
GENERATED = set(by_op("portable"))


def run_fault(fault: dict[str, Any], cases: int) -> dict[str, dict[str, bool | None]]:
    """Per op the fault changed: caught by a vector, by a generated case, blamed right."""
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "report.jsonl"
        env = {**os.environ, "CHUNKSPEC_PORT_OPS": ",".join(fault["ops"])}
        subprocess.run(
            [
                sys.executable,
                "-m",
                "chunkspec",
                "conformance",
                "-q",
                "--allow-skips",
                "--shrink-seconds",
                "5",
                "--cases",
                str(cases),
                "--jsonl",
                str(report),
                "--",
                "node",
                str(BROKEN_ADAPTER),
                f"--break={fault['name']}",
            ],
            env=env,
            capture_output=True,
            check=False,
        )
        lines = [json.loads(line) for line in report.read_text("utf-8").splitlines()]
    failures = [r for r in lines if r.get("status") == "fail"]
    out: dict[str, dict[str, bool | None]] = {}
    for op in fault["ops"]:
        mine = [r for r in failures if r.get("op") == op]
        if not mine:
            continue
        vectors = [r for r in mine if r.get("source") == "vector"]
        generated = [r for r in mine if r.get("source") != "vector"]
        shrunk = [r for r in generated if r.get("source") == "shrunk"] or generated
        judged = [group[0] for group in (vectors, shrunk[-1:]) if group]
        out[op] = {
            "vectors": bool(vectors),
            "generated": bool(generated) if op in GENERATED else None,
            "blamed": all(fault["rule"] in r.get("blamed", []) for r in judged),
        }
    return out


def table(results: dict[str, dict[str, dict[str, bool | None]]]) -> str:
    """The Markdown table: per op, faults, caught by vectors, by generated cases, blamed."""
    rows = [
        "| op | planted faults | caught by vectors alone | caught by generated cases "
        "| blamed right |",
        "|---|---:|---:|---:|---:|",
    ]
    for op in OPS:
        per = [r[op] for r in results.values() if op in r]
        if not per:
            continue
        n = len(per)
        cells = [
            "-" if any(p[k] is None for p in per) else _share(sum(bool(p[k]) for p in per), n)
            for k in ("vectors", "generated", "blamed")
        ]
        rows.append(f"| `{op}` | {n} | " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def _share(count: int, n: int) -> str:
    """``count (percent)``."""
    return f"{count} ({count / n:.0%})"


def main(argv: list[str]) -> int:
    """Run every fault and print the table (and each miss)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--only", default="", help="comma-separated fault names")
    options = parser.parse_args(argv)
    chosen = [f for f in faults() if not options.only or f["name"] in options.only.split(",")]
    with ThreadPoolExecutor(options.jobs) as pool:
        done = dict(
            zip(
                [f["name"] for f in chosen],
                pool.map(lambda f: run_fault(f, options.cases), chosen),
                strict=True,
            )
        )
    for fault in chosen:
        got = done[fault["name"]]
        if not got:
            print(f"not caught: {fault['name']} ({fault['rule']})")
        for op, marks in got.items():
            if not all(v for v in marks.values() if v is not None):
                print(f"{fault['name']} on {op} ({fault['rule']}): {marks}")
    print(table(done))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
