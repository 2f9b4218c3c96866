"""Front matter: a YAML (``---``) or TOML (``+++``) block opening a Markdown document (FM rules).

The block is found by mdit-py-plugins' ``front_matter`` rule, quoted line by line (FM-1);
its keys are read by a small, exact line rule, not a YAML or TOML parser (FM-3).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ._front_matter_access import unread_access_keys
from ._lines import line_table

__all__ = ["FrontMatter", "find_front_matter", "mask_front_matter"]

#: FM-1: the marker characters and the format each opens.
_FORMATS = {"-": "yaml", "+": "toml"}

#: FM-3: a top-level key (column 0): letters, digits, ``_`` and ``-`` (TOML's bare key).
_YAML_KEY = re.compile(r"([A-Za-z0-9_-]+)[ \t]*:(?:[ \t]+(.*)|[ \t]*)\Z")
_TOML_KEY = re.compile(r"([A-Za-z0-9_-]+)[ \t]*=[ \t]*(.*)\Z")

#: FM-3: an unquoted value ends before `` #`` (a comment), as YAML and TOML both say.
_COMMENT = re.compile(r"[ \t]+#.*\Z")

#: FM-3: quoted values, a comment allowed after the closing quote; ``\\"`` and ``\\\\`` unescaped.
_DOUBLE = re.compile(r'"((?:[^"\\]|\\.)*)"(?:[ \t]+#.*|[ \t]*)\Z')
_ESCAPE = re.compile(r'\\(["\\])')
_SINGLE_YAML = re.compile(r"'((?:[^']|'')*)'(?:[ \t]+#.*|[ \t]*)\Z")
_SINGLE_TOML = re.compile(r"'([^']*)'(?:[ \t]+#.*|[ \t]*)\Z")

#: MD-2's line terminators; FM-1's candidate closing lines (a line break, then a line that
#: starts with spaces and tabs and a run of three markers, or YAML's dots), checked one by one.
_LINE_END = re.compile(r"\r\n|\r|\n")
_CANDIDATES = {
    "-": re.compile(r"(?:\r\n|\r|\n)([ \t]*(?:---|\.\.\.)[^\r\n]*)"),
    "+": re.compile(r"(?:\r\n|\r|\n)([ \t]*\+\+\+[^\r\n]*)"),
}

#: FM-2: everything but a line break becomes a space when front matter is masked.
_NOT_BREAK = re.compile(r"[^\r\n]")


@dataclass(frozen=True, slots=True)
class FrontMatter:
    """A document's front matter (FM-1): ``text[0:end]`` is the block, markers included.

    ``format`` is ``yaml`` or ``toml``; ``body`` is the block between the marker lines;
    ``body_start`` is where the document's own text starts (the line after the closing
    marker); ``fields`` is FM-3's top-level ``key -> value`` strings, read-only;
    ``unread_access_keys`` the access keys it sets in a form FM-3 cannot read as they
    need (TRUST-3), which refuse the document unless the caller's metadata sets them.
    """

    format: str
    end: int
    body_start: int
    body: str
    fields: Mapping[str, str]
    unread_access_keys: tuple[str, ...] = ()

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickle (a worker process, Ray) with ``fields`` as a dict: a mappingproxy cannot be."""
        return _front_matter, (
            self.format,
            self.end,
            self.body_start,
            self.body,
            dict(self.fields),
            self.unread_access_keys,
        )

    @property
    def title(self) -> str | None:
        """FM-4: the ``title`` field, whitespace folded, or None when absent or blank."""
        value = " ".join(self.fields.get("title", "").split())
        return value or None


def _front_matter(
    kind: str,
    end: int,
    body_start: int,
    body: str,
    fields: dict[str, str],
    unread: tuple[str, ...] = (),
) -> FrontMatter:
    """Rebuild a pickled :class:`FrontMatter`, ``fields`` read-only again."""
    return FrontMatter(kind, end, body_start, body, MappingProxyType(fields), unread)


