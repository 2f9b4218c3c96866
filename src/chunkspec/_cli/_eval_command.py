"""``chunkspec eval``: span metrics at equal budgets, with baselines and intervals, per class."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, TextIO

from .._evaluation._chroma_corpus import load_chroma, write_corpus
from .._evaluation._evaluate import BASELINES, BUDGET, EvalCell, EvalReport, evaluate
from .._evaluation._html_corpus import FURNISHED, HTML, html_corpus
from .._evaluation._labelled_corpus import load_corpus
from .._evaluation._retrievers import RETRIEVERS
from .._evaluation._strategy_names import DEFAULT_STRATEGIES
from ._io import CliError
from ._output import atomic_file

__all__ = ["format_span_table", "format_table", "register"]


def register(sub: Any) -> None:
    """Add the ``eval`` subcommand to ``sub``."""
    parser = sub.add_parser(
        "eval",
        help="compare chunking strategies on a labelled corpus",
        description=(
            "Chunk a labelled corpus with each strategy, rank the chunks for every question "
            "and print, per question class and strategy and beside the no-chunking and random "
            "baselines: span recall within context budgets of 128 to 1024 tokens, span "
            "precision, IoU and precision at perfect recall, tokens per answered question, "
            "with bootstrap intervals and a paired test; then seed 001's recall@k and MRR@k. "
            "Without CORPUS, the bundled MegaMart policy pages are used."
        ),
    )
    parser.add_argument(
        "corpus",
        nargs="?",
        metavar="CORPUS",
        help="corpus directory: pages/*.md and queries.jsonl (EVAL-20) (default: the bundled "
        "MegaMart corpus)",
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--corpus",
        dest="corpus_dir",
        metavar="DIR",
        help="corpus directory, as CORPUS (default: none)",
    )
    source.add_argument(
        "--chroma",
        metavar="DIR",
        help="Chroma's evaluation set (corpora/, questions_df.csv) (EVAL-40; default: none)",
    )
    parser.add_argument("--queries", metavar="Q.jsonl", help="questions (default CORPUS/...)")
    parser.add_argument(
        "--strategies",
        nargs="+",
        metavar="NAME",
        help="strategy names, space or comma separated; html:NAME runs NAME on the pages "
        "rendered as HTML with site furniture (EVAL-45), html+furniture:NAME with the "
        "furniture read as text (default: every available one)",
    )
    parser.add_argument(
        "--k",
        type=int,
        default=10,
        metavar="K",
        help="chunks counted as retrieved for precision, IoU, recall@k and MRR@k (default: 10)",
    )
    parser.add_argument(
        "--retriever",
        choices=RETRIEVERS,
        default="bm25",
        help="bm25 (chunkspec[bm25]) or dense (chunkspec[embed]) (default: bm25)",
    )
    parser.add_argument(
        "--budget",
        type=int,
        default=BUDGET,
        metavar="N",
        help=f"assemble's token budget for the context recall column (default: {BUDGET})",
    )
    parser.add_argument(
        "--min-score",
        type=float,
        default=0.35,
        metavar="S",
        help="assemble's minimum score for the context recall column (default: 0.35)",
    )
    parser.add_argument(
        "--gold-share",
        type=float,
        default=1.0,
        metavar="F",
        help="share of a gold span a chunk must cover to answer it (default 1: all of it)",
    )
    parser.add_argument(
        "--bootstrap",
        type=int,
        default=1000,
        metavar="N",
        help="bootstrap resamples for intervals and the paired test (0: none) "
        "(EVAL-37; default: 1000)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        metavar="N",
        help="seed of the bootstrap and the random baseline (EVAL-38; default: 0)",
    )
    parser.add_argument(
        "--no-baselines",
        dest="baselines",
        action="store_false",
        help="leave out the document and random rows (EVAL-36; default: both shown)",
    )
    parser.add_argument(
        "--write-corpus",
        metavar="DIR",
        help="write the corpus in chunkspec's format and exit (default: none)",
    )
    parser.add_argument("--json", metavar="OUT", help="write the report as JSON (default: none)")
    parser.add_argument(
        "--png", metavar="OUT", help="draw a chart (needs chunkspec[plot]) (default: none)"
    )
    bar = parser.add_mutually_exclusive_group()
    bar.add_argument(
        "--progress",
        dest="progress",
        action="store_true",
        default=None,
        help="show the progress bar on stderr (default: when stderr is a terminal)",
    )
    bar.add_argument("--no-progress", dest="progress", action="store_false", help="never show it")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the evaluation and print the table; write JSON and PNG when asked."""
    plt = _pyplot() if args.png else None  # fail before a long run, not after it
    _check_options(args)
    if args.corpus is not None and (args.corpus_dir is not None or args.chroma is not None):
        raise CliError("give CORPUS or --corpus/--chroma, not both")
    if args.chroma is not None:
        if args.queries is not None:
            raise CliError("--queries does not apply to --chroma")
        corpus = load_chroma(args.chroma)
    else:
        corpus = load_corpus(args.corpus or args.corpus_dir, args.queries)
    if args.write_corpus:
        try:
            write_corpus(corpus, args.write_corpus)
        except OSError as error:
            raise CliError(f"{args.write_corpus}: cannot write: {error.strerror}") from None
        print(f"wrote {len(corpus.documents)} documents, {len(corpus.queries)} questions")
        return 0
    if args.strategies is None:
        names, skip = list(DEFAULT_STRATEGIES), True
    else:
        names = [n for item in args.strategies for n in item.split(",") if n]
        skip = False
    renderings = {}
    for prefix in (HTML, FURNISHED):  # EVAL-45: the pages as HTML, furniture kept or not
        if not any(n.startswith(f"{prefix}:") for n in names):
            continue
        # a gold span it cannot move is a CorpusError, as EVAL-21
        view = html_corpus(corpus, keep_furniture=prefix == FURNISHED)
        renderings[prefix] = view.corpus
        print(
            f"chunkspec eval: {prefix}: {len(view.pages)} pages rendered with site furniture, "
            f"{view.spans} gold spans moved into their text (EVAL-45)",
            file=sys.stderr,
        )
    show = sys.stderr.isatty() if args.progress is None else args.progress
    bar = _Bar(sys.stderr) if show else None
    report = evaluate(
        corpus,
        names,
        args.retriever,
        args.k,
        budget=args.budget,
        min_score=args.min_score,
        share=args.gold_share,
        skip_unavailable=skip,
        progress=bar.update if bar is not None else None,
        baselines=args.baselines,
        bootstrap=args.bootstrap,
        seed=args.seed,
        renderings=renderings,
    )
    if bar is not None:
        bar.close()
    for name, reason in report.skipped.items():
        print(f"chunkspec eval: skipped {name}: {reason}", file=sys.stderr)
    sys.stdout.write(format_span_table(report) + "\n" + format_table(report))
    sys.stdout.flush()
    if args.json:
        _write(args.json, json.dumps(report.to_json(), indent=2) + "\n")
    if plt is not None:
        _plot(report, args.png, plt)
    return 0


