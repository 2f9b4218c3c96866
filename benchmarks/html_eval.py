"""MegaMart as Markdown and as web pages: each strategy's figures on both, and the paired
difference HTML - Markdown with its 95% bootstrap interval (EVAL-45, EVAL-37).

``chunkspec eval`` marks each row against its column's best; this script asks the question
the HTML rows are for: does reading the pages as HTML (furniture, rendered text) change what
a strategy retrieves? For each strategy ``NAME`` it ranks every question on the Markdown
pages and on the rendered pages (``html:NAME``), with the table's retriever and budgets,
and reports per metric the two means and the mean per-question difference, resampled by
document (EVAL-37: 1,000 resamples, seed 0). The peers (EVAL-46) run on the HTML pages only
and are shown beside ``html:structural``; ``html+furniture:NAME`` (the pages read with
their furniture as text) beside ``html:NAME``.

    python -m benchmarks.html_eval --json docs/evaluation-html-megamart-bm25.json
    python -m benchmarks.html_eval --strategies structural --peers "" --write-pages /tmp/pages
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time
from typing import Any

from chunkspec._evaluation._bootstrap import interval, resamples
from chunkspec._evaluation._evaluate import BUDGETS, DEPTH, _per_question
from chunkspec._evaluation._gold import labelled
from chunkspec._evaluation._html_corpus import html_corpus, rendered_words
from chunkspec._evaluation._labelled_corpus import Corpus, load_corpus
from chunkspec._evaluation._megamart_html import write_pages
from chunkspec._evaluation._retrievers import make_scorer, ranked
from chunkspec._evaluation._strategy_names import indexed_text, resolve

#: The strategies run on both renderings (chunkspec's headed families, EVAL-19, EVAL-44).
STRATEGIES = (
    "structural",
    "structural-128",
    "heading-aware",
    "heading-aware-128-32",
    "structural+merge",
    "heading-aware-128-32+merge",
)

#: The peers, on the HTML pages only (EVAL-46), compared with this chunkspec row.
PEERS = (
    "langchain-html-header",
    "langchain-html-semantic",
    "langchain-html-header+trail",
    "langchain-html-semantic+trail",
)
PEER_BASE = "structural"

#: The strategies also run on the pages read with their furniture (HTML-11's keep_furniture),
#: compared with the same strategy on the pages without it.
FURNISHED_STRATEGIES = ("structural", "heading-aware-128-32")

#: The metrics compared (EVAL-32 to EVAL-34).
METRICS = (*(f"budget@{b}" for b in BUDGETS), "span_precision", "iou", "precision_omega")


def measure(corpus: Corpus, strategy: str, retriever: str, k: int) -> dict[str, Any]:
    """Per-question metrics of one strategy on one rendering, as ``evaluate`` computes them."""
    started = time.process_time()
    adapt = resolve(strategy)
    chunks = [
        c
        for d in corpus.documents
        for c in adapt(d.id, d.title, d.text if d.document is None else d.document)
    ]
    regions: dict[str, list[tuple[str, int, int]]] = {}
    for c in chunks:
        regions.setdefault(c.doc_id, []).append((c.id, c.start, c.end))
    gold = [labelled(q, regions) for q in corpus.queries]
    scorer = make_scorer(retriever, [indexed_text(c) for c in chunks], 0)
    rankings = []
    for first in range(0, len(corpus.queries), 16):
        batch = [q.question for q in corpus.queries[first : first + 16]]
        rankings += [
            ranked(s, max(k, DEPTH), positive_only=retriever == "bm25")
            for s in scorer.scores(batch)
        ]
    per = _per_question(
        corpus,
        chunks,
        [c.tokens for c in chunks],
        [c.content_hash for c in chunks],
        rankings,
        gold,
        k,
        BUDGETS,
    )
    unplaced = sum(1 for c in chunks if c.end <= c.start)
    return {
        "chunks": len(chunks),
        "mean_tokens": sum(c.tokens for c in chunks) / max(len(chunks), 1),
        "unplaced_chunks": unplaced,
        "answerable": sum(1 for g in gold if g.gold_chunk_ids) / len(gold),
        "cpu_seconds": time.process_time() - started,
        "values": {m: per[m] for m in METRICS},
    }


#: A table's delimiter-row cell (``---``, ``:--:``): Markdown syntax, no word of the page.
_DELIMITER = re.compile(r":?-{3,}:?")


def content_words(markdown: str) -> list[str]:
    """The words of a Markdown chunk without its syntax: cell delimiters, delimiter rows and
    emphasis asterisks (the only Markdown syntax MegaMart's chunks hold besides headings)."""
    words = (w.strip("*") for w in rendered_words(markdown) if not _DELIMITER.fullmatch(w))
    return [w for w in words if w]


def same_content(corpus: Corpus, view: Corpus, strategy: str) -> tuple[int, int]:
    """How many of a strategy's chunks hold the same words on both renderings, of how many
    (chunks compared in order, page by page, where a page has as many on both)."""
    adapt = resolve(strategy)
    same = total = 0
    for md, page in zip(corpus.documents, view.documents, strict=True):
        ours = adapt(md.id, md.title, md.text)
        theirs = adapt(page.id, page.title, page.document or page.text)
        total += len(ours)
        if len(ours) == len(theirs):
            same += sum(
                1
                for a, b in zip(ours, theirs, strict=True)
                if content_words(a.text) == b.text.split()
            )
    return same, total


def _mean(values: list[float]) -> float:
    return math.fsum(values) / len(values)


def compare(a: dict[str, Any], b: dict[str, Any], plan: Any) -> dict[str, dict[str, Any]]:
    """Per metric: both means with intervals, and mean(b - a) with its interval."""
    out: dict[str, dict[str, Any]] = {}
    for m in METRICS:
        x, y = a["values"][m], b["values"][m]
        diff = [q - p for p, q in zip(x, y, strict=True)]
        out[m] = {
            "a": _mean(x),
            "a_interval": interval(x, plan),
            "b": _mean(y),
            "b_interval": interval(y, plan),
            "difference": _mean(diff),
            "difference_interval": interval(diff, plan),
        }
    return out


def _lines(a: str, b: str, cells: dict[str, dict[str, Any]]) -> list[str]:
    """One line per metric: A, B, their means with intervals, B - A with its interval."""
    out = []
    for m in METRICS:
        c = cells[m]
        shown = f"recall@{m[7:]}t" if m.startswith("budget@") else m
        (alo, ahi), (blo, bhi) = c["a_interval"], c["b_interval"]
        lo, hi = c["difference_interval"]
        out.append(
            f"{a:<26} {b:<34} {shown:<15} {c['a']:.3f} [{alo:.2f}, {ahi:.2f}]  "
            f"{c['b']:.3f} [{blo:.2f}, {bhi:.2f}]  {c['difference']:+.3f} [{lo:+.3f}, {hi:+.3f}]"
        )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--retriever", default="bm25", choices=("bm25", "dense"))
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--strategies", default=",".join(STRATEGIES))
    parser.add_argument("--peers", default=",".join(PEERS))
    parser.add_argument("--furnished", default=",".join(FURNISHED_STRATEGIES))
    parser.add_argument("--json", metavar="OUT")
    parser.add_argument("--write-pages", metavar="DIR", help="also write the rendered pages")
    args = parser.parse_args()
    started = time.perf_counter()
    corpus = load_corpus()
    view = html_corpus(corpus)
    render_seconds = time.perf_counter() - started
    if args.write_pages:
        write_pages(view.pages, args.write_pages)
    plan = resamples([q.gold[0].doc_id for q in corpus.queries], 1000, 0)
    names = [n for n in args.strategies.split(",") if n]
    peers = [n for n in args.peers.split(",") if n]
    furnished = [n for n in args.furnished.split(",") if n]
    kept = html_corpus(corpus, keep_furniture=True) if furnished else None
    runs: dict[str, dict[str, Any]] = {}
    for name in names:
        runs[name] = measure(corpus, name, args.retriever, args.k)
        runs[f"html:{name}"] = measure(view.corpus, name, args.retriever, args.k)
    for name in peers:
        runs[f"html:{name}"] = measure(view.corpus, name, args.retriever, args.k)
    for name in furnished:
        assert kept is not None
        runs.setdefault(f"html:{name}", measure(view.corpus, name, args.retriever, args.k))
        runs[f"html+furniture:{name}"] = measure(kept.corpus, name, args.retriever, args.k)
    pairs = [(n, f"html:{n}") for n in names]
    pairs += [(f"html:{n}", f"html+furniture:{n}") for n in furnished]
    if PEER_BASE in names:
        pairs += [(f"html:{PEER_BASE}", f"html:{p}") for p in peers]
    table = {f"{a} -> {b}": compare(runs[a], runs[b], plan) for a, b in pairs}
    print(
        f"# megamart {args.retriever}, k {args.k}: A and B [95% interval], B - A [95% interval]"
        f" (1000 paired resamples by document, seed 0); {len(view.pages)} pages rendered and "
        f"{view.spans} gold spans moved in {render_seconds:.1f} s"
    )
    print(f"{'A':<26} {'B':<34} {'metric':<15} {'A [95%]':<20} {'B [95%]':<20} B - A [95%]")
    for (a, b), cells in zip(pairs, table.values(), strict=True):
        print("\n".join(_lines(a, b, cells)))
    print()
    print(
        f"{'row':<34} {'chunks':>7} {'mean tokens':>11} {'unplaced':>8} {'answerable':>10}", end=""
    )
    print(f" {'cpu s':>6}")
    for name, run in runs.items():
        print(
            f"{name:<34} {run['chunks']:>7} {run['mean_tokens']:>11.1f} "
            f"{run['unplaced_chunks']:>8} {run['answerable']:>10.3f} {run['cpu_seconds']:>6.1f}"
        )
    print()
    print("# chunks with the same words on both renderings (Markdown syntax left out)")
    contents = {name: same_content(corpus, view.corpus, name) for name in names}
    for name, (same, total) in contents.items():
        print(f"{name:<34} {same:>5} of {total}")
    if args.json:
        report = {
            "same_content": {n: {"same": s, "chunks": t} for n, (s, t) in contents.items()},
            "corpus": corpus.name,
            "retriever": args.retriever,
            "k": args.k,
            "budgets": list(BUDGETS),
            "bootstrap": 1000,
            "seed": 0,
            "pages": len(view.pages),
            "gold_spans_moved": view.spans,
            "render_seconds": render_seconds,
            "rows": {n: {k: v for k, v in r.items() if k != "values"} for n, r in runs.items()},
            "comparisons": table,
        }
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(report, out, indent=2)
            out.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
