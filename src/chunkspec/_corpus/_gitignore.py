"""``.gitignore`` patterns as git reads them, for ``--gitignore`` walks (REPO-7).

A small matcher of git's pattern rules (gitignore(5), git's ``dir.c`` and ``wildmatch.c``):
comments, trailing spaces, ``!`` negation, a trailing ``/`` for folders only, a ``/`` at the
start or in the middle anchoring the pattern to its file's folder, ``*``, ``?``, bracket
expressions and ``**``. Names are matched as bytes, as git does (a ``?`` is one byte of a
UTF-8 name). The walk reads only the ``.gitignore`` files inside the folder it walks, never
one outside it (REPO-8). Imports the standard library only.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

__all__ = ["IgnoreFile", "Pattern", "ignored", "parse_ignore_file", "parse_pattern"]

#: Bracket classes, as git's wildmatch reads them in the C locale (ASCII).
_CLASSES = {
    b"alnum": rb"0-9A-Za-z",
    b"alpha": rb"A-Za-z",
    b"blank": rb" \t",
    b"cntrl": rb"\x00-\x1f\x7f",
    b"digit": rb"0-9",
    b"graph": rb"\x21-\x7e",
    b"lower": rb"a-z",
    b"print": rb"\x20-\x7e",
    b"punct": rb"!-/:-@\[-`{-~",
    b"space": rb"\t-\r ",
    b"upper": rb"A-Z",
    b"xdigit": rb"0-9A-Fa-f",
}


@dataclass(frozen=True, slots=True)
class Pattern:
    """One pattern line: its regex over a path (``anchored``) or a name, and its flags."""

    regex: re.Pattern[bytes] | None  # None: a malformed pattern, which matches nothing
    negated: bool
    folders_only: bool
    anchored: bool

    def matches(self, relative: bytes, is_dir: bool) -> bool:
        """Whether this pattern matches ``relative`` (a ``/``-separated path from the folder
        of the pattern's file); a name-only pattern matches its last part."""
        if self.regex is None or (self.folders_only and not is_dir):
            return False
        subject = relative if self.anchored else relative.rsplit(b"/", 1)[-1]
        return self.regex.fullmatch(subject) is not None


@dataclass(frozen=True, slots=True)
class IgnoreFile:
    """The patterns of one ``.gitignore``; ``prefix`` is its folder relative to the walked
    folder (``""`` or ending ``/``)."""

    prefix: bytes
    patterns: tuple[Pattern, ...]


def _trim_trailing_spaces(line: bytes) -> bytes:
    """Drop trailing spaces not escaped with a backslash (git's ``trim_trailing_spaces``)."""
    last_space = -1
    index = 0
    while index < len(line):
        byte = line[index]
        if byte == 0x20:
            if last_space < 0:
                last_space = index
        elif byte == 0x5C:
            index += 1
            if index >= len(line):
                return line
            last_space = -1
        else:
            last_space = -1
        index += 1
    return line if last_space < 0 else line[:last_space]


def parse_pattern(line: bytes) -> Pattern | None:
    """One line of a ``.gitignore`` (without its newline) as a pattern; None for a blank
    line or a comment."""
    line = _trim_trailing_spaces(line)
    if not line or line.startswith(b"#"):
        return None
    negated = line.startswith(b"!")
    if negated:
        line = line[1:]
    folders_only = line.endswith(b"/")
    if folders_only:
        line = line[:-1]
    anchored = b"/" in line
    if line.startswith(b"/"):
        line = line[1:]
    if not line:
        return Pattern(None, negated, folders_only, anchored)
    regex = _translate(line)
    return Pattern(regex, negated, folders_only, anchored)


def _translate(pattern: bytes) -> re.Pattern[bytes] | None:
    """git's wildmatch with ``WM_PATHNAME`` as a regex; None when git would match nothing
    (a backslash at the end, an unclosed bracket, an unknown class)."""
    out: list[bytes] = []
    index = 0
    size = len(pattern)
    while index < size:
        byte = pattern[index : index + 1]
        if byte == b"\\":
            if index + 1 >= size:
                return None
            out.append(re.escape(pattern[index + 1 : index + 2]))
            index += 2
        elif byte == b"?":
            out.append(b"[^/]")
            index += 1
        elif byte == b"*":
            end = index
            while end < size and pattern[end : end + 1] == b"*":
                end += 1
            double = end - index >= 2
            at_start = index == 0 or pattern[index - 1 : index] == b"/"
            if double and at_start and end < size and pattern[end : end + 1] == b"/":
                out.append(b"(?:.*/)?")  # "**/": zero or more folders
                index = end + 1
            elif double and at_start and end >= size:
                out.append(b".*")  # a trailing "**": everything inside
                index = end
            else:
                out.append(b"[^/]*")
                index = end
        elif byte == b"[":
            parsed = _bracket(pattern, index)
            if parsed is None:
                return None
            part, index = parsed
            out.append(part)
        else:
            out.append(re.escape(byte))
            index += 1
    return re.compile(b"".join(out), re.DOTALL)


def _bracket(pattern: bytes, start: int) -> tuple[bytes, int] | None:
    """The bracket expression at ``start`` as a regex class that never matches ``/``, and
    the index after it; None if it never closes or names an unknown class."""
    index = start + 1
    size = len(pattern)
    negated = index < size and pattern[index : index + 1] in (b"!", b"^")
    if negated:
        index += 1
    members: list[bytes] = []
    first = True
    previous: int | None = None  # the last single byte, for a range
    while True:
        if index >= size:
            return None
        byte = pattern[index]
        if byte == 0x5D and not first:  # "]"
            index += 1
            break
        first = False
        if byte == 0x5C:  # "\\": the next byte as itself
            index += 1
            if index >= size:
                return None
            byte = pattern[index]
            members.append(_class_byte(byte))
            previous = byte
            index += 1
            continue
        if (
            byte == 0x2D
            and previous is not None
            and index + 1 < size
            and pattern[index + 1] != 0x5D
        ):  # "-": a range from the previous byte
            high = pattern[index + 1]
            index += 2
            if high == 0x5C:
                if index >= size:
                    return None
                high = pattern[index]
                index += 1
            if previous <= high:  # the previous byte stays a member (wildmatch)
                members.append(_class_byte(previous) + b"-" + _class_byte(high))
            previous = None
            continue
        if byte == 0x5B and pattern[index + 1 : index + 2] == b":":  # "[:class:]"
            close = pattern.find(b"]", index + 2)
            if close < 0:
                return None
            if pattern[close - 1] != 0x3A or close - 1 < index + 2:  # no ":]": a "["
                members.append(_class_byte(byte))
                previous = byte
                index += 1
                continue
            name = pattern[index + 2 : close - 1]
            if name not in _CLASSES:
                return None
            members.append(_CLASSES[name])
            previous = None
            index = close + 1
            continue
        members.append(_class_byte(byte))
        previous = byte
        index += 1
    body = b"".join(members)
    if negated:
        return b"[^/" + body + b"]", index
    if not body:
        return b"(?!)", index
    return b"(?!/)[" + body + b"]", index


def _class_byte(byte: int) -> bytes:
    """One byte inside a regex class, escaped."""
    return b"\\x%02x" % byte


def parse_ignore_file(data: bytes, prefix: bytes) -> IgnoreFile:
    """The patterns of a ``.gitignore`` holding ``data`` (a UTF-8 byte-order mark skipped,
    lines ending ``\\n`` or ``\\r\\n``, as git reads them)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    patterns: list[Pattern] = []
    for line in data.split(b"\n"):
        if line.endswith(b"\r"):
            line = line[:-1]
        pattern = parse_pattern(line)
        if pattern is not None:
            patterns.append(pattern)
    return IgnoreFile(prefix, tuple(patterns))


def ignored(files: list[IgnoreFile], relative: str, is_dir: bool) -> bool:
    """REPO-7: whether the last pattern matching ``relative`` (from the walked folder) in
    ``files`` (outermost first) ignores it; a ``!`` pattern that matches last keeps it."""
    path = os.fsencode(relative)
    for ignore in reversed(files):
        if not path.startswith(ignore.prefix):
            continue
        inner = path[len(ignore.prefix) :]
        for pattern in reversed(ignore.patterns):
            if pattern.matches(inner, is_dir):
                return not pattern.negated
    return False
