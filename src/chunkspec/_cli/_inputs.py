"""The inputs of the chunking commands: their flags, ``-``, and reading one (CLI-7 to CLI-10).

The walk of files and folders is the corpus engine's (``chunkspec._corpus._walk``)."""

from __future__ import annotations

import argparse
import codecs
import os
import sys
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from .._code._languages import LANGUAGES
from .._core._metadata import Metadata
from .._corpus._repository import WalkRules, skip_summary
from .._corpus._walk import Input
from .._text._documents import (
    INPUT_FORMATS,
    NOT_UTF8_HINT,
    InputError,
    SourceDocument,
    document_from_bytes,
    sniff,
)
from .._text._regular_files import read_regular, unreadable
from ._io import CliError

#: CLI-18: the environment variable that holds the password of encrypted PDF inputs.
PDF_PASSWORD_ENV = "CHUNKSPEC_PDF_PASSWORD"

__all__ = [
    "PDF_PASSWORD_ENV",
    "add_input_options",
    "add_reading_options",
    "add_repository_options",
    "cli_message",
    "documents",
    "fallback_line",
    "input_encoding",
    "pdf_max_bytes",
    "pdf_password",
    "read_input",
    "report_skipped",
    "walk_rules",
]


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
        "(fnmatch, ignoring case, e.g. '*.md' or 'guide/*'; a match of no known type is "
        "skipped and counted, REPO-13; default: every .md, .markdown, .txt, .pdf and .json "
        "file, and code files (REPO-1))",
    )
    parser.add_argument(
        "--doc-id",
        metavar="ID",
        help="the document id, for a single input (default: the path relative to the folder "
        "given, without suffix; a file's name without suffix, or the shortest trailing path "
        "that tells files named with one name apart; stdin for -)",
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
    add_repository_options(parser)
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
    """CLI-18: ``--input-encoding``, ``--pdf-password``, ``--keep-furniture`` and
    ``--language``, the same on every command."""
    parser.add_argument(
        "--keep-furniture",
        action="store_true",
        help="read an HTML page's navigation, banners, footers, asides and what lies "
        "outside its <main> as text too (HTML-11, HTML-12)",
    )
    parser.add_argument(
        "--language",
        choices=tuple(LANGUAGES),
        help="the language of code inputs whose suffix and shebang do not say it (CODE-1) "
        "(default: from the suffix, else the #! line; none: the code strategy chunks by lines)",
    )
    parser.add_argument(
        "--input-encoding",
        metavar="NAME",
        help="decode text, Markdown and JSON inputs that are not UTF-8 with this encoding, "
        "e.g. latin-1, one line saying so for each; HTML inputs with it always (default: "
        "UTF-8, or UTF-16/UTF-32 when the file starts with their byte-order mark; an HTML "
        "page's <meta charset> (HTML-2))",
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


def add_repository_options(parser: argparse.ArgumentParser) -> None:
    """REPO-3..REPO-8: ``--no-skip`` and ``--gitignore``, the same on every command that
    walks folders."""
    parser.add_argument(
        "--no-skip",
        action="store_true",
        help="in folders, also read tool folders (node_modules, virtual environments, "
        "caches), vendored folders and generated files (default: skipped and counted in one "
        "line; docs/spec/repository.md)",
    )
    parser.add_argument(
        "--gitignore",
        action="store_true",
        help="in folders, also skip what the .gitignore files inside the folder given "
        "ignore, by git's rules (none outside it is read)",
    )


def walk_rules(args: argparse.Namespace) -> WalkRules:
    """REPO-3..REPO-8: the walk's rules from ``--no-skip``, ``--gitignore`` and
    ``--input-format``."""
    return WalkRules(
        skip=not getattr(args, "no_skip", False),
        gitignore=bool(getattr(args, "gitignore", False)),
        input_format=getattr(args, "input_format", None),
    )


def report_skipped(command: str, skipped: list[str], counts: Counter[str] | None = None) -> None:
    """TRUST-33: one line on standard error for every entry the walk skipped (TRUST-30, 31);
    REPO-9: then one line counting what the repository rules skipped."""
    for line in skipped:
        print(f"chunkspec {command}: skipped: {line}", file=sys.stderr)
    summary = None if counts is None else skip_summary(counts)
    if summary is not None:
        print(f"chunkspec {command}: {summary}", file=sys.stderr)


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


#: SOURCE-9: the not-UTF-8 error's advice as the command line gives it (CLI-18).
_CLI_HINT = "name its encoding with --input-encoding NAME (e.g. latin-1)"


def cli_message(message: str) -> str:
    """CLI-18: a reader's message with the Python argument it names (``encoding=``) said
    as the command line's flag (``--input-encoding``)."""
    return message.replace(NOT_UTF8_HINT, _CLI_HINT)


def fallback_line(name: str, encoding: str) -> str:
    """SOURCE-9, CLI-18: the line that says a file was not UTF-8 and was read with
    ``--input-encoding``'s encoding."""
    return f"{name}: not UTF-8, read as {encoding} (--input-encoding)"


def read_input(
    item: Input, args: argparse.Namespace, metadata: Mapping[str, Metadata] | None = None
) -> SourceDocument:
    """Read one input as a document; InputError (one line, naming the file) when it is bad,
    its advice in the command line's words (CLI-18).

    ``metadata`` maps doc ids to the caller's metadata (META-7's sidecar).
    """
    try:
        return _read_input(item, args, metadata)
    except InputError as error:
        raise InputError(cli_message(str(error))) from None


def _read_input(
    item: Input, args: argparse.Namespace, metadata: Mapping[str, Metadata] | None
) -> SourceDocument:
    """:func:`read_input`, its errors in the reader's words."""
    given = None if metadata is None else metadata.get(item.doc_id)
    if item.path == "-":
        data = sys.stdin.buffer.read()
        name = "<stdin>"
        chosen = args.input_format
        if chosen is None:
            chosen = sniff(data[:1024]) or "markdown"  # CLI-9, HTML-1
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
            keep_furniture=bool(getattr(args, "keep_furniture", False)),
            language=getattr(args, "language", None),
        )
    if item.problem is not None:
        raise InputError(item.message)
    try:  # TRUST-31: what is read is checked on the open descriptor: a regular file
        data = read_regular(item.path, fifo=item.stream)
    except OSError as error:
        raise InputError(unreadable(item.source, error)) from None
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
            keep_furniture=bool(getattr(args, "keep_furniture", False)),
            language=getattr(args, "language", None),
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
