"""Peak memory of Markdown tables under every strategy, as a multiple of the file's size
(TRUST-50, TRUST-51; docs/performance.md, memory).

Run with ``nox -s bench -- tables`` or ``python benchmarks/bench_tables.py [--sizes 1,2,4,8]
[--shapes tiny,wide] [--parsers markdown-it-pyrs,markdown-it-py]``. For each size (MB),
table shape, block scan and strategy, a fresh ``python`` process imports chunkspec, notes
its resident memory, resets its peak (``/proc/self/clear_refs``; else ``ru_maxrss``), then
calls ``chunk_document(read_document(path), strategy)`` and reports the peak RSS of the
call less that baseline, divided by the file's size. Shapes: ``tiny``, one-character cells
(``|é|日|a|``: the most cells a byte, the worst case); ``wide``, four cells of words with
accents, CJK and escaped pipes. The target is at most 20 for every row.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

STRATEGIES = ("heading", "structural", "recursive", "window", "pages")

_WORKER = """
import json, resource, sys
from chunkspec import chunk_document, read_document
import chunkspec._text._markdown_fast, chunkspec._text._markdown_it  # loaded before the baseline

def rss():
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0

def peak():
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

try:
    with open("/proc/self/clear_refs", "w", encoding="ascii") as refs:
        refs.write("5")
except OSError:
    pass
base = rss()
records = chunk_document(read_document(sys.argv[1]), sys.argv[2])
print(json.dumps({"peak": peak() - base, "records": len(records)}))
"""


def table(size: int, shape: str, seed: int = 0) -> str:
    """A GFM table of about ``size`` UTF-8 bytes of the given shape."""
    rnd = random.Random(seed)
    if shape == "tiny":
        cells, columns = ["é", "日", "a", "ж", "1", "\\|"], 3
    else:
        cells = ["alpha", "béta", "γάμμα", "дельта", "日本語", "naïve café", "x\\|y", "42"]
        columns = 4
    rows = [
        "|" + "|".join(f"c{k}" for k in range(columns)) + "|",
        "|" + "|".join("---" for _ in range(columns)) + "|",
    ]
    total = sum(len(row) + 1 for row in rows)
    while total < size:
        row = "|" + "|".join(rnd.choice(cells) for _ in range(columns)) + "|"
        rows.append(row)
        total += len(row.encode()) + 1
    return "# Table\n\n" + "\n".join(rows) + "\n"


def measure(path: Path, strategy: str, parser: str) -> float:
    """Peak RSS of one call over the file's size, in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", _WORKER, str(path), strategy],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "CHUNKSPEC_MARKDOWN_PARSER": parser},
    )
    result = json.loads(done.stdout)
    return float(result["peak"]) / path.stat().st_size


def main() -> None:
    """Print one row per size, shape and scan: the ratio of every strategy."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,2,4,8", help="table sizes in MB (default 1,2,4,8)")
    parser.add_argument("--shapes", default="tiny,wide")
    parser.add_argument("--parsers", default="markdown-it-pyrs,markdown-it-py")
    args = parser.parse_args()
    sizes = [float(size) for size in args.sizes.split(",")]
    parsers = [name for name in args.parsers.split(",") if name]
    try:
        import markdown_it_pyrs  # noqa: F401
    except ImportError:
        parsers = [name for name in parsers if name != "markdown-it-pyrs"]
    print(f"{'MB':>4} {'shape':<5} {'scan':<17} " + " ".join(f"{s:>10}" for s in STRATEGIES))
    worst = 0.0
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            for shape in args.shapes.split(","):
                path = Path(folder) / f"{shape}-{size}.md"
                path.write_text(table(int(size * 1e6), shape), encoding="utf-8")
                for scan in parsers:
                    ratios = [measure(path, strategy, scan) for strategy in STRATEGIES]
                    worst = max(worst, *ratios)
                    cells = " ".join(f"{ratio:>9.1f}x" for ratio in ratios)
                    print(f"{size:>4g} {shape:<5} {scan:<17} {cells}", flush=True)
    print(f"worst: {worst:.1f}x the file's size (target: at most 20x)")


if __name__ == "__main__":
    main()
