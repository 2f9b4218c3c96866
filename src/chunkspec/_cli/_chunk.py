"""``chunkspec chunk``: chunk a Markdown, text or JSON-blocks file with a chosen strategy.

Seed 003's ``ragctl chunk`` smoke command: block and chunk counts, a per-kind tally and the
first N chunks with parent arrows (``--format text``), or every chunk (``--format jsonl``).
Strategies live in one table (``STRATEGIES``) so more can be added without touching ``run``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._blocks import Document, document_from_blocks, parse_text
from .._heading_aware import HeadingAwareChunker
from .._markdown import parse_markdown
from .._pages import join_pages
from .._split import split_section
from .._split_markdown import split_markdown
from .._window import token_windows
from ._io import CliError, json_line, read_text
from ._pages import read_pages

__all__ = ["STRATEGIES", "register"]


@dataclass(frozen=True)
class Row:
    """One chunk as the command prints it, whatever strategy made it."""

    id: str
    kind: str
    text: str
    parent_id: str | None = None
    start: int | None = None
    end: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


Strategy = Callable[[Document, argparse.Namespace], list[Row]]


def _heading(document: Document, args: argparse.Namespace) -> list[Row]:
    """HeadingAwareChunker (rule CHUNK-2)."""
    chunker = HeadingAwareChunker(args.max_tokens, args.overlap_tokens)
    return [
        Row(
            c.id,
            c.kind,
            c.text,
            c.parent_id,
            c.start,
            c.end,
            {"position": c.position, "heading_path": list(c.heading_path), **_level(c.metadata)},
        )
        for c in chunker.chunk(document)
    ]


def _level(metadata: Any) -> dict[str, Any]:
    """Return ``{"level": N}`` for a heading chunk's metadata, else ``{}``."""
    return {"level": metadata["level"]} if "level" in metadata else {}


def _structural(document: Document, args: argparse.Namespace) -> list[Row]:
    """split_markdown over the file's text (rule CHUNK-2)."""
    if args.input_kind == "json":
        raise CliError("--strategy structural needs a Markdown or text file, not JSON blocks")
    chunks = split_markdown(document.document_id, document.source, args.max_tokens)
    return [
        Row(
            f"{c.doc_id}:{n}",
            c.kind,
            c.text,
            None,
            c.start,
            c.end,
            {"heading_path": list(c.heading_path), "lines": [c.line_start, c.line_end]},
        )
        for n, c in enumerate(chunks)
    ]


def _recursive(document: Document, args: argparse.Namespace) -> list[Row]:
    """Seed 000's split_section over the whole text (rule CHUNK-2)."""
    chunks = split_section(
        document.document_id, document.document_id, document.source, args.max_tokens
    )
    return [Row(c.id, "body", c.text, extra={"tokens": c.tokens}) for c in chunks if c.text]


def _window(document: Document, args: argparse.Namespace) -> list[Row]:
    """token_windows over the whole text: ``--max-tokens`` words, ``--overlap-tokens`` shared
    with the previous window, cut at word starts so ``text == source[start:end]`` (CHUNK-2)."""
    windows = token_windows(document.source, args.max_tokens, args.overlap_tokens)
    return [
        Row(
            f"{document.document_id}:{w.index}",
            "window",
            w.text,
            None,
            w.start,
            w.end,
            {"tokens": [w.token_start, w.token_end]},
        )
        for w in windows
    ]


#: Strategy name -> function of (document, args); add a line to add a strategy.
STRATEGIES: dict[str, Strategy] = {
    "heading": _heading,
    "structural": _structural,
    "recursive": _recursive,
    "window": _window,
}


#: The strategies that take ``--overlap-tokens`` (CHUNK-6), and its largest default.
OVERLAPPING = frozenset({"heading", "window"})
DEFAULT_OVERLAP = 64


def register(sub: Any) -> None:
    """Add the ``chunk`` subcommand to ``sub``."""
    parser = sub.add_parser(
        "chunk",
        help="chunk a Markdown, text or JSON-blocks file and summarise or list the chunks",
        description=(
            "Chunk FILE (.md/.markdown, .txt, or .json: a list of blocks; - reads Markdown "
            "from stdin). Text output: block and chunk counts, a per-kind tally and the first "
            "N chunks with parent arrows. JSONL output: every chunk, one JSON object a line."
        ),
    )
    parser.add_argument("file", metavar="FILE")
    parser.add_argument("--strategy", choices=sorted(STRATEGIES), default="heading")
    parser.add_argument("--max-tokens", type=int, default=512, metavar="N")
    parser.add_argument(
        "--overlap-tokens",
        type=int,
        default=None,
        metavar="N",
        help="heading and window strategies only (default: max-tokens / 8, at most 64)",
    )
    parser.add_argument(
        "-n",
        type=int,
        default=10,
        dest="show",
        metavar="N",
        help="chunks to show in text format (default 10)",
    )
    parser.add_argument("--format", choices=("text", "jsonl"), default="text")
    parser.add_argument("--doc-id", metavar="ID", help="default: the file name without suffix")
    parser.set_defaults(run=run)


