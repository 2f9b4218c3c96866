"""The inputs of the chunking commands: files, folders and ``-`` (rules CLI-7 to CLI-10)."""

from __future__ import annotations

import argparse
import fnmatch
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._text._documents import (
    INPUT_FORMATS,
    SUFFIXES,
    InputError,
    SourceDocument,
    document_from_bytes,
    read_bytes,
)
from ._io import CliError

__all__ = ["Input", "add_input_options", "documents", "find_inputs"]


@dataclass(frozen=True, slots=True)
class Input:
    """One document to read: its path (``-`` for stdin) and its doc id (CLI-8)."""

    path: str
    doc_id: str


def add_input_options(parser: Any) -> None:
    """Add ``PATH...`` and the options that say how to find and read documents."""
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="files, folders (searched recursively) or - for standard input",
    )
    parser.add_argument(
        "--glob",
        metavar="PATTERN",
        help="in folders, only files whose path relative to the folder matches PATTERN "
        "(fnmatch, e.g. '*.md' or 'guide/*'; default: every .md, .markdown, .txt, .pdf "
        "and .json file)",
    )
    parser.add_argument(
        "--doc-id",
        metavar="ID",
        help="the document id, for a single input (default: the path relative to the folder "
        "given, without suffix; a file's name without suffix; stdin for -)",
    )
    parser.add_argument(
        "--title",
        metavar="T",
        help="the document title, for a single input (default: the first level-1 heading, "
        "a PDF's /Title, else the doc id)",
    )
    parser.add_argument(
        "--input-format",
        choices=INPUT_FORMATS,
        help="read every input as this format (default: by suffix; a PDF is also known by "
        "its %%PDF- header; - is Markdown)",
    )
    parser.add_argument(
        "--keep-going",
        action="store_true",
        help="write every good document and list the bad ones (exit status 2 all the same)",
    )


def find_inputs(paths: list[str], pattern: str | None, doc_id: str | None) -> list[Input]:
    """Expand ``paths`` into inputs, in the order given, folders sorted (CLI-7, CLI-8).

    A folder contributes its files, recursively, sorted by relative path, skipping names
    that start with ``.``; without ``--glob`` only files with a known suffix. Doc ids are
    relative paths without suffix (``/``-separated); two inputs with one id are an error.
    """
    if paths.count("-") > 1:
        raise CliError("- (standard input) can be given once")
    found: list[Input] = []
    for path in paths:
        if path == "-":
            found.append(Input("-", "stdin"))
        elif os.path.isdir(path):
            found.extend(_walk(path, pattern))
        else:
            found.append(Input(path, Path(path).stem))
    if not found:
        where = ", ".join(paths)
        raise CliError(
            f"no input files in {where}"
            + (
                f" matching --glob {pattern!r}"
                if pattern
                else " (.md, .markdown, .txt, .pdf, .json)"
            )
        )
    if doc_id is not None:
        if len(found) != 1:
            raise CliError(f"--doc-id needs exactly one input document, got {len(found)}")
        found = [Input(found[0].path, doc_id)]
    seen: dict[str, str] = {}
    for item in found:
        if item.doc_id in seen:
            raise CliError(
                f"{item.path}: doc id {item.doc_id!r} is also the id of {seen[item.doc_id]}"
            )
        seen[item.doc_id] = item.path
    return found


def _walk(folder: str, pattern: str | None) -> Iterator[Input]:
    """Yield the inputs of ``folder`` sorted by relative path (CLI-7)."""
    root = Path(folder)
    chosen: list[tuple[str, Path]] = []
    for directory, subdirectories, files in os.walk(root):
        subdirectories[:] = [name for name in subdirectories if not name.startswith(".")]
        for name in files:
            if name.startswith("."):
                continue
            full = Path(directory, name)
            relative = full.relative_to(root).as_posix()
            if pattern is not None:
                if not fnmatch.fnmatchcase(relative, pattern) and not fnmatch.fnmatchcase(
                    name, pattern
                ):
                    continue
            elif full.suffix.lower() not in SUFFIXES:
                continue
            chosen.append((relative, full))
    for relative, full in sorted(chosen):
        stem = relative[: -len(full.suffix)] if full.suffix else relative
        yield Input(str(full), stem)


def read_input(item: Input, args: argparse.Namespace) -> SourceDocument:
    """Read one input as a document; InputError (one line, naming the file) when it is bad."""
    if item.path == "-":
        data = sys.stdin.buffer.read()
        name = "<stdin>"
        chosen = args.input_format
        if chosen is None:
            chosen = "pdf" if b"%PDF-" in data[:1024] else "markdown"  # CLI-9
        return document_from_bytes(
            data,
            doc_id=item.doc_id,
            source="",
            input_format=chosen,
            title=args.title,
            name=name,
        )
    data = read_bytes(item.path)
    try:
        return document_from_bytes(
            data,
            doc_id=item.doc_id,
            source=item.path,
            input_format=args.input_format,
            title=args.title,
            name=item.path,
        )
    except ImportError as error:  # pypdf missing: the whole run needs the extra
        raise CliError(str(error)) from None
    except (TypeError, ValueError) as error:
        if isinstance(error, InputError):
            raise
        # A path that is no valid text (a lone surrogate from a non-UTF-8 file name).
        raise InputError(f"{item.path}: {error}") from None


def documents(
    inputs: list[Input], args: argparse.Namespace
) -> Iterator[SourceDocument | InputError]:
    """Yield each input's document, or its InputError."""
    for item in inputs:
        try:
            yield read_input(item, args)
        except InputError as error:
            yield error