def format_span_table(report: EvalReport) -> str:
    """Return the headline table: span recall at each budget, span precision and IoU at k,
    precision at perfect recall and tokens per answer, marked by the paired test (EVAL-38)."""
    k = report.k
    head = (
        "question class",
        "strategy",
        *(f"recall@{b}t" for b in report.budgets),
        f"precision@{k}",
        f"iou@{k}",
        "p_omega",
        "tokens/answer",
        "n",
    )
    metrics = (
        *(f"budget@{b}" for b in report.budgets),
        "span_precision",
        "iou",
        "precision_omega",
    )
    mid = report.budgets[len(report.budgets) // 2] if report.budgets else None  # headline
    rows = [head]
    for kind in dict.fromkeys(c.question_class for c in report.cells):
        for c in report.cells:
            if c.question_class == kind:
                figures = (*c.budget_recall, c.span_precision, c.iou, c.precision_omega)
                rows.append(
                    (
                        kind,
                        c.strategy,
                        *(
                            _marked(c, m, v, m == f"budget@{mid}")
                            for m, v in zip(metrics, figures, strict=True)
                        ),
                        "-" if c.tokens_per_answer is None else f"{c.tokens_per_answer:.0f}",
                        str(c.queries),
                    )
                )
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = [
        f"# corpus {report.corpus}, retriever {report.retriever}, k {k}: span recall within "
        f"B context tokens (assemble's packing), span precision and IoU of the top {k}, "
        f"precision at perfect recall, context tokens per answered question"
    ]
    if report.bootstrap:
        lines.append(
            f"# * best in its column; = not shown different from the best (paired bootstrap, "
            f"{report.bootstrap} resamples by {report.unit}, seed {report.seed}, p >= 0.05); "
            f"[95% interval]"
        )
    lines += [
        "  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip() for r in rows
    ]
    return "\n".join(lines) + "\n"


def _marked(cell: EvalCell, metric: str, value: float, with_interval: bool) -> str:
    """Format ``value``, marked ``*`` (best) or ``=`` (p >= 0.05 against the best) (EVAL-38);
    with its 95% interval (EVAL-37) when asked and known."""
    p = cell.p_vs_best.get(metric)
    mark = "*" if metric in cell.best_in else "=" if p is not None and p >= 0.05 else ""
    text = f"{value:.3f}{mark}"
    if with_interval and metric in cell.intervals:
        lo, hi = cell.intervals[metric]
        text += f" [{lo:.2f}, {hi:.2f}]"
    return text


def format_table(report: EvalReport) -> str:
    """Return the seed-001 table (question class x strategy) with our extra columns."""
    k, budget = report.k, report.budget
    head = (
        "question class",
        "strategy",
        f"recall@{k}",
        f"mrr@{k}",
        f"context@{budget}",
        "answerable",
        "n",
    )
    rows = [head]
    for kind in dict.fromkeys(c.question_class for c in report.cells):
        for c in report.cells:
            if c.question_class == kind:
                rows.append(
                    (
                        kind,
                        c.strategy,
                        f"{c.recall:.2f}",
                        f"{c.mrr:.2f}",
                        f"{c.context_recall:.2f}",
                        f"{c.answerable:.2f}",
                        str(c.queries),
                    )
                )
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = [
        f"# corpus {report.corpus}, retriever {report.retriever}, k {k}, budget {budget}, "
        f"min_score {report.min_score:g}, gold share {report.share:g}"
    ]
    lines += [
        "  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip() for r in rows
    ]
    return "\n".join(lines) + "\n"


def _check_options(args: argparse.Namespace) -> None:
    """CLI-12: refuse bad option values before the run, naming the flag; check that the
    --json and --png files can be written (their folder exists and is writable)."""
    share = args.gold_share
    if not 0 < share <= 1:
        raise CliError(f"--gold-share must be in (0, 1], got {share:g}")
    for flag, path in (("--json", args.json), ("--png", args.png)):
        if path is None:
            continue
        folder = Path(path).parent
        if not folder.is_dir():
            raise CliError(f"{flag} {path}: no such folder {str(folder)!r}")
        if not os.access(folder, os.W_OK) or Path(path).is_dir():
            raise CliError(f"{flag} {path}: cannot write there")


def _write(path: str, text: str) -> None:
    """Write ``text`` to ``path`` as UTF-8 (renamed into place), with a one-line error."""
    try:
        with atomic_file(path, "w") as out:  # CLI-13: never half a file
            out.write(text)
    except OSError as error:
        raise CliError(f"{path}: cannot write: {error.strerror}") from None


def _pyplot() -> Any:
    """Return ``matplotlib.pyplot`` on the Agg backend, or raise CliError naming the extra."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise CliError("--png needs matplotlib: pip install 'chunkspec[plot]'") from None
    return plt


def _plot(report: EvalReport, path: str, plt: Any) -> None:
    """Draw budget curves: span recall against context tokens, one line per strategy, one
    panel per question class and ``all``; the baselines dashed (EVAL-34, EVAL-36)."""
    classes = list(dict.fromkeys(x.question_class for x in report.cells))
    cell = {(c.question_class, c.strategy): c for c in report.cells}
    strategies = [s.name for s in report.strategies]
    cols = min(3, len(classes))
    rows = -(-len(classes) // cols)
    fig, grid = plt.subplots(
        rows, cols, figsize=(4.2 * cols, 3.8 * rows), sharey=True, squeeze=False
    )
    axes = [ax for row in grid for ax in row]
    for ax in axes[len(classes) :]:
        ax.set_visible(False)
    for ax, kind in zip(axes, classes, strict=False):
        for name in strategies:
            style = {"linestyle": "--", "color": "0.45"} if name in BASELINES else {}
            if name == "random":
                style = {"linestyle": ":", "color": "0.2"}
            ax.plot(
                report.budgets,
                cell[kind, name].budget_recall,
                marker="o",
                ms=3,
                label=name,
                **style,
            )
        ax.set_xscale("log", base=2)
        ax.set_xticks(report.budgets, [str(b) for b in report.budgets])
        ax.set_title(f"{kind} (n={cell[kind, strategies[0]].queries})", fontsize=10)
        ax.set_xlabel("context budget (tokens)", fontsize=9)
        ax.set_ylim(0, 1.02)
        ax.grid(alpha=0.3)
    for row in grid:
        row[0].set_ylabel("span recall")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(
        handles, labels, loc="lower center", ncol=min(len(labels), 6), fontsize=8, frameon=False
    )
    fig.suptitle(
        f"{report.corpus}: retriever {report.retriever}, gold text inside the packed context",
        fontsize=11,
    )
    fig.tight_layout(rect=(0, 0.12 / rows, 1, 1))
    try:
        with atomic_file(path, "wb") as out:  # CLI-13: never half a file
            fig.savefig(out, format="png", dpi=110, metadata={"Software": None})
    except OSError as error:
        raise CliError(f"{path}: cannot write: {error.strerror}") from None
    finally:
        plt.close(fig)


class _Bar:
    """A one-line progress bar on a stream: ``eval [#####-----] done/total``."""

    def __init__(self, stream: TextIO, width: int = 30) -> None:
        self._stream = stream
        self._width = width

    def update(self, done: int, total: int) -> None:
        """Redraw the bar for ``done`` of ``total``."""
        filled = self._width * done // max(total, 1)
        bar = "#" * filled + "-" * (self._width - filled)
        self._stream.write(f"\rchunkspec eval [{bar}] {done}/{total}")
        self._stream.flush()

    def close(self) -> None:
        """End the bar's line."""
        self._stream.write("\n")
        self._stream.flush()
