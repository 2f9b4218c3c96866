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

Dictionary words (SCRIPT-20..SCRIPT-26, docs/segmenters.md): MB/s of the ``dict`` counter
(extra ``segment``), the ``unicode`` counter and the survey's segmenters on the Chinese,
Japanese and Thai excerpts (each peer measured when installed, else skipped: icu4py,
PyICU, jieba, rjieba, SudachiPy with SudachiDict-core, PyThaiNLP, uniseg; the bench
session installs only the extra), and how many chunk ends fall inside a dictionary word
with ``unicode`` units and with ``dict``.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from chunkspec._counters._dictionary import DICTIONARY_RANGES
from chunkspec.counters import UnicodeCounter, WhitespaceCounter, counter_name, resolve_counter
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


def excerpt_speed(repeat: int) -> None:
    """Print ``chunk_document``'s MB/s per strategy on the excerpts as read from their files
    (default counter, so ``unicode`` on Chinese, Japanese, Korean and Thai), 128 tokens, with
    the counter's word cache (emptied before each document, as a new process has it) and
    without it (every word cut into units again, as before the cache), in interleaved rounds."""
    from chunkspec import read_document
    from chunkspec._core import _units

    paths = sorted(p for p in EXCERPTS.glob("*.txt") if not p.name.startswith("LICENSE"))
    documents = [read_document(p) for p in paths]
    size = sum(len(d.text.encode("utf-8")) for d in documents)
    longest = _units._CACHED_LENGTH

    def run(strategy: str, cached: bool) -> None:
        _units._CACHED_LENGTH = longest if cached else -1
        try:
            for document in documents:
                _units._cached_more_units.cache_clear()
                chunk_document(document, strategy, max_tokens=128)
        finally:
            _units._CACHED_LENGTH = longest

    best = {(s, c): float("inf") for s in STRATEGIES for c in (True, False)}
    for _ in range(repeat):
        for strategy, cached in best:
            seconds = _cpu(lambda s=strategy, c=cached: run(s, c))  # type: ignore[misc]
            best[strategy, cached] = min(best[strategy, cached], seconds)
    print(f"chunk_document on the {len(documents)} excerpts ({size / 1e3:.0f} kB), MB/s:")
    for strategy in STRATEGIES:
        now, before = best[strategy, True], best[strategy, False]
        print(
            f"  {strategy:>12}: cached {size / now / 1e6:.2f}, uncached "
            f"{size / before / 1e6:.2f}, speed-up {before / now:.2f}x"
        )


#: Dictionary segmenters of the survey (docs/segmenters.md): name -> (language, import
#: and build, returning a text -> word list function). Each one not installed is skipped.
def _peers() -> dict[str, tuple[str, Callable[[], Callable[[str], object]]]]:
    """The survey's segmenters, each built lazily."""

    def icu4py_words() -> Callable[[str], object]:
        from icu4py.breakers import WordBreaker

        return lambda text: list(WordBreaker(text, "root").segments())

    def pyicu_words() -> Callable[[str], object]:
        import icu

        breaker = icu.BreakIterator.createWordInstance(icu.Locale.getRoot())

        def words(text: str) -> object:
            breaker.setText(text)
            return list(breaker)

        return words

    def jieba_words() -> Callable[[str], object]:
        import jieba

        jieba.setLogLevel(60)
        return lambda text: list(jieba.cut(text))

    def rjieba_words() -> Callable[[str], object]:
        import rjieba

        return lambda text: rjieba.cut(text)

    def sudachi_words() -> Callable[[str], object]:
        from sudachipy import Dictionary, SplitMode

        tokenizer = Dictionary().create(SplitMode.C)
        # Sudachi refuses an input over 49,149 bytes: feed it line by line.
        return lambda text: [
            m.surface() for line in text.split("\n") for m in tokenizer.tokenize(line)
        ]

    def newmm_words() -> Callable[[str], object]:
        from pythainlp.tokenize import word_tokenize

        return lambda text: word_tokenize(text, engine="newmm")

    def uniseg_words() -> Callable[[str], object]:
        from uniseg.wordbreak import words

        return lambda text: list(words(text))

    return {
        "icu4py (ICU BreakIterator)": ("zh ja th", icu4py_words),
        "PyICU (ICU BreakIterator)": ("zh ja th", pyicu_words),
        "jieba": ("zh", jieba_words),
        "rjieba": ("zh", rjieba_words),
        "SudachiPy (SplitMode.C)": ("ja", sudachi_words),
        "PyThaiNLP newmm": ("th", newmm_words),
        "uniseg (UAX #29, no dictionary)": ("zh ja th", uniseg_words),
    }


