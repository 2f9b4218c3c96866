"""How every public entry point scales with the size of one document (docs/performance.md).

Run with ``nox -s bench -- scaling`` or ``python benchmarks/bench_scaling.py [--sizes 1,4,16]
[--only NAME ...] [--repeat N]``. Each entry point is called on one document of 1, 4, 16 and
64 MiB (``--sizes`` cuts the list, and takes fractions: ``0.25,1``):

- Markdown: the Node.js API docs (``/usr/share/doc/nodejs/api/*.md``, Debian's
  ``nodejs-doc``; else the Markdown of the installed packages, ``corpora.real_markdown``)
  joined into one file and repeated to size, one copy in four with CRLF line ends;
- text: ``corpora.generated_text`` (5% of words with a non-ASCII letter, no-break spaces,
  tabs, U+2009/U+202F/U+3000 between words, CRLF paragraphs);
- PDF: the same generated text, Latin-1 letters kept, 50 lines a page, built by
  ``tests/pdfs.py`` (the size is the size of the text the pages show).

Every measurement is a fresh ``python`` process (so its peak RSS is its own): it loads the
input, notes its resident memory, makes the call, and reports CPU seconds
(``time.process_time``) and the peak RSS during the call (``VmHWM`` after resetting it
with ``/proc/self/clear_refs``; else ``ru_maxrss``) minus that baseline, as a multiple
of the input's size. The commands (``chunkspec chunk``, ``chunkspec ingest``) run as child
processes: their CPU time is ``RUSAGE_CHILDREN``; their baseline is the same command on a
one-line file. ``--repeat N`` keeps the best CPU time of N runs. Last, ``chunkspec chunk``
on the Node.js docs joined into one file, 1, 4 and 10 copies (``--nodejs 1,4,10``; 10 is the
35 MB case that once took 407 s; ``--nodejs ''`` skips it). The ratio per 4x step is
time(4s) / time(s): linear is 4, quadratic 16; the target is at most 4.5.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

MIB = 1 << 20
DEFAULT_SIZES = (1.0, 4.0, 16.0, 64.0)
NODE_DOCS = Path("/usr/share/doc/nodejs/api")
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}


# ---------------------------------------------------------------- inputs


def _node_files() -> list[Path]:
    """The Node.js API docs' Markdown files, in a fixed shuffled order (none if absent)."""
    import random

    files = sorted(NODE_DOCS.glob("*.md")) if NODE_DOCS.is_dir() else []
    random.Random(7).shuffle(files)
    return files


def markdown_unit() -> str:
    """About 1 MiB of real Markdown, every fourth file with CRLF line ends: whole Node.js
    docs files in a fixed shuffled order (``esm.md``'s block quotes of lists among them)
    until 1 MiB is reached; else the installed packages' Markdown."""
    files = _node_files()
    if not files:
        from benchmarks.corpora import real_markdown

        return real_markdown(MIB)
    texts: list[str] = []
    total = 0
    for index, path in enumerate(files):
        text = path.read_text(encoding="utf-8")
        texts.append(text.replace("\n", "\r\n") if index % 4 == 3 else text)
        total += len(text)
        if total >= MIB:
            break
    return "\n\n".join(texts)


def markdown_text(size: int) -> str:
    """``size`` characters of :func:`markdown_unit` repeated: each size is the same text,
    so a step's ratio measures the code, not a change of content."""
    from benchmarks.corpora import repeat_to

    return repeat_to(markdown_unit(), size)


def node_docs(copies: int) -> str:
    """The Node.js API docs joined into one file (3.3 MiB), ``copies`` times."""
    text = "\n\n".join(path.read_text(encoding="utf-8") for path in sorted(NODE_DOCS.glob("*.md")))
    return "\n\n".join([text] * copies)


def plain_text(size: int) -> str:
    """``size`` characters of generated prose (corpora.GENERATED_RATES)."""
    from benchmarks.corpora import generated_text

    return generated_text(size)


def pdf_bytes(size: int) -> bytes:
    """A PDF showing about ``size`` characters of generated prose, 50 lines a page."""
    from tests.pdfs import text_pdf

    text = plain_text(size).encode("latin-1", "replace").decode("latin-1")
    lines = [line for line in text.splitlines() if line.strip()]
    return text_pdf([lines[k : k + 50] for k in range(0, len(lines), 50)])