def _indent(line: str) -> tuple[int, int]:
    """markdown-it's ``tShift`` and ``sCount`` of ``line``: leading spaces and tabs, columns."""
    shift = column = 0
    for character in line:
        if character == " ":
            column += 1
        elif character == "\t":
            column += 4 - column % 4
        else:
            break
        shift += 1
    return shift, column


def _closes(line: str, marker: str, count: int) -> bool:
    """FM-1: ``line`` closes front matter opened by ``count`` ``marker`` characters."""
    shift, column = _indent(line)
    if marker == "-" and column == 0 and line.startswith("...") and not line[3:].strip(" \t"):
        return True  # YAML's document end marker
    rest = line[shift:]
    if not rest or rest[0] != marker or column >= 4:
        return False
    run = len(rest) - len(rest.lstrip(marker))
    return run >= count and not rest[run:].strip(" \t")


def find_front_matter(text: str) -> FrontMatter | None:
    """Return the front matter opening ``text`` (FM-1), or None when there is none."""
    marker = text[:1]
    if marker not in _FORMATS:
        return None
    first = _LINE_END.search(text)
    if first is None:
        return None  # one line: nothing can close it
    opening = text[: first.start()]
    run = len(opening) - len(opening.lstrip(marker))
    if run < 3:
        return None
    # Only a line of markers or dots can close: find those in C, then check each (FM-1).
    for match in _CANDIDATES[marker].finditer(text, first.start()):
        if _closes(match.group(1), marker, run):
            end = match.end(1)
            after = end + (2 if text.startswith("\r\n", end) else 1 if end < len(text) else 0)
            body = text[first.end() : match.start()] if match.start() >= first.end() else ""
            kind = _FORMATS[marker]
            fields = _fields(body, kind)
            unread = unread_access_keys(body, kind, fields)  # TRUST-3
            return FrontMatter(kind, end, after, body, fields, unread)
    return None  # FM-5: unclosed, so not front matter


def mask_front_matter(text: str) -> str:
    """FM-2: ``text`` with its front matter's characters, line breaks aside, made spaces.

    Offsets and lines stay those of ``text``; a block parser sees blank lines, which is how
    markdown-it goes on after the ``front_matter`` token.
    """
    found = find_front_matter(text)
    if found is None:
        return text
    return _NOT_BREAK.sub(" ", text[: found.body_start]) + text[found.body_start :]


def _fields(body: str, kind: str) -> Mapping[str, str]:
    """FM-3: the top-level ``key: value`` (YAML) or ``key = value`` (TOML) scalar lines."""
    pattern = _YAML_KEY if kind == "yaml" else _TOML_KEY
    fields: dict[str, str] = {}
    starts, ends = line_table(body)
    for start, end in zip(starts, ends, strict=True):
        line = body[start:end]
        if kind == "toml" and line.startswith("["):
            break  # a [table] header: later keys are not top-level
        match = pattern.match(line)
        if match is None:
            continue
        value = _scalar(match.group(2) or "", kind)
        if value is not None:
            fields[match.group(1)] = value
    return MappingProxyType(fields)


def _scalar(raw: str, kind: str) -> str | None:
    """FM-3: the string a one-line scalar value stands for; None for anything else."""
    quoted = _DOUBLE.match(raw)
    if quoted is not None:
        return _ESCAPE.sub(r"\1", quoted.group(1))
    quoted = _SINGLE_YAML.match(raw) if kind == "yaml" else _SINGLE_TOML.match(raw)
    if quoted is not None:
        return quoted.group(1).replace("''", "'") if kind == "yaml" else quoted.group(1)
    raw = _COMMENT.sub("", raw.rstrip(" \t"))
    if not raw or raw[0] in "\"'#|>" or (kind == "yaml" and raw[0] in "&*!"):
        return None  # empty (a nested block), a block scalar, an anchor, a broken quote
    return raw
