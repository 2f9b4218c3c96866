"""Per-module mutation score from mutmut's results: ``python tests/mutation_report.py``.

Run after ``mutmut run`` (``nox -s mutation`` does both). Prints a Markdown table of
killed / survived / other / total and the score per module, then the surviving mutants.
A mutant counts as killed when a test failed or it timed out (an endless loop is caught).
Surviving mutants that docs/verification.md lists as equivalent are shown as such.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).parent.parent
VERIFICATION = ROOT / "docs" / "verification.md"

_LINE = re.compile(r"^\s*(?P<name>[\w.ǁ]+?)__mutmut_(?P<n>\d+): (?P<status>.+)$")
_KILLED = {"killed", "timeout", "caught by type check"}


def _module(name: str) -> str:
    """``chunkspec._cli._pack.x__chunk`` -> ``src/chunkspec/_cli/_pack.py``."""
    path = "src/" + re.split(r"\.x[_ǁ]", name, maxsplit=1)[0].replace(".", "/")
    return f"{path}/__init__.py" if (ROOT / path).is_dir() else f"{path}.py"


def main() -> int:
    """Print the table; return 0."""
    listing = subprocess.run(
        ["mutmut", "results", "--all", "true"], capture_output=True, text=True, check=True
    ).stdout
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    survivors: list[str] = []
    for line in listing.splitlines():
        match = _LINE.match(line)
        if match is None:
            continue
        status = match["status"].strip()
        module = _module(match["name"])
        kind = "killed" if status in _KILLED else status
        counts[module][kind] += 1
        if status == "survived":
            survivors.append(f"{match['name']}__mutmut_{match['n']}")
    documented = VERIFICATION.read_text("utf-8") if VERIFICATION.exists() else ""
    equivalent = [name for name in survivors if f"`{name}`" in documented]
    print("| module | killed | survived | equivalent (listed) | other | total | score |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    total: Counter[str] = Counter()
    listed: Counter[str] = Counter(_module(n.rsplit("__mutmut_", 1)[0]) for n in equivalent)
    for module in sorted(counts):
        row = counts[module]
        total.update(row)
        print(_row(module, row, listed[module]))
    print(_row("**all**", total, len(equivalent)))
    unexplained = [name for name in survivors if name not in equivalent]
    print(
        f"\n{len(survivors)} survived, {len(equivalent)} listed as equivalent"
        " in docs/verification.md"
    )
    for name in unexplained:
        print(f"  not explained: {name}")
    return 0


def _row(module: str, row: Counter[str], equivalent: int) -> str:
    """One table row; the score is killed / (total - equivalent)."""
    n = sum(row.values())
    other = n - row["killed"] - row["survived"]
    score = 100 * row["killed"] / max(1, n - equivalent)
    return (
        f"| {module} | {row['killed']} | {row['survived']} | {equivalent} | {other} | {n} "
        f"| {score:.1f}% |"
    )


if __name__ == "__main__":
    sys.exit(main())
