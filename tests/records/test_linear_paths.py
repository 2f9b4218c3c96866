"""Every public entry point costs time linear in one document's size (docs/performance.md).

Each case runs one call on a document of ``SMALL`` and of ``4 * SMALL`` characters, the
same text repeated (so the content per character is the same), and compares the CPU time of
the two: linear code gives about 4, a quadratic path 16 once it dominates. The bound, 8, is a
ratio, never an absolute time, so a slow or loaded machine does not change it; each size runs
three times, interleaved, and the best of each counts, so a pause in one run does not either.
``benchmarks/bench_scaling.py`` measures the same entry points from 1 to 64 MiB.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from chunkspec import chunk_document, document_from_text, read_document
from chunkspec.counters import TokenSpanCounter
from tests.pdfs import text_pdf

#: The largest ratio of the two CPU times allowed for a 4x step (linear: 4; quadratic: 16).
BOUND = 8.0

#: A Markdown page with what users' files hold beside headings and prose: a block quote of
#: ordered lists (markdown-it-py reads it, MD-14), a definition list, a table, a fence,
#: non-ASCII letters, a no-break space, a tab, U+3000.
_EXTRA = (
    "## Resolution algorithm\n\n"
    "> 1. Let _resolved_ be **undefined**.\n"
    "> 2. If _specifier_ is a valid URL, then\n"
    ">    1. Set _resolved_ to the result.\n"
    "> 3. Otherwise, fail.\n\n"
    "Term\n: its definition, café and naïve.\n\n"
    "| key | value |\n|---|---|\n| a | Zürich\xa0b |\n\n"
    "```js\nconst x =\t1;\n```\n\n"
    "Prose with\u3000wide space and São Paulo, Łódź, straße.\n\n"
)


def markdown(size: int, *, api: bool = False) -> str:
    """``size`` characters of Markdown: eight MegaMart pages and ``_EXTRA`` (with ``api``,
    also an API reference with a heading every 25 characters, as dense as the Node.js docs'
    lists of methods), repeated, the first copy with CRLF line ends and the rest LF (a
    search for the line end a file lacks is the one that runs back to the start)."""
    pages = resources.files("chunkspec") / "_evaluation" / "megamart" / "pages"
    unit = "\n\n".join(
        page.read_text(encoding="utf-8") for page in sorted(pages.iterdir(), key=str)[:8]
    )
    unit = unit + "\n\n" + _EXTRA
    if api:
        unit += "".join(f"### `fs.f{k}()`\n\nReads.\n\n" for k in range(3000))
    text = unit.replace("\n", "\r\n") + unit * (size // len(unit) + 1)
    return text[:size]


def prose(size: int) -> str:
    """``size`` characters of plain text with Latin-1 letters, no-break spaces and tabs,
    CRLF paragraphs among LF ones."""
    words = ["river", "café", "stone", "naïve", "light", "Zürich", "table", "über"]
    lines = [
        " ".join(words[(k * 7 + j) % len(words)] for j in range(3 + k % 9))
        + ("\xa0end." if k % 5 else "\tend.")
        for k in range(60)
    ]
    unit = "\n".join(lines[:30]) + "\n\n" + "\r\n".join(lines[30:]) + "\r\n\r\n"
    return (unit * (size // len(unit) + 1))[:size]


def pdf(size: int) -> bytes:
    """A PDF showing about ``size`` characters of :func:`prose`, 50 lines a page."""
    lines = [line for line in prose(size).splitlines() if line.strip()]
    return text_pdf([lines[k : k + 50] for k in range(0, len(lines), 50)])


def write(folder: Path, kind: str, size: int) -> Path:
    """Write the ``kind`` (md, api.md, txt, pdf) document of ``size`` characters."""
    path = folder / f"doc{size}.{kind}"
    if kind == "pdf":
        path.write_bytes(pdf(size))
    elif kind == "txt":
        path.write_text(prose(size), encoding="utf-8")
    else:
        path.write_text(markdown(size, api=kind == "api.md"), encoding="utf-8")
    return path


Prepare = Callable[[Path, int], Callable[[], object]]


def _chunk(kind: str, strategy: str, counter: str = "whitespace", **extra: Any) -> Prepare:
    """chunk_document of the ``kind`` document, read before the call."""

    def prepare(folder: Path, size: int) -> Callable[[], object]:
        document = read_document(str(write(folder, kind, size)))
        chosen = _counter(counter)
        return lambda: chunk_document(document, strategy, counter=chosen, **extra)

    return prepare


def _counter(name: str) -> str | TokenSpanCounter:
    """A counter name, or an offline tiktoken or tokenizers counter (tests/counters.py)."""
    if name == "tiktoken":
        from chunkspec.counters import TiktokenCounter
        from tests.counters import SMALL_MERGES, byte_encoding

        return TiktokenCounter(byte_encoding(SMALL_MERGES))
    if name == "tokenizers":
        from chunkspec.counters import HuggingFaceCounter
        from tests.counters import word_level

        return HuggingFaceCounter(word_level())
    return name


def _parse(folder: Path, size: int) -> Callable[[], object]:
    """document_from_text of the Markdown (the block parse, MD-14)."""
    text = markdown(size)
    return lambda: document_from_text(text, doc_id="d")


def _read(kind: str) -> Prepare:
    """read_document of the ``kind`` file."""

    def prepare(folder: Path, size: int) -> Callable[[], object]:
        path = str(write(folder, kind, size))
        return lambda: read_document(path)

    return prepare


def _command(*arguments: str) -> Prepare:
    """``chunkspec`` run in this process on the Markdown file ({in}, {out} filled in)."""

    def prepare(folder: Path, size: int) -> Callable[[], object]:
        from chunkspec._cli import main

        path = write(folder, "md", size)
        out = folder / f"out{size}"
        argv = [a.format(input=path, out=out) for a in arguments]
        return lambda: main(argv)

    return prepare


def _langchain(folder: Path, size: int) -> Callable[[], object]:
    """LangChain's ChunkspecSplitter on one Document."""
    pytest.importorskip("langchain_core")
    from langchain_core.documents import Document

    from chunkspec.integrations.langchain import ChunkspecSplitter

    splitter = ChunkspecSplitter("heading", max_tokens=256)
    documents = [Document(page_content=markdown(size), id="doc")]
    return lambda: splitter.split_documents(documents)


