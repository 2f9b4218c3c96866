"""``chunkspec pack``: assemble scored chunks from JSON Lines into a context."""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any

from .._core._assemble import assemble
from .._core._chunk import Chunk
from .._core._hashing import hash_text
from .._core._tokens import count_tokens
from .._errors import ArgumentTypeError, ArgumentValueError
from .._records._record import RECORD_FIELDS, ChunkRecord
from ._io import CliError, read_text

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``pack`` subcommand to ``sub``."""
    parser = sub.add_parser(
        "pack",
        help="pack scored chunks into a budget",
        description=(
            "Read chunk records as JSON Lines (the output of split, chunk, window or pages, "
            "each with a score) and print the assembled context. Exit status 1 when nothing "
            "is picked (abstain)."
        ),
    )
    parser.add_argument(
        "file", metavar="CHUNKS", help="JSON Lines file of records with scores, or - for stdin"
    )
    parser.add_argument(
        "--budget",
        type=int,
        required=True,
        metavar="N",
        help="tokens the context may hold, counted by the records' counter (required)",
    )
    parser.add_argument(
        "--min-score",
        type=float,
        default=0.35,
        metavar="S",
        help="stop at the first chunk scored below S (default 0.35)",
    )
    parser.add_argument(
        "--ids", action="store_true", help="print the picked ids after the context on stderr"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Pack the chunks; print the context, or say we abstain and return 1."""
    numbered = [
        (number, line)
        for number, line in enumerate(read_text(args.file).split("\n"), start=1)
        if line.strip()
    ]
    parsed = [_chunk(args.file, number, line) for number, line in numbered]
    _one_counter(args.file, [number for number, _ in numbered], [c for _, c in parsed])
    chunks = [chunk for chunk, _ in parsed]
    try:
        result = assemble(chunks, args.budget, args.min_score)
    except (ArgumentTypeError, ArgumentValueError) as error:
        raise _located(error, args.file, [number for number, _ in numbered]) from None
    if result is None:
        print("chunkspec pack: abstain: no chunk scored >= min-score fits", file=sys.stderr)
        return 1
    context, ids = result
    sys.stdout.write(context + "\n")
    sys.stdout.flush()
    if args.ids:
        print(" ".join(ids), file=sys.stderr)
    return 0


_REQUIRED = ("id", "title", "text")


def _chunk(path: str, number: int, line: str) -> tuple[Chunk, str | None]:
    """Parse one JSON Lines line into a Chunk and its record's counter (CLI-4, RECORD-9)."""
    where = f"{path}:{number}"
    try:
        record = json.loads(line)
    except json.JSONDecodeError as error:
        raise CliError(f"{where}: malformed JSON ({error.msg})") from None
    except RecursionError:
        # json.loads recurses once per nesting level: "[[[[..." 1,000+ deep overflows it.
        raise CliError(f"{where}: malformed JSON (nested too deeply)") from None
    if not isinstance(record, dict):
        raise CliError(f"{where}: expected a JSON object, got {type(record).__name__}")
    if all(key in record for key in RECORD_FIELDS):
        return _from_record(where, record)
    missing = [key for key in _REQUIRED if key not in record]
    if missing:
        raise CliError(f"{where}: missing field {missing[0]!r}")
    for key in ("id", "title", "text", "doc_id", "content_hash"):
        if key in record and not isinstance(record[key], str):
            raise CliError(f"{where}: field {key!r} must be a string")
    text: str = record["text"]
    return _legacy(record, text), None


def _legacy(record: dict[str, Any], text: str) -> Chunk:
    """A seed-000 chunk object: CLI-4's defaults for the fields it lacks."""
    return Chunk(
        id=record["id"],
        doc_id=record.get("doc_id", ""),
        title=record["title"],
        text=text,
        tokens=record["tokens"] if "tokens" in record else count_tokens(text),
        content_hash=record["content_hash"] if "content_hash" in record else hash_text(text),
        score=record.get("score", 0.0),
    )


def _from_record(where: str, data: dict[str, Any]) -> tuple[Chunk, str | None]:
    """RECORD-9: a line holding every record field is a record plus an optional ``score``.

    Other keys (a reranker's notes) are ignored; the record's fields are checked as
    ``ChunkRecord.from_dict`` checks them, content hash included.
    """
    try:
        record = ChunkRecord.from_dict({key: data[key] for key in RECORD_FIELDS})
    except (TypeError, ValueError) as error:
        raise CliError(f"{where}: {error}") from None
    return record.to_chunk(data.get("score", 0.0)), record.counter


def _one_counter(path: str, numbers: list[int], counters: list[str | None]) -> None:
    """RECORD-9: records measured by different counters cannot share one budget."""
    first: tuple[int, str] | None = None
    for number, counter in zip(numbers, counters, strict=True):
        if counter is None:
            continue
        if first is None:
            first = (number, counter)
        elif counter != first[1]:
            raise CliError(
                f"{path}:{number}: counter {counter!r} differs from {first[1]!r} on line "
                f"{first[0]}; one budget needs one counter"
            )


def _located(
    error: ArgumentTypeError | ArgumentValueError, path: str, lines: list[int]
) -> Exception:
    """Turn ``chunks[i].field ...`` into ``FILE:LINE: field ...``; other errors pass through."""
    match = re.match(r"chunks\[(\d+)\]\.?", error.argument)
    if match is None:
        return error
    message = str(error)[match.end() :]
    return CliError(f"{path}:{lines[int(match.group(1))]}: {message}")
