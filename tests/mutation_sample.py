"""Draw a random sample of mutants: ``python tests/mutation_sample.py 0.3 GLOB... 0.2 GLOB...``.

For the modules whose full mutation run takes hours on two cores (the evaluation harness
and the conformance kit), mutants are sampled instead of all run: a fixed-seed uniform
sample, stratified by module (a prefix of a fixed shuffle, so raising the fraction only
adds mutants), written to ``mutants/sample.txt`` (one name a line).
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
    fraction_of: dict[str, float] = {}  # each GLOB takes the fraction written before it
    fraction = 1.0
    for arg in argv:
        try:
            fraction = float(arg)
        except ValueError:
            fraction_of[arg] = fraction
    by_module: dict[str, list[tuple[str, int | None]]] = defaultdict(list)
    share: dict[str, float] = {}
    for path in sorted((ROOT / "mutants").rglob("*.py.meta")):
        meta = path.relative_to(ROOT).as_posix()  # the seed must not depend on the checkout
        verdicts: dict[str, int | None] = json.loads(path.read_text("utf-8"))["exit_code_by_key"]
        for name, code in verdicts.items():
            for pattern, part in fraction_of.items():
                if fnmatch.fnmatch(name, pattern):
                    by_module[meta].append((name, code))
                    share[meta] = part
                    break
    sample: list[tuple[str, int | None]] = []
    for module in sorted(by_module):
        # A fixed shuffle per module and a prefix of it: a larger fraction extends the sample.
        names = sorted(by_module[module])
        random.Random(f"{SEED}:{module}").shuffle(names)
        sample += names[: max(1, round(share[module] * len(names)))]
    SAMPLE.write_text("".join(f"{name}\n" for name, _ in sample), "utf-8")
    for name, code in sample:
        if code is None:
            print(name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