def _load(path: str, doc_id: str) -> tuple[Document, str]:
    """Read and parse ``path`` by its suffix; return the document and the input kind."""
    suffix = "" if path == "-" else Path(path).suffix.lower()
    if suffix == ".pdf":
        # The pages joined by form feeds (PAGE-1), read as plain text (CHUNK-1).
        return parse_text(doc_id, join_pages(read_pages(path))), "text"
    if suffix not in ("", ".md", ".markdown", ".txt", ".json"):
        raise CliError(f"{path}: unsupported file type {suffix!r} (use .md, .txt or .json)")
    text = read_text(path)
    if suffix == ".txt":
        return parse_text(doc_id, text), "text"
    if suffix == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise CliError(f"{path}: not valid JSON ({error.msg} at line {error.lineno})") from None
        except RecursionError:
            # json.loads recurses once per nesting level: "[[[[..." 1,000+ deep overflows it.
            raise CliError(f"{path}: not valid JSON (nested too deeply)") from None
        if isinstance(data, dict) and "blocks" in data:
            data = data["blocks"]
        if not isinstance(data, list):
            raise CliError(f"{path}: expected a JSON list of blocks")
        return document_from_blocks(doc_id, data), "json"
    return parse_markdown(doc_id, text), "markdown"


def run(args: argparse.Namespace) -> int:
    """Chunk the file and print the summary or the chunks."""
    if args.max_tokens < 1:
        raise CliError(f"--max-tokens must be >= 1, got {args.max_tokens}")
    if args.overlap_tokens is None:
        # CHUNK-6: an eighth of the budget, at most 64, so a small --max-tokens alone works.
        args.overlap_tokens = min(DEFAULT_OVERLAP, args.max_tokens // 8)
    elif args.strategy not in OVERLAPPING:
        # CHUNK-6: a flag that would change nothing is refused, not silently ignored.
        raise CliError(
            f"--overlap-tokens applies to --strategy heading or window, not {args.strategy}"
        )
    if args.overlap_tokens < 0:
        raise CliError(f"--overlap-tokens must be >= 0, got {args.overlap_tokens}")
    if args.show < 0:
        raise CliError(f"-n must be >= 0, got {args.show}")
    doc_id = (
        args.doc_id
        if args.doc_id is not None
        else ("stdin" if args.file == "-" else Path(args.file).stem)
    )
    document, args.input_kind = _load(args.file, doc_id)
    rows = STRATEGIES[args.strategy](document, args)
    out = sys.stdout
    if args.format == "jsonl":
        for row in rows:
            record = {
                "id": row.id,
                "kind": row.kind,
                "parent_id": row.parent_id,
                "start": row.start,
                "end": row.end,
                **row.extra,
                "text": row.text,
            }
            out.write(json_line(record))
        out.flush()
        return 0
    blocks = Counter(block.kind for block in document.blocks)
    kinds = Counter(row.kind for row in rows)
    out.write(
        f"{document.document_id}: {len(document.blocks)} blocks, {len(rows)} chunks "
        f"(strategy {args.strategy})\n"
    )
    out.write("blocks: " + _tally(blocks) + "\n")
    out.write("chunks: " + _tally(kinds) + "\n")
    for row in rows[: args.show]:
        arrow = f" <- {row.parent_id}" if row.parent_id is not None else ""
        preview = " ".join(row.text.split())
        if len(preview) > 72:
            preview = preview[:69] + "..."
        out.write(f"[{row.id}] {row.kind}{arrow}: {preview}\n")
    if len(rows) > args.show:
        out.write(f"... {len(rows) - args.show} more\n")
    out.flush()
    return 0


def _tally(counts: Counter[str]) -> str:
    """Return ``"kind=n, ..."`` sorted by kind, or ``"none"``."""
    return ", ".join(f"{kind}={n}" for kind, n in sorted(counts.items())) or "none"
