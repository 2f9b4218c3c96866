"""Benchmark corpora of text like users': real text from this machine, and generated text
with stated rates of non-ASCII letters, no-break spaces, tabs and CRLF line ends.

Nothing here is read by a test; the benchmarks build their inputs from it at run time.
"""

from __future__ import annotations

import random
import sys
import sysconfig
from importlib import resources
from pathlib import Path

__all__ = [
    "GENERATED_RATES",
    "NODE_DOCS",
    "commonmark_examples",
    "generated_text",
    "nodejs_markdown",
    "quote_reference_markdown",
    "real_markdown",
    "real_text",
    "repeat_to",
    "repository_markdown",
]

#: Debian's (or NodeSource's) ``nodejs-doc``: the Node.js API docs, MIT licence.
NODE_DOCS = Path("/usr/share/doc/nodejs/api")

_ROOT = Path(__file__).resolve().parent.parent

#: The stated rates of ``generated_text``: per word, per gap between words, per line end.
GENERATED_RATES = {
    "words with a non-ASCII letter": 0.05,
    "gaps that are a no-break space (U+00A0)": 0.005,
    "gaps that are a tab": 0.005,
    "gaps that are a double space": 0.01,
    "gaps that are another WS-1 code point (U+2009, U+202F, U+3000)": 0.0005,
    "documents (of 20 paragraphs) with CRLF line ends": 0.25,
}


def _site_packages() -> Path:
    """The running interpreter's site-packages (where the installed packages' docs are)."""
    return Path(sysconfig.get_paths()["purelib"])


def _package_documents() -> list[str]:
    """Long descriptions (READMEs) of the installed distributions and their Markdown files,
    in a fixed order so that every run reads the same text."""
    root = _site_packages()
    texts: list[str] = []
    for path in sorted(root.glob("*.dist-info/METADATA")):
        body = path.read_text(encoding="utf-8", errors="replace").partition("\n\n")[2]
        if body.strip():
            texts.append(body)
    for path in sorted(root.glob("**/*.md")):
        texts.append(path.read_text(encoding="utf-8", errors="replace"))
    return texts


def _megamart_pages() -> list[str]:
    """The 36 MegaMart help-centre pages bundled with chunkspec (Markdown)."""
    pages = resources.files("chunkspec") / "_evaluation" / "megamart" / "pages"
    return [page.read_text(encoding="utf-8") for page in sorted(pages.iterdir(), key=str)]


