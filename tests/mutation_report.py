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


_CORE = ["_split", "_assemble", "_validate", "_tokens", "_hashing", "_chunk", "_words"]
_CORE += ["_errors", "_cli/__init__", "_cli/_io", "_cli/_split", "_cli/_pack"]
_WINDOWS = ["_window", "_counters", "_pages", "_pdf", "_cli/_window", "_cli/_pages"]
_WINDOWS += ["_cli/_counter"]
_MARKDOWN = ["_markdown", "_blocks", "_split_markdown", "_heading_aware", "_sentences"]
_MARKDOWN += ["contract", "_cli/_chunk"]
_EVAL = ["_metrics", "_gold", "_strategies", "_evaluate", "_retrievers", "_labelled_corpus"]
_EVAL += ["_cli/_eval"]
_CONFORMANCE = ["_conformance/", "_cli/_conformance", "_cli/_vectors"]

#: Module groups, in pyproject's ``only_mutate`` order: (title, module path prefixes).
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = tuple(
    (title, tuple(f"src/chunkspec/{m}" + ("" if m.endswith("/") else ".py") for m in names))
    for title, names in (
        ("seed-000 core + CLI", _CORE),
        ("windows, pages, counters", _WINDOWS),
        ("Markdown, heading-aware, sentences, contract", _MARKDOWN),
        ("evaluation harness", _EVAL),
        ("conformance kit", _CONFORMANCE),
    )
)


def _group(module: str) -> str:
    """The title of the group ``module`` belongs to ("other" if none)."""
    for title, prefixes in GROUPS:
        if module.startswith(prefixes):
            return title
    return "other"


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
        if status in ("survived", "no tests"):  # "no tests": nothing reaches it, a hole too
            survivors.append(f"{match['name']}__mutmut_{match['n']}")
    documented = VERIFICATION.read_text("utf-8") if VERIFICATION.exists() else ""
    equivalent = [name for name in survivors if f"`{name}`" in documented]
    print("| module | killed | survived | equivalent (listed) | other | total | score |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    total: Counter[str] = Counter()
    listed: Counter[str] = Counter(_module(n.rsplit("__mutmut_", 1)[0]) for n in equivalent)
    order = [title for title, _ in GROUPS] + ["other"]
    for title in order:
        modules = sorted(m for m in counts if _group(m) == title)
        if not modules:
            continue
        subtotal: Counter[str] = Counter()
        for module in modules:
            row = counts[module]
            subtotal.update(row)
            print(_row(module, row, listed[module]))
        total.update(subtotal)
        print(_row(f"**{title}**", subtotal, sum(listed[m] for m in modules)))
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
