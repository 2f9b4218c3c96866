"""Stores: a corpus kept equal to its ``ingest`` result in LanceDB, Chroma, Qdrant and Milvus
Lite, beside LangChain's ``index()`` with its record manager, in one run (docs/performance.md,
"Stores").

Run with ``nox -s bench -- stores`` or ``python benchmarks/bench_stores.py [--docs N]
[--stores lancedb,chroma,qdrant,milvus] [--corpora generated,nodejs] [--only
stores|langchain|scaling|model] [--scales 1,4,16] [--scale-base N] [--rounds N] [--model]``.
The default run (``--docs 400``) takes a few minutes on 2 cores; ``--docs 10000`` is the
figure docs/performance.md quotes. Sections:

- **stores**: per corpus, per store (``open_store(f"{scheme}://...")``), three runs through
  the entry points users call: ``python -m chunkspec ingest DIR --out OUT`` (its defaults:
  ``heading``, 512 whitespace tokens), then ``apply_result(OUT, store, embedder,
  cache=CACHE)`` with a fresh embedding cache per store:

  1. first load;
  2. the edit run: 1% of the files get a paragraph replaced, 0.1% (at least one) are
     deleted and as many added; ``ingest`` again into the same OUT (incremental), apply;
  3. the same again with nothing changed: must be 0 texts embedded and 0 rows written
     (asserted, and printed).

  Per run: wall and CPU seconds (this process and its children, Milvus Lite's server
  included), the embedding function's calls and texts, ApplyReport's added, updated,
  removed and unchanged, and the rows the store holds afterwards (checked against the
  result's chunks). ``--rounds`` repeats the whole sequence (fresh stores each round) and
  keeps each cell's best time.
- **langchain** (the anchor): ``langchain_core.indexing.index()`` with
  ``InMemoryRecordManager`` (``SQLRecordManager`` when langchain-community is installed)
  over ``InMemoryVectorStore``, the same counting embedding function as an ``Embeddings``,
  the documents chunked by chunkspec's ``ChunkspecSplitter`` with ingest's options, with
  ``cleanup=None`` (LangChain's default), ``"incremental"`` and ``"full"``, over the same
  three corpus states: texts embedded per run, and after the edit run the documents the
  vector store holds beside the chunks a fresh run gives (stale rows: duplicates of edited
  chunks and orphans of deleted files).
- **scaling**: the first load at ``--scales`` times ``--scale-base`` generated documents
  (1, 4 and 16 times 50 by default), per store: seconds per document, flat means linear.
- **model** (``--model``, opt-in): the first load of the Node.js docs with the bundled
  model (``local_embedder()``, all-MiniLM-L6-v2 on the CPU) into the first store given.

The embedder is ``Embedder("hash-384", fn)`` where ``fn`` makes a 384-dimension unit vector
from each text's SHAKE-128 digest and counts calls, texts and its own seconds (a few
microseconds a text), so the figures are the stores' and chunkspec's cost, not a model's.

Corpora: ``generated``, N Markdown documents made from a seed (headings, paragraphs in which
about 6% of the words are non-ASCII (French, German, Russian, Greek, Chinese, Hindi,
Arabic), no-break and other Unicode spaces, a table, a code fence, a list; CRLF line ends in
every fourth; about 3 KB each); ``nodejs``, the Markdown files of Debian's ``nodejs-doc``
(``/usr/share/doc/nodejs/api/*.md``), skipped with a message when absent. A store whose
module or client is not installed is said and skipped. Nothing is fetched.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import hashlib
import json
import os
import random
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

import numpy as np  # noqa: E402

from benchmarks.ingest_run import ENV  # noqa: E402

NODE_DOCS = Path("/usr/share/doc/nodejs/api")
STORES = ("lancedb", "chroma", "qdrant", "milvus")
CORPORA = ("generated", "nodejs")
SECTIONS = ("stores", "langchain", "scaling", "model")
DIMENSIONS = 384
#: ingest's defaults (the command line's), which the LangChain splitter is given too.
STRATEGY = "heading"
MAX_TOKENS = 512

# ---------------------------------------------------------------- CPU time


def _ticks() -> float:
    """Seconds per clock tick of /proc/PID/stat."""
    return 1.0 / os.sysconf("SC_CLK_TCK")


def _live_children_cpu() -> float:
    """CPU seconds so far of this process's live descendants (from /proc; 0 without it)."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    tick = _ticks()
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                stat = Path(entry.path, "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2 :].split()
            pid = int(entry.name)
            parents[pid] = int(fields[1])
            times[pid] = (int(fields[11]) + int(fields[12])) * tick
    me = os.getpid()
    total = 0.0
    for pid in times:
        seen = pid
        while seen in parents and seen != me and seen > 1:
            seen = parents[seen]
        if seen == me and pid != me:
            total += times[pid]
    return total


def cpu_now() -> float:
    """CPU seconds of this process, its reaped children and its live descendants."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime + _live_children_cpu()


@dataclass
class Timer:
    """Wall and CPU seconds of a ``with`` block."""

    wall: float = 0.0
    cpu: float = 0.0

    @contextlib.contextmanager
    def run(self) -> Iterator[None]:
        """Time the block."""
        wall, cpu = time.perf_counter(), cpu_now()
        yield
        self.wall = time.perf_counter() - wall
        self.cpu = cpu_now() - cpu


# ---------------------------------------------------------------- the embedding function


class CountingHash:
    """A deterministic, cheap embedding: each text's SHAKE-128 digest of ``DIMENSIONS``
    bytes, centred and scaled to a unit float32 vector; counts its calls, its texts and
    the seconds it took (so its share of a run can be taken out)."""

    def __init__(self) -> None:
        self.calls = 0
        self.texts = 0
        self.seconds = 0.0

    def __call__(self, texts: list[str]) -> list[list[float]]:
        """One batch: a vector per text."""
        started = time.perf_counter()
        self.calls += 1
        self.texts += len(texts)
        raw = b"".join(
            hashlib.shake_128(text.encode("utf-8", "surrogatepass")).digest(DIMENSIONS)
            for text in texts
        )
        matrix = np.frombuffer(raw, dtype=np.uint8).reshape(len(texts), DIMENSIONS)
        vectors = matrix.astype(np.float32) - np.float32(127.5)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        out: list[list[float]] = vectors.tolist()
        self.seconds += time.perf_counter() - started
        return out


# ---------------------------------------------------------------- the generated corpus

_WORDS = (
    "the a of to and in is for on with as by that this from at be are or it an "
    "index store vector query chunk record heading table section page release build "
    "deploy user account access token storage network cluster budget review audit report "
    "incident change request owner service latency cache search answer source metric "
    "alert policy document embedding write delete update version schema field filter"
)
WORDS = _WORDS.split()
#: Non-ASCII words, each script one in about 6% of the words in all.
_FOREIGN = (
    "café naïve déjà größer Straße Übersicht façade crème "
    "привет документ хранилище индекс запрос поиск "
    "λόγος αρχείο δεδομένα "
    "数据 索引 查询 文档 存储 "
    "खोज दस्तावेज़ सूचकांक "
    "البحث الوثيقة الفهرس"
)
FOREIGN = _FOREIGN.split()
#: Gaps between words: mostly a space, sometimes a no-break, thin, narrow or ideographic one.
GAPS = (" ",) * 180 + ("\u00a0",) * 2 + ("\u2009", "\u202f", "\u3000", "\t")
LANGUAGES = ("python", "js", "sh", "json")


def _words(rng: random.Random, count: int) -> str:
    """``count`` words joined by gaps, about 6% of them non-ASCII."""
    out = []
    for k in range(count):
        word = rng.choice(FOREIGN) if rng.random() < 0.06 else rng.choice(WORDS)
        out.append(word if k == 0 else rng.choice(GAPS) + word)
    return "".join(out)


def _sentence(rng: random.Random) -> str:
    """A sentence of 6 to 18 words."""
    return _words(rng, rng.randrange(6, 19)).capitalize() + "."


def paragraph(rng: random.Random) -> str:
    """A paragraph of 2 to 5 sentences."""
    return " ".join(_sentence(rng) for _ in range(rng.randrange(2, 6)))


def _table(rng: random.Random) -> str:
    """A Markdown table of 3 to 6 rows."""
    rows = [
        f"| {_words(rng, 2)} | {rng.randrange(10_000)} | {_words(rng, 3)} |"
        for _ in range(rng.randrange(3, 7))
    ]
    return "| name | value | note |\n|---|---:|---|\n" + "\n".join(rows)


def _fence(rng: random.Random) -> str:
    """A code fence of 3 to 8 lines."""
    language = rng.choice(LANGUAGES)
    lines = [
        f"value_{k} = compute({rng.randrange(100)}, '{rng.choice(WORDS)}')"
        for k in range(rng.randrange(3, 9))
    ]
    return f"```{language}\n" + "\n".join(lines) + "\n```"


def markdown(n: int, seed: int) -> str:
    """Document ``n``: a title, an introduction, 3 to 5 sections of paragraphs (one with a
    table, one with a code fence, one with a list, some with a subsection); CRLF line ends
    in every fourth document. About 3 KB."""
    rng = random.Random(seed * 1_000_003 + n)
    parts = [f"# {_words(rng, 4).title()} {n}", paragraph(rng)]
    for s in range(rng.randrange(3, 6)):
        parts.append(f"## {_words(rng, 3).capitalize()} {s}")
        parts.extend(paragraph(rng) for _ in range(rng.randrange(1, 3)))
        if s == 0:
            parts.append(_table(rng))
        if s == 1:
            parts.append(_fence(rng))
            parts.append(paragraph(rng))
        if s == 2:
            parts.append("\n".join(f"- {_sentence(rng)}" for _ in range(rng.randrange(2, 5))))
        if rng.random() < 0.3:
            parts.append(f"### {_words(rng, 2).capitalize()}")
            parts.append(paragraph(rng))
    body = "\n\n".join(parts) + "\n"
    return body.replace("\n", "\r\n") if n % 4 == 3 else body


def generated_corpus(count: int, extra: int, seed: int) -> dict[str, str]:
    """``count + extra`` documents by relative path (the last ``extra`` held back for the
    edit run's additions)."""
    return {f"d{n // 500:03d}/doc{n:05d}.md": markdown(n, seed) for n in range(count + extra)}


def nodejs_corpus() -> dict[str, str] | None:
    """The Node.js docs' Markdown files by name; None when absent."""
    files = sorted(NODE_DOCS.glob("*.md"))
    if not files:
        return None
    return {path.name: path.read_text(encoding="utf-8") for path in files}


# ---------------------------------------------------------------- the edit script


@dataclass
class Plan:
    """A corpus and its three states: ``first`` (before), ``edited`` (after the edit run)."""

    name: str
    first: dict[str, str]
    edited: dict[str, str]
    changed: int
    deleted: int
    added: int
    characters: int = field(default=0)


def replace_paragraph(text: str, rng: random.Random) -> str:
    """``text`` with one prose paragraph replaced by a new one (line ends kept)."""
    newline = "\r\n" if "\r\n" in text else "\n"
    blocks = text.split(newline * 2)
    prose = [
        k
        for k, block in enumerate(blocks)
        if block[:1].isalpha() and "`" not in block and "|" not in block[:2]
    ]
    new = paragraph(rng)
    if not prose:
        return text + newline + new + newline
    blocks[rng.choice(prose)] = new
    return (newline * 2).join(blocks)


def edit_plan(name: str, corpus: dict[str, str], held_back: int, seed: int) -> Plan:
    """1% of the files changed (a paragraph replaced), ``held_back`` deleted, the
    ``held_back`` last files added; deterministic from ``seed``."""
    rng = random.Random(seed)
    paths = list(corpus)
    first_paths = paths[: len(paths) - held_back]
    first = {path: corpus[path] for path in first_paths}
    chosen = rng.sample(first_paths, max(1, len(first_paths) // 100) + held_back)
    changed, deleted = chosen[: len(chosen) - held_back], chosen[len(chosen) - held_back :]
    edited = dict(first)
    for path in changed:
        edited[path] = replace_paragraph(edited[path], rng)
    for path in deleted:
        del edited[path]
    for path in paths[len(paths) - held_back :]:
        edited[path] = corpus[path]
    return Plan(
        name, first, edited, len(changed), len(deleted), held_back, sum(map(len, first.values()))
    )


def write_corpus(folder: Path, files: dict[str, str]) -> None:
    """Make ``folder`` hold exactly ``files`` (bytes as given: CRLF kept)."""
    present = {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}
    for path in present - set(files):
        (folder / path).unlink()
    for path, text in files.items():
        target = folder / path
        data = text.encode("utf-8")
        if path in present and target.read_bytes() == data:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


# ---------------------------------------------------------------- ingest and apply


def ingest(corpus: Path, out: Path) -> Timer:
    """``python -m chunkspec ingest CORPUS --out OUT`` (the command's defaults), timed."""
    import subprocess

    timer = Timer()
    with timer.run():
        subprocess.run(
            [sys.executable, "-m", "chunkspec", "ingest", str(corpus), "--out", str(out)],
            check=True,
            env=ENV,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
    return timer


def result_chunks(out: Path) -> int:
    """The chunk rows of an ingest result (its error rows left out)."""
    from chunkspec._corpus._part_files import result_rows

    rows = result_rows(out, str(out))
    return sum(1 for doc in rows.values() for row in doc if row.get("error") is None)


def address(scheme: str, folder: Path) -> str:
    """The store's address in ``folder``: Milvus Lite is one file."""
    if scheme == "milvus":
        return f"milvus://{folder / 'milvus.db'}"
    return f"{scheme}://{folder / scheme}"


def store_missing(scheme: str) -> str | None:
    """None when the store opens here; else why not."""
    from importlib import import_module

    from chunkspec.stores import SCHEMES

    try:
        import_module(SCHEMES[scheme])
    except ImportError as error:
        return f"{type(error).__name__}: {error}"
    return None


@dataclass
class Applied:
    """One apply: its timer, the function's calls and texts, the report, the rows held and
    the store's bytes on disk afterwards."""

    timer: Timer
    calls: int
    texts: int
    report: Any
    held: int
    disk: int


def disk_bytes(folder: Path) -> int:
    """The bytes of every file under ``folder``."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def progress(line: str) -> None:
    """A progress line on standard error (the tables go to standard output)."""
    print(f"[{time.strftime('%H:%M:%S')}] {line}", file=sys.stderr, flush=True)


def apply_once(scheme: str, folder: Path, out: Path, cache: Path, fn: CountingHash) -> Applied:
    """Open the store, ``apply_result`` the result into it, count what it holds, close it."""
    from chunkspec.stores import Embedder, apply_result, open_store

    calls, texts = fn.calls, fn.texts
    embedder = Embedder("hash-384", fn)
    timer = Timer()
    with timer.run():
        store = open_store(address(scheme, folder))
        try:
            report = apply_result(out, store, embedder, cache=cache)
            held = len(store.held())
        finally:
            store.close()
    if report.calls != fn.calls - calls or report.embedded != fn.texts - texts:
        raise AssertionError(f"{scheme}: the report's counts differ from the function's")
    progress(f"{scheme} -> {out.name}: {report.rows:,} rows, {timer.wall:.1f} s")
    return Applied(timer, fn.calls - calls, fn.texts - texts, report, held, disk_bytes(folder))


RUNS = ("first load", "1% edit", "no change")


def stores_section(
    plan: Plan, schemes: list[str], scratch: Path, rounds: int
) -> dict[str, dict[str, Applied]]:
    """Print the three runs of each store on ``plan``; return the best round's cells."""
    corpus, out = scratch / f"{plan.name}-corpus", scratch / f"{plan.name}-out"
    best: dict[str, dict[str, Applied]] = {}
    ingests: dict[str, Timer] = {}
    chunks: dict[str, int] = {}
    for round_ in range(rounds):
        shutil.rmtree(corpus, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)
        stores = scratch / f"{plan.name}-stores-{round_}"
        fns = {scheme: CountingHash() for scheme in schemes}
        for run, files in zip(RUNS, (plan.first, plan.edited, plan.edited), strict=True):
            write_corpus(corpus, files)
            timer = ingest(corpus, out)
            if run not in ingests or timer.wall < ingests[run].wall:
                ingests[run] = timer
            chunks[run] = result_chunks(out)
            for scheme in schemes:
                gc.collect()
                done = apply_once(
                    scheme, stores / scheme, out, stores / f"cache-{scheme}", fns[scheme]
                )
                if done.held != chunks[run]:
                    raise AssertionError(
                        f"{scheme} holds {done.held} rows, the result {chunks[run]} chunks"
                    )
                if run == "no change":
                    r = done.report
                    if done.texts or r.added or r.updated or r.removed or done.calls:
                        raise AssertionError(f"{scheme}: the no-change run wrote or embedded")
                cells = best.setdefault(scheme, {})
                if run not in cells or done.timer.wall < cells[run].timer.wall:
                    cells[run] = done
        remove(stores)
    print(
        f"\nedit run: {plan.changed} files with a paragraph replaced, {plan.deleted} deleted, "
        f"{plan.added} added; chunks: {chunks['first load']:,} first, "
        f"{chunks['1% edit']:,} after the edit\n"
    )
    print("`chunkspec ingest` into the same OUT before each run (shared by the stores):\n")
    print("| run | wall s | CPU s |")
    print("|---|---:|---:|")
    for run in RUNS:
        print(f"| {run} | {ingests[run].wall:.2f} | {ingests[run].cpu:.2f} |")
    print(
        "\n`apply_result(OUT, store, Embedder('hash-384', fn), cache=CACHE)` (open, apply, "
        "count held, close):\n"
    )
    print(
        "| store | run | wall s | CPU s | rows/s (wall) | embed calls | texts embedded "
        "| added | updated | removed | unchanged | rows held | disk MB |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for scheme in schemes:
        for run in RUNS:
            a = best[scheme][run]
            r = a.report
            written = r.added + r.updated + r.removed
            rate = f"{written / a.timer.wall:,.0f}" if written else "—"
            print(
                f"| {scheme} | {run} | {a.timer.wall:.2f} | {a.timer.cpu:.2f} | {rate} "
                f"| {a.calls:,} | {a.texts:,} | {r.added:,} | {r.updated:,} | {r.removed:,} "
                f"| {r.unchanged:,} | {a.held:,} | {a.disk / 1e6:.0f} |",
                flush=True,
            )
    print(
        "\nno-change run: every store embedded 0 texts and wrote 0 rows (asserted); "
        "rows held equal the result's chunks after every run (asserted)."
    )
    return best


# ---------------------------------------------------------------- LangChain's index()


def record_manager() -> tuple[Any, str]:
    """SQLRecordManager (in memory) when langchain-community is there, else
    InMemoryRecordManager; and its name."""
    from importlib import import_module

    try:  # optional, and untyped: looked up by name
        community = import_module("langchain_community.indexes")
    except ImportError:
        from langchain_core.indexing import InMemoryRecordManager

        manager: Any = InMemoryRecordManager(namespace="bench")
        manager.create_schema()
        return manager, "InMemoryRecordManager"
    manager = community.SQLRecordManager("bench", db_url="sqlite:///:memory:")
    manager.create_schema()
    return manager, "SQLRecordManager (sqlite in memory)"


def lc_embeddings(fn: CountingHash) -> Any:
    """``fn`` as a LangChain ``Embeddings``."""
    from langchain_core.embeddings import Embeddings

    class HashEmbeddings(Embeddings):
        """The counting hash function, LangChain's way."""

        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            """A vector per text, one call."""
            return fn(list(texts))

        def embed_query(self, text: str) -> list[float]:
            """A query's vector."""
            return fn([text])[0]

    return HashEmbeddings()


def lc_documents(files: dict[str, str]) -> list[Any]:
    """The chunk ``Document``s of ``files`` by ChunkspecSplitter (ingest's options), each
    with ``source`` (its file) in its metadata."""
    from langchain_core.documents import Document

    from chunkspec.integrations.langchain import ChunkspecSplitter

    splitter = ChunkspecSplitter(STRATEGY, max_tokens=MAX_TOKENS)
    return splitter.split_documents(
        Document(page_content=text, metadata={"source": path}, id=path)
        for path, text in files.items()
    )


def _identity(text: str, metadata: dict[str, Any]) -> str:
    """A chunk document's text and metadata as one comparable string."""
    return json.dumps([text, metadata], sort_keys=True, ensure_ascii=False, default=str)


def langchain_section(plan: Plan) -> None:
    """Print LangChain index()'s three runs for each cleanup mode."""
    try:
        from langchain_core.indexing import index
        from langchain_core.vectorstores import InMemoryVectorStore
    except ImportError as error:
        print(f"\n(langchain-core not installed: {error}; the anchor is skipped)")
        return
    import warnings

    # LangChain's default key_encoder (sha1) warns once; the default is what users run
    warnings.filterwarnings("ignore", message="Using SHA-1 for document hashing")
    split = Timer()
    with split.run():
        states = [lc_documents(plan.first), lc_documents(plan.edited)]
    _, manager_name = record_manager()
    print(
        f"\nLangChain `index(docs, record_manager, InMemoryVectorStore(HashEmbeddings), "
        f"cleanup=..., source_id_key='source')`, {manager_name}; documents by "
        f"`ChunkspecSplitter({STRATEGY!r}, max_tokens={MAX_TOKENS})` ({len(states[0]):,} "
        f"chunks first, {len(states[1]):,} after the edit; splitting both states took "
        f"{split.wall:.2f} s wall, not counted below):\n"
    )
    print(
        "| cleanup | run | wall s | CPU s | embed calls | texts embedded | added | skipped "
        "| deleted | docs held | a fresh run's chunks | stale docs held | missing |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for cleanup in (None, "incremental", "full"):
        fn = CountingHash()
        manager, _ = record_manager()
        vectors = InMemoryVectorStore(embedding=lc_embeddings(fn))
        for run, docs in zip(RUNS, (states[0], states[1], states[1]), strict=True):
            calls, texts = fn.calls, fn.texts
            timer = Timer()
            with timer.run():
                result = index(docs, manager, vectors, cleanup=cleanup, source_id_key="source")
            held = vectors.store
            expected = {_identity(d.page_content, d.metadata) for d in docs}
            identities = [_identity(v["text"], v["metadata"]) for v in held.values()]
            stale = sum(1 for i in identities if i not in expected)
            missing = len(expected - set(identities))
            print(
                f"| {cleanup} | {run} | {timer.wall:.2f} | {timer.cpu:.2f} "
                f"| {fn.calls - calls:,} | {fn.texts - texts:,} | {result['num_added']:,} "
                f"| {result['num_skipped']:,} | {result['num_deleted']:,} | {len(held):,} "
                f"| {len(expected):,} | {stale:,} | {missing:,} |",
                flush=True,
            )


# ---------------------------------------------------------------- scaling


def scaling_section(
    schemes: list[str], base: int, scales: list[int], scratch: Path, seed: int
) -> None:
    """Print the first load's wall and CPU seconds at each scale, per store, and per
    document."""
    print(
        f"\nFirst load at {', '.join(f'{s}x' for s in scales)} {base} generated documents "
        "(ingest, then each store's apply into a new store; wall and CPU seconds, and wall "
        "milliseconds per document):\n"
    )
    head = " | ".join(f"{s * base:,} docs wall s | CPU s" for s in scales)
    per = " | ".join(f"ms/doc {s}x" for s in scales)
    print(f"| step | {head} | {per} | largest / smallest per doc: wall | CPU |")
    print("|---|" + "---:|" * (3 * len(scales) + 2))
    table: dict[str, list[Timer]] = {"ingest": []}
    for scheme in schemes:
        table[scheme] = []
    chunks = []
    for scale in scales:
        count = scale * base
        folder = scratch / f"scale-{count}"
        write_corpus(folder / "corpus", generated_corpus(count, 0, seed))
        table["ingest"].append(ingest(folder / "corpus", folder / "out"))
        chunks.append(result_chunks(folder / "out"))
        for scheme in schemes:
            gc.collect()
            done = apply_once(
                scheme, folder / scheme, folder / "out", folder / f"cache-{scheme}", CountingHash()
            )
            table[scheme].append(done.timer)
        remove(folder)
    for step, timers in table.items():
        times = " | ".join(f"{t.wall:.2f} | {t.cpu:.2f}" for t in timers)
        per_doc = [t.wall / (scale * base) * 1000 for t, scale in zip(timers, scales, strict=True)]
        pers = " | ".join(f"{p:.2f}" for p in per_doc)
        cpu = timers[-1].cpu / scales[-1] / max(timers[0].cpu / scales[0], 1e-9)
        print(
            f"| {step} | {times} | {pers} | {per_doc[-1] / per_doc[0]:.2f} | {cpu:.2f} |",
            flush=True,
        )
    print(f"\n(chunks: {', '.join(f'{c:,}' for c in chunks)})")


# ---------------------------------------------------------------- the real model


def model_section(plan: Plan, scheme: str, scratch: Path) -> None:
    """Print the first load of ``plan`` with the bundled model into ``scheme``."""
    from chunkspec.stores import apply_result, local_embedder, open_store

    try:
        embedder = local_embedder()
    except Exception as error:  # the embed extra missing: said, not fatal
        print(f"\n(the bundled model is not available: {error}; skipped)")
        return
    corpus, out = scratch / "model-corpus", scratch / "model-out"
    write_corpus(corpus, plan.first)
    ingest(corpus, out)
    timer = Timer()
    with timer.run():
        store = open_store(address(scheme, scratch / "model-store"))
        try:
            report = apply_result(out, store, embedder, cache=scratch / "model-cache")
        finally:
            store.close()
    print(
        f"\nFirst load of {plan.name} ({report.rows:,} chunks) into {scheme} with "
        f"`local_embedder()` ({embedder.model}, CPU): {timer.wall:.1f} s wall, "
        f"{timer.cpu:.1f} CPU s, {report.calls:,} calls, {report.embedded:,} texts, "
        f"{report.embedded / timer.wall:.1f} texts/s",
        flush=True,
    )


# ---------------------------------------------------------------- main


def remove(folder: Path) -> None:
    """Delete ``folder``, trying again for a few seconds: Milvus Lite's server may still be
    writing its files just after the store closed."""
    for _ in range(10):
        shutil.rmtree(folder, ignore_errors=True)
        if not folder.exists():
            return
        time.sleep(0.5)
    print(f"(could not remove {folder})", file=sys.stderr)


def _names(value: str, allowed: Sequence[str], option: str) -> list[str]:
    """A comma-separated option's names, checked."""
    names = [name.strip() for name in value.split(",") if name.strip()]
    wrong = [name for name in names if name not in allowed]
    if wrong:
        raise SystemExit(f"{option}: unknown {', '.join(wrong)}; choose from {', '.join(allowed)}")
    return names


def describe(plan: Plan) -> str:
    """A corpus's size, non-ASCII share and CRLF share."""
    texts = list(plan.first.values())
    size = sum(len(t.encode("utf-8")) for t in texts)
    characters = sum(len(t) for t in texts)
    non_ascii = sum(sum(1 for c in t if not c.isascii()) for t in texts)
    crlf = sum(1 for t in texts if "\r\n" in t)
    spaces = sum(sum(t.count(c) for c in "\u00a0\u2009\u202f\u3000") for t in texts)
    return (
        f"{len(texts):,} files, {size / 1e6:.2f} MB ({size / len(texts) / 1000:.1f} KB a file), "
        f"{non_ascii / characters:.1%} of the characters non-ASCII, {crlf:,} files with CRLF "
        f"line ends, {spaces:,} Unicode spaces"
    )


def main() -> int:
    """Run the chosen sections and print their tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, default=400, help="generated documents")
    parser.add_argument("--stores", default=",".join(STORES))
    parser.add_argument("--corpora", default=",".join(CORPORA))
    parser.add_argument("--only", choices=SECTIONS, action="append")
    parser.add_argument("--rounds", type=int, default=1, help="best of N rounds (stores)")
    parser.add_argument("--scales", default="1,4,16", help="multiples of --scale-base")
    parser.add_argument("--scale-base", type=int, default=50)
    parser.add_argument("--model", action="store_true", help="also the bundled model's row")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if args.docs < 100:
        parser.error("--docs must be at least 100 (1% of them are edited)")
    schemes = _names(args.stores, STORES, "--stores")
    corpora = _names(args.corpora, CORPORA, "--corpora")
    only = set(args.only or ("stores", "langchain", "scaling"))
    if args.model:
        only.add("model")
    # Milvus Lite's client logs a warning per query iterator ("failed to get mvccTs from
    # milvus server, use client-side ts instead"): said once here, not in every table
    import logging

    logging.getLogger("pymilvus").setLevel(logging.ERROR)
    load = os.getloadavg()
    print(
        f"# Stores benchmark, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, Python "
        f"{sys.version.split()[0]}, {os.cpu_count()} CPUs, load {load[0]:.2f}; ingest's "
        f"defaults ({STRATEGY}, {MAX_TOKENS} whitespace tokens); embedder: hash-384 "
        "(SHAKE-128 digests, counting)",
        flush=True,
    )
    ready = []
    for scheme in schemes:
        why = store_missing(scheme)
        if why is None:
            ready.append(scheme)
        else:
            print(f"({scheme} skipped: {why})")
    with contextlib.suppress(ImportError):
        import importlib.metadata as meta

        versions = []
        for package in (
            "lancedb",
            "chromadb",
            "qdrant-client",
            "pymilvus",
            "milvus-lite",
            "langchain-core",
        ):
            with contextlib.suppress(meta.PackageNotFoundError):
                versions.append(f"{package} {meta.version(package)}")
        print("versions: " + ", ".join(versions))
    plans: list[Plan] = []
    held_back = max(1, args.docs // 1000)
    if "generated" in corpora:
        corpus = generated_corpus(args.docs, held_back, args.seed)
        plans.append(edit_plan("generated", corpus, held_back, args.seed))
    if "nodejs" in corpora:
        node = nodejs_corpus()
        if node is None:
            print(f"(no Node.js Markdown docs at {NODE_DOCS}: Debian's nodejs-doc; skipped)")
        else:
            plans.append(edit_plan("nodejs", node, 1, args.seed))
    scratch = Path(tempfile.mkdtemp(prefix="bench-stores-"))
    try:
        for plan in plans:
            print(f"\n## {plan.name}: {describe(plan)}", flush=True)
            if "stores" in only and ready:
                stores_section(plan, ready, scratch, args.rounds)
            if "langchain" in only:
                langchain_section(plan)
        if "scaling" in only and ready:
            scales = [int(s) for s in args.scales.split(",")]
            print("\n## Scaling")
            scaling_section(ready, args.scale_base, scales, scratch, args.seed)
        if "model" in only and ready:
            node_plan = next((p for p in plans if p.name == "nodejs"), None)
            if node_plan is None:
                print("\n(the model row needs the nodejs corpus; skipped)")
            else:
                print("\n## The bundled model")
                model_section(node_plan, ready[0], scratch)
    finally:
        remove(scratch)

    print(f"\n# done {time.strftime('%H:%M UTC', time.gmtime())}, load {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
