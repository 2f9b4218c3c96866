"""The literal model of the HTML reader (docs/spec/html.md, HTML-4..HTML-12).

It reads a generated page tree (``properties.strategies.html_pages``), never markup, and
writes each rule as it is stated, by rewriting a string: every block's content becomes text
with marker characters for the line breaks (HTML-6), ``br`` (HTML-9) and cell tabs
(HTML-10); then white space collapses (HTML-4) and the markers become newlines and tabs. The
fast reader (turbohtml's tree, the streaming writer) must give the same blocks.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["model_blocks", "serialize"]

LINE, BR, TAB = "\ue000", "\ue001", "\ue002"
_MARKERS = f"{LINE}{BR}{TAB}"
_PRE_SPACE = str.maketrans({" ": "\ue010", "\t": "\ue011", "\n": "\ue012", "\f": "\ue013"})
_PRE_BACK = str.maketrans({"\ue010": " ", "\ue011": "\t", "\ue012": "\n", "\ue013": "\f"})

HEADINGS = {f"h{n}": n for n in range(1, 7)}
ATOMIC = {"p": "paragraph", "ul": "list", "ol": "list", "table": "table", "pre": "code",
          "blockquote": "quote"}  # fmt: skip
CONTAINERS = {"div", "section", "article", "main", "nav", "aside", "header", "footer", "li",
              "caption", "tbody", "tr"}  # fmt: skip
NEVER = {"script", "style", "template", "button"}
SECTIONING = {"article", "aside", "main", "nav", "section"}


def serialize(nodes: list[Any], entities: bool) -> str:
    """The markup of ``nodes``: text escaped (``&``, ``<``; named references if
    ``entities``), a ``pre``'s leading newline doubled (the parser drops one)."""
    out: list[str] = []
    for node in nodes:
        if node[0] == "t":
            text = node[1].replace("&", "&amp;").replace("<", "&lt;")
            if entities:
                text = text.replace("\u00a0", "&nbsp;").replace("é", "&eacute;")
            out.append(text)
            continue
        _, tag, attrs, children = node
        shown = "".join(f' {k}="{v}"' for k, v in attrs.items())
        if tag == "br":
            out.append("<br>")
            continue
        inner = serialize(children, entities) if tag not in ("script", "style") else children[0][1]
        if tag == "pre" and inner.startswith("\n"):
            inner = "\n" + inner
        out.append(f"<{tag}{shown}>{inner}</{tag}>")
    return "".join(out)


def model_blocks(body: list[Any], keep_furniture: bool = False) -> list[tuple[str, int, str]]:
    """HTML-8: the page's blocks ``(kind, level, text)`` as the rules state them."""
    blocks: list[tuple[str, int, str, str]] = []  # kind, level, raw content, mode
    if not keep_furniture:
        for node in body:
            if node[0] == "e" and node[1] == "main":
                body = [node]
                break
    para: list[str] = []
    _flow(body, blocks, para, keep_furniture, sectioned=False)
    _close(blocks, para)
    out = []
    for kind, level, raw, mode in blocks:
        text = _pre_text(raw) if mode == "pre" else _render(raw)
        if text and not text.isspace():  # HTML-8: a block is never blank
            out.append((kind, level, text))
    return out


def _hidden(node: Any, keep_furniture: bool, sectioned: bool) -> bool:
    """HTML-5, HTML-11."""
    _, tag, attrs, _ = node
    if tag in NEVER or "hidden" in attrs:
        return True
    if keep_furniture:
        return False
    if tag in ("nav", "aside") or (tag in ("header", "footer") and not sectioned):
        return True
    return attrs.get("role") == "navigation" or "cookie" in attrs.get("class", "")


