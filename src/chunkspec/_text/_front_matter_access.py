"""Access keys in front matter that FM-3's line rule cannot read as what they need (TRUST-3).

FM-3 reads one-line string fields, not YAML or TOML. An access key (``tenant_id``,
``acl_labels``) written in any other spelling (a block list, a flow list, a quoted key, a
TOML array or table, an indented or anchored key, a value a YAML parser reads as a bool,
a number or null) would be silently dropped or read as another value than the author
meant, and YAML parsers disagree among themselves (YAML 1.1 against 1.2: ``on``, ``no``,
dates). :func:`unread_access_keys` finds those keys, erring on the side of finding one;
the document is then refused (``SourceDocument``) unless the caller's metadata sets that
key. The TypeScript port's ``frontMatter.ts`` mirrors this module line by line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .._core._access_keys import ACCESS_KEYS, LABELS_KEY, TENANT_KEY
from ._lines import line_table

__all__ = ["unread_access_keys"]

#: TRUST-3: YAML's and TOML's escapes (``\\x41``, ``\\u0041``, ``\\U00000041``, ``\\n``, ...).
_ESCAPE = re.compile(r"\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)", re.DOTALL)
_SIMPLE = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v",
    "f": "\f", "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\",
    "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029",
}  # fmt: skip

#: TRUST-3: YAML node properties (an anchor ``&a``, a tag ``!t``) before a key.
_PROPERTIES = re.compile(r"(?:[&!][^ \t]*[ \t]+)+")

#: TRUST-3: a plain ``tenant_id`` value that every YAML parser reads as this same string.
_SAFE_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_.@/+-]*(?: [A-Za-z0-9_.@/+-]+)*")
_NOT_STRINGS = frozenset({"null", "true", "false", "yes", "no", "on", "off", "y", "n"})

#: FM-3's quoted values, a comment allowed after the closing quote.
_DOUBLE = re.compile(r'"((?:[^"\\]|\\.)*)"(?:[ \t]+#.*|[ \t]*)\Z')
_SINGLE_YAML = re.compile(r"'(?:[^']|'')*'(?:[ \t]+#.*|[ \t]*)\Z")
_SINGLE_TOML = re.compile(r"'[^']*'(?:[ \t]+#.*|[ \t]*)\Z")
_COMMENT = re.compile(r"[ \t]+#.*\Z")

#: TOML: a bare or quoted key, dotted, then ``=``; a ``[table]`` or ``[[array]]`` header.
_TOML_PART = r'(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|\'[^\']*\')'
_TOML_KEY = re.compile(rf"[ \t]*({_TOML_PART}(?:[ \t]*\.[ \t]*{_TOML_PART})*)[ \t]*=(.*)\Z")
_TOML_HEADER = re.compile(rf"[ \t]*\[\[?[ \t]*({_TOML_PART}(?:[ \t]*\.[ \t]*{_TOML_PART})*)")
_TOML_FIRST = re.compile(_TOML_PART)


#: TRUST-3: the characters YAML 1.1 reads as line breaks beside CR and LF (NEL, LS, PS).
_YAML_ONLY_BREAKS = ("\x85", "\u2028", "\u2029")


def _decoded(text: str) -> str:
    """TRUST-3: ``text`` with YAML's and TOML's escapes read (an unknown escape kept)."""

    def one(match: re.Match[str]) -> str:
        escape = match.group(1)
        if len(escape) > 1:
            return chr(min(int(escape[1:], 16), 0x10FFFF))
        return _SIMPLE.get(escape, match.group(0))

    return _ESCAPE.sub(one, text)


def _indent(line: str) -> int:
    """The line's leading spaces (YAML indents with spaces only)."""
    return len(line) - len(line.lstrip(" "))


def _yaml_key(content: str) -> tuple[str | None, bool, bool]:
    """TRUST-3: ``(key, plain, opaque)`` of a YAML line at the top level's indentation.

    ``key`` is the mapping key the line opens (quotes and escapes read), or None;
    ``plain`` is true for an unquoted key without properties or ``?`` (what FM-3 reads);
    ``opaque`` is true when the line opens a key no line rule can name: an alias, a merge
    key ``<<``, or an explicit ``?`` key that is not a one-line scalar.
    """
    rest = content
    simple = True
    properties = _PROPERTIES.match(rest)
    if properties is not None:
        rest, simple = rest[properties.end() :], False
    if rest[:1] == "?" and rest[1:2] in ("", " ", "\t"):
        rest, simple = rest[1:].lstrip(" \t"), False
        properties = _PROPERTIES.match(rest)
        if properties is not None:
            rest = rest[properties.end() :]
        if not rest or rest[0] in "|>[{*":
            return None, False, True
        explicit = True
    else:
        explicit = False
    if rest[:1] == "*" or rest.startswith("<<"):
        return None, False, True
    if rest[:1] == '"':
        end = re.match(r'"((?:[^"\\]|\\.)*)"', rest)
        if end is None:  # an implicit key is one line; an explicit one may go on
            return None, False, explicit
        after = rest[end.end() :].lstrip(" \t")
        if explicit or after.startswith(":"):
            return _decoded(end.group(1)), False, False
        return None, False, False
    if rest[:1] == "'":
        end = re.match(r"'((?:[^']|'')*)'", rest)
        if end is None:
            return None, False, explicit
        after = rest[end.end() :].lstrip(" \t")
        if explicit or after.startswith(":"):
            return end.group(1).replace("''", "'"), False, False
        return None, False, False
    if not rest or rest[0] in "#,[]{}|>%@`" or (rest[0] in "-:" and rest[1:2] in ("", " ", "\t")):
        return None, False, False  # a comment, a flow collection, a list item, ...
    colon = re.search(r":(?:[ \t]|\Z)", rest)
    comment = re.search(r"[ \t]#", rest)
    if colon is not None and (comment is None or colon.start() < comment.start()):
        return rest[: colon.start()].rstrip(" \t"), simple, False
    if explicit:
        return _COMMENT.sub("", rest).rstrip(" \t"), False, False
    return None, False, False


