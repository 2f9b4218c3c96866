"""Run the fuzz targets for a time budget: ``python -m properties.fuzz --minutes 60``.

``nox -s fuzz`` calls this. Every target in ``properties/test_fuzz_*.py`` (functions named
``test_fuzz_*``) runs in rounds of ``--round`` examples, round-robin, with a fresh random
seed each round, until the budget is spent. Failures are saved in the Hypothesis example
database (``.hypothesis/``), so the next plain ``pytest properties`` replays them first.
Prints a per-target table of examples run; exits 1 if any target failed.

Why plain Hypothesis and not atheris or HypoFuzz: see docs/verification.md ("Fuzzing").
To add a chunker, add its targets to a ``properties/test_fuzz_<topic>.py`` file and list
the module in ``MODULES``.
"""

from __future__ import annotations

import argparse
import importlib
import time
import traceback
from collections.abc import Callable

from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase

from .fuzzing import EXAMPLES

#: Modules holding fuzz targets.
MODULES = (
    "properties.test_fuzz_core",
    "properties.test_fuzz_cli",
    "properties.test_fuzz_windows",
    "properties.test_fuzz_markdown",
    "properties.test_fuzz_cli_chunkers",
)


def _targets() -> list[tuple[str, Callable[[], None]]]:
    """Every ``test_fuzz_*`` function of ``MODULES``, as ``(name, callable)``."""
    found: list[tuple[str, Callable[[], None]]] = []
    for name in MODULES:
        module = importlib.import_module(name)
        for attr in sorted(vars(module)):
            if attr.startswith("test_fuzz_"):
                found.append((f"{name.rsplit('.', 1)[1]}::{attr}", getattr(module, attr)))
    return found


def main(argv: list[str] | None = None) -> int:
    """Fuzz until the budget is spent; print the table; return 1 if anything failed."""
    parser = argparse.ArgumentParser(prog="python -m properties.fuzz")
    parser.add_argument("--minutes", type=float, default=5.0, help="total time budget")
    parser.add_argument("--round", type=int, default=500, help="examples per target per round")
    args = parser.parse_args(argv)
    settings.register_profile(
        "fuzz",
        max_examples=args.round,
        deadline=None,
        database=DirectoryBasedExampleDatabase(".hypothesis/examples"),
        suppress_health_check=list(HealthCheck),
        derandomize=False,
        print_blob=True,
    )
    settings.load_profile("fuzz")  # before the targets are imported: @given reads it then
    targets = _targets()
    deadline = time.monotonic() + 60 * args.minutes
    failures: dict[str, str] = {}
    seconds: dict[str, float] = dict.fromkeys((name for name, _ in targets), 0.0)
    rounds = 0
    started = time.monotonic()
    while time.monotonic() < deadline and len(failures) < len(targets):
        rounds += 1
        for name, target in targets:
            if name in failures or time.monotonic() >= deadline:
                continue
            begin = time.monotonic()
            try:
                target()
            except Exception:
                failures[name] = traceback.format_exc()
                print(f"FAILED {name}\n{failures[name]}", flush=True)
            seconds[name] += time.monotonic() - begin
        print(
            f"round {rounds}: {sum(EXAMPLES.values())} examples, "
            f"{(time.monotonic() - started) / 60:.1f} min",
            flush=True,
        )
    total = time.monotonic() - started
    print(f"\nfuzzed {total / 60:.1f} min in {rounds} rounds")
    print("| target | examples | seconds | result |\n|---|---:|---:|---|")
    for name, _ in targets:
        counted = EXAMPLES[_counter_name(name)]
        verdict = "FAILED" if name in failures else "ok"
        print(f"| {name} | {counted} | {seconds[name]:.0f} | {verdict} |")
    print(f"| total | {sum(EXAMPLES.values())} | {total:.0f} | {len(failures)} failed |")
    return 1 if failures else 0


def _counter_name(target: str) -> str:
    """The ``EXAMPLES`` key a target counts under (see each target's ``outcome``/count)."""
    attr = target.split("::")[1].removeprefix("test_fuzz_")
    return {
        "whitespace_counter": "WhitespaceCounter.count",
        "cli_split": "cli split",
        "cli_pack": "cli pack",
        "cli_window": "cli window",
        "cli_pages": "cli pages",
        "cli_chunk": "cli chunk",
    }.get(attr, attr)


if __name__ == "__main__":
    raise SystemExit(main())