def write_input(kind: str, size: int, folder: Path) -> Path:
    """Write the ``kind`` input of ``size`` characters under ``folder``; return its path."""
    path = folder / f"doc-{kind}-{size}.{ {'md': 'md', 'text': 'txt', 'pdf': 'pdf'}[kind] }"
    if not path.exists():
        if kind == "pdf":
            path.write_bytes(pdf_bytes(size))
        else:
            body = markdown_text(size) if kind == "md" else plain_text(size)
            path.write_bytes(body.encode("utf-8"))
    return path


# ---------------------------------------------------------------- the entry points


def _counter(name: str) -> Any:
    """The counter ``name``: a registry name, or an in-process tiktoken/tokenizers one."""
    if name == "tiktoken":
        from tests.counters import SMALL_MERGES, byte_encoding

        from chunkspec.counters import TiktokenCounter

        return TiktokenCounter(byte_encoding(SMALL_MERGES))
    if name == "huggingface":
        from tests.counters import word_level

        from chunkspec.counters import HuggingFaceCounter

        return HuggingFaceCounter(word_level())
    return name


def _document(path: Path) -> Any:
    """The SourceDocument of ``path`` (read before the call is timed)."""
    from chunkspec import read_document

    return read_document(str(path))


def _chunk_document(strategy: str, counter: str, **extra: Any) -> Callable[[Path], Any]:
    """Prepare: read the document; call: chunk_document with ``strategy`` and ``counter``."""

    def prepare(path: Path) -> Callable[[], Any]:
        from chunkspec import chunk_document

        document = _document(path)
        chosen = _counter(counter)
        return lambda: chunk_document(document, strategy, counter=chosen, **extra)

    return prepare


def _read(path: Path) -> Callable[[], Any]:
    """read_document (decode, parse, title) of the file."""
    from chunkspec import read_document

    return lambda: read_document(str(path))


def _langchain(path: Path) -> Callable[[], Any]:
    """LangChain: ChunkspecSplitter.split_documents of one Document."""
    from langchain_core.documents import Document

    from chunkspec.integrations.langchain import ChunkspecSplitter

    splitter = ChunkspecSplitter("heading", max_tokens=256)
    documents = [Document(page_content=path.read_text(encoding="utf-8"), id="doc")]
    return lambda: splitter.split_documents(documents)


def _llama_index(path: Path) -> Callable[[], Any]:
    """LlamaIndex: ChunkspecNodeParser.get_nodes_from_documents of one Document."""
    from llama_index.core import Document

    from chunkspec.integrations.llama_index import ChunkspecNodeParser

    parser = ChunkspecNodeParser(strategy="heading", max_tokens=256)
    documents = [Document(text=path.read_text(encoding="utf-8"), id_="doc")]
    return lambda: parser.get_nodes_from_documents(documents)


def _haystack(path: Path) -> Callable[[], Any]:
    """Haystack: ChunkspecDocumentSplitter.run on one Document."""
    from haystack import Document

    from chunkspec.integrations.haystack import ChunkspecDocumentSplitter

    splitter = ChunkspecDocumentSplitter("heading", max_tokens=256)
    documents = [Document(content=path.read_text(encoding="utf-8"), id="doc")]
    return lambda: splitter.run(documents=documents)


def _chunk_table(path: Path) -> Callable[[], Any]:
    """chunkspec.arrow.chunk_table of a one-row table of the file's bytes."""
    import pyarrow as pa

    from chunkspec.arrow import chunk_table

    table = pa.table({"doc_id": [path.name], "bytes": [path.read_bytes()]})
    return lambda: chunk_table(table, strategy="heading", max_tokens=256)


