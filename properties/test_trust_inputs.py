"""Properties of the corpus boundary: what is read is exactly the corpus (TRUST-30 to TRUST-34).

Generated trees hold regular files, links into and out of the input folder (to files and
folders, absolute and relative, to an ancestor: a loop), FIFOs, sockets and links to
devices. They are found and read by the command line's own input finder and reader
(``find_inputs``, ``documents``, ``read_rows``); an interval timer turns a read that waits
(a FIFO opened) into a failure within seconds, so no example can hang the suite.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import stat
import sys
import tempfile
import threading
from argparse import Namespace
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkspec import ChunkJob, ChunkOptions
from chunkspec._cli._inputs import documents
from chunkspec._cli._io import CliError
from chunkspec._corpus._local_engine import read_rows
from chunkspec._corpus._walk import find_inputs, named_doc_ids
from chunkspec._text._documents import InputError
from chunkspec._text._regular_files import OverCap, read_regular

#: Each example writes a small tree: the dev profile's examples, no deadline.
_FILES = settings(max_examples=100, deadline=None)

_POSIX = pytest.mark.skipif(
    sys.platform == "win32", reason="symbolic links, FIFOs and sockets are POSIX"
)

#: The text written only in files outside the input folder: no document may hold it.
SENTINEL = "OUTSIDE-SENTINEL"

#: What an entry of the tree is.
KINDS = (
    "file",  # a regular .md file inside
    "other",  # a regular file whose name is not a document's (.bin)
    "dir",  # a folder inside (its entries come after it)
    "link-in-file",  # a link to a regular .md file inside
    "link-in-dir",  # a link to a folder inside
    "link-out-file",  # a link to a regular .md file outside (relative or absolute)
    "link-out-dir",  # a link to a folder outside
    "link-up",  # a link to the input folder itself (a loop)
    "fifo",
    "socket",
    "link-device",  # a link to /dev/null
)


@contextlib.contextmanager
def no_wait(seconds: float = 10.0) -> Iterator[None]:
    """Fail, instead of waiting for ever, if the block takes over ``seconds`` (an open or a
    read of a FIFO is interrupted by the timer's signal)."""

    def expired(signum: int, frame: Any) -> None:
        raise TimeoutError(f"a read waited over {seconds} s (a FIFO opened?)")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@st.composite
def trees(draw: st.DrawFn) -> list[tuple[str, str, int]]:
    """Entries ``(relative path, kind, choice)`` in creation order (folders first)."""
    folders = [""]
    entries: list[tuple[str, str, int]] = []
    for n in range(draw(st.integers(1, 12))):
        kind = draw(st.sampled_from(KINDS))
        parent = draw(st.sampled_from(folders))
        name = f"{parent}e{n}" + (".bin" if kind == "other" else "" if "dir" in kind else ".md")
        if kind in ("dir",):
            folders.append(name + "/")
        entries.append((name, kind, draw(st.integers(0, 1 << 16))))
    return entries


def _make(base: Path, entries: list[tuple[str, str, int]], stack: contextlib.ExitStack) -> Path:
    """Write the tree under ``base/docs`` and an outside folder ``base/outside``; return docs."""
    root, outside = base / "docs", base / "outside"
    root.mkdir()
    (outside / "sub").mkdir(parents=True)
    (outside / "out.md").write_text(f"{SENTINEL} file\n")
    (outside / "sub" / "deep.md").write_text(f"{SENTINEL} deep\n")
    inside_files: list[Path] = []
    inside_dirs: list[Path] = [root]
    for number, (name, kind, choice) in enumerate(entries):
        path = root / name
        if kind == "file":
            path.write_text(f"inside {number}\n")
            inside_files.append(path)
        elif kind == "other":
            path.write_text(f"not a document {number}\n")
        elif kind == "dir":
            path.mkdir()
            inside_dirs.append(path)
        elif kind == "link-in-file":
            if not inside_files:
                path.write_text(f"inside {number}\n")
                inside_files.append(path)
                continue
            os.symlink(os.path.relpath(inside_files[choice % len(inside_files)], path.parent), path)
        elif kind == "link-in-dir":
            target = inside_dirs[choice % len(inside_dirs)]
            os.symlink(os.path.relpath(target, path.parent), path)  # to its own parent: a loop
        elif kind == "link-out-file":
            target = outside / ("out.md" if choice % 2 else "sub/deep.md")
            os.symlink(target if choice % 4 < 2 else os.path.relpath(target, path.parent), path)
        elif kind == "link-out-dir":
            os.symlink(outside if choice % 2 else os.path.relpath(outside, path.parent), path)
        elif kind == "link-up":
            os.symlink(root, path)
        elif kind == "fifo":
            os.mkfifo(path)
        elif kind == "socket":
            server = stack.enter_context(socket.socket(socket.AF_UNIX, socket.SOCK_STREAM))
            cwd = os.getcwd()
            os.chdir(path.parent)  # socket paths are limited to ~107 bytes
            try:
                server.bind(path.name)
            finally:
                os.chdir(cwd)
        else:
            os.symlink("/dev/null", path)
    return root


def _args() -> Namespace:
    """The reading options of a chunking command, defaults."""
    return Namespace(input_format=None, title=None, input_encoding=None, pdf_password=None)


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root + os.sep)


