"""``chunkspec eval`` as a user sees it: options and help, the progress bar, the chart.

The table itself is pinned by tests/golden/eval_cli.json; here: the parser's defaults and
help (docs/cli.md), the bar's exact text, the JSON file, and the chart read back from its
matplotlib objects (titles, bars, ticks, legend, size) rather than from pixels.
"""

from __future__ import annotations

import argparse
import io
import json
import struct
from pathlib import Path
from typing import Any

import pytest

from chunkspec._cli import _eval_command, main
from chunkspec._cli._io import CliError
from chunkspec._cli._main import build_parser
from chunkspec._evaluation._evaluate import EvalCell, EvalReport, StrategyStats
from tests.eval_unavailable import make_unavailable

# --- options and help (EVAL-29, docs/cli.md) --------------------------------------------------


def _parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["eval", *argv])


def test_defaults() -> None:
    args = _parse()
    assert args.run is _eval_command.run
    assert (args.corpus, args.queries, args.strategies) == (None, None, None)
    assert (args.k, args.retriever, args.budget) == (10, "bm25", 3200)
    assert (args.min_score, args.gold_share) == (0.35, 1.0)
    assert (args.json, args.png, args.progress) == (None, None, None)
    assert (args.corpus_dir, args.chroma, args.write_corpus) == (None, None, None)
    assert (args.bootstrap, args.seed, args.baselines) == (1000, 0, True)


