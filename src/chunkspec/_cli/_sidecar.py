"""``--metadata FILE.jsonl``: caller metadata for the documents of a run (rule META-7).

The file is read by ``chunkspec._corpus._sidecar_file.read_sidecar``; a problem is one line
naming ``FILE:LINE`` and exit status 2, before any document is read.
"""

from __future__ import annotations

import argparse

__all__ = ["add_metadata_option"]


def add_metadata_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--metadata FILE.jsonl`` (META-7)."""
    parser.add_argument(
        "--metadata",
        metavar="FILE.jsonl",
        help='document metadata, one JSON object a line: {"doc_id": ID, "metadata": {...}}; '
        "every record of document ID carries it, over the document's front-matter fields; "
        "every ID must name an input document",
    )