def _safe_tenant(raw: str, kind: str) -> bool:
    """TRUST-3: ``raw`` (the value after ``:`` or ``=``) is one string that FM-3 and every
    YAML or TOML parser read alike: quoted without escapes but ``\\"`` and ``\\\\``, or (YAML)
    a plain word run that no YAML version reads as a bool, null, number or date."""
    double = _DOUBLE.match(raw)
    if double is not None:
        return "\\" not in re.sub(r'\\["\\]', "", double.group(1))
    if (_SINGLE_YAML if kind == "yaml" else _SINGLE_TOML).match(raw) is not None:
        return True
    if kind == "toml":
        return False  # TOML: an unquoted value is a number, a bool, a date, an array, ...
    value = _COMMENT.sub("", raw.rstrip(" \t"))
    return _SAFE_PLAIN.fullmatch(value) is not None and value.lower() not in _NOT_STRINGS


def unread_access_keys(body: str, kind: str, fields: Mapping[str, str]) -> tuple[str, ...]:
    """TRUST-3: the access keys that ``body`` (a ``yaml`` or ``toml`` front matter's
    lines) sets as top-level keys in a form FM-3's ``fields`` do not hold as they need.

    ``acl_labels`` is a list of strings, which FM-3 never reads: any top-level
    ``acl_labels`` is found. ``tenant_id`` is found unless it is set exactly once, by a
    line FM-3 reads (a bare key at column 0) whose value :func:`_safe_tenant` accepts and
    that no more-indented line continues. YAML keys count at the top level's indentation
    (that of the first line that is not blank or a comment; a line indented with a tab
    counts too); TOML keys and ``[table]`` headers count in every table, since a line rule
    cannot tell a header from a line of a multi-line array. Where the YAML top level is a
    flow mapping (``{``), a line opens an alias, merge or complex key, or the YAML body holds
    a line break FM-3 does not split at (NEL, LS, PS), every access key
    whose name appears anywhere in the body (escapes read) is found. An access key FM-3
    read into ``fields`` is always looked at, whatever the scan found.
    """
    starts, ends = line_table(body)
    lines = [body[start:end] for start, end in zip(starts, ends, strict=True)]
    seen: dict[str, list[tuple[int, bool]]] = {key: [] for key in ACCESS_KEYS}
    # TRUST-3: YAML 1.1 parsers (PyYAML) also break lines at NEL, LS and PS, which FM-3's
    # line rule does not: a key after one is not a line here, so every mention counts.
    opaque = kind == "yaml" and any(mark in body for mark in _YAML_ONLY_BREAKS)
    if kind == "yaml":
        top: int | None = None
        for number, line in enumerate(lines):
            content = line.lstrip(" ")
            if not content.strip(" \t") or content.startswith("#"):
                continue
            if top is None:
                top = _indent(line)
                if content.startswith("{"):
                    opaque = True  # TRUST-3: a flow mapping: its keys are not lines
                    break
            if _indent(line) != top and not line[: _indent(line) + 1].endswith("\t"):
                continue
            key, plain, unknown = _yaml_key(content.lstrip(" \t"))
            opaque = opaque or unknown
            if key in seen:
                seen[key].append((number, plain and top == 0 and line.startswith(key)))
    else:  # TOML: a header or a key line in any table counts (TRUST-3: a line rule
        # cannot tell a table header from a line of a multi-line array)
        for number, line in enumerate(lines):
            found = _TOML_HEADER.match(line) or _TOML_KEY.match(line)
            if found is None:
                continue
            first = _TOML_FIRST.match(found.group(1))
            assert first is not None  # both patterns' group starts with a key part
            part = first.group(0)
            name = _decoded(part[1:-1]) if part[:1] in "\"'" else part
            if name in seen:
                bare = found.re is _TOML_KEY and part == found.group(1) and line.startswith(part)
                seen[name].append((number, bare and part[0] not in "\"'"))
    if opaque:
        text = _decoded(body)
        return tuple(key for key in ACCESS_KEYS if key in text)
    unread: list[str] = []
    tenant = seen[TENANT_KEY]
    if (tenant or TENANT_KEY in fields) and not _tenant_read(lines, tenant, kind, fields):
        unread.append(TENANT_KEY)
    if seen[LABELS_KEY] or LABELS_KEY in fields:
        unread.append(LABELS_KEY)  # FM-3 reads strings only, never a list of them
    return tuple(unread)


def _tenant_read(
    lines: list[str], found: list[tuple[int, bool]], kind: str, fields: Mapping[str, str]
) -> bool:
    """TRUST-3: ``tenant_id`` is set once, by a bare column-0 line FM-3 read, safely."""
    if len(found) != 1 or not found[0][1] or TENANT_KEY not in fields:
        return False
    number = found[0][0]
    line = lines[number]
    separator = re.match(rf"{TENANT_KEY}[ \t]*[:=][ \t]*", line)
    if separator is None or not _safe_tenant(line[separator.end() :], kind):
        return False
    if kind == "yaml":  # a more-indented line after it continues a plain value
        for after in lines[number + 1 :]:
            if not after.strip(" \t"):
                continue
            return _indent(after) == 0 and not after.startswith("\t")
    return True
