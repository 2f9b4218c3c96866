"""Incremental ``chunkspec ingest`` beside a full run, and how many chunk keys an edit changes.

Run with ``nox -s bench -- incremental`` or ``python benchmarks/bench_incremental.py
[--documents N] [--workers W] [--strategies structural,heading,window]``. A generated corpus
of N documents (default 10,000: Markdown with sections, lists and a table, plain text, and
every tenth a PDF made by tests/pdfs.py) is ingested; then 1% of the documents are edited
(by turns: a paragraph inserted into one section, a section deleted, a table cell changed),
0.5% added and 0.5% removed. Per strategy it reports, in CPU seconds of the command and its
workers (``RUSAGE_CHILDREN``) and wall seconds:

- the full run on the edited corpus (into a new folder);
- the incremental run (into a copy of the previous result, INCR-2);
- the incremental run with nothing changed: the fixed cost (hashing every input, reading
  the previous result, writing every row, the change set and the manifest);

and, from the change set (INCR-6), the share of chunk keys that are new (``added`` over the
new result's keys) and gone (``removed`` over the old keys), beside the share of text
changed (characters inserted plus deleted, over all characters of the old corpus).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests/pdfs.py builds the PDFs

from tests.pdfs import text_pdf  # noqa: E402

from benchmarks.ingest_run import ingest_command  # noqa: E402

WORDS = [
    "policy",
    "wiki",
    "page",
    "team",
    "release",
    "build",
    "deploy",
    "user",
    "account",
    "access",
    "token",
    "storage",
    "network",
    "cluster",
    "budget",
    "review",
    "audit",
    "report",
    "incident",
    "change",
    "request",
    "owner",
    "service",
    "latency",
    "cache",
    "index",
    "vector",
    "search",
    "query",
    "answer",
    "source",
    "section",
    "table",
    "metric",
    "alert",
]


def _sentence(rng: random.Random) -> str:
    """A sentence of 8 to 20 words."""
    words = [rng.choice(WORDS) for _ in range(rng.randrange(8, 21))]
    return " ".join(words).capitalize() + "."


def _paragraph(rng: random.Random) -> str:
    """A paragraph of 2 to 5 sentences."""
    return " ".join(_sentence(rng) for _ in range(rng.randrange(2, 6)))


def _table(rng: random.Random, n: int) -> str:
    """A Markdown table of 3 to 6 rows."""
    rows = [
        f"| {rng.choice(WORDS)} {n}-{k} | {rng.randrange(1000)} |"
        for k in range(rng.randrange(3, 7))
    ]
    return "| name | value |\n|---|---|\n" + "\n".join(rows)


def markdown(n: int, rng: random.Random) -> str:
    """A Markdown page: a title, 3 to 6 sections of paragraphs, a list, maybe a table."""
    parts = [f"# Page {n}", _paragraph(rng)]
    for s in range(rng.randrange(3, 7)):
        parts.append(f"## Section {s} of {n}")
        parts.extend(_paragraph(rng) for _ in range(rng.randrange(1, 4)))
        if s == 1:
            parts.append(_table(rng, n))
        if s == 2:
            parts.append("\n".join(f"- {_sentence(rng)}" for _ in range(3)))
    return "\n\n".join(parts) + "\n"


def text(n: int, rng: random.Random) -> str:
    """A plain-text note of 3 to 8 paragraphs."""
    return "\n\n".join(_paragraph(rng) for _ in range(rng.randrange(3, 9))) + "\n"


def pdf_lines(n: int, rng: random.Random) -> list[list[str]]:
    """Two pages of sentences."""
    return [[_sentence(rng) for _ in range(6)] for _ in range(2)]


def write_document(folder: Path, n: int, seed: int) -> tuple[Path, int]:
    """Write document ``n``; return its path and its number of characters."""
    rng = random.Random(seed)
    sub = folder / f"d{n // 500:03d}"
    sub.mkdir(parents=True, exist_ok=True)
    if n % 10 == 9:
        lines = pdf_lines(n, rng)
        path = sub / f"doc{n:05d}.pdf"
        path.write_bytes(text_pdf(lines))
        return path, sum(len(line) + 1 for page in lines for line in page)
    body = markdown(n, rng) if n % 10 < 6 else text(n, rng)
    path = sub / f"doc{n:05d}{'.md' if n % 10 < 6 else '.txt'}"
    path.write_text(body, "utf-8")
    return path, len(body)


def edit(path: Path, rng: random.Random, turn: int, seed: int) -> int:
    """Edit one document in place (insert a paragraph, delete a section, change a table
    cell, by turns; a PDF gets a sentence); return the characters inserted plus deleted.
    ``seed`` is the document's, so a PDF's old lines are made again."""
    if path.suffix == ".pdf":
        lines = pdf_lines(0, random.Random(seed))
        lines[0].insert(3, _sentence(rng))
        path.write_bytes(text_pdf(lines))
        return len(lines[0][3]) + 1
    body = path.read_text("utf-8")
    blocks = body.split("\n\n")
    if path.suffix == ".md" and turn % 3 == 1:
        heads = [i for i, b in enumerate(blocks) if b.startswith("## ")]
        if len(heads) > 1:
            start = heads[rng.randrange(1, len(heads))]
            end = next((i for i in heads if i > start), len(blocks))
            removed = sum(len(b) + 2 for b in blocks[start:end])
            path.write_text("\n\n".join(blocks[:start] + blocks[end:]), "utf-8")
            return removed
    if path.suffix == ".md" and turn % 3 == 2:
        tables = [i for i, b in enumerate(blocks) if b.startswith("| name")]
        if tables:
            old = blocks[tables[0]]
            blocks[tables[0]] = old.replace("|---|---|\n| ", "|---|---|\n| changed ", 1)
            path.write_text("\n\n".join(blocks), "utf-8")
            return len("changed ")
    new = _paragraph(rng)
    where = rng.randrange(1, len(blocks) + 1)
    path.write_text("\n\n".join([*blocks[:where], new, *blocks[where:]]), "utf-8")
    return len(new) + 2


def key_shares(out: Path) -> tuple[float, float, dict[str, dict[str, int]]]:
    """(added / new keys, removed / old keys, the counts) of a result's change set."""
    counts = json.loads((out / "_chunkspec.json").read_text("utf-8"))["changes"]
    chunks = counts["chunks"]
    new = chunks["added"] + chunks["updated"] + chunks["unchanged"]
    old = chunks["removed"] + chunks["updated"] + chunks["unchanged"]
    return chunks["added"] / max(new, 1), chunks["removed"] / max(old, 1), counts


