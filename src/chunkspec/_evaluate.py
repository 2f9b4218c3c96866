"""The evaluation harness: question class x strategy -> recall@k, MRR@k, context recall.

Rules EVAL-24 to EVAL-30 in docs/spec/eval.md. For each strategy the corpus is chunked,
gold spans are mapped to that strategy's chunk ids (EVAL-12), one retriever index is built
over the chunks' ``embedding_text``, and every question is ranked once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ._assemble import assemble
from ._chunk import Chunk
from ._errors import ArgumentTypeError, ArgumentValueError
from ._gold import labelled
from ._hashing import hash_text
from ._labelled_corpus import Corpus
from ._metrics import LabelledQuery, mrr, recall_at_k
from ._retrievers import RETRIEVERS, make_scorer, normalise, ranked
from ._strategies import EvalChunk, StrategyUnavailable, resolve
from ._tokens import count_tokens
from ._validate import require_int, require_real

__all__ = ["ALL", "EvalCell", "EvalReport", "StrategyStats", "evaluate"]

#: The pseudo-class of the rows over every question.
ALL = "all"

#: Seed 000 section 6.2: the retrieved-context budget, in tokens.
BUDGET = 3200

#: ``progress(done, total)``, called after each batch of questions.
Progress = Callable[[int, int], None]

_BATCH = 16


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
) -> EvalReport:
    """Score every strategy on ``corpus`` with ``retriever``; cells per class, then "all".

    ``recall`` and ``mrr`` are :func:`recall_at_k` and :func:`mrr` over the strategy's
    span-mapped :class:`LabelledQuery` list; ``context_recall`` is the share of questions for
    which ``assemble`` (budget ``budget``, ``min_score``) picks a gold chunk from the top
    ``k`` (EVAL-27); ``answerable`` the share whose gold maps to at least one chunk (EVAL-13).
    Unavailable strategies raise :class:`StrategyUnavailable` unless ``skip_unavailable``.
    """
    if not isinstance(corpus, Corpus):
        raise ArgumentTypeError("corpus", "a Corpus (see load_corpus)", corpus)
    if retriever not in RETRIEVERS:
        raise ArgumentValueError("retriever", f"must be one of {', '.join(RETRIEVERS)}", retriever)
    require_int("k", k, minimum=1)
    require_int("budget", budget, minimum=0)
    require_real("min_score", min_score)
    if not strategies:
        raise ArgumentValueError("strategies", "must not be empty", strategies)
    adapters = {}
    skipped: dict[str, str] = {}
    for name in dict.fromkeys(strategies):
        try:
            adapters[name] = resolve(name)
        except StrategyUnavailable as error:
            if not skip_unavailable:
                raise
            skipped[name] = str(error)
    if not adapters:
        raise ArgumentValueError("strategies", "none is available here", list(strategies))
    total = len(adapters) * len(corpus.queries)
    done = 0
    stats: list[StrategyStats] = []
    cells: list[EvalCell] = []
    for name, adapt in adapters.items():
        chunks = [c for d in corpus.documents for c in adapt(d.id, d.title, d.text)]
        if len({c.id for c in chunks}) != len(chunks):
            # EVAL-26: gold is a set of ids, so two chunks sharing an id would share credit.
            raise ArgumentValueError("strategies", "a strategy gave two chunks one id", name)
        stats.append(
            StrategyStats(
                name, len(chunks), sum(count_tokens(c.text) for c in chunks) / max(len(chunks), 1)
            )
        )
        regions: dict[str, list[tuple[str, int, int]]] = {}
        for c in chunks:
            regions.setdefault(c.doc_id, []).append((c.id, c.start, c.end))
        gold = [labelled(q, regions, share) for q in corpus.queries]
        scorer = make_scorer(retriever, [c.embedding_text for c in chunks])
        rankings: list[list[tuple[int, float]]] = []
        for first in range(0, len(corpus.queries), _BATCH):
            batch = corpus.queries[first : first + _BATCH]
            for row in scorer.scores([q.question for q in batch]):
                rankings.append(ranked(row, k, positive_only=retriever == "bm25"))
            done += len(batch)
            if progress is not None:
                progress(done, total)
        packed = [
            _context_hit(chunks, ranking, g, retriever, budget, min_score)
            for ranking, g in zip(rankings, gold, strict=True)
        ]
        for kind in (*corpus.classes, ALL):
            rows = [i for i, q in enumerate(corpus.queries) if kind in (ALL, q.kind)]
            cells.append(_cell(kind, name, k, rows, chunks, rankings, gold, packed))
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
    )


def _cell(
    kind: str,
    strategy: str,
    k: int,
    rows: list[int],
    chunks: list[EvalChunk],
    rankings: list[list[tuple[int, float]]],
    gold: list[LabelledQuery],
    packed: list[bool],
) -> EvalCell:
    """Compute one table row over the questions at positions ``rows``."""
    answer = {gold[i].question: [chunks[j].id for j, _ in rankings[i]] for i in rows}

    def retrieve(question: str, top: int) -> Sequence[str]:
        """The precomputed ranking of ``question`` (EVAL-28: ranked once, scored twice)."""
        return answer[question][:top]

    queries = [gold[i] for i in rows]
    return EvalCell(
        kind,
        strategy,
        len(rows),
        recall_at_k(retrieve, queries, k),
        mrr(retrieve, queries, k),
        sum(packed[i] for i in rows) / len(rows),
        sum(1 for q in queries if q.gold_chunk_ids) / len(rows),
    )


def _context_hit(
    chunks: list[EvalChunk],
    ranking: list[tuple[int, float]],
    gold: LabelledQuery,
    retriever: str,
    budget: int,
    min_score: float,
) -> bool:
    """Return True if ``assemble`` puts a gold chunk of ``ranking`` in the context (EVAL-27)."""
    scores = normalise(retriever, [score for _, score in ranking])
    candidates = [
        Chunk(c.id, c.doc_id, c.title, c.text, count_tokens(c.text), hash_text(c.text), s)
        for c, s in ((chunks[i], s) for (i, _), s in zip(ranking, scores, strict=True))
    ]
    result = assemble(candidates, budget, min_score)
    return result is not None and not gold.gold_chunk_ids.isdisjoint(result[1])
