"""``chunkspec pack``: assemble scored chunks from JSON Lines or Parquet into a context.

By default seed 000's ``assemble`` (CLI-4, CLI-5); with ``--merge`` the provenance-aware
``pack_records`` (CLI-25, CLI-26, docs/spec/context.md). Both withhold what the reader may
not read by one rule (CTX-13, TRUST-11).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Mapping
from typing import Any

from .._core._assemble import assemble
from .._core._hashing import hash_text
from .._core._seed_chunk import Chunk
from .._core._tokens import count_tokens
from .._counters._registry import measure_of
from .._errors import ArgumentTypeError, ArgumentValueError
from .._packing._access import LABELS_KEY, TENANT_KEY, Principal, may_read
from .._packing._pack_records import ORDERS, pack_records
from .._records._record import READ_FIELDS, ChunkRecord
from .._records._record_files import chunk_record, file_rows, is_error_row
from ._chunking_flags import as_flags, load_counter
from ._io import CliError, one_line, read_bytes

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``pack`` subcommand to ``sub``."""
    parser = sub.add_parser(
        "pack",
        help="pack scored chunks into a budget",
        description=(
            "Read chunk records (the output of split, chunk, window, pages or ingest, each "
            "with a score) as JSON Lines, or as Parquet when the file name ends in .parquet "
            "or the data starts with PAR1 (needs pip install 'chunkspec[arrow]'), and print "
            "the assembled context. Ingest error rows (error set) are skipped and counted on "
            "stderr. Exit status 1 when nothing is picked (abstain)."
        ),
    )
    parser.add_argument(
        "file",
        metavar="CHUNKS",
        help="JSON Lines or Parquet file of records with scores, or - for stdin",
    )
    parser.add_argument(
        "--budget",
        type=int,
        required=True,
        metavar="N",
        help=(
            "the token budget (required). Without --merge: the sum of the picked records' "
            "tokens fields, counted by the records' counter; the [id] title lines printed "
            "above each are not counted, so the output can exceed N. With --merge: every "
            "token of the printed context, [key] headers and blank lines included, counted "
            "by --counter; the output never exceeds N"
        ),
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
    merge = parser.add_argument_group("the provenance-aware packer (--merge, CLI-25)")
    merge.add_argument(
        "--merge",
        action="store_true",
        help="merge overlapping records of one document into passages, each text once, in "
        "reading order, under [1], [2] ... keys (needs chunk records with every field)",
    )
    merge.add_argument(
        "--cite", action="store_true", help="print the result as one JSON object with citations"
    )
    merge.add_argument(
        "--order",
        choices=ORDERS,
        default=None,
        help="passages by document and position (reading, the default) or by score",
    )
    merge.add_argument(
        "--counter",
        metavar="NAME",
        default=None,
        help="the counter that measures the context (default: the records' counter)",
    )
    merge.add_argument(
        "--encoding-file",
        metavar="FILE",
        default=None,
        help="the tiktoken encoding's .tiktoken rank file, for a tiktoken counter offline "
        "(COUNT-9)",
    )
    merge.add_argument(
        "--titles",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="head each passage with [key] title > headings (default: --no-titles, the [key] "
        "alone; the citations name the title and headings either way)",
    )
    merge.add_argument(
        "--expand",
        type=float,
        metavar="F",
        default=None,
        help="once a share F (0 < F <= 1) of a section's records is packed, try the rest of "
        "the section too",
    )
    merge.add_argument(
        "--trim",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="cut the first record that does not fit whole at its last word that fits "
        "(default: --trim; --no-trim skips it whole)",
    )
    access = parser.add_argument_group("the reader (both packers, CTX-13)")
    access.add_argument(
        "--tenant",
        metavar="T",
        default=None,
        help="the reader's tenant: records of another tenant_id are withheld",
    )
    access.add_argument(
        "--label",
        metavar="L",
        action="append",
        default=None,
        help="an access label the reader holds (repeat for more): records whose acl_labels "
        "are not all held are withheld; without --tenant and --label, every labelled "
        "record is; a record whose labels cannot be read is withheld from every reader",
    )
    parser.set_defaults(run=run)


#: The flags that only the --merge packer reads (CLI-25); --tenant and --label are both
#: packers' (TRUST-11).
_MERGE_ONLY = ("cite", "order", "counter", "encoding_file", "titles", "expand", "trim")


def run(args: argparse.Namespace) -> int:
    """Pack the chunks; print the context, or say we abstain and return 1."""
    if args.merge:
        return _run_merge(args)
    for name in _MERGE_ONLY:
        value = getattr(args, name)
        if value is False and name in ("titles", "trim"):
            raise CliError(f"--no-{name} needs --merge")
        if value is not None and value is not False:
            raise CliError(f"--{name.replace('_', '-')} needs --merge")
    principal = _principal(args)
    numbers: list[int] = []
    parsed: list[tuple[Chunk, str | None]] = []
    skipped, denied = 0, 0
    unreadable: list[str] = []
    for number, row in file_rows(args.file, read_bytes(args.file)):
        if is_error_row(row):
            skipped += 1
            continue
        chunk = _chunk(f"{args.file}:{number}", row)
        allowed = _row_readable(row, principal)  # TRUST-11: --merge's rule, CTX-13
        if allowed is None:
            unreadable.append(chunk[0].id)
            continue
        if not allowed:
            denied += 1
            continue
        numbers.append(number)
        parsed.append(chunk)
    _one_counter(args.file, numbers, [c for _, c in parsed])
    chunks = [chunk for chunk, _ in parsed]
    try:
        result = assemble(chunks, args.budget, args.min_score)
    except (ArgumentTypeError, ArgumentValueError) as error:
        raise _located(error, args.file, numbers) from None
    if skipped:  # CLI-15; only once the input is known good, so an error stays one line (CLI-1)
        rows = "row" if skipped == 1 else "rows"
        print(f"chunkspec pack: skipped {skipped} error {rows}", file=sys.stderr)
    _withheld_notices(denied, unreadable)
    if result is None:
        print("chunkspec pack: abstain: no chunk scored >= min-score fits", file=sys.stderr)
        return 1
    context, ids = result
    sys.stdout.write(context + "\n")
    sys.stdout.flush()
    if args.ids:
        print(" ".join(ids), file=sys.stderr)
    return 0


def _run_merge(args: argparse.Namespace) -> int:
    """CLI-25: pack records with ``pack_records``; print the context or its JSON."""
    numbers: list[int] = []
    records: list[ChunkRecord] = []
    scores: list[Any] = []
    skipped = 0
    principal = _principal(args)
    flat_unreadable: list[str] = []
    flat_denied: list[str] = []
    for number, row in file_rows(args.file, read_bytes(args.file)):
        if is_error_row(row):
            skipped += 1
            continue
        where = f"{args.file}:{number}"
        if not all(key in row for key in READ_FIELDS):  # META-5: metadata may be missing
            missing = next(key for key in READ_FIELDS if key not in row)
            raise CliError(f"{where}: --merge needs chunk records: missing field {missing!r}")
        record = chunk_record(where, row)
        if any(key in row for key in _ACCESS_KEYS):
            # TRUST-16: flat access keys are labels too; pack_records reads metadata only
            allowed = _row_readable(row, principal)
            if allowed is not True:
                (flat_denied if allowed is False else flat_unreadable).append(record.id)
                continue
        records.append(record)
        numbers.append(number)
        scores.append(row.get("score", 0.0))
    counter = _merge_counter(args, records)
    try:
        result = pack_records(
            records,
            scores,
            args.budget,
            min_score=args.min_score,
            counter=counter,
            encoding_file=args.encoding_file if counter is not None else None,
            order=args.order or "reading",
            principal=principal,
            titles=bool(args.titles),  # CTX-17: off unless --titles
            expand=args.expand,
            trim=args.trim is not False,  # CTX-19: on unless --no-trim
        )
    except (ArgumentTypeError, ArgumentValueError) as error:
        located = _located(error, args.file, numbers)
        if located is error:  # COUNT-10: the records' counter, named by pack's own flags
            raise CliError(as_flags(str(error))) from None
        raise located from None
    except ImportError as error:  # TRUST-14: the records' counter needs an extra
        raise CliError(str(error)) from None
    if skipped:  # CLI-15
        rows = "row" if skipped == 1 else "rows"
        print(f"chunkspec pack: skipped {skipped} error {rows}", file=sys.stderr)
    unreadable = flat_unreadable + list(result.unreadable_labels)
    denied = result.withheld - len(result.unreadable_labels) + len(flat_denied)
    _withheld_notices(denied, unreadable)
    if not result.passages:
        print("chunkspec pack: abstain: no record scored >= min-score fits", file=sys.stderr)
        return 1
    if args.cite:
        sys.stdout.write(json.dumps(result.to_dict(), ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(result.text + "\n")
    sys.stdout.flush()
    if args.ids:
        ids = [i for p in result.passages for i in p.record_ids]
        print(" ".join(ids), file=sys.stderr)
    return 0


def _principal(args: argparse.Namespace) -> Principal | None:
    """The reader ``--tenant`` and ``--label`` name; None without either (CTX-13)."""
    if args.tenant is None and args.label is None:
        return None
    return Principal(args.label or (), args.tenant)


#: TRUST-16: the access keys a line may also carry at its top level (seed 003's fields).
_ACCESS_KEYS = (TENANT_KEY, LABELS_KEY)


def _row_labels(row: dict[str, Any]) -> Mapping[str, Any] | None:
    """TRUST-16: the labels a line asks for: its ``metadata`` with its top-level ``tenant_id``
    and ``acl_labels`` (seed 003's flat fields); None when they cannot be read (TRUST-10):
    a ``metadata`` that is not an object, or a flat key that its ``metadata`` contradicts."""
    labels = row.get("metadata", {})
    if not isinstance(labels, Mapping):
        return None
    flat = {key: row[key] for key in _ACCESS_KEYS if key in row}
    if not flat:
        return labels
    for key, value in flat.items():
        if key in labels and labels[key] != value:
            return None  # two answers to one question: neither is trusted
    return {**labels, **flat}


def _row_readable(row: dict[str, Any], principal: Principal | None) -> bool | None:
    """TRUST-11, TRUST-16: may ``principal`` read the row (the labels :func:`_row_labels`
    gives, by CTX-13's rule)? None when its labels cannot be read (TRUST-10): withheld from
    every reader."""
    labels = _row_labels(row)
    return None if labels is None else may_read(labels, principal)


#: How many ids of records with unreadable labels the notice names (TRUST-10).
_NAMED = 10


def _withheld_notices(denied: int, unreadable: list[str]) -> None:
    """At most two lines on stderr: how many records the reader may not read (a count,
    CTX-14), and which records' labels cannot be read (named, TRUST-10)."""
    if denied:
        plural = "record" if denied == 1 else "records"
        print(
            f"chunkspec pack: withheld {denied} {plural} the reader may not read", file=sys.stderr
        )
    if unreadable:
        plural = "record" if len(unreadable) == 1 else "records"
        named = ", ".join(unreadable[:_NAMED])
        if len(unreadable) > _NAMED:
            named += f" and {len(unreadable) - _NAMED} more"
        line = (
            f"chunkspec pack: withheld {len(unreadable)} {plural} with unreadable labels: {named}"
        )
        print(one_line(line), file=sys.stderr)


def _merge_counter(args: argparse.Namespace, records: list[ChunkRecord]) -> str | None:
    """The counter ``--merge`` measures with: ``--counter`` (with ``--encoding-file``),
    built here so that a counter that cannot be built is one line (TRUST-14); None leaves
    it to the records, whose counter never reads a file (TRUST-13)."""
    name: str | None = args.counter
    if name is None and args.encoding_file is not None:
        named = {r.counter for r in records}
        if len(named) == 1 and next(iter(named)).partition(":")[0] == "tiktoken":
            name = named.pop()  # the records' tiktoken encoding, from the file given
    if name is None:
        if args.encoding_file is not None:
            raise CliError("--encoding-file needs --counter tiktoken:ENCODING")
        return None
    if args.encoding_file is not None and name.partition(":")[0] != "tiktoken":
        raise CliError(f"--encoding-file needs --counter tiktoken:ENCODING, not {name}")
    load_counter(name, args.encoding_file)  # built once (and cached): one line if it cannot be
    return name  # CTX-8: the result names the counter as given (COUNT-9: the file registered)


_REQUIRED = ("id", "title", "text")


def _chunk(where: str, record: dict[str, Any]) -> tuple[Chunk, str | None]:
    """Turn one row into a Chunk and its record's counter (CLI-4, RECORD-9)."""
    if all(key in record for key in READ_FIELDS):  # META-5: metadata may be missing
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
    record = chunk_record(where, data)
    return record.to_chunk(data.get("score", 0.0)), record.counter


#: RECORD-9: counters that share a budget (SCRIPT-6's default is one or the other per document).
def _one_counter(path: str, numbers: list[int], counters: list[str | None]) -> None:
    """RECORD-9: records measured by different counters cannot share one budget."""
    first: tuple[int, str] | None = None
    for number, counter in zip(numbers, counters, strict=True):
        if counter is None:
            continue
        if first is None:
            first = (number, counter)
        elif measure_of(counter) != measure_of(first[1]):
            raise CliError(
                f"{path}:{number}: counter {counter!r} differs from {first[1]!r} on line "
                f"{first[0]}; one budget needs one counter"
            )


def _located(
    error: ArgumentTypeError | ArgumentValueError, path: str, lines: list[int]
) -> Exception:
    """Turn ``chunks[i].field ...`` (``records[i]``, ``scores[i]``) into ``FILE:N: field ...``;
    other errors pass through."""
    match = re.match(r"(chunks|records|scores)\[(\d+)\]\.?", error.argument)
    if match is None:
        return error
    message = str(error)[match.end() :]
    if match.group(1) == "scores":
        message = "score" + message  # ``scores[i] must ...``: the row's score field
    return CliError(f"{path}:{lines[int(match.group(2))]}: {message}")
