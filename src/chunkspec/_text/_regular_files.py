"""Reading an input file without blocking and without reading past a cap (TRUST-31, TRUST-32).

A path is opened with ``O_NONBLOCK`` (so opening a FIFO never waits for a writer) and the
OPEN descriptor is checked with ``fstat``: what is read is what was checked, even if the
name is swapped in between. Only a regular file is read, unless the caller allows a FIFO
(a stream it named itself, as ``-`` is); a device or a socket is never read. With a cap,
at most ``cap + 1`` bytes are read, whatever ``st_size`` says (0 for a device or a
``/proc`` file, and a file can grow between ``stat`` and ``read``).
"""

from __future__ import annotations

import errno
import os
import selectors
import stat

from .._errors import NotRegularFile, OverCap

__all__ = ["NotRegularFile", "OverCap", "file_kind", "read_regular"]

#: Bytes read at a time: the read stops one byte past the cap.
_CHUNK = 1 << 20


def file_kind(mode: int) -> str:
    """What a file of ``mode`` is, in words (``a FIFO``, ``a character device``, ...)."""
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a directory"
    return "not a file"


def read_regular(path: str | bytes, *, cap: int | None = None, fifo: bool = False) -> bytes:
    """Return the bytes of the regular file ``path`` (or of a FIFO when ``fifo``).

    Raises :class:`NotRegularFile` for anything else, without reading it (a socket, which
    cannot be opened, is found by ``stat``), :class:`OverCap` when the file holds more than
    ``cap`` bytes, and ``OSError`` when it cannot be opened or read.
    """
    nonblocking = getattr(os, "O_NONBLOCK", 0)  # POSIX; Windows has no FIFO to wait on
    flags = os.O_RDONLY | nonblocking | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    flags |= getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as error:
        if error.errno in (errno.ENXIO, errno.ENODEV, errno.EOPNOTSUPP):
            info = os.stat(path)  # a socket: ENXIO; say what it is
            if not stat.S_ISREG(info.st_mode):
                raise NotRegularFile(file_kind(info.st_mode)) from None
        raise
    try:
        info = os.fstat(fd)
        if stat.S_ISFIFO(info.st_mode) and fifo:
            return _read_stream(fd, cap)  # the caller's own stream, as standard input
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(file_kind(info.st_mode))
        if cap is not None and info.st_size > cap:  # SCALE-5 without reading the giant
            raise OverCap(cap, info.st_size)
        return _read_all(fd, cap, info.st_size)
    finally:
        os.close(fd)


def _read_all(fd: int, cap: int | None, size: int | None) -> bytes:
    """Read ``fd`` to its end, or one byte past ``cap`` (then OverCap). ``size`` (a regular
    file's ``st_size``) sizes the first read, so a whole file is one allocation."""
    parts: list[bytes] = []
    total = 0
    want = _CHUNK if size is None else size + 1
    while True:
        if cap is not None:
            want = min(want, cap + 1 - total)
        part = os.read(fd, want)
        if not part:
            return parts[0] if len(parts) == 1 else b"".join(parts)
        parts.append(part)
        total += len(part)
        if cap is not None and total > cap:
            raise OverCap(cap, None)
        want = _CHUNK


def _read_stream(fd: int, cap: int | None) -> bytes:
    """Read the FIFO ``fd`` (opened without blocking) as standard input is read: wait for a
    writer and its bytes, to the end (the last writer gone), or one byte past ``cap``.

    The descriptor stays non-blocking (a read before any writer came would be an end of
    file): each read first waits until the kernel says the FIFO is readable, which is
    bytes to read, or a writer that came and left since the open.
    """
    parts: list[bytes] = []
    total = 0
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        while True:
            selector.select()
            want = _CHUNK if cap is None else min(_CHUNK, cap + 1 - total)
            try:
                part = os.read(fd, want)
            except BlockingIOError:  # woken with nothing to read yet
                continue
            if not part:
                return b"".join(parts)
            parts.append(part)
            total += len(part)
            if cap is not None and total > cap:
                raise OverCap(cap, None)
