"""``chunkspec eval``: recall@k, MRR@k and context recall per question class and strategy."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from .._evaluate import ALL, BUDGET, EvalReport, evaluate
from .._labelled_corpus import load_corpus
from .._retrievers import RETRIEVERS
from .._strategies import DEFAULT_STRATEGIES
from ._io import CliError

__all__ = ["format_table", "register"]


def register(sub: Any) -> None:
    """Add the ``eval`` subcommand to ``sub``."""
    parser = sub.add_parser(
        "eval",
        help="compare chunking strategies on a labelled corpus",
        description=(
            "Chunk a labelled corpus with each strategy, retrieve the top k chunks for every "
            "question and print recall@k, MRR@k and context recall (the gold span inside "
            "assemble's context) per question class and strategy. Without CORPUS, the "
            "bundled MegaMart policy pages are used."
        ),
    )
    parser.add_argument("corpus", nargs="?", metavar="CORPUS", help="corpus directory")
    parser.add_argument("--queries", metavar="Q.jsonl", help="questions (default CORPUS/...)")
    parser.add_argument(
        "--strategies",
        nargs="+",
        metavar="NAME",
        help="strategy names, space or comma separated (default: every available one)",
    )
    parser.add_argument("--k", type=int, default=10, metavar="K")
    parser.add_argument("--retriever", choices=RETRIEVERS, default="bm25")
    parser.add_argument("--budget", type=int, default=BUDGET, metavar="N")
    parser.add_argument("--min-score", type=float, default=0.35, metavar="S")
    parser.add_argument(
        "--gold-share",
        type=float,
        default=1.0,
        metavar="F",
        help="share of a gold span a chunk must cover to answer it (default 1: all of it)",
    )
    parser.add_argument("--json", metavar="OUT", help="write the report as JSON")
    parser.add_argument("--png", metavar="OUT", help="draw a chart (needs chunkspec[plot])")
    bar = parser.add_mutually_exclusive_group()
    bar.add_argument("--progress", dest="progress", action="store_true", default=None)
    bar.add_argument("--no-progress", dest="progress", action="store_false")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the evaluation and print the table; write JSON and PNG when asked."""
    plt = _pyplot() if args.png else None  # fail before a long run, not after it
    corpus = load_corpus(args.corpus, args.queries)
    if args.strategies is None:
        names, skip = list(DEFAULT_STRATEGIES), True
    else:
        names = [n for item in args.strategies for n in item.split(",") if n]
        skip = False
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
    )
    if bar is not None:
        bar.close()
    for name, reason in report.skipped.items():
        print(f"chunkspec eval: skipped {name}: {reason}", file=sys.stderr)
    sys.stdout.write(format_table(report))
    sys.stdout.flush()
    if args.json:
        _write(args.json, json.dumps(report.to_json(), indent=2) + "\n")
    if plt is not None:
        _plot(report, args.png, plt)
    return 0


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


def _write(path: str, text: str) -> None:
    """Write ``text`` to ``path`` as UTF-8, with a one-line error."""
    try:
        Path(path).write_text(text, encoding="utf-8")
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
    """Draw recall@k, MRR@k and context recall per class and strategy as grouped bars."""
    strategies = [s.name for s in report.strategies]
    classes = [c for c in dict.fromkeys(x.question_class for x in report.cells) if c != ALL]
    cell = {(c.question_class, c.strategy): c for c in report.cells}
    metrics = (
        ("recall", f"recall@{report.k}"),
        ("mrr", f"MRR@{report.k}"),
        ("context_recall", f"context recall @ {report.budget} tokens"),
    )
    fig, axes = plt.subplots(1, len(metrics), figsize=(4.2 * len(metrics), 3.8), sharey=True)
    width = 0.8 / max(len(classes), 1)
    for ax, (field, title) in zip(axes, metrics, strict=True):
        for n, kind in enumerate(classes):
            xs = [i + (n - (len(classes) - 1) / 2) * width for i in range(len(strategies))]
            ys = [getattr(cell[kind, s], field) for s in strategies]
            ax.bar(xs, ys, width, label=kind)
        ax.set_title(title, fontsize=10)
        ax.set_xticks(range(len(strategies)), strategies, rotation=30, ha="right", fontsize=8)
        ax.set_ylim(0, 1.05)
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("share of questions")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper right", ncol=len(classes), fontsize=8, frameon=False)
    fig.suptitle(f"{report.corpus}: retriever {report.retriever}", fontsize=11)
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=110, metadata={"Software": None})
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
