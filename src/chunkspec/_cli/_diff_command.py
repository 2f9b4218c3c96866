"""``chunkspec diff OLD NEW``: the change set between two ``ingest`` results (CLI-28..CLI-30).

The same change set an incremental run writes into ``_changes/`` (INCR-6), for any two
results: per document and per chunk key, as JSON Lines on standard output or in
``--output FILE`` (.jsonl or .parquet), and a one-line summary on standard error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .._corpus._incremental import change_schema
from .._corpus._part_files import result_rows
from .._corpus._walk import shown
from .._records._changes import change_rows, change_summary
from .._records._record_files import json_line
from ._io import CliError
from ._output import atomic_file, check_output

__all__ = ["register", "summary_line"]


def register(sub: Any) -> None:
    """Add the ``diff`` subcommand."""
    parser = sub.add_parser(
        "diff",
        help="what changed between two ingest results, per document and per chunk key",
        description="Compare two ingest output folders and write the change set: one row "
        "per document (added, changed, removed, unchanged) and per chunk key (added, "
        "removed, updated, unchanged), as JSON Lines (docs/scale.md, INCR-6).",
    )
    parser.add_argument("old", metavar="OLD", help="the earlier ingest output folder")
    parser.add_argument("new", metavar="NEW", help="the later ingest output folder")
    parser.add_argument(
        "--output",
        "-o",
        metavar="FILE",
        help="write the change set to FILE (.jsonl or .parquet) instead of standard output",
    )
    parser.set_defaults(run=run)


def summary_line(counts: dict[str, dict[str, int]]) -> str:
    """CLI-29: ``documents: N added, N changed, ...; chunks: N added, ...``."""
    parts = []
    for scope, states in counts.items():
        parts.append(f"{scope}: " + ", ".join(f"{n} {state}" for state, n in states.items()))
    return "; ".join(parts)


def run(args: argparse.Namespace) -> int:
    """Read both results, write the change set, print the summary on stderr."""
    check_output(args.output)
    for flag, path in (("OLD", args.old), ("NEW", args.new)):
        if not Path(path).is_dir():  # CLI-30
            raise CliError(f"{flag} {shown(path)}: no such folder")
    old = result_rows(Path(args.old), f"OLD {shown(args.old)}")
    new = result_rows(Path(args.new), f"NEW {shown(args.new)}")
    changes = list(change_rows(old, new))
    if args.output is None:
        sys.stdout.writelines(json_line(change) for change in changes)
        sys.stdout.flush()
    elif Path(args.output).suffix.lower() == ".parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.Table.from_pylist(changes, schema=change_schema())
        with atomic_file(args.output, "wb") as binary:
            pq.write_table(table, binary)
    else:
        with atomic_file(args.output, "w") as text:
            text.writelines(json_line(change) for change in changes)
    print(f"chunkspec diff: {summary_line(change_summary(changes))}", file=sys.stderr)
    return 0
