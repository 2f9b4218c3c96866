"""Two renderings of one document: a Markdown file and the HTML page made from it.

For each ``NAME.md`` beside a ``NAME.html`` in a folder (the Node.js API docs ship both:
``/usr/share/doc/nodejs/api``), read both with chunkspec and report per file:

- heading paths: the HTML page's heading paths (HTML-7) against those of the Markdown file
  rendered by markdown-it (its titles without inline markup: chunkspec's Markdown titles
  keep their backticks, MD-5), as the share of the Markdown paths found, in order,
  identical (difflib), and the raw Markdown titles' share;
- text: the HTML page's words (HTML-3, furniture left out: HTML-11, HTML-12) against the
  words of the Markdown file rendered by markdown-it and read by the same HTML reader
  (markup removed the same way on both sides), as difflib's ratio, and the words only one
  side has.

Usage: ``python benchmarks/html_renderings.py [FOLDER] [--show N]``. Measures; asserts
nothing (docs/performance.md, "HTML").
"""

from __future__ import annotations

import argparse
import difflib
import re
import statistics
import sys
import time
from pathlib import Path

from markdown_it import MarkdownIt

from chunkspec import document_from_bytes, read_document

_WORD = re.compile(r"\w+")


def headings(document: object) -> list[str]:
    """The heading paths of a document (HEAD-1's stack: titles of the enclosing headings,
    levels decide), each path one string."""
    blocks = document.blocks().blocks  # type: ignore[attr-defined]
    stack: list[tuple[int, str]] = []
    paths = []
    for block in blocks:
        if block.kind != "heading":
            continue
        while stack and stack[-1][0] >= block.level:
            stack.pop()
        stack.append((block.level, " ".join(block.text.split())))
        paths.append(" > ".join(title for _, title in stack))
    return paths


def _share(want: list[str], got: list[str]) -> float:
    """The share of ``want`` found in ``got``, in order (difflib's matching blocks)."""
    if not want:
        return 1.0
    matcher = difflib.SequenceMatcher(None, want, got, autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks()) / len(want)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default="/usr/share/doc/nodejs/api")
    parser.add_argument("--show", type=int, default=0, help="print N differing words a file")
    args = parser.parse_args()
    folder = Path(args.folder)
    pairs = sorted(p for p in folder.glob("*.md") if p.with_suffix(".html").is_file())
    if not pairs:
        print(f"no NAME.md beside NAME.html in {folder}: nothing to compare")
        return 0
    md = MarkdownIt("commonmark").enable("table")
    print(f"{'file':24} {'md heads':>8} {'html heads':>10} {'paths in order':>14} "
          f"{'raw md':>7} {'text ratio':>10} {'only md':>8} {'only html':>9}")  # fmt: skip
    ratios, head_shares, raw_shares = [], [], []
    started = time.process_time()
    for path in pairs:
        markdown = read_document(path)
        page = read_document(path.with_suffix(".html"))
        rendered = md.render(path.read_text("utf-8"))
        as_page = document_from_bytes(rendered.encode(), doc_id=path.stem, name="x.html")
        md_heads, html_heads = headings(as_page), headings(page)
        head_share = _share(md_heads, html_heads)
        raw_share = _share(headings(markdown), html_heads)
        a, b = _WORD.findall(as_page.text), _WORD.findall(page.text)
        words = difflib.SequenceMatcher(None, a, b)
        ratio = words.ratio()
        only_md = only_html = 0
        shown: list[str] = []
        for tag, i1, i2, j1, j2 in words.get_opcodes():
            if tag in ("delete", "replace"):
                only_md += i2 - i1
            if tag in ("insert", "replace"):
                only_html += j2 - j1
            if tag != "equal" and len(shown) < args.show:
                shown.append(
                    f"    md {' '.join(a[i1:i2])[:80]!r} | html {' '.join(b[j1:j2])[:80]!r}"
                )
        ratios.append(ratio)
        head_shares.append(head_share)
        raw_shares.append(raw_share)
        print(f"{path.stem:24} {len(md_heads):8} {len(html_heads):10} {head_share:14.3f} "
              f"{raw_share:7.3f} {ratio:10.3f} {only_md:8} {only_html:9}")  # fmt: skip
        for line in shown:
            print(line)
    print(f"\n{len(pairs)} files; heading paths in order: median "
          f"{statistics.median(head_shares):.3f}, min {min(head_shares):.3f}, "
          f"{sum(share == 1.0 for share in head_shares)} files all; raw Markdown titles: median "
          f"{statistics.median(raw_shares):.3f}; text ratio: median "
          f"{statistics.median(ratios):.3f}, min {min(ratios):.3f}; "
          f"CPU {time.process_time() - started:.1f} s")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
