"""Per-module mutation score from mutmut's results: ``python tests/mutation_report.py``.

Run after ``mutmut run`` (``nox -s mutation`` does both). Prints a Markdown table of
killed / survived / other / total and the score per module, then the surviving mutants.
A mutant counts as killed when a test failed or it timed out (an endless loop is caught).
Surviving mutants that docs/verification.md lists as equivalent are shown as such.
"""

from __future__ import annotations

import math
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).parent.parent
VERIFICATION = ROOT / "docs" / "verification.md"
SAMPLE = ROOT / "mutants" / "sample.txt"

_LINE = re.compile(r"^\s*(?P<name>[\w.ǁ]+?)__mutmut_(?P<n>\d+): (?P<status>.+)$")
_KILLED = {"killed", "timeout", "caught by type check"}


def _module(name: str) -> str:
    """``chunkspec._cli._pack_command.x__chunk`` -> ``src/chunkspec/_cli/_pack_command.py``."""
    path = "src/" + re.split(r"\.x[_ǁ]", name, maxsplit=1)[0].replace(".", "/")
    return f"{path}/__init__.py" if (ROOT / path).is_dir() else f"{path}.py"


_CORE = ["_split_section", "_assemble", "_validate", "_tokens", "_hashing", "_seed_chunk", "_words"]
_CORE += ["_errors", "_cli/_main", "_corpus/_file_io", "_records/_record_files"]
_CORE += ["_cli/_split_command", "_cli/_pack_command"]
_WINDOWS = ["_window", "_counters", "_pages", "_pdf", "_cli/_window_command", "_cli/_pages_command"]
_WINDOWS += ["_cli/_chunking_flags"]
_MARKDOWN = ["_markdown", "_blocks", "_split_markdown", "_heading_aware", "_sentences"]
_MARKDOWN += ["contract", "_cli/_chunk_command"]
_EVAL = ["_metrics", "_gold", "_strategy_names", "_evaluate", "_retrievers", "_labelled_corpus"]
_EVAL += ["_cli/_eval_command"]
_CONFORMANCE = ["_conformance/", "_cli/_conformance_command", "_cli/_vectors_command"]

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
    statuses: dict[str, dict[str, str]] = defaultdict(dict)  # module -> name -> status
    for line in listing.splitlines():
        match = _LINE.match(line)
        if match is not None:
            name = f"{match['name']}__mutmut_{match['n']}"
            statuses[_module(match["name"])][name] = match["status"].strip()
    sample = set(SAMPLE.read_text("utf-8").split()) if SAMPLE.exists() else set()
    sampled: set[str] = set()
    for module, by_name in statuses.items():
        drawn = {name: status for name, status in by_name.items() if name in sample}
        unrun = {"not checked", "skipped"} & set(by_name.values())
        if drawn and unrun:  # not fully run: score the sample
            statuses[module] = drawn
            sampled.add(module)
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    survivors: list[str] = []
    for module, by_name in statuses.items():
        for name, status in by_name.items():
            if status in ("survived", "no tests"):  # "no tests": nothing reaches it, a hole too
                survivors.append(name)
                counts[module]["survived"] += 1
            else:
                counts[module]["killed" if status in _KILLED else status] += 1
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
            label = f"{module} (sample)" if module in sampled else module
            print(_row(label, row, listed[module], module in sampled))
        total.update(subtotal)
        part = any(m in sampled for m in modules)
        label = f"**{title}**" + (" (sample)" if part else "")
        print(_row(label, subtotal, sum(listed[m] for m in modules), part))
    print(_row("**all**", total, len(equivalent), bool(sampled)))
    unexplained = [name for name in survivors if name not in equivalent]
    print(
        f"\n{len(survivors)} survived, {len(equivalent)} listed as equivalent"
        " in docs/verification.md"
    )
    for name in sorted(unexplained):
        print(f"  not explained: {name}")
    return 0


def _row(module: str, row: Counter[str], equivalent: int, sampled: bool = False) -> str:
    """One table row; the score is killed / (total - equivalent), with a 95% Wilson
    interval when the row is a random sample (tests/mutation_sample.py)."""
    n = sum(row.values())
    other = n - row["killed"] - row["survived"]
    trials = max(1, n - equivalent)
    score = f"{100 * row['killed'] / trials:.1f}%"
    if sampled:
        low, high = _wilson(row["killed"], trials)
        score += f" ({100 * low:.1f}–{100 * high:.1f})"
    return (
        f"| {module} | {row['killed']} | {row['survived']} | {equivalent} | {other} | {n} "
        f"| {score} |"
    )


def _wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for k successes in n trials."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


if __name__ == "__main__":
    sys.exit(main())