def _llama_index(folder: Path, size: int) -> Callable[[], object]:
    """LlamaIndex's ChunkspecNodeParser on one Document."""
    pytest.importorskip("llama_index.core")
    from llama_index.core import Document

    from chunkspec.integrations.llama_index import ChunkspecNodeParser

    parser = ChunkspecNodeParser(strategy="heading", max_tokens=256)
    documents = [Document(text=markdown(size), id_="doc")]
    return lambda: parser.get_nodes_from_documents(documents)


def _haystack(folder: Path, size: int) -> Callable[[], object]:
    """Haystack's ChunkspecDocumentSplitter on one Document."""
    pytest.importorskip("haystack")
    from haystack import Document

    from chunkspec.integrations.haystack import ChunkspecDocumentSplitter

    splitter = ChunkspecDocumentSplitter("heading", max_tokens=256)
    documents = [Document(content=markdown(size), id="doc")]
    return lambda: splitter.run(documents=documents)


def _chunk_table(folder: Path, size: int) -> Callable[[], object]:
    """chunkspec.arrow.chunk_table of a one-row table."""
    pa = pytest.importorskip("pyarrow")
    from chunkspec.arrow import chunk_table

    table = pa.table({"doc_id": ["doc.md"], "bytes": [markdown(size).encode("utf-8")]})
    return lambda: chunk_table(table, strategy="heading", max_tokens=256)


#: The smaller size of most cases, in characters; a slow call (a tokenizer, a PDF, an
#: adapter) starts at a quarter of it, the heading-dense API reference at four times it.
SMALL = 1 << 18

#: (case, prepare, the smaller size).
CASES: list[tuple[str, Prepare, int]] = [
    ("document_from_text md", _parse, SMALL),
    ("read_document md", _read("md"), SMALL),
    ("read_document txt", _read("txt"), SMALL),
    ("read_document pdf", _read("pdf"), SMALL // 4),
    ("heading api.md", _chunk("api.md", "heading"), 4 * SMALL),
    ("heading md", _chunk("md", "heading"), SMALL),
    ("structural md", _chunk("md", "structural", count_headings=True, split_tables=True), SMALL),
    ("recursive md", _chunk("md", "recursive"), SMALL),
    ("window md", _chunk("md", "window"), SMALL),
    ("heading txt", _chunk("txt", "heading"), SMALL),
    ("recursive txt", _chunk("txt", "recursive"), SMALL),
    ("pages pdf", _chunk("pdf", "pages"), SMALL // 4),
    ("heading md chars4", _chunk("md", "heading", "chars4"), SMALL),
    ("window md chars1", _chunk("md", "window", "chars1"), SMALL),
    ("window txt tiktoken", _chunk("txt", "window", "tiktoken"), SMALL // 4),
    ("heading md tokenizers", _chunk("md", "heading", "tokenizers"), SMALL // 4),
    ("chunk command", _command("chunk", "{input}", "--output", "{out}.jsonl"), SMALL),
    ("ingest command", _command("ingest", "{input}", "--out", "{out}", "--workers", "1"), SMALL),
    ("langchain", _langchain, SMALL // 4),
    ("llama_index", _llama_index, SMALL // 4),
    ("haystack", _haystack, SMALL // 4),
    ("chunk_table", _chunk_table, SMALL // 4),
]


def cpu_ratio(small: Callable[[], object], large: Callable[[], object], rounds: int = 3) -> float:
    """The best CPU time of ``large`` over the best of ``small``, runs interleaved, the
    collector off while each runs (its full collections come at thresholds of live objects,
    a step that falls between two sizes or not: linear over many, noise over two)."""
    best = [float("inf"), float("inf")]
    for _ in range(rounds):
        for k, call in enumerate((small, large)):
            gc.collect()
            gc.disable()  # a full collection falls in one run and not the other
            try:
                start = time.process_time()
                call()
                best[k] = min(best[k], time.process_time() - start)
            finally:
                gc.enable()
    return best[1] / max(best[0], 1e-6)


@pytest.mark.parametrize(("case", "prepare", "small"), CASES, ids=[c[0] for c in CASES])
def test_four_times_the_document_costs_about_four_times_the_time(
    case: str, prepare: Prepare, small: int, tmp_path: Path
) -> None:
    """A document four times as long costs at most BOUND times the CPU time: no entry point
    has a quadratic path (a scan back to the start per heading, a re-parse of the rest per
    block) at sizes users chunk."""
    ratio = cpu_ratio(prepare(tmp_path, small), prepare(tmp_path, 4 * small))
    assert ratio < BOUND, f"{case}: 4x the text took {ratio:.1f}x the CPU time"