def test_option_values() -> None:
    args = _parse(
        "shop",
        "--queries",
        "q.jsonl",
        "--strategies",
        "fixed-8,recursive-8",
        "window-8-2",
        "--k",
        "5",
        "--retriever",
        "dense",
        "--budget",
        "700",
        "--min-score",
        "0.5",
        "--gold-share",
        "0.25",
        "--json",
        "r.json",
        "--png",
        "r.png",
        "--progress",
    )
    assert (args.corpus, args.queries) == ("shop", "q.jsonl")
    assert args.strategies == ["fixed-8,recursive-8", "window-8-2"]
    assert (args.k, args.retriever, args.budget) == (5, "dense", 700)
    assert (args.min_score, args.gold_share) == (0.5, 0.25)
    assert (args.json, args.png, args.progress) == ("r.json", "r.png", True)
    assert _parse("--no-progress").progress is False


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--retriever", "tfidf"], "argument --retriever: invalid choice: 'tfidf'"),
        (["--k", "2.5"], "argument --k: invalid int value: '2.5'"),
        (["--budget", "x"], "argument --budget: invalid int value: 'x'"),
        (["--min-score", "x"], "argument --min-score: invalid float value: 'x'"),
        (["--gold-share", "x"], "argument --gold-share: invalid float value: 'x'"),
        (["--progress", "--no-progress"], "not allowed with argument --progress"),
        (["--strategies"], "argument --strategies: expected at least one argument"),
    ],
)
def test_bad_options(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        _parse(*argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("chunkspec eval: error: ")
    assert message in err


def test_help(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The help a user reads: description, every option's metavar and help (docs/cli.md)."""
    monkeypatch.setenv("COLUMNS", "200")
    with pytest.raises(SystemExit):
        _parse("--help")
    text = " ".join(capsys.readouterr().out.split())
    assert text.startswith(
        "usage: chunkspec eval [-h] [--corpus DIR | --chroma DIR] [--queries Q.jsonl] "
        "[--strategies NAME [NAME ...]] [--k K] [--retriever {bm25,dense}] [--budget N] "
        "[--min-score S] [--gold-share F] [--bootstrap N] [--seed N] [--no-baselines] "
        "[--write-corpus DIR] [--json OUT] [--png OUT] [--progress | --no-progress] [CORPUS] "
    )
    for piece in (
        "Chunk a labelled corpus with each strategy, rank the chunks for every question and "
        "print, per question class and strategy and beside the no-chunking and random "
        "baselines: span recall within context budgets of 128 to 1024 tokens, span precision, "
        "IoU and precision at perfect recall, tokens per answered question, with bootstrap "
        "intervals and a paired test; then seed 001's recall@k and MRR@k. Without CORPUS, the "
        "bundled MegaMart policy pages are used.",
        "CORPUS corpus directory",
        "--corpus DIR corpus directory",
        "--chroma DIR Chroma's evaluation set (corpora/, questions_df.csv)",
        "--bootstrap N bootstrap resamples for intervals and the paired test (0: none)",
        "--seed N seed of the bootstrap and the random baseline",
        "--no-baselines leave out the document and random rows",
        "--write-corpus DIR write the corpus in chunkspec's format and exit",
        "--queries Q.jsonl questions (default CORPUS/...)",
        "--strategies NAME [NAME ...] strategy names, space or comma separated; html:NAME "
        "runs NAME on the pages rendered as HTML with site furniture (EVAL-45), "
        "html+furniture:NAME with the furniture read as text (default: every available one)",
        "--gold-share F share of a gold span a chunk must cover to answer it "
        "(default 1: all of it)",
        "--json OUT write the report as JSON",
        "--png OUT draw a chart (needs chunkspec[plot])",
    ):
        assert piece in text, piece
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--help"])
    top = " ".join(capsys.readouterr().out.split())
    assert "eval compare chunking strategies on a labelled corpus" in top


# --- the progress bar and the output files ---------------------------------------------------


class _Stream(io.StringIO):
    """A stream that says whether it is a terminal and counts flushes."""

    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty
        self.flushes = 0

    def isatty(self) -> bool:
        return self.tty

    def flush(self) -> None:
        self.flushes += 1
        super().flush()


def test_bar_text() -> None:
    stream = _Stream(tty=True)
    bar = _eval_command._Bar(stream)
    bar.update(0, 0)
    assert stream.getvalue() == "\rchunkspec eval [" + "-" * 30 + "] 0/0"
    assert stream.flushes == 1
    bar.update(5, 10)
    bar.update(10, 10)
    bar.close()
    assert stream.getvalue().split("\r")[2:] == [
        "chunkspec eval [" + "#" * 15 + "-" * 15 + "] 5/10",
        "chunkspec eval [" + "#" * 30 + "] 10/10\n",
    ]
    assert stream.flushes == 4
    narrow = _Stream(tty=True)
    _eval_command._Bar(narrow, 4).update(1, 3)
    assert narrow.getvalue() == "\rchunkspec eval [#---] 1/3"


_PAGES = {
    "shop/pages/a.md": "# A\n\nalpha beta gamma delta",
    "shop/queries.jsonl": '{"id": "q1", "class": "prose", "question": "alpha?", '
    '"gold": [{"doc": "a", "quote": "alpha beta"}]}\n',
}


def _shop(root: Path) -> str:
    pytest.importorskip("bm25s")
    for name, text in _PAGES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, "utf-8")
    return str(root / "shop")


@pytest.mark.parametrize(
    ("tty", "flag", "shown"),
    [
        (True, [], True),
        (False, [], False),
        (True, ["--no-progress"], False),
        (False, ["--progress"], True),
    ],
)
def test_bar_only_on_a_terminal_or_asked(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tty: bool,
    flag: list[str],
    shown: bool,
) -> None:
    """EVAL-29: the bar goes to stderr when it is a TTY or --progress is given."""
    shop = _shop(tmp_path)
    err = _Stream(tty)
    monkeypatch.setattr("sys.stderr", err)
    assert main(["eval", shop, "--strategies", "fixed-2", "--no-baselines", *flag]) == 0
    bar = "\rchunkspec eval [" + "#" * 30 + "] 1/1\n"
    assert err.getvalue() == (bar if shown else "")
    assert capsys.readouterr().out.startswith("# corpus shop, retriever bm25, k 10:")


def test_skipped_strategy_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """EVAL-19: without --strategies an unavailable default is skipped with one stderr line."""
    shop = _shop(tmp_path)
    monkeypatch.setattr(_eval_command, "DEFAULT_STRATEGIES", ("fixed-2", "structural"))
    make_unavailable(monkeypatch, "structural")
    assert main(["eval", shop, "--no-baselines"]) == 0
    captured = capsys.readouterr()
    assert captured.err == (
        "chunkspec eval: skipped structural: strategy needs a chunker that is not installed, "
        "got 'structural'\n"
    )
    seed = captured.out.split("\n\n")[1]
    assert [line.split()[1] for line in seed.splitlines()[2:]] == ["fixed-2", "fixed-2"]


def test_json_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """EVAL-28: the JSON file holds the settings, the strategies and every cell."""
    shop = _shop(tmp_path)
    out = tmp_path / "r.json"
    argv = ["eval", shop, "--strategies", "fixed-2", "--json", str(out), "--no-baselines"]
    assert main(argv) == 0
    text = out.read_text("utf-8")
    assert text.endswith("}\n")
    assert text.startswith('{\n  "corpus": "shop",\n')
    data = json.loads(text)
    assert data["strategies"] == [{"name": "fixed-2", "chunks": 3, "mean_tokens": 2.0}]
    assert data["skipped"] == {}
    assert [c["question_class"] for c in data["cells"]] == ["prose", "all"]
    assert capsys.readouterr().out.count("\n") == 5 + 1 + 4  # span table, blank, seed table
    assert data["budgets"] == [128, 256, 512, 1024]
    assert (data["bootstrap"], data["seed"], data["unit"]) == (1000, 0, "question")


def test_json_cannot_write(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CLI-12: a --json path that is a folder is refused before the run, naming the flag."""
    shop = _shop(tmp_path)
    assert main(["eval", shop, "--strategies", "fixed-2", "--json", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"chunkspec eval: error: --json {tmp_path}: cannot write there\n"
    assert captured.out == ""  # nothing ran


# --- the chart (EVAL-29 --png) ---------------------------------------------------------------


def _report(classes: tuple[str, ...]) -> EvalReport:
    """Two strategies and a baseline; every figure different, so a line shows what it draws."""
    cells = []
    for n, kind in enumerate((*classes, "all")):
        for m, name in enumerate(("fixed-8", "recursive-8", "document")):
            base = 0.1 * n + 0.01 * m
            curve = (0.2 + base, 0.3 + base, 0.4 + base)
            cells.append(
                EvalCell(
                    kind, name, 3, 0.5 + base, 0.2 + base, 0.4 + base, 0.9, budget_recall=curve
                )
            )
    return EvalReport(
        "shop",
        "bm25",
        7,
        900,
        0.35,
        1.0,
        tuple(StrategyStats(name, 4, 8.0) for name in ("fixed-8", "recursive-8", "document")),
        tuple(cells),
        budgets=(128, 256, 512),
    )


class _Pyplot:
    """``matplotlib.pyplot`` that keeps the figures it makes and the ones it closes."""

    def __init__(self) -> None:
        self.plt: Any = _eval_command._pyplot()
        self.figures: list[Any] = []
        self.closed: list[Any] = []

    def subplots(self, *args: Any, **kwargs: Any) -> Any:
        fig, axes = self.plt.subplots(*args, **kwargs)
        self.figures.append(fig)
        return fig, axes

    def close(self, fig: Any) -> None:
        self.closed.append(fig)
        self.plt.close(fig)


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert b"Software" not in data  # no matplotlib version stamp: the file is reproducible
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_chart_budget_curves(tmp_path: Path) -> None:
    """EVAL-34, EVAL-36: one panel per class and all; a curve per row; baselines dashed."""
    pytest.importorskip("matplotlib")
    plt = _Pyplot()
    path = tmp_path / "c.png"
    _eval_command._plot(_report(("prose", "identifier")), str(path), plt)
    (fig,) = plt.figures
    assert plt.closed == [fig]
    assert _png_size(path) == (1386, 418)  # 3 * 4.2 x 3.8 inches at 110 dpi
    assert fig._suptitle.get_text() == ("shop: retriever bm25, gold text inside the packed context")
    axes = fig.axes
    assert [ax.get_title() for ax in axes] == ["prose (n=3)", "identifier (n=3)", "all (n=3)"]
    assert axes[0].get_ylabel() == "span recall"
    for n, ax in enumerate(axes):
        lines = ax.get_lines()
        assert [line.get_label() for line in lines] == ["fixed-8", "recursive-8", "document"]
        for m, line in enumerate(lines):
            base = 0.1 * n + 0.01 * m
            assert list(line.get_xdata()) == [128, 256, 512]
            assert [round(y, 9) for y in line.get_ydata()] == [
                round(0.2 + base, 9),
                round(0.3 + base, 9),
                round(0.4 + base, 9),
            ]
        assert [line.get_linestyle() for line in lines] == ["-", "-", "--"]
        assert ax.get_xscale() == "log"
        assert ax.get_ylim() == (0.0, 1.02)
        assert [t.get_text() for t in ax.get_xticklabels()] == ["128", "256", "512"]
    (legend,) = fig.legends
    assert [t.get_text() for t in legend.get_texts()] == ["fixed-8", "recursive-8", "document"]


def test_chart_one_class(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    plt = _Pyplot()
    _eval_command._plot(_report(("prose",)), str(tmp_path / "c.png"), plt)
    (fig,) = plt.figures
    assert len(fig.axes) == 2  # prose and all


def test_chart_cannot_write(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    plt = _Pyplot()
    target = tmp_path / "missing" / "c.png"
    with pytest.raises(CliError) as info:
        _eval_command._plot(_report(("prose",)), str(target), plt)
    assert str(info.value) == f"{target}: cannot write: No such file or directory"
    assert plt.closed == plt.figures


def test_pyplot_uses_agg() -> None:
    matplotlib = pytest.importorskip("matplotlib")
    _eval_command._pyplot()
    assert matplotlib.get_backend().lower() == "agg"


def test_pyplot_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(CliError) as info:
        _eval_command._pyplot()
    assert str(info.value) == "--png needs matplotlib: pip install 'chunkspec[plot]'"
