"""Throughput of ``chunkspec conformance``: generated cases judged per second, end to end.

Run with ``nox -s bench`` (or ``python benchmarks/bench_conformance.py [--cases 700]``).
Each figure is one whole run of the runner (Hypothesis drawing, the in-process oracle, the
pipe, the port, the comparison) against a persistent port process:

* the TypeScript port (``ports/typescript``, built; skipped with a note if it is not);
* ``tests/conformance_port.py``, chunkspec itself behind the protocol (a slower port);

at batch sizes 1 (no pipelining), 10 and 100 (the default), and time(4N)/time(N) to show
that the run is linear in the number of cases.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

from chunkspec._conformance._runner import Options, run

ROOT = Path(__file__).resolve().parents[1]
ADAPTER = ROOT / "ports" / "typescript" / "dist" / "src" / "adapter.js"
PY_PORT = ROOT / "tests" / "conformance_port.py"


def measure(command: list[str], cases: int, batch: int, profile: str) -> tuple[float, int]:
    """Return (seconds, generated cases) for one run without vectors."""
    options = Options(command=command, vectors=False, cases=cases, batch=batch, profiles=(profile,))
    start = time.perf_counter()
    summary = run(options)
    seconds = time.perf_counter() - start
    if summary.exit_status != 0:
        raise SystemExit(f"{command[0]}: the port failed the run; fix it before timing it")
    return seconds, sum(summary.generated.values())


def main() -> int:
    """Print cases per second for each port, profile and batch size, and the scaling."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--cases",
        type=int,
        default=700,
        help="cases per operation in a run (default 700: about 5,000 in all)",
    )
    args = parser.parse_args()
    ports: list[tuple[str, list[str]]] = []
    node = shutil.which("node")
    if node and ADAPTER.is_file():
        ports.append(("typescript", [node, str(ADAPTER)]))
    else:
        print("note: TypeScript port not built (cd ports/typescript && npm ci && npm run build)")
    ports.append(("python (chunkspec over the pipe)", [sys.executable, str(PY_PORT)]))
    print(f"{'port':34} {'profile':9} {'batch':>5} {'cases':>6} {'seconds':>8} {'cases/s':>8}")
    for name, command in ports:
        for profile in ("portable", "hazards"):
            for batch in (1, 10, 100):
                n = args.cases if batch > 1 else max(args.cases // 5, 20)
                seconds, done = measure(command, n, batch, profile)
                print(
                    f"{name:34} {profile:9} {batch:5} {done:6} {seconds:8.2f} {done / seconds:8.0f}"
                )
        small, done_small = measure(command, args.cases // 4, 100, "hazards")
        large, done_large = measure(command, args.cases, 100, "hazards")
        ratio = (large / done_large) / (small / done_small)
        print(
            f"{name:34} scaling: time(4N)/time(N) = {large / small:.2f} "
            f"(per-case time ratio {ratio:.2f})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