def _flow(
    nodes: list[Any], blocks: list[Any], para: list[str], keep: bool, sectioned: bool
) -> None:
    """HTML-6, HTML-8: blocks are blocks; text and inline elements fill an anonymous
    paragraph (``para``, the open one's content) until the next block."""

    def close() -> None:
        _close(blocks, para)

    for node in nodes:
        if node[0] == "t":
            para.append(_spaces(node[1]))
            continue
        tag, children = node[1], node[3]
        if _hidden(node, keep, sectioned):
            continue
        if tag == "br":
            para.append(BR)
        elif tag in HEADINGS:
            close()
            blocks.append(("heading", HEADINGS[tag], _inline(children, True, keep), ""))
        elif tag == "table":
            close()
            for child in children:
                if child[1] == "caption":
                    blocks.append(("paragraph", 0, _inline(child[3], True, keep), ""))
            blocks.append(("table", 0, _table(children, keep), ""))
        elif tag == "pre":
            close()
            blocks.append(("code", 0, children[0][1], "pre"))
        elif tag in ATOMIC:
            close()
            blocks.append((ATOMIC[tag], 0, _inline(children, False, keep), ""))
        elif tag in CONTAINERS:
            close()
            _flow(children, blocks, para, keep, sectioned or tag in SECTIONING)
            close()
        else:  # inline, custom elements too: transparent
            _flow(children, blocks, para, keep, sectioned)


def _close(blocks: list[Any], para: list[str]) -> None:
    """End the open anonymous paragraph (HTML-8)."""
    if para:
        blocks.append(("paragraph", 0, "".join(para), ""))
        para.clear()


def _inline(nodes: list[Any], flat: bool, keep: bool) -> str:
    """An atomic block's content with markers; ``flat``: line breaks are spaces."""
    out: list[str] = []
    for node in nodes:
        if node[0] == "t":
            out.append(_spaces(node[1]))
            continue
        tag, attrs, children = node[1], node[2], node[3]
        if _hidden(node, keep, True):
            continue
        if tag == "a" and attrs.get("href", "").startswith("#") and flat:
            text = "".join(child[1] for child in children if child[0] == "t").strip()
            if text in ("#", "¶"):
                continue  # HTML-7: a permalink
        if tag == "br":
            out.append(" " if flat else BR)
            continue
        block = tag in CONTAINERS or tag in ATOMIC or tag in HEADINGS
        edge = " " if flat else LINE
        out.append(edge if block else "")
        out.append(_inline(children, flat, keep))
        out.append(edge if block else "")
    return "".join(out)


def _table(children: list[Any], keep: bool) -> str:
    """HTML-10: a line a row, a tab between cells, a cell on one line."""
    out: list[str] = []
    for section in children:
        if section[1] != "tbody":
            continue
        for row in section[3]:
            out.append(LINE)
            out.append(TAB.join(_inline(cell[3], True, keep) for cell in row[3]))
    return "".join(out)


def _spaces(text: str) -> str:
    """HTML-4: CSS's collapsible white space as plain spaces (NBSP stays a letter)."""
    return re.sub("[ \t\n\f]", " ", text)


def _render(raw: str) -> str:
    """HTML-4, HTML-6, HTML-9, HTML-10: collapse spaces, then turn marker runs into text."""
    text = re.sub(" +", " ", raw)
    previous = None
    while previous != text:  # spaces beside a marker go
        previous = text
        text = re.sub(f" ?([{_MARKERS}]) ?", r"\1", text)
    text = text.lstrip(" " + LINE + BR).rstrip(" " + _MARKERS)  # a row's leading tabs stay

    def run(match: re.Match[str]) -> str:
        markers = match.group()
        lines = max(1 if LINE in markers else 0, markers.count(BR))
        tabs = markers.rsplit(LINE, 1)[-1].count(TAB)
        return "\n" * lines + "\t" * tabs

    return re.sub(f"[{_MARKERS}]+", run, text)


def _pre_text(raw: str) -> str:
    """HTML-6: every character (a form feed as a space), less the leading blank lines and
    the trailing white space."""
    body = raw.replace("\f", " ").rstrip(" \t\n")
    first = re.search("[^ \t\n]", body)
    if first is None:
        return ""
    return body[body.rfind("\n", 0, first.start()) + 1 :]
