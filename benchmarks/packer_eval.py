"""Both packers on the evaluation harness's rankings: budget recall and tokens per answer.

``assemble``'s column is EVAL-34's budget recall exactly (``budget_pack`` over the ranking,
its budget the chunks' ``tokens`` fields); ``pack_records``'s packs the same ranking
(``min_score=-inf``) into the same budget counted over the rendered
context (CTX-8), and its recall is the span recall of its passages; it is given the
ranking's order as its scores, so both walk the same order. For each packer and
budget: mean recall with a 95% bootstrap interval (resampled by document, EVAL-37), the
paired difference (pack_records minus assemble) with its interval, the rendered context's
whitespace tokens per answered question (answered: recall > 0) and the share of questions
whose rendered context exceeds the budget.

    python -m benchmarks.packer_eval [--chroma DIR] [--retriever bm25|dense]
        [--strategies window-128-32,heading-aware-128-32,fixed-128] [--limit N]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from typing import Any

from chunkspec import pack_records
from chunkspec._core._tokens import count_tokens
from chunkspec._evaluation._bootstrap import interval, resamples
from chunkspec._evaluation._chroma_corpus import load_chroma
from chunkspec._evaluation._evaluate import BUDGETS, DEPTH
from chunkspec._evaluation._labelled_corpus import Corpus, load_corpus
from chunkspec._evaluation._retrievers import make_scorer, ranked
from chunkspec._evaluation._span_metrics import budget_pack, query_scores
from chunkspec._evaluation._strategy_names import indexed_text, resolve

STRATEGIES = ("window-128-32", "heading-aware-128-32", "fixed-128")

#: ``assemble`` as EVAL-34 measures it; ``assemble<=B`` the same walk with each chunk costing
#: its rendered tokens (header included), so its context fits B too; then pack_records.
PACKERS = ("assemble", "assemble<=B", "pack_records", "pack_records+titles", "pack_records-trim")

#: The keyword arguments of each pack_records row: its defaults (trim=True, titles=False);
#: titles=True (CTX-17: title and headings in each header); trim=False (CTX-19).
VARIANTS: dict[str, dict[str, bool]] = {
    "pack_records": {},
    "pack_records+titles": {"titles": True},
    "pack_records-trim": {"trim": False},
}


def measure(
    corpus: Corpus, strategy: str, retriever: str, budgets: tuple[int, ...], limit: int | None
) -> dict[str, Any]:
    """Per-question recall and rendered tokens of both packers at every budget."""
    adapt = resolve(strategy)
    chunks = [c for d in corpus.documents for c in adapt(d.id, d.title, d.text)]
    scorer = make_scorer(retriever, [indexed_text(c) for c in chunks], 0)
    queries = corpus.queries[:limit] if limit else corpus.queries
    rankings = [
        ranked(scores, DEPTH, positive_only=retriever == "bm25")
        for scores in scorer.scores([q.question for q in queries])
    ]
    out: dict[str, Any] = {"queries": len(queries), "clusters": []}
    for b in budgets:
        for packer in PACKERS:
            out[f"{packer}@{b}"] = {"recall": [], "tokens": []}
    started = time.process_time()
    for query, ranking in zip(queries, rankings, strict=True):
        out["clusters"].append(query.gold[0].doc_id)
        walk = [j for j, _ in ranking]
        records = [chunks[j] for j in walk]
        # The ranking's own order as scores, strictly falling: pack_records walks exactly
        # the order budget_pack walks (its ties by id, PACK-1, would differ from the
        # harness's ties by chunk order, EVAL-25, and a corpus that repeats a passage word
        # for word then credits only the copy the gold names).
        scores = [float(len(walk) - n) for n in range(len(walk))]
        blocks = [f"[{r.id}] {r.to_chunk().title}\n{r.text}" for r in records]
        costs = [count_tokens(block) for block in blocks]  # "\n" joins add no word
        for b in budgets:
            for name, sizes in (("assemble", [r.tokens for r in records]), ("assemble<=B", costs)):
                hashes = [r.content_hash for r in records]
                picked = budget_pack(list(zip(sizes, hashes, strict=True)), b)
                regions = [(records[i].doc_id, records[i].start, records[i].end) for i in picked]
                cell = out[f"{name}@{b}"]
                cell["recall"].append(query_scores(regions, query).recall)
                cell["tokens"].append(count_tokens("\n".join(blocks[i] for i in picked)))
            for name, options in VARIANTS.items():
                packed = pack_records(
                    records,
                    scores,
                    b,
                    min_score=-math.inf,
                    counter="whitespace",
                    titles=options.get("titles", False),
                    trim=options.get("trim", True),
                )
                regions = [(p.doc_id, p.start, p.end) for p in packed.passages]
                cell = out[f"{name}@{b}"]
                cell["recall"].append(query_scores(regions, query).recall)
                cell["tokens"].append(packed.tokens)
    out["cpu_seconds"] = time.process_time() - started
    return out


def summarise(raw: dict[str, Any], budgets: tuple[int, ...]) -> list[dict[str, Any]]:
    """Mean, interval, paired difference, tokens per answer and overflow per packer and budget."""
    plan = resamples(raw["clusters"], 1000, 0)
    rows = []
    for b in budgets:
        old, fair = raw[f"assemble@{b}"]["recall"], raw[f"assemble<=B@{b}"]["recall"]
        for name in PACKERS:
            cell = raw[f"{name}@{b}"]
            recall = cell["recall"]
            answered = sum(1 for r in recall if r > 0)
            row: dict[str, Any] = {
                "budget": b,
                "packer": name,
                "recall": math.fsum(recall) / len(recall),
                "interval": interval(recall, plan),
                "tokens_per_answer": sum(cell["tokens"]) / answered if answered else None,
                "over_budget": sum(1 for t in cell["tokens"] if t > b) / len(recall),
                "max_tokens": max(cell["tokens"]),
                "difference": None,
            }
            if name.startswith("pack_records"):
                difference = [n - o for n, o in zip(recall, old, strict=True)]
                versus_fair = [n - o for n, o in zip(recall, fair, strict=True)]
                row["difference"] = math.fsum(difference) / len(difference)
                row["difference_interval"] = interval(difference, plan)
                row["versus_fair"] = math.fsum(versus_fair) / len(versus_fair)
                row["versus_fair_interval"] = interval(versus_fair, plan)
            rows.append(row)
    return rows


def main() -> int:
    """Run the comparison and print one table per strategy (and JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chroma", metavar="DIR")
    parser.add_argument("--retriever", default="bm25")
    parser.add_argument("--strategies", default=",".join(STRATEGIES))
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    corpus = load_chroma(args.chroma) if args.chroma else load_corpus()
    report = {}
    for strategy in args.strategies.split(","):
        raw = measure(corpus, strategy, args.retriever, BUDGETS, args.limit)
        rows = summarise(raw, BUDGETS)
        report[strategy] = {"queries": raw["queries"], "cpu": raw["cpu_seconds"], "rows": rows}
        print(
            f"# {corpus.name} {args.retriever} {strategy}: {raw['queries']} questions, "
            f"{raw['cpu_seconds']:.0f} s CPU packing"
        )
        print(
            "budget  packer              recall [95%]          vs assemble [95%]        "
            "vs assemble<=B [95%]    tokens/answer  over budget  max tokens"
        )
        for row in rows:
            lo, hi = row["interval"]
            diff = fair = ""
            if row["difference"] is not None:
                dlo, dhi = row["difference_interval"]
                diff = f"{row['difference']:+.3f} [{dlo:+.3f}, {dhi:+.3f}]"
                flo, fhi = row["versus_fair_interval"]
                fair = f"{row['versus_fair']:+.3f} [{flo:+.3f}, {fhi:+.3f}]"
            tpa = row["tokens_per_answer"]
            print(
                f"{row['budget']:<7} {row['packer']:<19} {row['recall']:.3f} [{lo:.3f}, {hi:.3f}]  "
                f"{diff:<23} {fair:<23} {'-' if tpa is None else f'{tpa:.0f}':>13}  "
                f"{row['over_budget']:>11.3f}  {row['max_tokens']:>10}"
            )
        sys.stdout.flush()
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(report, handle, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
