"""The evaluation harness: question class x strategy -> span metrics, budgets, recall@k.

Rules EVAL-24 to EVAL-29 and EVAL-34 to EVAL-38 in docs/spec/eval.md. For each strategy the
corpus is chunked into chunk records (EVAL-41), gold spans are mapped to that strategy's
record ids (EVAL-12), one retriever index is built over the records' :func:`indexed_text`,
and every question is ranked
once; the span metrics (EVAL-30 to EVAL-35) are read off that ranking.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from .._core._assemble import assemble
from .._core._validate import require_int, require_real
from .._errors import ArgumentTypeError, ArgumentValueError
from .._records._record import ChunkRecord
from ._bootstrap import Resamples, interval, paired_p, resamples
from ._gold import labelled
from ._labelled_corpus import Corpus
from ._metrics import LabelledQuery, mrr, recall_at_k
from ._retrievers import RANDOM, RETRIEVERS, make_scorer, normalise, ranked
from ._span_metrics import Region, budget_pack, precision_omega, query_scores, tokens_per_answer
from ._strategy_names import DOCUMENT, StrategyUnavailable, indexed_text, resolve

__all__ = ["ALL", "BUDGETS", "EvalCell", "EvalReport", "StrategyStats", "evaluate"]

#: The pseudo-class of the rows over every question.
ALL = "all"

#: The retrieved-context budget, in tokens (EVAL-27).
BUDGET = 3200

#: ``progress(done, total)``, called after each batch of questions.
Progress = Callable[[int, int], None]

_BATCH = 16

#: The context budgets of the table, in tokens (rule EVAL-34).
BUDGETS = (128, 256, 512, 1024)

#: How deep each ranking is walked to fill a budget (rule EVAL-34).
DEPTH = 200

#: The chunking the random baseline ranks (rule EVAL-36).
RANDOM_CHUNKING = "fixed-128"

#: The baseline rows' names in the table (rule EVAL-36).
BASELINES = (DOCUMENT, RANDOM)


@dataclass(frozen=True, slots=True)
class EvalCell:
    """One row of the table: a question class under one strategy."""

    question_class: str
    strategy: str
    queries: int
    recall: float
    mrr: float
    context_recall: float
    answerable: float
    span_recall: float = 0.0
    span_precision: float = 0.0
    iou: float = 0.0
    precision_omega: float = 0.0
    budget_recall: tuple[float, ...] = ()
    tokens_per_answer: float | None = None
    intervals: dict[str, tuple[float, float]] = field(default_factory=dict)
    p_vs_best: dict[str, float] = field(default_factory=dict)
    best_in: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StrategyStats:
    """How a strategy cut the corpus: chunk count and mean whitespace tokens per chunk."""

    name: str
    chunks: int
    mean_tokens: float


@dataclass(frozen=True, slots=True)
class EvalReport:
    """Everything ``chunkspec eval`` prints and writes as JSON."""

    corpus: str
    retriever: str
    k: int
    budget: int
    min_score: float
    share: float
    strategies: tuple[StrategyStats, ...]
    cells: tuple[EvalCell, ...]
    skipped: dict[str, str] = field(default_factory=dict)
    budgets: tuple[int, ...] = ()
    depth: int = DEPTH
    bootstrap: int = 0
    seed: int = 0
    unit: str = "document"

    def to_json(self) -> dict[str, Any]:
        """Return the report as plain JSON data."""
        return asdict(self)


def evaluate(
    corpus: Corpus,
    strategies: Sequence[str],
    retriever: str = "bm25",
    k: int = 10,
    *,
    budget: int = BUDGET,
    min_score: float = 0.35,
    share: float = 1.0,
    skip_unavailable: bool = False,
    progress: Progress | None = None,
    budgets: Sequence[int] = BUDGETS,
    baselines: bool = False,
    bootstrap: int = 0,
    seed: int = 0,
    renderings: Mapping[str, Corpus] | None = None,
) -> EvalReport:
    """Score every strategy on ``corpus`` with ``retriever``; cells per class, then "all".

    ``recall`` and ``mrr`` are :func:`recall_at_k` and :func:`mrr` over the strategy's
    span-mapped :class:`LabelledQuery` list; ``context_recall`` is the share of questions for
    which ``assemble`` (budget ``budget``, ``min_score``) picks a gold chunk from the top
    ``k`` (EVAL-27); ``answerable`` the share whose gold maps to at least one chunk (EVAL-13).
    The span metrics at k, ``precision_omega``, recall at each of ``budgets`` and tokens per
    answered question follow EVAL-32 to EVAL-35. ``baselines`` appends the ``document`` and
    ``random`` rows (EVAL-36); ``bootstrap`` resamples (0: none) give intervals and paired
    p-values against each column's best (EVAL-37, EVAL-38), seeded by ``seed``.
    Unavailable strategies raise :class:`StrategyUnavailable` unless ``skip_unavailable``.
    ``renderings`` maps a prefix to the same corpus in another form (``{"html": ...}``,
    EVAL-45): a row named ``PREFIX:NAME`` runs strategy ``NAME`` on that corpus, scored on
    its gold, beside the other rows on the same questions.
    """
    if not isinstance(corpus, Corpus):
        raise ArgumentTypeError("corpus", "a Corpus (see load_corpus)", corpus)
    if retriever not in RETRIEVERS:
        raise ArgumentValueError("retriever", f"must be one of {', '.join(RETRIEVERS)}", retriever)
    require_int("k", k, minimum=1)
    require_int("budget", budget, minimum=0)
    require_real("min_score", min_score)
    require_int("bootstrap", bootstrap, minimum=0)
    require_int("seed", seed, minimum=0)
    budgets = tuple(require_int("budgets[...]", b, minimum=0) for b in budgets)
    if not strategies:
        raise ArgumentValueError("strategies", "must not be empty", strategies)
    views = _renderings(corpus, renderings)
    runs: dict[str, tuple[str, str]] = {}  # row name -> (strategy, retriever)
    skipped: dict[str, str] = {}
    adapters = {}
    for name in dict.fromkeys(strategies):
        try:
            adapters[name] = resolve(_view(name, views)[1])
        except StrategyUnavailable as error:
            if not skip_unavailable:
                raise
            skipped[name] = str(error)
            continue
        runs[name] = (name, retriever)
    if not runs:
        raise ArgumentValueError("strategies", "none is available here", list(strategies))
    if baselines:  # EVAL-36: what a strategy adds over no chunking and over chance
        runs.setdefault(DOCUMENT, (DOCUMENT, retriever))
        runs.setdefault(RANDOM, (RANDOM_CHUNKING, RANDOM))
    total = len(runs) * len(corpus.queries)
    done = 0
    stats: list[StrategyStats] = []
    values: dict[str, dict[str, list[float]]] = {}
    answered: dict[str, list[bool]] = {}
    tokens: dict[str, list[int]] = {}
    gold_by_row: dict[str, list[LabelledQuery]] = {}
    top_ids: dict[str, list[list[str]]] = {}
    for row, (name, engine) in runs.items():
        adapt = adapters[name] if name in adapters else resolve(name)
        source = views.get(_view(name, views)[0], corpus)  # EVAL-45: the row's rendering
        chunks = [
            c
            for d in source.documents
            for c in adapt(d.id, d.title, d.text if d.document is None else d.document)
        ]
        if len({c.id for c in chunks}) != len(chunks):
            # EVAL-26: gold is a set of ids, so two chunks sharing an id would share credit.
            raise ArgumentValueError("strategies", "a strategy gave two chunks one id", name)
        sizes = [c.tokens for c in chunks]  # whitespace tokens (TOK-1): every adapter's counter
        stats.append(StrategyStats(row, len(chunks), sum(sizes) / max(len(chunks), 1)))
        regions: dict[str, list[tuple[str, int, int]]] = {}
        for c in chunks:
            regions.setdefault(c.doc_id, []).append((c.id, c.start, c.end))
        gold = [labelled(q, regions, share) for q in source.queries]
        scorer = make_scorer(engine, [indexed_text(c) for c in chunks], seed)  # EVAL-41
        rankings: list[list[tuple[int, float]]] = []
        depth = max(k, DEPTH)
        for first in range(0, len(corpus.queries), _BATCH):
            batch = corpus.queries[first : first + _BATCH]
            for scores in scorer.scores([q.question for q in batch]):
                rankings.append(ranked(scores, depth, positive_only=engine == "bm25"))
            done += len(batch)
            if progress is not None:
                progress(done, total)
        hashes = [c.content_hash for c in chunks]
        per = _per_question(source, chunks, sizes, hashes, rankings, gold, k, budgets)
        per["context"] = [
            float(_context_hit(chunks, ranking[:k], g, engine, budget, min_score))
            for ranking, g in zip(rankings, gold, strict=True)
        ]
        values[row] = per
        answered[row] = [bool(h) for h in per["hit"]]
        tokens[row] = [int(t) for t in per["tokens"]]
        gold_by_row[row] = gold
        top_ids[row] = [[chunks[j].id for j, _ in ranking[:k]] for ranking in rankings]
    plan = (
        resamples([q.gold[0].doc_id for q in corpus.queries], bootstrap, seed)
        if bootstrap
        else None
    )
    cells = [
        _cell(kind, row, k, rows, top_ids[row], gold_by_row[row], values[row], tokens[row], budgets)
        for row in runs
        for kind, rows in _classes(corpus)
    ]
    if plan is not None:
        cells = _uncertainty(corpus, cells, values, budgets, plan)
    return EvalReport(
        corpus.name,
        retriever,
        k,
        budget,
        float(min_score),
        float(share),
        tuple(stats),
        tuple(cells),
        skipped,
        budgets,
        max(k, DEPTH),
        bootstrap,
        seed,
        plan.unit if plan is not None else "none",
    )


def _renderings(corpus: Corpus, renderings: Mapping[str, Corpus] | None) -> dict[str, Corpus]:
    """The renderings, each checked to ask the same questions of the same documents (EVAL-45).

    Same question ids and classes in the same order, and the same document for each
    question's first gold span (the bootstrap's clusters, EVAL-37).
    """
    views = dict(renderings or {})
    for prefix, view in views.items():
        if not isinstance(view, Corpus):
            raise ArgumentTypeError(f"renderings[{prefix!r}]", "a Corpus", view)
        same = [(q.id, q.kind, q.gold[0].doc_id) for q in view.queries] == [
            (q.id, q.kind, q.gold[0].doc_id) for q in corpus.queries
        ]
        if not same:
            raise ArgumentValueError(
                f"renderings[{prefix!r}]", "must hold the corpus's questions, in order", view.name
            )
    return views


def _view(name: str, views: Mapping[str, Corpus]) -> tuple[str, str]:
    """``(prefix, strategy)`` of a row name: ``("html", "structural")`` for
    ``html:structural`` when ``html`` is a rendering, else ``("", name)``."""
    prefix, colon, rest = name.partition(":")
    if colon and prefix in views:
        return prefix, rest
    return "", name


#: The per-question values with intervals and paired tests (EVAL-37, EVAL-38).
TESTED = ("span_recall", "span_precision", "iou", "precision_omega")


def _classes(corpus: Corpus) -> list[tuple[str, list[int]]]:
    """Each question class with its question positions, then ``all`` (EVAL-28)."""
    return [
        (kind, [i for i, q in enumerate(corpus.queries) if kind in (ALL, q.kind)])
        for kind in (*corpus.classes, ALL)
    ]


def _per_question(
    corpus: Corpus,
    chunks: list[ChunkRecord],
    sizes: list[int],
    hashes: list[str],
    rankings: list[list[tuple[int, float]]],
    gold: list[LabelledQuery],
    k: int,
    budgets: tuple[int, ...],
) -> dict[str, list[float]]:
    """Every per-question figure of one strategy, keyed by metric (EVAL-32 to EVAL-35)."""
    by_doc: dict[str, list[Region]] = {}
    for c in chunks:
        by_doc.setdefault(c.doc_id, []).append((c.doc_id, c.start, c.end))
    out: dict[str, list[float]] = {name: [] for name in (*TESTED, "hit", "rr", "tokens")}
    for b in budgets:
        out[f"budget@{b}"] = []
    for query, ranking, g in zip(corpus.queries, rankings, gold, strict=True):
        top = [j for j, _ in ranking[:k]]
        score = query_scores(
            [(chunks[j].doc_id, chunks[j].start, chunks[j].end) for j in top], query
        )
        out["span_recall"].append(score.recall)
        out["span_precision"].append(score.precision)
        out["iou"].append(score.iou)
        docs = dict.fromkeys(span.doc_id for span in query.gold)
        near = [r for d in docs for r in by_doc.get(d, ())]
        out["precision_omega"].append(precision_omega(near, query))
        rank = next((n for n, j in enumerate(top, 1) if chunks[j].id in g.gold_chunk_ids), None)
        out["hit"].append(0.0 if rank is None else 1.0)
        out["rr"].append(0.0 if rank is None else 1 / rank)
        out["tokens"].append(float(sum(sizes[j] for j in top)))
        walk = [j for j, _ in ranking]
        for b in budgets:  # EVAL-34: assemble's walk in rank order
            packed = budget_pack([(sizes[j], hashes[j]) for j in walk], b)
            regions = [
                (chunks[walk[i]].doc_id, chunks[walk[i]].start, chunks[walk[i]].end) for i in packed
            ]
            out[f"budget@{b}"].append(query_scores(regions, query).recall)
    return out


def _mean(values: list[float], rows: list[int]) -> float:
    """The mean of ``values`` at ``rows``, summed exactly."""
    return math.fsum(values[i] for i in rows) / len(rows)


def _cell(
    kind: str,
    strategy: str,
    k: int,
    rows: list[int],
    top_ids: list[list[str]],
    gold: list[LabelledQuery],
    per: dict[str, list[float]],
    tokens: list[int],
    budgets: tuple[int, ...],
) -> EvalCell:
    """Compute one table row over the questions at positions ``rows``."""
    answer = {gold[i].question: top_ids[i] for i in rows}

    def retrieve(question: str, top: int) -> Sequence[str]:
        """The precomputed ranking of ``question`` (EVAL-26: ranked once, scored often)."""
        return answer[question][:top]

    queries = [gold[i] for i in rows]
    return EvalCell(
        kind,
        strategy,
        len(rows),
        recall_at_k(retrieve, queries, k),
        mrr(retrieve, queries, k),
        sum(per["context"][i] for i in rows) / len(rows),
        sum(1 for q in queries if q.gold_chunk_ids) / len(rows),
        _mean(per["span_recall"], rows),
        _mean(per["span_precision"], rows),
        _mean(per["iou"], rows),
        _mean(per["precision_omega"], rows),
        tuple(_mean(per[f"budget@{b}"], rows) for b in budgets),
        tokens_per_answer([tokens[i] for i in rows], [per["hit"][i] > 0 for i in rows]),
    )


def _uncertainty(
    corpus: Corpus,
    cells: list[EvalCell],
    values: dict[str, dict[str, list[float]]],
    budgets: tuple[int, ...],
    plan: Resamples,
) -> list[EvalCell]:
    """Add intervals and paired p-values against each column's best row (EVAL-37, EVAL-38)."""
    metrics = (*TESTED, *(f"budget@{b}" for b in budgets))
    out: list[EvalCell] = []
    by_class = dict(_classes(corpus))
    for cell in cells:
        rows = by_class[cell.question_class]
        sub = _restrict(plan, rows)
        intervals: dict[str, tuple[float, float]] = {}
        p_values: dict[str, float] = {}
        best_in: list[str] = []
        for metric in metrics:
            mine = [values[cell.strategy][metric][i] for i in rows]
            intervals[metric] = interval(mine, sub)
            best = max(
                values,
                key=lambda row: (
                    math.fsum(values[row][metric][i] for i in rows),
                    -list(values).index(row),
                ),
            )
            theirs = [values[best][metric][i] for i in rows]
            if best == cell.strategy:
                best_in.append(metric)
            p_values[metric] = 1.0 if best == cell.strategy else paired_p(mine, theirs, sub)
        out.append(replace(cell, intervals=intervals, p_vs_best=p_values, best_in=tuple(best_in)))
    return out


def _restrict(plan: Resamples, rows: list[int]) -> Resamples:
    """The same resamples seen from the questions at ``rows`` (one class)."""
    return replace(plan, of_question=tuple(plan.of_question[i] for i in rows))


def _context_hit(
    chunks: list[ChunkRecord],
    ranking: list[tuple[int, float]],
    gold: LabelledQuery,
    retriever: str,
    budget: int,
    min_score: float,
) -> bool:
    """Return True if ``assemble`` puts a gold chunk of ``ranking`` in the context (EVAL-27)."""
    scores = normalise(retriever, [score for _, score in ranking])
    candidates = [chunks[i].to_chunk(s) for (i, _), s in zip(ranking, scores, strict=True)]
    result = assemble(candidates, budget, min_score)
    return result is not None and not gold.gold_chunk_ids.isdisjoint(result[1])
