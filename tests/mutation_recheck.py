"""Forget mutmut's verdict on every surviving mutant: ``python tests/mutation_recheck.py``.

mutmut keeps each mutant's verdict in ``mutants/**/*.py.meta`` and, on the next ``mutmut
run``, re-tests only mutants without one (new mutants, and those of functions whose source
changed). New *tests* do not reset anything, so after adding tests that kill survivors run
this, then ``mutmut run``: every survivor ("survived", "no tests") is tested again against
the whole current suite, while killed verdicts stand (adding tests cannot revive a killed
mutant). ``nox -s mutation -- --recheck`` does both. Prints how many verdicts it reset.

When ``mutants/sample.txt`` exists (tests/mutation_sample.py), a mutant outside the sample
that has never been run is marked "skipped" (mutmut's exit code 34), so that the re-check
runs the sample's survivors and the mutants of changed functions, not the whole remainder.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent

#: mutmut's exit codes for a surviving mutant: survived (0), no tests (5, 33).
SURVIVED = {0, 5, 33}
#: mutmut's exit code for "skipped".
SKIPPED = 34
SAMPLE = ROOT / "mutants" / "sample.txt"


def main() -> int:
    """Reset the verdicts; return 0."""
    sample = set(SAMPLE.read_text("utf-8").split()) if SAMPLE.exists() else None
    reset = skipped = 0
    for meta in sorted((ROOT / "mutants").rglob("*.py.meta")):
        data = json.loads(meta.read_text("utf-8"))
        verdicts: dict[str, int | None] = data["exit_code_by_key"]
        unsampled = [k for k, c in verdicts.items() if c is None and sample and k not in sample]
        stale = [key for key, code in verdicts.items() if code in SURVIVED]
        for key in unsampled:
            verdicts[key] = SKIPPED
        for key in stale:
            verdicts[key] = None
        if stale or unsampled:
            meta.write_text(json.dumps(data, indent=4), "utf-8")
            reset += len(stale)
            skipped += len(unsampled)
    print(f"reset {reset} surviving mutants for a re-check; {skipped} outside the sample skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
