"""The inputs of the chunking commands: files, folders and ``-`` (rules CLI-7 to CLI-10)."""

from __future__ import annotations

import argparse
import codecs
import fnmatch
import os
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._core._metadata import Metadata
from .._text._documents import (
    INPUT_FORMATS,
    SUFFIXES,
    InputError,
    SourceDocument,
    document_from_bytes,
)
from .._text._file_names import name_as_text
from ._io import CliError

#: CLI-18: the environment variable that holds the password of encrypted PDF inputs.
PDF_PASSWORD_ENV = "CHUNKSPEC_PDF_PASSWORD"

__all__ = [
    "PDF_PASSWORD_ENV",
    "Input",
    "add_input_options",
    "add_reading_options",
    "documents",
    "find_inputs",
    "input_encoding",
    "matches",
    "pdf_max_bytes",
    "pdf_password",
    "shown",
]


@dataclass(frozen=True, slots=True)
class Input:
    """One input: its OS path (``-`` for stdin), doc id, shown name and any problem (CLI-8).

    ``source`` is ``path`` as valid text (CLI-16); ``problem`` is why a path found in a
    folder cannot be read (CLI-17), reported instead of read.
    """

    path: str
    doc_id: str
    source: str = ""
    problem: str | None = None

    @property
    def message(self) -> str:
        """The one-line report of a problem input: its name and the reason (CLI-17)."""
        return f"{self.source}: {self.problem}"


def shown(path: str) -> str:
    """CLI-16: ``path`` as valid text, each byte of a name that is not UTF-8 as ``\\xNN``."""
    return name_as_text(path)


def _reason(error: OSError) -> str:
    """Why a path cannot be read, as SOURCE-6 says it of a file (``cannot read: ...``)."""
    return f"cannot read: {error.strerror or type(error).__name__}"


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
        "(fnmatch, ignoring case, e.g. '*.md' or 'guide/*'; default: every .md, .markdown, "
        ".txt, .pdf and .json file)",
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
    add_reading_options(parser)
    parser.add_argument(
        "--pdf-max-bytes",
        type=int,
        metavar="N",
        help="refuse a PDF whose pages' content streams decompress to more than N bytes in "
        "all (default: the larger of 64 MiB and 100 times the file's size)",
    )
    parser.add_argument(
        "--keep-going",
        action="store_true",
        help="write every good document and list the bad ones (exit status 2 all the same)",
    )


def add_reading_options(parser: argparse.ArgumentParser) -> None:
    """CLI-18: ``--input-encoding`` and ``--pdf-password``, the same on every command."""
    parser.add_argument(
        "--input-encoding",
        metavar="NAME",
        help="decode text, Markdown and JSON inputs with this encoding, e.g. latin-1 "
        "(default: UTF-8, or UTF-16/UTF-32 when the file starts with their byte-order mark)",
    )
    parser.add_argument(
        "--pdf-password",
        metavar="PASSWORD",
        help=f"the password of encrypted PDF inputs (default: the {PDF_PASSWORD_ENV} "
        "environment variable); never written to any output",
    )


def pdf_password(args: argparse.Namespace) -> str | None:
    """CLI-18: ``--pdf-password``, else the environment variable, else None."""
    given: str | None = getattr(args, "pdf_password", None)
    if given is not None:
        return given
    return os.environ.get(PDF_PASSWORD_ENV) or None


def pdf_max_bytes(args: argparse.Namespace) -> int | None:
    """TRUST-52: ``--pdf-max-bytes`` (None: the default cap); a CliError below 1."""
    given: int | None = getattr(args, "pdf_max_bytes", None)
    if given is not None and given < 1:
        raise CliError(f"--pdf-max-bytes must be >= 1, got {given}")
    return given


def input_encoding(args: argparse.Namespace) -> str | None:
    """CLI-18: the ``--input-encoding`` name; a CliError if Python knows no such encoding."""
    name: str | None = getattr(args, "input_encoding", None)
    if name is None:
        return None
    try:
        codec = codecs.lookup(name)
    except LookupError:
        raise CliError(f"--input-encoding: unknown encoding {name!r}") from None
    if not codec._is_text_encoding:
        raise CliError(f"--input-encoding: {name!r} is not a text encoding") from None
    return name


def find_inputs(
    paths: list[str], pattern: str | None, doc_id: str | None, skip: str | None = None
) -> list[Input]:
    """Expand ``paths`` into inputs, in the order given, folders sorted (CLI-7, CLI-8).

    A folder contributes its files, recursively, sorted by relative path, skipping names
    that start with ``.`` and the folder ``skip`` (CLI-17); without ``--glob`` only files
    with a known suffix. Doc ids are relative paths without suffix (``/``-separated); two
    inputs with one id are an error. A folder that cannot be listed, a dangling link and
    a link cycle inside a folder are inputs with a ``problem`` (CLI-17).
    """
    if paths.count("-") > 1:
        raise CliError("- (standard input) can be given once")
    found: list[Input] = []
    for path in paths:
        if path == "-":
            found.append(Input("-", "stdin"))
        elif os.path.isdir(path):
            try:
                os.scandir(path).close()
            except OSError as error:
                raise CliError(f"{shown(path)}: {_reason(error)}") from None
            found.extend(_walk(path, pattern, skip))
        else:
            found.append(Input(path, shown(Path(path).stem), shown(path)))
    if not found:
        where = ", ".join(map(shown, paths))
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
        found = [Input(found[0].path, doc_id, found[0].source, found[0].problem)]
    seen: dict[str, str] = {}
    for item in found:
        if item.doc_id in seen:
            raise CliError(
                f"{item.source or item.path}: doc id {item.doc_id!r} is also the id of "
                f"{seen[item.doc_id]}"
            )
        seen[item.doc_id] = item.source or item.path
    return found


