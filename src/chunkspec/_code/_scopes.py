"""What a definition is called in a record: its scope label, name and header line (CODE-7).

A definition is a node whose type the language's row lists (CODE-1); a wrapper (a Python
decorated definition, an ``export`` statement, a C++ template) holding one is that definition
with the wrapper's span.
"""

from __future__ import annotations

from typing import Any

from ._languages import Language

__all__ = ["definition_of", "header_line", "label", "line_end", "symbol"]

#: CODE-7: a scope label is at most this many characters (longer ones are cut there).
LABEL_LIMIT = 100


def definition_of(node: Any, language: Language) -> Any | None:
    """The definition ``node`` is (or wraps, through wrappers), else None (CODE-7)."""
    while node is not None:
        kind = node.type
        if kind in language.definitions:
            return node
        if kind not in language.wrappers:
            return None
        inner = None
        for child in node.named_children:
            if child.type in language.definitions or child.type in language.wrappers:
                inner = child
                break
        node = inner
    return None


def line_end(text: str, start: int) -> int:
    """Where the line holding ``text[start]`` ends (before its line break); the search for a
    CR stops at the next LF, so the cost is the line's, not the rest of the text's."""
    newline = text.find("\n", start)
    if newline < 0:
        newline = len(text)
    carriage = text.find("\r", start, newline)
    return newline if carriage < 0 else carriage


def label(text: str, start: int, name_end: int | None, body_start: int | None) -> str:
    """CODE-7: a definition's label: its first line from ``start``, up to the end of its name
    when the name ends on that line, else up to its body when the body starts on it, with
    whitespace runs folded to one space, trailing ``{`` and ``:`` dropped, and at most
    :data:`LABEL_LIMIT` characters."""
    end = line_end(text, start)
    if name_end is not None and name_end <= end:
        end = name_end
    elif body_start is not None and body_start <= end:
        end = body_start
    folded = " ".join(text[start:end].split()).rstrip(" {:")
    return folded[:LABEL_LIMIT]


def header_line(text: str, start: int) -> str:
    """CODE-8: the definition's first line, whole (its indentation kept), without the line
    break or trailing whitespace."""
    newline = text.rfind("\n", 0, start)
    line_start = max(newline, text.rfind("\r", newline + 1, start)) + 1
    return text[line_start : line_end(text, start)].rstrip()


def symbol(node: Any) -> Any | None:
    """CODE-7: the node naming a definition: its ``name`` field; else, through ``declarator``
    fields (C, C++), the innermost declarator; else its ``type`` field (a Rust ``impl``); else
    the ``name`` field of its first named child that has one (a Go ``type`` declaration)."""
    name = node.child_by_field_name("name")
    if name is not None:
        return name
    declarator = node.child_by_field_name("declarator")
    if declarator is not None:
        while True:
            inner = declarator.child_by_field_name("declarator")
            if inner is None:
                return declarator
            declarator = inner
    named = node.child_by_field_name("type")
    if named is not None:
        return named
    for child in node.named_children:  # a Go type declaration names its type_spec
        inner = child.child_by_field_name("name")
        if inner is not None:
            return inner
    return None
