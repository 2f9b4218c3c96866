"""The inputs of the chunking commands: files, folders and ``-`` (rules CLI-7 to CLI-10)."""

from __future__ import annotations

import argparse
import codecs
import fnmatch
import os
import stat
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
from .._text._regular_files import NotRegularFile, file_kind, read_regular
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
    "named_input",
    "pdf_max_bytes",
    "pdf_password",
    "report_skipped",
    "shown",
]


@dataclass(frozen=True, slots=True)
class Input:
    """One input: its OS path (``-`` for stdin), doc id, shown name and any problem (CLI-8).

    ``source`` is ``path`` as valid text (CLI-16); ``problem`` is why a path found in a
    folder cannot be read (CLI-17), reported instead of read. ``stream`` marks a FIFO
    named on the command line, read as standard input is (TRUST-31); nothing else that is
    not a regular file is ever read.
    """

    path: str
    doc_id: str
    source: str = ""
    problem: str | None = None
    stream: bool = False

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
    add_follow_links_option(parser)
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


def add_follow_links_option(parser: argparse.ArgumentParser) -> None:
    """TRUST-30: ``--follow-links``, the same on every command that walks folders."""
    parser.add_argument(
        "--follow-links",
        action="store_true",
        help="in folders, also follow symbolic links whose target is outside the folder "
        "given (default: such a link is skipped, with one line saying so)",
    )


def report_skipped(command: str, skipped: list[str]) -> None:
    """TRUST-33: one line on standard error for every entry the walk skipped (TRUST-30, 31)."""
    for line in skipped:
        print(f"chunkspec {command}: skipped: {line}", file=sys.stderr)


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
    paths: list[str],
    pattern: str | None,
    doc_id: str | None,
    skip: str | None = None,
    *,
    follow_links: bool = False,
    skipped: list[str] | None = None,
) -> list[Input]:
    """Expand ``paths`` into inputs, in the order given, folders sorted (CLI-7, CLI-8).

    A folder contributes its files, recursively, sorted by relative path, skipping names
    that start with ``.`` and the folder ``skip`` (CLI-17); without ``--glob`` only files
    with a known suffix. Doc ids are relative paths without suffix (``/``-separated); two
    inputs with one id are an error (TRUST-34). A folder that cannot be listed, a dangling
    link and a link cycle inside a folder are inputs with a ``problem`` (CLI-17). A link
    out of its input folder (unless ``follow_links``) and a document name that is not a
    regular file are skipped, each as one line ``PATH: reason`` appended to ``skipped``
    (TRUST-30, TRUST-31). A path named here is the caller's: a link is followed wherever
    it points, a FIFO is read as a stream, a device or a socket is a CLI-1 error.
    """
    if paths.count("-") > 1:
        raise CliError("- (standard input) can be given once")
    found: list[Input] = []
    lines: list[str] = []
    for path in paths:
        if path == "-":
            found.append(Input("-", "stdin"))
        elif os.path.isdir(path):
            try:
                os.scandir(path).close()
            except OSError as error:
                raise CliError(f"{shown(path)}: {_reason(error)}") from None
            found.extend(_walk(path, pattern, skip, follow_links, lines))
        else:
            found.append(named_input(path))
    if skipped is not None:
        skipped.extend(lines)
    if not found:
        where = ", ".join(map(shown, paths))
        more = f", and {len(lines) - 1} more" if len(lines) > 1 else ""
        raise CliError(
            f"no input files in {where}"
            + (
                f" matching --glob {pattern!r}"
                if pattern
                else " (.md, .markdown, .txt, .pdf, .json)"
            )
            + (f"; skipped: {lines[0]}{more}" if lines else "")  # TRUST-33
        )
    if doc_id is not None:
        if len(found) != 1:
            raise CliError(f"--doc-id needs exactly one input document, got {len(found)}")
        only = found[0]
        found = [Input(only.path, doc_id, only.source, only.problem, only.stream)]
    seen: dict[str, str] = {}
    for item in found:  # TRUST-34: one doc id, one source, refused before any work
        if item.doc_id in seen:
            raise CliError(
                f"{item.source or item.path}: doc id {item.doc_id!r} is also the id of "
                f"{seen[item.doc_id]}"
            )
        seen[item.doc_id] = item.source or item.path
    return found


