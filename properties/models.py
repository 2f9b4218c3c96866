"""Literal, obviously correct models of each algorithm: slow on purpose, read like the seeds.

The fast code in ``src/`` is checked against these by the property suites.
"""

from __future__ import annotations

# --- seed 000: split_section / assemble ----------------------------------------------------


# --- seed 001 / 003: split_markdown, HeadingAwareChunker, sentences (issue 5) ---------------
# These models ask markdown-it-py directly (not chunkspec's block parser) where structure is
# needed, and state each rule in its most literal form.

_MD_TERMINATORS = ".!?…‼⁇⁈⁉。！？"
_MD_CLOSERS = "\"')]}»”’›」』"


def model_lines(source: str) -> list[tuple[int, int]]:
    """Lines of ``source`` as (start, end) offsets, split at \\r\\n, \\r or \\n, one at a time."""
    lines: list[tuple[int, int]] = []
    start = i = 0
    while i < len(source):
        if source[i] == "\r" and source[i + 1 : i + 2] == "\n":
            lines.append((start, i))
            i += 2
            start = i
        elif source[i] in "\r\n":
            lines.append((start, i))
            i += 1
            start = i
        else:
            i += 1
    lines.append((start, len(source)))
    return lines


def model_top_level(source: str) -> list[tuple[str, int, int, str, int]]:
    """Top-level blocks per markdown-it: (token type, first line, end line, title, level)."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.deflist import deflist_plugin

    md = MarkdownIt("commonmark").enable("table").use(deflist_plugin)
    tokens = md.parse(source)
    out = []
    for i, token in enumerate(tokens):
        if token.level == 0 and token.nesting >= 0 and token.map is not None:
            title = tokens[i + 1].content if token.type == "heading_open" else ""
            level = int(token.tag[1]) if token.type == "heading_open" else 0
            out.append((token.type, token.map[0], token.map[1], title, level))
    return out


def model_heading_path_at(source: str, line: int) -> list[str]:
    """The heading path in force at 0-based ``line``: a literal stack over earlier headings."""
    stack: list[tuple[int, str]] = []
    for kind, first, _, title, level in model_top_level(source):
        if kind != "heading_open" or first >= line:
            continue
        stack = [entry for entry in stack if entry[0] < level]  # pop equal or deeper
        stack.append((level, title))
    return [title for _, title in stack]


def model_sentences(text: str) -> list[str]:
    """Sentences: maximal runs of words ending at a word that, closers stripped, ends in a
    terminator; each sentence is the source text from its first word to its last."""
    import re

    sentences: list[str] = []
    begin = None
    for match in re.finditer(r"\S+", text):
        if begin is None:
            begin = match.start()
        word = match.group().rstrip(_MD_CLOSERS)
        if word and word[-1] in _MD_TERMINATORS:
            sentences.append(text[begin : match.end()])
            begin = None
    if begin is not None:
        sentences.append(text[begin:].rstrip())
    return sentences


def model_parents(levels: list[int]) -> list[int | None]:
    """For headings of these levels in order, the index of each one's parent: the latest
    earlier heading of a lower level with no heading of its level or lower in between."""
    parents: list[int | None] = []
    for i, level in enumerate(levels):
        parent = None
        for j in range(i - 1, -1, -1):
            if levels[j] < level and all(levels[k] > levels[j] for k in range(j + 1, i)):
                parent = j
                break
        parents.append(parent)
    return parents
