"""Throughput of ``chunkspec conformance``: generated cases judged per second, end to end.

Run with ``nox -s bench`` (or ``python benchmarks/bench_conformance.py [--cases 700]``).
Each figure is one whole run of the runner (Hypothesis drawing, the in-process oracle, the
pipe, the port, the comparison) against a persistent port process:

* the TypeScript port (``ports/typescript``, built; skipped with a note if it is not);
* ``tests/conformance_port.py``, chunkspec itself behind the protocol (a slower port);

at batch sizes 1 (no pipelining), 10 and 100 (the default), and time(4N)/time(N) to show
that the run is linear in the number of cases. Each row also gives the CPU seconds of the
kit, its workers and the port (the figure to trust on a loaded machine). Then the drawing
alone: cases per CPU second drawn without recording choices (CONF-19) and with plain
``ConjectureData``, interleaved, and their ratio.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import sys
import time
from pathlib import Path

from chunkspec._conformance._draw import draws
from chunkspec._conformance._generate import PROFILES, by_op
from chunkspec._conformance._runner import Options, run

ROOT = Path(__file__).resolve().parents[1]
ADAPTER = ROOT / "ports" / "typescript" / "dist" / "src" / "adapter.js"
PY_PORT = ROOT / "tests" / "conformance_port.py"


def _cpu() -> float:
    """CPU seconds of this process and its waited-for children (the port, the workers)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def measure(
    command: list[str], cases: int, batch: int, profile: str, workers: int = 0
) -> tuple[float, float, int]:
    """Return (seconds, CPU seconds, generated cases) for one run without vectors."""
    options = Options(
        command=command,
        vectors=False,
        cases=cases,
        batch=batch,
        profiles=(profile,),
        workers=workers,
    )
    start, cpu = time.perf_counter(), _cpu()
    summary = run(options)
    seconds, cpu = time.perf_counter() - start, _cpu() - cpu
    if summary.exit_status != 0:
        raise SystemExit(f"{command[0]}: the port failed the run; fix it before timing it")
    return seconds, cpu, sum(summary.generated.values())


def drawing(cases: int, rounds: int = 3) -> None:
    """Cases per CPU second of every op's strategy, drawn bare and plain (CONF-19)."""
    spent = {True: 0.0, False: 0.0}
    for _ in range(rounds):
        for bare in (True, False):
            for profile in PROFILES:
                for op, strategy in by_op(profile).items():
                    source = draws(strategy, f"0:{profile}:{op}", bare=bare)
                    assert source is not None
                    start = time.process_time()
                    for _ in range(cases):
                        next(source)
                    spent[bare] += time.process_time() - start
    total = rounds * cases * len(PROFILES) * len(by_op("portable"))
    print(
        f"drawing {total // rounds} cases x {rounds}: bare {total / spent[True]:,.0f}/CPU s, "
        f"plain ConjectureData {total / spent[False]:,.0f}/CPU s, "
        f"CPU ratio bare/plain {spent[True] / spent[False]:.2f}"
    )


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
    drawing(200)
    print(
        f"{'port':34} {'profile':9} {'batch':>5} {'wkrs':>4} {'cases':>6} {'seconds':>8} "
        f"{'cases/s':>8} {'CPU s':>7}"
    )
    for name, command in ports:
        for profile in ("portable", "hazards"):
            for batch, workers in ((1, 0), (10, 0), (100, 0), (100, 1)):
                n = args.cases if batch > 1 else max(args.cases // 5, 20)
                seconds, cpu, done = measure(command, n, batch, profile, workers)
                print(
                    f"{name:34} {profile:9} {batch:5} {workers:4} {done:6} {seconds:8.2f} "
                    f"{done / seconds:8.0f} {cpu:7.2f}"
                )
        small, _, done_small = measure(command, args.cases // 4, 100, "hazards")
        large, _, done_large = measure(command, args.cases, 100, "hazards")
        ratio = (large / done_large) / (small / done_small)
        print(
            f"{name:34} scaling: time(4N)/time(N) = {large / small:.2f} "
            f"(per-case time ratio {ratio:.2f})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