#: name -> (input kind, prepare(path) -> call); the library cases.
LIBRARY: dict[str, tuple[str, Callable[[Path], Callable[[], Any]]]] = {
    "read_document md": ("md", _read),
    "read_document text": ("text", _read),
    "read_document pdf": ("pdf", _read),
    "chunk_document heading md": ("md", _chunk_document("heading", "whitespace")),
    "chunk_document structural md": ("md", _chunk_document("structural", "whitespace")),
    "chunk_document structural+ md": (
        "md",
        _chunk_document("structural", "whitespace", count_headings=True, split_tables=True),
    ),
    "chunk_document recursive md": ("md", _chunk_document("recursive", "whitespace")),
    "chunk_document window md": ("md", _chunk_document("window", "whitespace")),
    "chunk_document heading text": ("text", _chunk_document("heading", "whitespace")),
    "chunk_document recursive text": ("text", _chunk_document("recursive", "whitespace")),
    "chunk_document window text": ("text", _chunk_document("window", "whitespace")),
    "chunk_document pages pdf": ("pdf", _chunk_document("pages", "whitespace")),
    "chunk_document heading md chars4": ("md", _chunk_document("heading", "chars4")),
    "chunk_document window md chars1": ("md", _chunk_document("window", "chars1")),
    "chunk_document heading md tiktoken": ("md", _chunk_document("heading", "tiktoken")),
    "chunk_document window text tiktoken": ("text", _chunk_document("window", "tiktoken")),
    "chunk_document heading md tokenizers": ("md", _chunk_document("heading", "huggingface")),
    "chunk_document pages pdf tokenizers": ("pdf", _chunk_document("pages", "huggingface")),
    "langchain split_documents md": ("md", _langchain),
    "llama_index get_nodes md": ("md", _llama_index),
    "haystack run md": ("md", _haystack),
    "arrow chunk_table md": ("md", _chunk_table),
}

#: name -> (input kind, command arguments after ``chunkspec``; {in} and {out} filled in).
COMMANDS: dict[str, tuple[str, list[str]]] = {
    "cli chunk md": ("md", ["chunk", "{in}", "--output", "{out}.jsonl"]),
    "cli chunk pdf": ("pdf", ["chunk", "{in}", "--strategy", "pages", "--output", "{out}.jsonl"]),
    "cli ingest md": ("md", ["ingest", "{in}", "--out", "{out}", "--workers", "1"]),
}


def all_cases() -> dict[str, str]:
    """Every case name and its input kind."""
    return {name: kind for name, (kind, _) in {**LIBRARY, **COMMANDS}.items()}


# ---------------------------------------------------------------- measuring


def _rss_now() -> int:
    """This process's resident memory now, in bytes."""
    with open("/proc/self/statm", encoding="ascii") as stat:
        return int(stat.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _reset_peak() -> bool:
    """Reset this process's peak RSS to its RSS now (Linux ``clear_refs``); False if not."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as refs:
            refs.write("5")
    except OSError:
        return False
    return True


def _peak() -> int:
    """This process's peak RSS since :func:`_reset_peak`, in bytes (``VmHWM``)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmHWM in /proc/self/status")


def worker(case: str, path: Path) -> None:
    """In a fresh process: prepare the call, then print its CPU seconds and working memory."""
    import gc

    call = LIBRARY[case][1](path)
    gc.collect()
    reset = _reset_peak()
    baseline = _rss_now()
    start = time.process_time()
    result = call()
    seconds = time.process_time() - start
    peak = _peak() if reset else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"cpu": seconds, "memory": max(0, peak - baseline), "items": _len(result)}))


def _len(result: Any) -> int:
    """How many chunks (records, documents, nodes, rows) the call returned."""
    if isinstance(result, dict):
        result = result.get("documents", [])
    if hasattr(result, "num_rows"):
        return int(result.num_rows)
    try:
        return len(result)
    except TypeError:
        return 1


def run_library(case: str, path: Path) -> tuple[float, int]:
    """CPU seconds and working bytes of ``case`` on ``path``, in a fresh process."""
    done = subprocess.run(
        [sys.executable, __file__, "--worker", case, str(path)],
        check=True,
        env=ENV,
        capture_output=True,
        text=True,
    )
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    return answer["cpu"], answer["memory"]