def main() -> None:
    """Print the table of docs/performance.md, "Incremental ingest"."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--documents", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--strategies", default="structural,heading,window")
    parser.add_argument("--max-tokens", type=int, default=128)
    args = parser.parse_args()
    n = args.documents
    rng = random.Random(2026)
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        corpus = root / "corpus"
        started = time.perf_counter()
        paths: list[Path] = []
        sizes: list[int] = []
        for k in range(n):
            path, chars = write_document(corpus, k, k)
            paths.append(path)
            sizes.append(chars)
        total_chars = sum(sizes)
        print(
            f"corpus: {n} documents, {total_chars} characters, written in "
            f"{time.perf_counter() - started:.1f} s; --workers {args.workers}, "
            f"--max-tokens {args.max_tokens}"
        )
        results = {}
        for strategy in args.strategies.split(","):
            extra = ["--strategy", strategy, "--max-tokens", str(args.max_tokens)]
            extra += ["--workers", str(args.workers)]
            ingest_command(corpus, root / f"base-{strategy}", extra)
            results[strategy] = extra
        # The edit script: 1% edited, 0.5% removed, 0.5% added.
        chosen = rng.sample(range(n), n // 100 + n // 200)
        edited, removed = chosen[: n // 100], chosen[n // 100 :]
        changed_chars = 0
        for turn, k in enumerate(edited):
            changed_chars += edit(paths[k], rng, turn, k)
        for k in removed:
            changed_chars += sizes[k]
            paths[k].unlink()
        for k in range(n, n + n // 200):
            _, chars = write_document(corpus, k, k)
            changed_chars += chars
        text_share = changed_chars / total_chars
        print(
            f"edit script: {len(edited)} edited, {len(removed)} removed, {n // 200} added; "
            f"{changed_chars} characters changed = {text_share:.2%} of the text\n"
        )
        print(
            "| strategy | full CPU s | full wall s | incremental CPU s | incremental wall s "
            "| incr / full CPU | no-change CPU s (fixed) | new keys | gone keys | text changed |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for strategy, extra in results.items():
            base = root / f"base-{strategy}"
            incremental = root / f"incr-{strategy}"
            shutil.copytree(base, incremental)
            full_cpu, full_wall = ingest_command(corpus, root / f"full-{strategy}", extra)
            incr_cpu, incr_wall = ingest_command(corpus, incremental, extra)
            new_share, gone_share, _ = key_shares(incremental)
            fixed_cpu, _ = ingest_command(corpus, incremental, extra)  # nothing changed now
            print(
                f"| {strategy} | {full_cpu:.2f} | {full_wall:.2f} | {incr_cpu:.2f} "
                f"| {incr_wall:.2f} | {incr_cpu / full_cpu:.1%} | {fixed_cpu:.2f} "
                f"| {new_share:.2%} | {gone_share:.2%} | {text_share:.2%} |"
            )


if __name__ == "__main__":
    main()
