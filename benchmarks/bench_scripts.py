"""Every script: what the default budget means in model tokens, and what units cost (SCRIPT rules).

Run with ``nox -s bench -- scripts`` or ``python benchmarks/bench_scripts.py [--mb 2]
[--repeat 5] [--encoding-file cl100k_base.tiktoken] [--docs FILE...] [--sizes 64 512]
[--budgets-only]``.

Budgets: for each document (the excerpts in ``tests/data/scripts/`` by default, or
``--docs``), each strategy and the default counter (``whitespace``, which counts ``unicode``
units on text without spaces, SCRIPT-6), every chunk's size in ``cl100k_base`` tokens over
``max_tokens``: the largest and the median ratio; then the same strategies with the counter
``tiktoken:cl100k_base`` and the largest ratio (at most 1 for every strategy unless a
chunk is one grapheme cluster, SCRIPT-8, SCRIPT-10). Needs the encoding (cached, or
``--encoding-file``, COUNT-9). The excerpts' sources and licences: docs/spec/scripts.md.

Cost: CPU time of ``UnicodeCounter`` over ``WhitespaceCounter`` (``token_spans``) and of
``chunk_document`` with ``counter="unicode"`` over ``"whitespace"`` on Latin text (real
READMEs, benchmarks/corpora.py), interleaved rounds, best of ``--repeat``; and the unicode
path's time(4N)/time(N) on Chinese text (linear: about 4).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from chunkspec.counters import UnicodeCounter, WhitespaceCounter, resolve_counter
from chunkspec.records import SourceDocument, chunk_document

try:
    from benchmarks.corpora import real_text
except ModuleNotFoundError:  # run as a script: put the repository root on the path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from benchmarks.corpora import real_text

ROOT = Path(__file__).resolve().parent.parent
EXCERPTS = ROOT / "tests" / "data" / "scripts"
STRATEGIES = ("heading", "structural", "window", "pages")
_WHOLE = ("code", "table")


def _cpu(call: Callable[[], object]) -> float:
    """CPU seconds of one call."""
    start = time.process_time()
    call()
    return time.process_time() - start


def budgets(paths: list[Path], encoding_file: str | None, sizes: tuple[int, ...]) -> None:
    """Print cl100k_base tokens over max_tokens per document, strategy and counter."""
    model = resolve_counter("tiktoken:cl100k_base", encoding_file=encoding_file)
    print(
        "document, strategy, max_tokens: default counter (max, median cl100k/max_tokens)"
        " | tiktoken:cl100k_base counter (max)"
    )
    for path in paths:
        text = path.read_text("utf-8")
        for size in sizes:
            for strategy in STRATEGIES:
                fmt = "markdown" if strategy in ("heading", "structural") else "text"
                document = SourceDocument(doc_id="d", text=text, format=fmt, title="T")
                # Code blocks and tables are kept whole by design (MD-9): prose only.
                records = [
                    r
                    for r in chunk_document(document, strategy, max_tokens=size)
                    if r.kind not in _WHOLE
                ]
                ratios = [model.count(r.text) / size for r in records]
                counted = chunk_document(
                    document, strategy, max_tokens=size, counter="tiktoken:cl100k_base"
                )
                prose = [r for r in counted if r.kind not in _WHOLE]
                worst = max(r.tokens / size for r in prose)
                over = sum(1 for r in prose if r.tokens > size)
                print(
                    f"{path.name:>22} {strategy:>10} {size:>4}: {records[0].counter:>10} "
                    f"max {max(ratios):5.2f} median {statistics.median(ratios):5.2f}"
                    f" | cl100k max {worst:5.3f}, {over} of {len(prose)} over"
                )


def costs(mb: float, repeat: int) -> None:
    """Print the unicode path's cost over the whitespace path on Latin text, and scaling."""
    latin = real_text(int(mb * 1_000_000))
    chinese_unit = (EXCERPTS / "debian-faq.zh-cn.txt").read_text("utf-8")
    pairs: dict[str, tuple[Callable[[], object], Callable[[], object]]] = {
        "token_spans": (
            lambda: UnicodeCounter().token_spans(latin),
            lambda: WhitespaceCounter().token_spans(latin),
        ),
    }
    document = SourceDocument(doc_id="d", text=latin, format="markdown", title="T")
    for strategy in STRATEGIES:
        pairs[strategy] = (
            lambda s=strategy: chunk_document(document, s, max_tokens=256, counter="unicode"),  # type: ignore[misc]
            lambda s=strategy: chunk_document(document, s, max_tokens=256),  # type: ignore[misc]
        )
    best: dict[str, list[float]] = {name: [float("inf"), float("inf")] for name in pairs}
    for _ in range(repeat):  # interleaved rounds: both paths see the same machine load
        for name, (unicode_call, whitespace_call) in pairs.items():
            best[name][0] = min(best[name][0], _cpu(unicode_call))
            best[name][1] = min(best[name][1], _cpu(whitespace_call))
    print(f"Latin text, {len(latin) / 1e6:.1f} M characters, CPU s best of {repeat}:")
    for name, (u, w) in best.items():
        print(f"  {name:>12}: unicode {u:.3f} s, whitespace {w:.3f} s, ratio {u / w:.2f}")
    for strategy in STRATEGIES:
        times = []
        for factor in (1, 4):
            text = chinese_unit * (64 * factor)
            doc = SourceDocument(doc_id="d", text=text, format="markdown", title="T")
            times.append(
                min(_cpu(lambda: chunk_document(doc, strategy, max_tokens=256)) for _ in range(3))  # noqa: B023
            )
        print(
            f"  Chinese {len(chinese_unit) * 64 / 1e3:.0f} k -> x4 chars, {strategy}: "
            f"{times[0]:.3f} s -> {times[1]:.3f} s, time(4N)/time(N) {times[1] / times[0]:.2f}"
        )


def main() -> None:
    """Parse the options and run both parts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--encoding-file", default=None)
    parser.add_argument("--docs", nargs="*", type=Path, default=None)
    parser.add_argument("--sizes", nargs="*", type=int, default=[64, 512])
    parser.add_argument("--budgets-only", action="store_true")
    args = parser.parse_args()
    paths = args.docs or sorted(
        p for p in EXCERPTS.glob("*.txt") if not p.name.startswith("LICENSE")
    )
    try:
        budgets(paths, args.encoding_file, tuple(args.sizes))
    except (ImportError, ValueError) as error:  # no tiktoken; or offline, COUNT-10
        print(f"budgets skipped: {error}")
    if not args.budgets_only:
        costs(args.mb, args.repeat)


if __name__ == "__main__":
    main()