def run_command(case: str, path: Path, folder: Path) -> tuple[float, int]:
    """CPU seconds and peak RSS of ``chunkspec`` run as a command on ``path``."""
    out = folder / f"out-{os.getpid()}-{time.monotonic_ns()}"
    arguments = [a.replace("{in}", str(path)).replace("{out}", str(out)) for a in COMMANDS[case][1]]
    script = (
        "import resource, subprocess, sys, json\n"
        "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)\n"
        "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "print(json.dumps({'cpu': u.ru_utime + u.ru_stime, 'peak': u.ru_maxrss * 1024}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, sys.executable, "-m", "chunkspec", *arguments],
        check=True,
        env=ENV,
        capture_output=True,
        text=True,
    )
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    _remove(out)
    _remove(out.with_name(out.name + ".jsonl"))
    return answer["cpu"], answer["peak"]


def _remove(path: Path) -> None:
    """Remove a file or folder the command wrote."""
    import shutil

    if path.is_dir():
        shutil.rmtree(path)
    elif path.exists():
        path.unlink()


def measure(case: str, path: Path, folder: Path, repeat: int) -> tuple[float, int]:
    """Best CPU seconds and the least working memory of ``repeat`` runs."""
    runs = []
    for _ in range(repeat):
        if case in LIBRARY:
            runs.append(run_library(case, path))
        else:
            runs.append(run_command(case, path, folder))
    return min(cpu for cpu, _ in runs), min(memory for _, memory in runs)


def text_size(kind: str, path: Path, size: int) -> int:
    """The input's size in bytes: the file, or for a PDF the text it shows."""
    return size if kind == "pdf" else path.stat().st_size


def main() -> None:
    """Measure the chosen cases at the chosen sizes and print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=",".join(f"{s:g}" for s in DEFAULT_SIZES))
    parser.add_argument("--only", action="append", default=[], help="a case name, or part of names")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--nodejs", default="1,4,10", help="copies of the Node.js docs; '' skips")
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker[0], Path(args.worker[1]))
        return
    sizes = [int(float(s) * MIB) for s in args.sizes.split(",")]
    known = all_cases()
    exact = [part for part in args.only if part in known]  # a whole name: that case only
    cases = {
        name: kind
        for name, kind in known.items()
        if not args.only
        or name in exact
        or any(part in name for part in args.only if part not in exact)
    }
    load = os.getloadavg()
    print(
        f"# scaling: sizes {args.sizes} MiB, repeat {args.repeat}, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load {load[0]:.2f}",
        flush=True,
    )
    header = " | ".join(f"{s / MIB:g} MiB s" for s in sizes)
    steps = " | ".join(f"x{sizes[k + 1] / sizes[k]:g} ratio" for k in range(len(sizes) - 1))
    mems = " | ".join(f"mem/input {s / MIB:g}" for s in sizes)
    print(f"| entry point | {header} | {steps} | {mems} |")
    print("|---" * (1 + 3 * len(sizes) - 1) + "|", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-scaling-") as name:
        folder = Path(name)
        baselines: dict[str, int] = {}
        for case, kind in cases.items():
            times: list[float] = []
            memories: list[float] = []
            for size in sizes:
                path = write_input(kind, size, folder)
                cpu, memory = measure(case, path, folder, args.repeat)
                if case in COMMANDS:
                    if case not in baselines:
                        tiny = write_input(kind, 2000, folder)
                        baselines[case] = measure(case, tiny, folder, 1)[1]
                    memory = max(0, memory - baselines[case])
                times.append(cpu)
                memories.append(memory / text_size(kind, path, size))
            ratios = [times[k + 1] / max(times[k], 1e-9) for k in range(len(times) - 1)]
            print(
                f"| {case} | "
                + " | ".join(f"{t:.2f}" for t in times)
                + " | "
                + " | ".join(f"{r:.2f}" for r in ratios)
                + " | "
                + " | ".join(f"{m:.1f}" for m in memories)
                + " |",
                flush=True,
            )
        if args.nodejs and NODE_DOCS.is_dir():
            nodejs(folder, [int(c) for c in args.nodejs.split(",")], args.repeat)
    print(f"# done {time.strftime('%H:%M UTC', time.gmtime())}, load {os.getloadavg()[0]:.2f}")


def nodejs(folder: Path, copies: list[int], repeat: int) -> None:
    """``chunkspec chunk FILE.md`` on the Node.js docs joined into one file, ``copies``
    times (10 copies: the 35 MB case that once took 407 s)."""
    print("\n| chunkspec chunk, Node.js docs | MB | CPU s | s per MB | ratio to 1 copy per MB |")
    print("|---|---:|---:|---:|---:|", flush=True)
    first = 0.0
    for count in copies:
        path = folder / f"nodejs-{count}.md"
        path.write_bytes(node_docs(count).encode("utf-8"))
        megabytes = path.stat().st_size / 1e6
        cpu, _ = measure("cli chunk md", path, folder, repeat)
        per = cpu / megabytes
        first = first or per
        print(f"| {count} copies | {megabytes:.1f} | {cpu:.2f} | {per:.3f} | {per / first:.2f} |")
        path.unlink()


if __name__ == "__main__":
    main()