def _read(root: Path, follow_links: bool) -> tuple[list[Any], list[str], list[Any]]:
    """Find and read the inputs of ``root`` as ``chunk`` does: (inputs, skip lines, results)."""
    skipped: list[str] = []
    with no_wait():
        try:
            found = find_inputs([str(root)], None, None, follow_links=follow_links, skipped=skipped)
        except CliError as caught:  # nothing to read: every skip is still named (TRUST-33)
            message = str(caught)
        else:
            return found, skipped, list(documents(found, _args()))
    assert message.startswith(f"no input files in {root} "), message
    assert ("; skipped: " in message) == bool(skipped)  # the error names a skip (TRUST-33)
    return [], skipped, []


@_POSIX
@_FILES
@given(trees())
def test_exactly_the_regular_files_inside_are_read(entries: list[tuple[str, str, int]]) -> None:
    """TRUST-30, TRUST-31, TRUST-33: over random trees of files, links in and out of the
    folder, loops, FIFOs, sockets and device links, the documents read are exactly the
    regular ``.md`` files inside the folder (by resolved path, each at least once); no
    document holds text written only outside; nothing waits; every skip line names a link
    out of the folder or a file that is not regular, and every such entry directly in the
    tree (no link on its path) has its line."""
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stack:
        base = Path(os.path.realpath(folder))
        root = _make(base, entries, stack)
        found, skipped, results = _read(root, follow_links=False)
        real_root = str(root)
        expected = {
            str(path)
            for path in root.rglob("*.md")
            if not any(p.is_symlink() for p in [path, *path.parents] if _inside(str(p), real_root))
            and stat.S_ISREG(path.lstat().st_mode)
        }
        read = set()
        for item, result in zip(found, results, strict=True):
            if isinstance(result, InputError):
                assert item.problem is not None, result  # only loops are problems here
                continue
            assert SENTINEL not in result.text
            real = os.path.realpath(item.path)
            assert _inside(real, real_root)
            assert stat.S_ISREG(os.stat(real).st_mode)
            read.add(real)
        assert read == expected
        lines = [line.rsplit(": ", 1)[0] if "not a regular" in line else line for line in skipped]
        for line in lines:
            path = line.split(": ")[0]
            assert path.startswith(str(root) + "/"), line
            if "a link out of" in line:
                assert not _inside(os.path.realpath(path), real_root), line
            else:
                assert not stat.S_ISREG(os.stat(path).st_mode), line
        linked = {name for name, _, _ in entries if (root / name).is_symlink()}
        direct = {
            str(root / name)
            for name, kind, _ in entries
            if kind in ("link-out-file", "link-out-dir", "fifo", "socket", "link-device")
            and not any(name.startswith(other + "/") for other in linked)
        }
        assert direct <= {line.split(": ")[0] for line in lines}


@_POSIX
@_FILES
@given(trees())
def test_follow_links_reads_outside_but_never_a_special_file(
    entries: list[tuple[str, str, int]],
) -> None:
    """TRUST-30, TRUST-31: with ``--follow-links`` every document read is a regular file (a
    device behind a link, a FIFO and a socket are still skipped, nothing waits), and text
    from outside is read exactly when a link out of the folder leads to an outside file."""
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stack:
        base = Path(os.path.realpath(folder))
        root = _make(base, entries, stack)
        found, skipped, results = _read(root, follow_links=True)
        texts = []
        for item, result in zip(found, results, strict=True):
            if isinstance(result, InputError):
                assert item.problem is not None, result
                continue
            assert stat.S_ISREG(os.stat(item.path).st_mode)
            texts.append(result.text)
        assert all("a link out of" not in line for line in skipped)
        out_links = any(kind in ("link-out-file", "link-out-dir") for _, kind, _ in entries)
        assert any(SENTINEL in text for text in texts) == out_links


@contextlib.contextmanager
def fed(fifo: Path, data: bytes) -> Iterator[None]:
    """Write ``data`` into ``fifo`` from a thread once a reader opens it."""

    def feed() -> None:
        try:
            with open(fifo, "wb") as handle:  # waits for the reader
                handle.write(data)
        except BrokenPipeError:  # the reader stopped at its cap
            pass

    thread = threading.Thread(target=feed, daemon=True)
    thread.start()
    yield
    thread.join(10)


