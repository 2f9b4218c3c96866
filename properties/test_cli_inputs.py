"""Properties of the corpus inputs: nothing found is lost silently (rules CLI-16, CLI-17).

Generated folders (nested, some file names bytes that are not UTF-8, some folders refused
as a mode-000 folder is, by making ``os.scandir`` raise PermissionError) are expanded by
the command line's input finder and compared with a literal model.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkspec._corpus._walk import find_inputs, shown

#: Each example writes a small folder: fewer examples than the CI profile's 1,000.
_FILES = settings(max_examples=100, deadline=None)

_POSIX = pytest.mark.skipif(sys.platform == "win32", reason="byte file names are POSIX")

#: Name bytes: ASCII letters, a valid UTF-8 é, and bytes that are not UTF-8 alone.
_piece = st.sampled_from([b"a", b"b", b"\xc3\xa9", b"\xe9", b"\xff", b"\x80"])
_name = st.lists(_piece, min_size=1, max_size=4).map(b"".join)


@st.composite
def trees(draw: st.DrawFn) -> tuple[set[bytes], set[bytes]]:
    """(files, refused folders): relative byte paths of ``.md`` files, and folders refused."""
    files: set[bytes] = set()
    for _ in range(draw(st.integers(1, 6))):
        parts = draw(st.lists(_name, min_size=1, max_size=3))
        files.add(b"/".join(parts) + b".md")
    folders = {
        b"/".join(path.split(b"/")[:depth])
        for path in files
        for depth in range(1, path.count(b"/") + 1)
    }
    # No path may be both a file's folder and a file (a.md/x.md vs a.md): names differ by .md.
    refused = (
        set(draw(st.lists(st.sampled_from(sorted(folders)), max_size=2))) if folders else set()
    )
    return files, refused


def _escaped(path: bytes) -> str:
    """CLI-16 literally: the bytes as UTF-8 where they are, ``\\xNN`` where they are not."""
    return path.decode("utf-8", "backslashreplace")


@_POSIX
@_FILES
@given(trees())
def test_every_file_is_found_or_its_folder_reported(tree: tuple[set[bytes], set[bytes]]) -> None:
    """CLI-17, CLI-16: each file is an input unless a folder above it is refused; each
    refused folder that is reached is one input with a problem; every doc id and source is
    valid text, the name with undecodable bytes as \\xNN."""
    files, refused = tree
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder, "docs")
        for path in files:
            full = os.path.join(os.fsencode(root), path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "wb") as handle:
                handle.write(b"words")
        real = os.scandir
        blocked = {os.path.join(os.fsencode(root), path) for path in refused}

        def scandir(path: Any = ".") -> Any:
            if os.fsencode(path) in blocked:
                raise PermissionError(13, "Permission denied", path)
            return real(path)

        with mock.patch.object(os, "scandir", scandir):
            found = find_inputs([str(root)], None, None)

    def under(path: bytes, folder: bytes) -> bool:
        return path.startswith(folder + b"/")

    # The refused folders reached: not below another refused folder.
    reached = {f for f in refused if not any(under(f, other) for other in refused)}
    expected_files = {p for p in files if not any(under(p, f) for f in refused)}
    model = {(_escaped(p[:-3]), None) for p in expected_files} | {
        (_escaped(f) + "/", "cannot read: Permission denied") for f in reached
    }
    got = {(item.doc_id, item.problem) for item in found}
    assert got == model
    assert len(found) == len(model)
    for item in found:
        item.doc_id.encode("utf-8")
        item.source.encode("utf-8")
        assert item.source == _escaped(os.fsencode(item.path))


@given(st.lists(st.sampled_from([b"a", b"\\", b"x", b"\xc3\xa9", b"\xe9", b"\xff"])))
def test_shown_is_valid_text_and_keeps_valid_names(parts: list[bytes]) -> None:
    """CLI-16: a name's shown form is valid UTF-8; a valid name is unchanged; only the
    undecodable bytes change, each to \\xNN."""
    name = b"".join(parts)
    text = shown(os.fsdecode(name))
    text.encode("utf-8")
    try:
        assert text == name.decode("utf-8")
    except UnicodeDecodeError:
        assert text == name.decode("utf-8", "backslashreplace")
