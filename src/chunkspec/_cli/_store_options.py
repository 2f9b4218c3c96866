"""``chunkspec ingest ... --into STORE``: the result applied to a vector store (STORE rules).

The flags, their checks before any work (STORE-1: the address and the extras it needs),
and the apply after the result is written: the store ends equal to the result (STORE-5),
embedding only what it lacks (STORE-7), with the drift line on standard error (STORE-8).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

from .._corpus._ray_engine import ray_messages
from .._errors import ArgumentTypeError, ArgumentValueError, StoreError
from ..stores import (
    DEFAULT_COLLECTION,
    LOCAL_MODEL,
    SCHEMES,
    ApplyReport,
    apply_result,
    named_embedder,
    open_store,
    parse_address,
    ray_writer,
)
from ..stores._embedder import default_cache
from ..stores._open import check_collection
from ._io import CliError, one_line

__all__ = ["StoreTarget", "add_store_options", "apply_into", "store_target"]


@dataclass(frozen=True, slots=True)
class StoreTarget:
    """The checked ``--into`` address, its collection and the default ``--out`` it implies."""

    address: str
    collection: str


def add_store_options(parser: argparse.ArgumentParser) -> None:
    """``--into`` and the flags that go with it."""
    parser.add_argument(
        "--into",
        metavar="STORE",
        help="then make this vector store hold exactly the result: lancedb://DIR, "
        "chroma://DIR, qdrant://DIR or milvus://FILE.db (chunkspec[lancedb] etc.); only the "
        "chunks it lacks are embedded (docs/stores.md)",
    )
    parser.add_argument(
        "--collection",
        default=DEFAULT_COLLECTION,
        metavar="NAME",
        help=f"--into: the collection (table) to write (default {DEFAULT_COLLECTION})",
    )
    parser.add_argument(
        "--embed",
        default=LOCAL_MODEL,
        metavar="MODEL",
        help=f"--into: the embedding model: the embed extra's bundled {LOCAL_MODEL} "
        "(chunkspec[embed]), or MODULE:FUNCTION, your batched embedding function on the "
        "Python path (default: the bundled model)",
    )
    parser.add_argument(
        "--embed-cache",
        metavar="DIR",
        help="--into: the embeddings cache folder (default: ~/.cache/chunkspec/embeddings)",
    )
    parser.add_argument(
        "--no-embed-cache",
        action="store_true",
        help="--into: keep no embeddings between runs",
    )
    parser.add_argument(
        "--adopt",
        action="store_true",
        help="--into: replace rows the collection holds that chunkspec did not write "
        "(refused by default, STORE-5)",
    )


def _needs(scheme: str) -> None:
    """STORE-1: the store's extra, named when missing, before any work."""
    try:
        import_module(SCHEMES[scheme])
    except ImportError as error:
        raise CliError(f"--into: {error}") from None


def store_target(args: argparse.Namespace) -> StoreTarget | None:
    """Check ``--into`` and its flags; set ``args.out`` to the default ``--out``."""
    if args.into is None:
        for flag, given in (
            ("--embed-cache", args.embed_cache is not None),
            ("--no-embed-cache", args.no_embed_cache),
            ("--adopt", args.adopt),
            ("--collection", args.collection != DEFAULT_COLLECTION),
            ("--embed", args.embed != LOCAL_MODEL),
        ):
            if given:
                raise CliError(f"{flag} needs --into")
        if args.out is None:
            raise CliError("--out is required (or --into STORE)")
        return None
    if args.embed_cache is not None and args.no_embed_cache:
        raise CliError("--embed-cache and --no-embed-cache exclude each other")
    try:
        scheme, path = parse_address(args.into)
        collection = check_collection(args.collection)
    except (ArgumentTypeError, ArgumentValueError) as error:
        message = str(error)
        message = message.replace("collection ", "--collection ", 1)
        raise CliError(message if message.startswith("--") else f"--{message}") from None
    _needs(scheme)
    try:  # STORE-11: the model (or the function) is found before any work
        args.embedder = named_embedder(args.embed)
    except (ArgumentTypeError, ArgumentValueError) as error:
        raise CliError(f"--{error}") from None
    except ImportError as error:  # the embed extra, named
        raise CliError(f"--embed: {error}") from None
    if args.out is None:  # STORE-1: the result lives beside the store
        args.out = f"{path}.chunkspec"
    return StoreTarget(args.into, collection)


def report_line(report: ApplyReport) -> str:
    """The last line of an apply: what changed, what was embedded, what the store holds."""
    return (
        f"{report.store}: {report.added} added, {report.updated} updated, "
        f"{report.removed} removed, {report.unchanged} unchanged; {report.embedded} "
        f"embedded in {report.calls} calls; {report.rows} rows, {report.seconds:.1f} s"
    )


def apply_into(target: StoreTarget, args: argparse.Namespace, say: Callable[[str], None]) -> str:
    """Apply the result in ``args.out`` to the store; the summary line."""
    cache: Any = None if args.no_embed_cache else (args.embed_cache or default_cache())
    embedder = args.embedder
    try:
        store = open_store(target.address, collection=target.collection)
    except StoreError as error:
        raise CliError(str(error)) from None
    except Exception as error:  # the client's own errors: one line, never a traceback
        raise CliError(f"--into {target.address}: cannot open: {one_line(str(error))}") from None
    try:
        if args.engine == "ray":  # the batches embedded on Ray's workers (docs/stores.md)
            with ray_messages(Path(args.out), args.verbose, say):
                report = apply_result(
                    args.out,
                    store,
                    embedder,
                    cache=cache,
                    adopt=args.adopt,
                    say=say,
                    write=ray_writer(args.address, workers=args.workers),
                )
        else:
            report = apply_result(args.out, store, embedder, cache=cache, adopt=args.adopt, say=say)
    except StoreError as error:
        raise CliError(str(error)) from None
    except (OSError, RuntimeError, ValueError) as error:  # the client's own failures
        raise CliError(f"--into {target.address}: {one_line(str(error))}") from None
    finally:
        store.close()
    return report_line(report)
