"""Draw a uniform random sample of mutants: ``python tests/mutation_sample.py 0.25 GLOB...``.

For the modules whose full mutation run takes hours on two cores (the evaluation harness
and the conformance kit), mutants are sampled instead of all run: a fixed-seed uniform
sample, stratified by module, written to ``mutants/sample.txt`` (one name a line).
``tests/mutation_report.py`` then scores each module that has unchecked mutants over its
sampled mutants only (not over whichever mutants happen to have a verdict: mutmut runs the
fastest first, which would bias the score) and gives a 95% interval. Prints the sampled
names that have no verdict yet, to be passed to ``mutmut run``.
"""

from __future__ import annotations

import fnmatch
import json
import random
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).parent.parent
SAMPLE = ROOT / "mutants" / "sample.txt"
SEED = 20261130


def main(argv: list[str]) -> int:
    """Write the sample; print the names still to run; return 0."""
    fraction, patterns = float(argv[0]), argv[1:]
    by_module: dict[str, list[tuple[str, int | None]]] = defaultdict(list)
    for meta in sorted((ROOT / "mutants").rglob("*.py.meta")):
        verdicts: dict[str, int | None] = json.loads(meta.read_text("utf-8"))["exit_code_by_key"]
        for name, code in verdicts.items():
            if any(fnmatch.fnmatch(name, p) for p in patterns):
                by_module[str(meta)].append((name, code))
    rng = random.Random(SEED)
    sample: list[tuple[str, int | None]] = []
    for module in sorted(by_module):
        names = sorted(by_module[module])
        sample += rng.sample(names, max(1, round(fraction * len(names))))
    SAMPLE.write_text("".join(f"{name}\n" for name, _ in sample), "utf-8")
    for name, code in sample:
        if code is None:
            print(name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
