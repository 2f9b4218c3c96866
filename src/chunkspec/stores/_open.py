"""A store's address: ``SCHEME://PATH`` and the collection, opened by its module (STORE-1).

Every store here is embedded (one folder or one file, no server): ``lancedb://DIR``,
``chroma://DIR`` (Chroma's ``PersistentClient``), ``qdrant://DIR`` (the Qdrant client's
local mode) and ``milvus://FILE.db`` (Milvus Lite). The path is relative to the working
folder (``lancedb://./store``) or absolute (``lancedb:///srv/store``).
"""

from __future__ import annotations

import os
import re
from importlib import import_module

from .._errors import ArgumentTypeError, ArgumentValueError
from ._store import Store

__all__ = ["DEFAULT_COLLECTION", "SCHEMES", "open_store", "parse_address"]

#: STORE-1: each scheme and the module whose ``open_store(path, collection)`` opens it.
SCHEMES = {
    "lancedb": "chunkspec.stores.lancedb",
    "chroma": "chunkspec.stores.chroma",
    "qdrant": "chunkspec.stores.qdrant",
    "milvus": "chunkspec.stores.milvus",
}

#: The collection (table) chunkspec writes when none is named.
DEFAULT_COLLECTION = "chunkspec"

#: A collection name every store accepts: 3 to 63 characters (Chroma's limits), a letter
#: first, a letter or digit last, letters, digits and ``_`` between (Milvus allows no ``-``
#: or ``.``).
_COLLECTION = re.compile(r"[A-Za-z][A-Za-z0-9_]{1,61}[A-Za-z0-9]")


def parse_address(address: str) -> tuple[str, str]:
    """``(scheme, absolute path)`` of ``SCHEME://PATH``; a ValueError naming ``into`` else."""
    if not isinstance(address, str):
        raise ArgumentTypeError("into", "a str such as 'lancedb://./store'", address)
    scheme, sep, path = address.partition("://")
    if not sep or scheme not in SCHEMES:
        raise ArgumentValueError(
            "into", f"must be SCHEME://PATH with SCHEME one of {', '.join(SCHEMES)}", address
        )
    if not path or "\0" in path:
        raise ArgumentValueError("into", "must name a path after SCHEME://", address)
    return scheme, os.path.abspath(path)


def check_collection(collection: str) -> str:
    """The collection name, checked (a ValueError naming ``collection``)."""
    if not isinstance(collection, str):
        raise ArgumentTypeError("collection", "a str", collection)
    if not _COLLECTION.fullmatch(collection):
        raise ArgumentValueError(
            "collection",
            "must be 3 to 63 letters, digits or _, starting with a letter and ending with a "
            "letter or digit",
            collection,
        )
    return collection


def open_store(address: str, *, collection: str = DEFAULT_COLLECTION) -> Store:
    """Open the collection ``collection`` of the store at ``address`` (created on first write).

    A store whose extra is not installed is an ImportError naming the ``pip install``.
    """
    scheme, path = parse_address(address)
    module = import_module(SCHEMES[scheme])
    store: Store = module.open_store(path, check_collection(collection))
    return store
