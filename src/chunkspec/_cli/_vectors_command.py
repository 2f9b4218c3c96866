"""``chunkspec vectors DIR``: write the conformance vectors, schemas and manifest."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from .._conformance import export

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``vectors`` subcommand to ``sub``."""
    parser = sub.add_parser(
        "vectors",
        help="write the conformance vectors for a port's repository",
        description=(
            "Write one vector file per function, the JSON Schemas and manifest.json into DIR "
            "(created if missing; existing files of the same names are replaced)."
        ),
    )
    parser.add_argument("directory", metavar="DIR")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Export the vectors and print what was written."""
    directory = Path(args.directory)
    if directory.exists() and not directory.is_dir():
        raise ValueError(f"{directory} exists and is not a directory")
    files = export(directory)
    manifest = json.loads(files["manifest.json"])
    print(
        f"wrote {len(files)} files ({manifest['cases']} cases, suite {manifest['suite_version']}, "
        f"content hash {manifest['content_hash'][:16]}) to {directory}"
    )
    return 0