def matches(relative: str, name: str, pattern: str) -> bool:
    """CLI-7: the relative path or the name matches ``pattern``, ignoring case (as SOURCE-1)."""
    folded = pattern.lower()
    return fnmatch.fnmatchcase(relative.lower(), folded) or fnmatch.fnmatchcase(
        name.lower(), folded
    )


def _walk(folder: str, pattern: str | None, skip: str | None) -> Iterator[Input]:
    """Yield the inputs of ``folder`` sorted by relative path (CLI-7, CLI-17)."""
    root = Path(folder)
    chosen: list[tuple[str, Input]] = []
    skipped = os.path.realpath(skip) if skip is not None else None
    # Folders are listed with os.scandir, following links to folders; a link to a folder
    # already on the way down (a cycle) is reported once, not followed (CLI-17).
    pending: list[tuple[Path, str, tuple[tuple[int, int], ...]]] = []
    top = os.stat(root)
    pending.append((root, "", ((top.st_dev, top.st_ino),)))
    while pending:
        directory, prefix, ancestors = pending.pop()
        try:
            with os.scandir(directory) as listing:
                entries = list(listing)
        except OSError as error:
            chosen.append(_folder_problem(directory, prefix.rstrip("/"), _reason(error)))
            continue
        for entry in entries:
            name = entry.name
            if name.startswith("."):
                continue
            full = Path(directory, name)
            relative = prefix + name
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if is_dir:
                if skipped is not None and os.path.realpath(full) == skipped:
                    continue
                try:
                    info = os.stat(full)
                except OSError as error:
                    chosen.append(_folder_problem(full, relative, _reason(error)))
                    continue
                key = (info.st_dev, info.st_ino)
                if key in ancestors:
                    loop = "symbolic link loop, not followed"
                    chosen.append(_folder_problem(full, relative, loop))
                    continue
                pending.append((full, relative + "/", (*ancestors, key)))
                continue
            if pattern is not None:
                if not matches(relative, name, pattern):
                    continue
            elif full.suffix.lower() not in SUFFIXES:
                continue
            stem = relative[: -len(full.suffix)] if full.suffix else relative
            problem = None
            if entry.is_symlink() and not os.path.exists(full):
                problem = "no such file (a dangling symbolic link)"
            chosen.append((relative, Input(str(full), shown(stem), shown(str(full)), problem)))
    for _, item in sorted(chosen, key=lambda pair: pair[0]):
        yield item


def _folder_problem(folder: Path, relative: str, problem: str) -> tuple[str, Input]:
    """CLI-17: a folder that is reported, not read; its doc id is its relative path and ``/``."""
    return relative, Input(str(folder), shown(relative) + "/", shown(str(folder)), problem)


def read_input(
    item: Input, args: argparse.Namespace, metadata: Mapping[str, Metadata] | None = None
) -> SourceDocument:
    """Read one input as a document; InputError (one line, naming the file) when it is bad.

    ``metadata`` maps doc ids to the caller's metadata (META-7's sidecar).
    """
    given = None if metadata is None else metadata.get(item.doc_id)
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
            encoding=input_encoding(args),
            pdf_password=pdf_password(args),
            metadata=given,
            pdf_max_decompressed=pdf_max_bytes(args),
        )
    if item.problem is not None:
        raise InputError(item.message)
    try:
        data = Path(item.path).read_bytes()
    except FileNotFoundError:
        raise InputError(f"{item.source}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{item.source}: is a directory") from None
    except OSError as error:
        raise InputError(f"{item.source}: {_reason(error)}") from None
    try:
        return document_from_bytes(
            data,
            doc_id=item.doc_id,
            source=item.source,
            input_format=args.input_format,
            title=args.title,
            name=item.source,
            encoding=input_encoding(args),
            pdf_password=pdf_password(args),
            metadata=given,
            pdf_max_decompressed=pdf_max_bytes(args),
        )
    except ImportError as error:  # pypdf missing: the whole run needs the extra
        raise CliError(str(error)) from None
    except (TypeError, ValueError) as error:
        if isinstance(error, InputError):
            raise
        raise InputError(f"{item.source}: {error}") from None


def documents(
    inputs: list[Input], args: argparse.Namespace, metadata: Mapping[str, Metadata] | None = None
) -> Iterator[SourceDocument | InputError]:
    """Yield each input's document (with its sidecar metadata, META-7), or its InputError."""
    for item in inputs:
        try:
            yield read_input(item, args, metadata)
        except InputError as error:
            yield error