def named_input(path: str, doc_id: str | None = None) -> Input:
    """A file named on the command line (TRUST-31): a FIFO is a stream, a device or a
    socket a CLI-1 error; a missing or unreadable one is reported when it is read."""
    item = Input(path, shown(Path(path).stem) if doc_id is None else doc_id, shown(path))
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return item
    if stat.S_ISFIFO(mode):
        return Input(item.path, item.doc_id, item.source, stream=True)
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        raise CliError(f"{shown(path)}: not a regular file ({file_kind(mode)})")
    return item


def matches(relative: str, name: str, pattern: str) -> bool:
    """CLI-7: the relative path or the name matches ``pattern``, ignoring case (as SOURCE-1)."""
    folded = pattern.lower()
    return fnmatch.fnmatchcase(relative.lower(), folded) or fnmatch.fnmatchcase(
        name.lower(), folded
    )


def _inside(target: str, root: str) -> bool:
    """Whether the resolved path ``target`` is ``root`` or lies under it (TRUST-30)."""
    return target == root or target.startswith(root.rstrip(os.sep) + os.sep)


def _walk(
    folder: str, pattern: str | None, skip: str | None, follow_links: bool, skipped: list[str]
) -> Iterator[Input]:
    """Yield the inputs of ``folder`` sorted by relative path (CLI-7, CLI-17); append the
    lines of what it skips to ``skipped`` (TRUST-30, TRUST-31), in the same order."""
    root = Path(folder)
    real_root = os.path.realpath(folder)
    chosen: list[tuple[str, Input]] = []
    lines: list[tuple[str, str]] = []
    skipped_out = os.path.realpath(skip) if skip is not None else None
    # Folders are listed with os.scandir, following links to folders inside the root (any
    # link with follow_links); a link to a folder already on the way down (a cycle) is
    # reported once, not followed (CLI-17).
    pending: list[tuple[Path, str, tuple[tuple[int, int], ...]]] = []
    top = os.stat(root)
    pending.append((root, "", ((top.st_dev, top.st_ino),)))

    def outside(full: Path, relative: str) -> bool:
        """TRUST-30: a link whose target is out of the root is skipped (one line)."""
        if follow_links:
            return False
        target = os.path.realpath(full)
        if _inside(target, real_root):
            return False
        lines.append(
            (
                relative,
                f"{shown(str(full))}: a link out of {shown(folder)}, not followed "
                "(--follow-links follows it)",
            )
        )
        return True

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
                if skipped_out is not None and os.path.realpath(full) == skipped_out:
                    continue
                if entry.is_symlink() and outside(full, relative):
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
            elif entry.is_symlink() and outside(full, relative):
                continue
            else:
                try:
                    mode = os.stat(full).st_mode
                except OSError as error:
                    problem = _reason(error)
                else:
                    if not stat.S_ISREG(mode):  # TRUST-31: never opened, so never waited on
                        kind = file_kind(mode)
                        lines.append((relative, f"{shown(str(full))}: not a regular file ({kind})"))
                        continue
            chosen.append((relative, Input(str(full), shown(stem), shown(str(full)), problem)))
    skipped.extend(line for _, line in sorted(lines, key=lambda pair: pair[0]))
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
    try:  # TRUST-31: what is read is checked on the open descriptor: a regular file
        data = read_regular(item.path, fifo=item.stream)
    except FileNotFoundError:
        raise InputError(f"{item.source}: no such file") from None
    except NotRegularFile as error:
        if error.kind == "a directory":
            raise InputError(f"{item.source}: is a directory") from None
        raise InputError(f"{item.source}: {error}") from None
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
