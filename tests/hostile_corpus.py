"""The hostile corpus: every bad-input class of docs/reliability.md as files, made in process.

``write_hostile_corpus(root)`` writes the corpus under ``root`` (and, beside it, a folder
``outside`` the corpus links into) and returns what each path must give: ``None`` for
records, else a regular expression the one-line message about it (after ``NAME: ``) must
match; and what the walk must skip (links out of the corpus, a FIFO, a socket: TRUST-30,
TRUST-31), each with the pattern of its skip line. Nothing is shipped as a binary: PDFs
come from tests/pdfs.py and pypdf. ``refuse_listing`` makes one folder unreadable the way
mode 000 does (the suite may run as root, for whom modes mean nothing).
``write_unbounded_corpus(root)`` adds what a run must never read to its end: a link to
``/dev/zero`` and one to a ``/proc`` file whose size says 0 (run those in a subprocess with
a memory limit and a timeout). ``no_wait`` turns a run that waits (a FIFO opened) into a
failure within seconds.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.pdfs import text_pdf

__all__ = [
    "COUNTED",
    "COUNTED_LINE",
    "IGNORED",
    "LOCKED",
    "OUTSIDE_TEXT",
    "no_wait",
    "refuse_listing",
    "write_hostile_corpus",
    "write_unbounded_corpus",
]

#: The text written only in files outside the corpus: in no output, ever (TRUST-30).
OUTSIDE_TEXT = "HOSTILE-OUTSIDE-TEXT"

#: The folder ``refuse_listing`` is given in the suite (one inner file never seen).
LOCKED = "bad/locked"

#: Files that are not inputs by CLI-7 (a dot name, an unknown suffix): in no output.
IGNORED = (".hidden.md", "notes.rst", "bad/.cache/x.md")

#: Files and links the walk skips and counts (REPO-6: a NUL in a text document's head;
#: REPO-12: links in a cycle, a dangling link): no input, one count each.
COUNTED = ("ok/nul.txt", "bad/binary.md", "bad/loop", "bad/self-loop.md", "bad/dangling.md")

#: REPO-9's line for them.
COUNTED_LINE = "skipped 5 paths: 2 binary files, 2 symbolic link loops, 1 dangling symbolic link"

_PROSE = "The quick brown fox jumps over the lazy dog. " * 3


def refuse_listing(monkeypatch: pytest.MonkeyPatch, refused: Path) -> None:
    """Make ``os.scandir`` raise PermissionError for ``refused``, as for a mode-000 folder."""
    real = os.scandir

    def scandir(path: Any = ".") -> Any:
        if Path(path).resolve() == refused.resolve():
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)


@contextlib.contextmanager
def no_wait(seconds: float) -> Iterator[None]:
    """Raise TimeoutError in the block after ``seconds`` (a blocked ``open`` or ``read`` of a
    FIFO is interrupted by the signal), so a run that waits fails instead of hanging."""

    def expired(signum: int, frame: Any) -> None:
        raise TimeoutError(f"the run waited over {seconds} s (a FIFO opened?)")

    if sys.platform == "win32":
        yield
        return
    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _encrypted_pdf() -> bytes:
    """A text PDF encrypted with AES-256 (user password ``s3cret``)."""
    from pypdf import PdfWriter

    writer = PdfWriter(clone_from=io.BytesIO(text_pdf([["Locked", _PROSE]])))
    writer.encrypt(user_password="s3cret", algorithm="AES-256")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _files() -> dict[str, tuple[bytes, str | None]]:
    """Every file of the corpus: its bytes and what it must give (None: records)."""
    pdf = text_pdf([["Quarterly report", _PROSE], ["Outlook", "Steady growth ahead."]])
    bidi = "\u202bمرحبا بالعالم ABC 123\u202c و\u2067نص\u2069 نهاية.\n"
    return {
        # Documents that must give records, however odd.
        "ok/plain.md": (f"# Title\n\n{_PROSE}\n".encode(), None),
        "ok/crlf.md": (f"# Title\r\n\r\n{_PROSE}\r\n\r\n## Next\r\n\r\nMore.\r\n".encode(), None),
        "ok/cr-only.txt": (f"First line.\r{_PROSE}\r\rLast.\r".encode(), None),
        "ok/bom.md": (b"\xef\xbb\xbf# Marked\n\nText after a byte-order mark.\n", None),
        "ok/utf16.txt": (f"UTF-16 with its mark. {_PROSE}".encode("utf-16"), None),
        "ok/utf32.md": ("# Wide\n\nUTF-32 text.\n".encode("utf-32"), None),
        "ok/README.MD": (b"# Upper-case suffix\n\nTaken as Markdown.\n", None),
        "ok/nul.txt": (b"Text with a \x00 NUL and \x07 bell inside.\n", "binary"),
        "ok/front.md": (b"---\ntitle: Front\ntags: [a, b]\n---\n\n# Body\n\nText.\n", None),
        "ok/cjk.md": (
            ("# 机器学习\n\n" + "机器学习是人工智能的一个分支。" * 40 + "\n").encode(),
            None,
        ),
        "ok/rtl.txt": (bidi.encode(), None),
        "ok/emoji.md": ("# 👩‍👩‍👧 family\n\n🇫🇷 flags and e\u0301 marks.\n".encode(), None),
        "ok/spaces.txt": (
            "no-break\u00a0space, thin\u2009space, ideographic\u3000space.\n".encode(),
            None,
        ),
        "ok/long-line.txt": (("word " * 40_000).encode(), None),
        "ok/blocks.json": (
            b'[{"kind": "heading", "level": 1, "text": "T"}, {"text": "a b c"}]',
            None,
        ),
        "ok/deep/a/b/c/d/e/f.md": (b"# Deep\n\nSix folders down.\n", None),
        "ok/report.pdf": (pdf, None),
        "ok/caf\udce9.md": (b"# Latin-1 name\n\nThe file name is not UTF-8.\n", None),
        "ok/real/shared.md": (b"# Shared\n\nReached twice: here and through a link.\n", None),
        # Documents that must each be named with their reason.
        "bad/latin1.txt": (
            "Crème brûlée.\n".encode("latin-1"),
            r"not valid UTF-8 \(byte 2\); name its encoding with .*",
        ),
        "bad/binary.md": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
        "bad/empty.txt": (b"", r"no text to chunk"),
        "bad/blank.md": (" \n\t\n\u3000\n".encode(), r"no text to chunk"),
        "bad/truncated.pdf": (pdf[: len(pdf) // 2], r"cannot read PDF.*|not a PDF.*"),
        "bad/fake.pdf": (b"just text, not a PDF at all\n", r"not a PDF.*|cannot read PDF.*"),
        "bad/encrypted.pdf": (
            _encrypted_pdf(),
            r"encrypted PDF: a password is needed \(--pdf-password\)",
        ),
        "bad/no-text.pdf": (text_pdf([[]]), r"no text to chunk"),
        "bad/nested.json": (b"[" * 5000 + b"]" * 5000, r"not valid JSON \(nested too deeply\)"),
        "bad/broken.json": (b'[{"text": "unterminated', r"not valid JSON.*"),
        "bad/shape.json": (b'{"not": "blocks"}', r".*blocks.*"),
        f"{LOCKED}/inside.md": (b"# Never seen\n\nThe folder cannot be listed.\n", None),
        # Not inputs at all (CLI-7).
        ".hidden.md": (b"# Hidden\n", None),
        "notes.rst": (b"Not a known suffix.\n", None),
        "bad/.cache/x.md": (b"# Cache\n", None),
    }


def write_hostile_corpus(
    root: Path,
) -> tuple[dict[str, str | None], dict[str, Path], dict[str, str]]:
    """Write the corpus under ``root``; return each input path (relative, as ``source`` shows
    it after ``root/``) and what it must give: None for records, else a message pattern;
    each input file's real path by that name; and each path the walk must skip, with the
    pattern of its reason (TRUST-30, TRUST-31)."""
    expected: dict[str, str | None] = {}
    files: dict[str, Path] = {}
    for name, (data, outcome) in _files().items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        if name not in IGNORED + COUNTED and not name.startswith(LOCKED + "/"):
            shown = os.fsencode(name).decode("utf-8", "backslashreplace")
            expected[shown] = outcome
            files[shown] = path
    # Links: a folder reached through a link is read there too; a loop and a dangling link
    # are counted skips (REPO-12, COUNTED).
    os.symlink("real", root / "ok" / "linked")
    expected["ok/linked/shared.md"] = None
    os.symlink("..", root / "bad" / "loop")
    os.symlink("nowhere.md", root / "bad" / "dangling.md")
    expected[LOCKED] = r"cannot read: Permission denied"
    files["ok/linked/shared.md"] = root / "ok" / "linked" / "shared.md"
    os.symlink("self-loop.md", root / "bad" / "self-loop.md")  # a link to itself
    # What the walk must not read (TRUST-30, TRUST-31): each is one skip line, never opened.
    outside = root.parent / "outside"
    (outside / "folder").mkdir(parents=True, exist_ok=True)
    (outside / "secret.md").write_text(f"# Secret\n\n{OUTSIDE_TEXT} in a file.\n")
    (outside / "folder" / "inner.md").write_text(f"# Inner\n\n{OUTSIDE_TEXT} in a folder.\n")
    out_of = rf"a link out of {root.name}, not followed \(--follow-links follows it\)"
    skipped = {
        "bad/leak.md": out_of,
        "bad/leak-absolute.md": out_of,
        "bad/outside-folder": out_of,
        "bad/pipe.md": r"not a regular file \(a FIFO\)",
        "bad/socket.md": r"not a regular file \(a socket\)",
    }
    os.symlink(os.path.join("..", "..", "outside", "secret.md"), root / "bad" / "leak.md")
    os.symlink(outside / "secret.md", root / "bad" / "leak-absolute.md")
    os.symlink(os.path.join("..", "..", "outside", "folder"), root / "bad" / "outside-folder")
    os.mkfifo(root / "bad" / "pipe.md")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        cwd = os.getcwd()
        os.chdir(root / "bad")  # a short name: socket paths are limited to ~107 bytes
        try:
            server.bind("socket.md")  # the socket file stays after the socket is closed
        finally:
            os.chdir(cwd)
    return expected, files, skipped


def write_unbounded_corpus(root: Path) -> dict[str, str]:
    """Write a small corpus under ``root`` with links to files no run may read to their end
    (TRUST-31, TRUST-32); return each such path and what ``ingest --follow-links
    --max-bytes 100`` must say of it (a skip line, or an error row)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "plain.md").write_text(f"# Plain\n\n{_PROSE[:60]}\n")
    os.symlink("/dev/zero", root / "zero.md")  # a device: st_size 0, endless
    os.symlink("/proc/self/status", root / "status.txt")  # regular, st_size 0, > 100 bytes
    return {
        "zero.md": r"skipped: not a regular file \(a character device\)",
        "status.txt": r"error: more than 100 bytes is over max_bytes \(100\)",
    }
