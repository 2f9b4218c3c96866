"""``chunkspec conformance [options] -- COMMAND...``: check a port against the oracle."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from ._io import CliError, read_text

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``conformance`` subcommand to ``sub``."""
    parser = sub.add_parser(
        "conformance",
        help="check a port (a JSON Lines subprocess) against chunkspec",
        description=(
            "Start COMMAND as a port speaking the JSON Lines protocol of docs/conformance.md, "
            "run every vector, then generated differential cases. Exit 0 when everything "
            "passes, 1 on any failure, 2 when the port cannot be used."
        ),
    )
    parser.add_argument(
        "--cases",
        type=int,
        default=1000,
        metavar="N",
        help="generated cases per operation and profile (default 1000; 0: vectors only)",
    )
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="Hypothesis seed")
    parser.add_argument(
        "--profile",
        choices=["portable", "hazards", "all"],
        default="all",
        help="input profile of the generated cases (default all)",
    )
    parser.add_argument("--no-vectors", action="store_true", help="skip the vectors")
    parser.add_argument(
        "--timeout",
        type=float,
        default=5.0,
        metavar="SEC",
        help="per-case answer timeout (default 5)",
    )
    parser.add_argument(
        "--batch",
        type=int,
        default=100,
        metavar="K",
        help="generated cases per pipelined batch (default 100)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="W",
        help="processes that draw and answer generated cases ahead of the port (default 1 "
        "when two or more cores are usable, else 0: in this process)",
    )
    parser.add_argument(
        "--shrink-seconds",
        type=float,
        default=30.0,
        metavar="SEC",
        help="time budget for shrinking each disagreement (default 30)",
    )
    parser.add_argument(
        "--expected-failures",
        metavar="FILE",
        help="case ids (or fnmatch patterns) the port is known to fail, one a line",
    )
    parser.add_argument(
        "--allow-skips", action="store_true", help="do not fail on cases the port skips"
    )
    parser.add_argument(
        "--save-failures",
        metavar="DIR",
        help="write failing generated cases (shrunk) as vectors into DIR",
    )
    parser.add_argument("--jsonl", metavar="FILE", help="write a JSON Lines report")
    parser.add_argument("--junit", metavar="FILE", help="write a JUnit XML report")
    parser.add_argument(
        "--port-stderr", metavar="FILE", help="keep the port's stderr (its last megabyte) in FILE"
    )
    parser.add_argument(
        "-q", "--quiet", action="store_true", help="print only failures and the summary"
    )
    parser.add_argument("port_command", nargs=argparse.REMAINDER, metavar="-- COMMAND...")
    parser.set_defaults(run=run)


def _patterns(path: str | None) -> list[str]:
    """Non-blank, non-comment lines of the expected-failures file."""
    if path is None:
        return []
    lines = (line.split("#", 1)[0].strip() for line in read_text(path).splitlines())
    return [line for line in lines if line]


def _default_workers() -> int:
    """One worker when a second core is usable (CONF-16), else none."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return 1 if cores >= 2 else 0


def run(args: argparse.Namespace) -> int:
    """Run the kit and report; 0 all passed, 1 failures, 2 unusable port or bad options."""
    try:
        from .._conformance._port import PortError
        from .._conformance._report import human, jsonl, junit, save_failures
        from .._conformance._runner import Options
        from .._conformance._runner import run as run_kit
    except ModuleNotFoundError as error:
        raise CliError(
            f"the runner needs {error.name}: pip install 'chunkspec[conformance]'"
        ) from None
    command = list(args.port_command)
    if command and command[0] == "--":
        command = command[1:]
    if not command:
        raise CliError("give the port's command after --, e.g. -- node adapter.js")
    workers = _default_workers() if args.workers is None else args.workers
    if args.cases < 0 or args.batch < 1 or args.timeout <= 0 or workers < 0:
        raise CliError("--cases must be >= 0, --batch >= 1, --workers >= 0 and --timeout > 0")
    options = Options(
        command=command,
        vectors=not args.no_vectors,
        cases=args.cases,
        seed=args.seed,
        profiles=("portable", "hazards") if args.profile == "all" else (args.profile,),
        timeout=args.timeout,
        batch=args.batch,
        workers=workers,
        shrink_seconds=args.shrink_seconds,
        expected_failures=_patterns(args.expected_failures),
        allow_skips=args.allow_skips,
    )

    def progress(message: str) -> None:
        if not args.quiet:
            print(f"chunkspec conformance: {message}", file=sys.stderr, flush=True)

    try:
        summary = run_kit(options, progress)
    except PortError as error:
        raise CliError(str(error)) from None
    print(human(summary))
    if args.jsonl:
        jsonl(summary, Path(args.jsonl))
    if args.junit:
        junit(summary, Path(args.junit))
    if args.port_stderr:
        Path(args.port_stderr).write_text(summary.stderr, encoding="utf-8")
    if args.save_failures:
        for path in save_failures(summary, Path(args.save_failures), args.seed):
            print(f"saved counterexamples to {path}")
    return summary.exit_status