@_POSIX
@settings(max_examples=50, deadline=None)
@given(st.integers(0, 300_000), st.integers(0, 200_000), st.booleans())
def test_the_cap_counts_bytes_read(size: int, cap: int, fifo: bool) -> None:
    """TRUST-32: a file (or a FIFO named by the caller, whose size says 0) of ``size`` bytes
    read with cap ``cap`` gives its bytes when ``size <= cap``, else OverCap; the error row
    says the size when the file's size shows it, else ``more than CAP bytes``."""
    data = bytes(n % 251 for n in range(size))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "x.md")
        if fifo:
            os.mkfifo(path)
            context: contextlib.AbstractContextManager[None] = fed(path, data)
        else:
            path.write_bytes(data)
            context = contextlib.nullcontext()
        with context, no_wait():
            try:
                got: bytes | None = read_regular(str(path), cap=cap, fifo=fifo)
                refused = ""
            except OverCap as error:
                got, refused = None, str(error)
        if size > cap:
            assert got is None
            shown = "more than {cap}" if fifo else f"{size}"
            assert refused == f"{shown.format(cap=cap)} bytes is over max_bytes ({cap})"
        else:
            assert got == data
        if not fifo:
            rows = read_rows(
                (str(path), "x", "x.md", None, None),
                ChunkJob(ChunkOptions("heading", 50), max_bytes=cap),
            )
            over = f"x.md: {size} bytes is over max_bytes ({cap})"
            assert (rows[0]["error"] == over) == (size > cap)


_segment = st.sampled_from(["a", "b", "README", "x"])


@_POSIX
@_FILES
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["one", "two"]),
            st.lists(_segment, min_size=1, max_size=3),
            st.sampled_from([".md", ".txt"]),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_one_doc_id_one_source(files: list[tuple[str, list[str], str]]) -> None:
    """TRUST-34, CLI-8: inputs from two folders are refused, one line naming both, exactly
    when two of them share a relative path without suffix that their suffixes do not tell
    apart; files that differ in their suffix keep it in their ids; else every input has its
    own id (the relative path without its suffix)."""
    with tempfile.TemporaryDirectory() as folder:
        made: dict[Path, str] = {}  # file -> its doc id
        for top, parts, suffix in files:
            relative = "/".join(parts)
            path = Path(folder, top, relative + suffix)
            stem = path.with_suffix("")
            if path.exists() or any(  # a name that is both a file's and a folder's: not a tree
                stem in other.with_suffix("").parents or other.with_suffix("") in stem.parents
                for other in made
            ):
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("words")
            made[path] = relative
        roots = [str(Path(folder, top)) for top in ("one", "two") if Path(folder, top).is_dir()]
        base = list(made.values())
        suffixes = [path.suffix for path in made]
        pairs = list(zip(base, suffixes, strict=True))
        ids = [  # CLI-8: a shared id keeps the suffix when the suffix tells it apart
            b + x if base.count(b) > 1 and pairs.count((b, x)) == 1 else b for b, x in pairs
        ]
        try:
            found = find_inputs(roots, None, None)
        except CliError as error:
            assert len(set(ids)) < len(ids)
            message = str(error)
            assert "is also the id of" in message
            assert message.count(folder) == 2
        else:
            assert len(set(ids)) == len(ids)
            assert sorted(item.doc_id for item in found) == sorted(ids)


@given(
    st.lists(
        st.tuples(
            st.lists(st.sampled_from(["a", "b", "README", "x", ".", ".."]), max_size=3),
            st.sampled_from(["README", "x", "a"]),
            st.sampled_from([".md", ".txt", ".py"]),
        ),
        min_size=1,
        max_size=6,
    ),
    st.booleans(),
)
def test_files_named_directly_get_distinct_ids(
    named: list[tuple[list[str], str, str]], absolute: bool
) -> None:
    """CLI-8, TRUST-34: a file named directly is its name without suffix (a code file's
    with it, REPO-2) when no other named file shares that; else the shortest trailing
    part of its path no other shares. The ids are distinct exactly when the paths are
    (``.`` dropped, the suffix ignored but a code file's), each a trailing part of its
    path, and the model's (literally: the shortest trailing part shared by no other)."""
    paths = [
        ("/" if absolute else "") + "/".join([*folders, name + suffix])
        for folders, name, suffix in named
    ]

    def key(folders: list[str], name: str, suffix: str, size: int) -> tuple[str, ...]:
        names = [part for part in folders if part != "."]
        last = name + suffix if suffix == ".py" else name
        return tuple([*names, last][-size:])

    keys = [key(*item, 99) for item in named]
    longest = max(map(len, keys))
    ids = named_doc_ids(paths)
    assert len(ids) == len(paths)
    for index, (item, doc_id) in enumerate(zip(named, ids, strict=True)):
        size = next(
            (
                size
                for size in range(1, longest + 1)
                if all(
                    key(*other, size) != key(*item, size)
                    for place, other in enumerate(named)
                    if place != index
                )
            ),
            1,
        )
        assert doc_id == "/".join(key(*item, size))  # the model's, a trailing part
        if size == 1:
            assert doc_id == keys[index][-1]  # no other shares its name: CLI-8's id
    assert (len(set(ids)) == len(ids)) == (len(set(keys)) == len(keys))
