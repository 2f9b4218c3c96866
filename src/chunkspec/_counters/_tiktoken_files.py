"""tiktoken encodings from a local rank file, and a one-line error offline (COUNT-9, COUNT-10).

tiktoken downloads an encoding's ``.tiktoken`` rank file on first use and caches it; on a
machine without network that fails with a long traceback. :func:`load_encoding` resolves a
name as tiktoken does, but says in one line what is missing; :func:`encoding_from_file`
builds the named encoding from a local copy of its rank file, checked against the SHA-256
that tiktoken pins for it, so the counts (and the counter's name) are the same as online.
It runs tiktoken's own constructor for the name with a local loader standing in for
``load_tiktoken_bpe`` in the constructor's module (under tiktoken's registry lock): the
pattern and special tokens are tiktoken's, never a copy kept here.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._core._validate import require_str
from .._errors import ArgumentTypeError, ArgumentValueError

if TYPE_CHECKING:
    import tiktoken

__all__ = ["encoding_from_file", "load_encoding"]

#: The loaders a tiktoken constructor calls: one rank file, or GPT-2's two data-gym files.
_LOADERS = ("load_tiktoken_bpe", "data_gym_to_mergeable_bpe_ranks")


def load_encoding(name: str) -> tiktoken.Encoding:
    """Return ``tiktoken.get_encoding(name)``; COUNT-10: one-line errors, no traceback text.

    An unknown name is a ValueError naming ``encoding`` with the known names; an encoding
    that is neither cached nor downloadable is a ValueError naming ``encoding`` that says
    how to give the file: ``encoding_file``, the argument of every function that builds a
    tiktoken counter (a command reports it as its ``--encoding-file`` flag, COUNT-10).
    """
    import tiktoken

    try:
        return tiktoken.get_encoding(name)
    except OSError as error:  # requests' errors are OSErrors; so are a cache dir's
        cache = os.environ.get("TIKTOKEN_CACHE_DIR") or os.environ.get("DATA_GYM_CACHE_DIR")
        where = f"TIKTOKEN_CACHE_DIR={cache}" if cache else "tiktoken's cache"
        raise ArgumentValueError(
            "encoding",
            f"is not available offline: not in {where} and the download failed "
            f"({type(error).__name__}); pass its .tiktoken file as encoding_file",
            name,
        ) from None
    except ValueError as error:
        if str(error).startswith("Unknown encoding"):
            raise ArgumentValueError(
                "encoding", f"is not a tiktoken encoding (known: {', '.join(_names())})", name
            ) from None
        raise


def _names() -> list[str]:
    """Return the names of the encodings tiktoken knows."""
    import tiktoken

    return sorted(tiktoken.list_encoding_names())


def _ranks(path: str, data: bytes) -> dict[bytes, int]:
    """Parse a ``.tiktoken`` file: one ``base64(token) rank`` pair per non-empty line."""
    ranks: dict[bytes, int] = {}
    for number, line in enumerate(data.splitlines(), start=1):
        if not line:
            continue
        try:
            token, rank = line.split()  # a ValueError unless exactly two fields
            ranks[base64.b64decode(token, validate=True)] = int(rank)
        except (ValueError, binascii.Error):
            raise ArgumentValueError(
                "encoding_file",
                f"is not a .tiktoken rank file (line {number}: expected 'base64 rank')",
                path,
            ) from None
    if not ranks:
        raise ArgumentValueError("encoding_file", "is empty (no ranks)", path)
    return ranks


def encoding_from_file(name: str, path: str | os.PathLike[str]) -> tiktoken.Encoding:
    """Return encoding ``name`` built from the local rank file at ``path`` (COUNT-9).

    ``name`` must be an encoding tiktoken knows (its pattern and special tokens come from
    tiktoken's own definition); the file must be that encoding's ``.tiktoken`` file: when
    tiktoken pins a SHA-256 for it, the file's must match (a ValueError naming
    ``encoding_file`` otherwise). The encoding is then what ``tiktoken.get_encoding(name)``
    returns in this process, so counters named ``tiktoken:{name}`` work offline too.
    """
    import tiktoken
    import tiktoken.registry

    require_str("encoding", name)
    if not isinstance(path, os.PathLike):
        require_str("encoding_file", path)
    label = os.fspath(path)
    try:
        data = Path(label).read_bytes()
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise ArgumentValueError("encoding_file", f"cannot be read ({reason})", label) from None
    if name not in _names():
        raise ArgumentValueError(
            "encoding", f"is not a tiktoken encoding (known: {', '.join(_names())})", name
        )
    ranks = _ranks(label, data)
    digest = hashlib.sha256(data).hexdigest()
    spec = _definition(name, ranks, digest, label)
    encoding = tiktoken.Encoding(**spec)
    with tiktoken.registry._lock:
        tiktoken.registry.ENCODINGS.setdefault(name, encoding)
    return tiktoken.registry.ENCODINGS[name]


def _definition(name: str, ranks: dict[bytes, int], digest: str, path: str) -> dict[str, Any]:
    """Run tiktoken's constructor for ``name`` with the local ranks in place of a download."""
    import tiktoken.registry

    tiktoken.registry.list_encoding_names()  # fills ENCODING_CONSTRUCTORS
    constructors = tiktoken.registry.ENCODING_CONSTRUCTORS
    assert constructors is not None
    constructor = constructors[name]
    names = constructor.__globals__

    def local(blobpath: str, expected_hash: str | None = None) -> dict[bytes, int]:
        """Stand in for load_tiktoken_bpe: the local ranks, if the file is the right one."""
        if expected_hash is not None and expected_hash != digest:
            raise ArgumentValueError(
                "encoding_file",
                f"is not the {name} rank file (SHA-256 {digest[:12]}..., tiktoken pins "
                f"{expected_hash[:12]}...)",
                path,
            )
        return ranks

    def refuse(*args: object, **kwargs: object) -> dict[bytes, int]:
        """Stand in for the two-file (data-gym) loader: no single rank file can serve it."""
        raise ArgumentValueError(
            "encoding", "has no single .tiktoken file (use r50k_base: the same ranks)", name
        )

    # tiktoken's registry lock: get_encoding holds it while a constructor runs, so no other
    # thread's constructor can meet the local loader while it stands in.
    with tiktoken.registry._lock:
        saved = {key: names[key] for key in _LOADERS if key in names}
        names["load_tiktoken_bpe"] = local
        names["data_gym_to_mergeable_bpe_ranks"] = refuse
        try:
            spec = constructor()
        finally:
            for key in _LOADERS:
                if key in saved:
                    names[key] = saved[key]
                else:
                    del names[key]
    if not isinstance(spec, dict):
        raise ArgumentTypeError("encoding", "a tiktoken constructor returning a dict", spec)
    return spec