def repeat_to(text: str, size: int) -> str:
    """``text`` repeated (joined by a blank line) and cut to ``size`` characters."""
    if not text:
        raise ValueError("empty corpus")
    copies = -(-size // (len(text) + 2))
    return "\n\n".join([text] * copies)[:size]


def real_text(size: int) -> str:
    """About ``size`` characters of real English: READMEs and docs of installed packages and
    the MegaMart pages, repeated to size (a repeat is still text as users have it)."""
    return repeat_to("\n\n".join(_package_documents() + _megamart_pages()), size)


def real_markdown(size: int) -> str:
    """Real Markdown only: the Markdown READMEs and ``.md`` files of installed packages and
    the MegaMart pages, repeated to ``size`` characters."""
    root = _site_packages()
    texts: list[str] = []
    for path in sorted(root.glob("*.dist-info/METADATA")):
        head, _, body = path.read_text(encoding="utf-8", errors="replace").partition("\n\n")
        if "text/markdown" in head and body.strip():
            texts.append(body)
    for path in sorted(root.glob("**/*.md")):
        texts.append(path.read_text(encoding="utf-8", errors="replace"))
    return repeat_to("\n\n".join(texts + _megamart_pages()), size)


def nodejs_markdown() -> str:
    """The Node.js API docs' ``.md`` files joined by blank lines, in name order (3.5 MB of
    v20; else the installed packages' Markdown, ``real_markdown``, at 3.5 MB)."""
    files = sorted(NODE_DOCS.glob("*.md")) if NODE_DOCS.is_dir() else []
    if not files:
        return real_markdown(3_500_000)
    return "\n\n".join(path.read_text(encoding="utf-8") for path in files)


def commonmark_examples() -> str:
    """The 655 CommonMark 0.31.2 spec examples' Markdown joined by blank lines."""
    import json

    path = _ROOT / "tests" / "data" / "commonmark-0.31.2-examples.json"
    examples = json.loads(path.read_text("utf-8"))["examples"]
    return "\n\n".join(example["markdown"] for example in examples)


def repository_markdown() -> str:
    """This repository's Markdown: README, CHANGELOG and every ``docs/**/*.md``."""
    paths = [_ROOT / "README.md", _ROOT / "CHANGELOG.md", *sorted((_ROOT / "docs").rglob("*.md"))]
    return "\n\n".join(path.read_text(encoding="utf-8") for path in paths if path.is_file())


def quote_reference_markdown(size: int, seed: int = 5) -> str:
    """About ``size`` characters of Markdown made of what the Node.js docs and READMEs hold
    beside prose: block quotes (``> Stability: 2 - Stable``, quoted paragraphs and lists),
    link reference definitions and HTML comments, under headings."""
    rng = random.Random(seed)
    words = ["stream", "buffer", "event", "module", "cafe", "naive", "option", "value", "read"]
    parts: list[str] = []
    total = 0
    n = 0
    while total < size:
        n += 1
        sentence = " ".join(rng.choice(words) for _ in range(rng.randint(6, 20))) + "."
        roll = rng.random()
        if n % 12 == 1:
            part = f"## Section {n}\n\n<!-- YAML\nadded: v{n % 20}.0.0\n-->"
        elif roll < 0.25:
            part = f"> Stability: {rng.randint(0, 3)} - Stable"
        elif roll < 0.40:
            part = f"> {sentence}\n> {sentence}"
        elif roll < 0.50:
            part = f"> * {sentence}\n> * {sentence}"
        elif roll < 0.70:
            part = f'[`ref.{n}`]: https://example.org/{n}\n[ref-{n}]: #anchor-{n} "Title"'
        elif roll < 0.78:
            part = f"<!-- comment {n} -->"
        else:
            part = f"{sentence} See [ref-{n}][] and [`ref.{n}`][]."
        parts.append(part)
        total += len(part) + 2
    return "\n\n".join(parts)[:size]


def generated_text(size: int, seed: int = 11) -> str:
    """About ``size`` characters of prose-shaped text with the rates of GENERATED_RATES:
    paragraphs of 1-6 lines of 4-18 words, blank lines between paragraphs."""
    rng = random.Random(seed)
    ascii_words = [
        "".join(rng.choice("etaoinshrdlucmfwypvbgk") for _ in range(rng.randint(1, 10)))
        for _ in range(4000)
    ]
    accented = ["café", "naïve", "Zürich", "résumé", "São", "Łódź", "straße", "ñandú"]
    rates = list(GENERATED_RATES.values())
    parts: list[str] = []
    total = 0
    crlf = False
    while total < size:
        if len(parts) % 20 == 0:
            crlf = rng.random() < rates[5]
        lines: list[str] = []
        for _ in range(rng.randint(1, 6)):
            line = ""
            for index in range(rng.randint(4, 18)):
                word = rng.choice(accented if rng.random() < rates[0] else ascii_words)
                if index:
                    roll = rng.random()
                    if roll < rates[1]:
                        line += "\xa0"
                    elif roll < rates[1] + rates[2]:
                        line += "\t"
                    elif roll < rates[1] + rates[2] + rates[3]:
                        line += "  "
                    elif roll < sum(rates[1:5]):
                        line += rng.choice("\u2009\u202f\u3000")
                    else:
                        line += " "
                line += word
            lines.append(line + ".")
        paragraph = "".join(line + ("\r\n" if crlf else "\n") for line in lines)
        parts.append(paragraph)
        total += len(paragraph) + 2
    return "".join(part + ("\r\n" if part.endswith("\r\n") else "\n") for part in parts)[:size]


if __name__ == "__main__":  # a quick look: sizes and non-ASCII rates of each corpus
    for name, text in (
        ("real text", real_text(4_000_000)),
        ("real Markdown", real_markdown(4_000_000)),
        ("generated", generated_text(4_000_000)),
    ):
        non_ascii = sum(not c.isascii() for c in text)
        print(f"{name}: {len(text):,} chars, {non_ascii:,} non-ASCII", file=sys.stdout)