_LANGUAGES = {
    "zh": "debian-faq.zh-cn.txt",
    "ja": "debian-faq.ja.txt",
    "th": "pythainlp-test-text.th.txt",
}


def segmenters(repeat: int, copies: int = 32) -> None:
    """Print MB/s (UTF-8) of the dict counter, the unicode counter and the survey's
    segmenters on the Chinese, Japanese and Thai excerpts, ``copies`` of each, best CPU
    time of ``repeat`` interleaved rounds (the first call, dictionary load, not timed)."""
    texts = {
        lang: (EXCERPTS / name).read_text("utf-8") * copies for lang, name in _LANGUAGES.items()
    }
    calls: dict[str, dict[str, Callable[[], object]]] = {}
    try:
        dictionary = resolve_counter("dict")
    except ImportError as error:
        print(f"dict counter skipped: {error}")
    else:
        calls[f"chunkspec {counter_name(dictionary)}"] = {
            lang: functools.partial(dictionary.count, t) for lang, t in texts.items()
        }
    calls["chunkspec unicode"] = {
        lang: functools.partial(UnicodeCounter().count, t) for lang, t in texts.items()
    }
    for name, (languages, build) in _peers().items():
        try:
            start = time.process_time()
            words = build()
            words("中文")
            loaded = time.process_time() - start
        except ImportError:
            print(f"{name}: not installed, skipped")
            continue
        print(f"{name}: import and first call {loaded:.2f} s CPU")
        calls[name] = {lang: functools.partial(words, texts[lang]) for lang in languages.split()}
    best = {name: dict.fromkeys(per, float("inf")) for name, per in calls.items()}
    for _ in range(repeat):
        for name, per in calls.items():
            for lang, call in per.items():
                best[name][lang] = min(best[name][lang], _cpu(call))

    size = {lang: len(t.encode("utf-8")) / 1e6 for lang, t in texts.items()}
    print(f"segmentation speed, MB/s of UTF-8 (CPU, best of {repeat}; {copies} copies an excerpt):")
    print(f"{'':>34} " + " ".join(f"{lang:>7}" for lang in _LANGUAGES))
    for name, seconds in best.items():
        cells = [
            f"{size[lang] / seconds[lang]:7.2f}" if lang in seconds else f"{'-':>7}"
            for lang in _LANGUAGES
        ]
        print(f"{name:>34} " + " ".join(cells))


def boundaries(sizes: tuple[int, ...] = (32, 128)) -> None:
    """Print, per excerpt, strategy and counter, how many chunk ends fall inside a
    dictionary word (a dict unit of a dictionary script, SCRIPT-20, SCRIPT-21): the
    retrieval cost of unicode units."""
    try:
        dictionary = resolve_counter("dict")
    except ImportError as error:
        print(f"boundaries skipped: {error}")
        return
    print("chunk ends inside a dictionary word (of all chunk ends), prose records:")
    for lang, name in _LANGUAGES.items():
        text = (EXCERPTS / name).read_text("utf-8")
        words = [
            (a, b)
            for a, b in dictionary.token_spans(text)
            if any(x <= ord(text[a]) <= y for x, y in DICTIONARY_RANGES)
        ]
        inside = {k for a, b in words for k in range(a + 1, b)}
        for size in sizes:
            cells = []
            for strategy in STRATEGIES:
                fmt = "markdown" if strategy in ("heading", "structural") else "text"
                document = SourceDocument(doc_id="d", text=text, format=fmt, title="T")
                for counter in ("unicode", "dict"):
                    records = chunk_document(document, strategy, max_tokens=size, counter=counter)
                    ends = [r.end for r in records[:-1] if r.kind not in _WHOLE]
                    worst = max(r.tokens / size for r in records if r.kind not in _WHOLE)
                    cut = sum(end in inside for end in ends)
                    cells.append(f"{counter} {cut}/{len(ends)} (max {worst:.2f})")
            print(
                f"  {lang} {size:>4}: "
                + "; ".join(
                    f"{s}: {cells[2 * k]}, {cells[2 * k + 1]}" for k, s in enumerate(STRATEGIES)
                )
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
        excerpt_speed(args.repeat)
        segmenters(args.repeat)
        boundaries()


if __name__ == "__main__":
    main()
