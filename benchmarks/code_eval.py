"""Code search at equal budgets: chunkspec's strategies and the peers' code splitters, side by side.

The set is ``benchmarks/code_corpus.py``'s (one corpus per language; the question is a
function's docstring or doc comment, removed from the indexed file; the gold span is the
function). Each language is its own index, as a repository search would be; every row
chunks every file of that language at the same budget of ``N`` whitespace tokens (the
counter of the evaluation's budgets, TOK-1), and each question is ranked once per row with
BM25 or the dense retriever (EVAL-24, EVAL-25, EVAL-41: what a row indexes is the chunk text
the splitter hands its user). The figures are ``chunkspec eval``'s per-question span metrics
(EVAL-30 to EVAL-34) at ``k = 5``, pooled over the languages, with 95% bootstrap intervals
resampled by file and a paired test against each column's best (EVAL-37, EVAL-38).

Rows (``N`` the budget):

* ``code-N``, ``code+scope-N``: chunkspec's ``code`` strategy, ``scope_prefix`` off and on;
* ``recursive-N``, ``window-N-O`` (O = N/8): chunkspec's text strategies (EVAL-16, EVAL-17);
* ``lines-N``: whole lines packed up to N tokens, cAST's line-based baseline;
* ``llamaindex-N``: LlamaIndex's ``CodeSplitter`` (``count_mode="token"``, the same counter,
  the official grammar wheel's parser passed in: its default, ``tree_sitter_language_pack``,
  is not used);
* ``text-splitter-N``: text-splitter's ``CodeSplitter.from_callback`` with the same counter;
* ``astchunk-N``, ``astchunk+expansion-N``: astchunk's ``ASTChunkBuilder`` (cAST's
  reference code), without and with its ancestor header; it counts non-whitespace
  characters, so its size is N times the language's non-whitespace characters per token.
  Python, Java and TypeScript only (its languages).

Peers' chunks without offsets are placed in the file by their text (exact, else by words,
EVAL-46's placement); astchunk's by its line numbers.

    python -m benchmarks.code_eval --retriever bm25 --json docs/evaluation-code-bm25.json
    python -m benchmarks.code_eval --retriever dense --json docs/evaluation-code-dense.json
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from importlib import import_module
from pathlib import Path
from typing import Any

from benchmarks.code_corpus import DEFAULT_OUT, GRAMMARS
from chunkspec._core._hashing import hash_text
from chunkspec._evaluation._bootstrap import interval, paired_p, resamples
from chunkspec._evaluation._evaluate import _per_question
from chunkspec._evaluation._gold import labelled
from chunkspec._evaluation._html_peers import place_chunks
from chunkspec._evaluation._labelled_corpus import Corpus, load_corpus
from chunkspec._evaluation._retrievers import make_scorer, ranked
from chunkspec._evaluation._strategy_names import resolve
from chunkspec._records._record import ChunkRecord

LANGUAGES = ("python", "javascript", "typescript", "go", "rust", "java", "c")
ASTCHUNK_LANGUAGES = ("python", "java", "typescript")
K = 5
BUDGETS = (512, 1024, 2048)
METRICS = ("span_recall", "hit", "rr", "iou", "precision_omega", *(f"budget@{b}" for b in BUDGETS))
FAMILIES = (
    "code",
    "code+scope",
    "recursive",
    "window",
    "lines",
    "llamaindex",
    "text-splitter",
    "astchunk",
    "astchunk+expansion",
)


@dataclass(frozen=True)
class Page:
    """One file of a language corpus."""

    id: str
    language: str
    suffix: str
    text: str


Chunker = Callable[[Page], list[ChunkRecord]]


class NotItsLanguage(Exception):
    """A splitter that does not parse the page's language (astchunk: Python, Java and
    TypeScript only)."""


def whitespace_tokens(text: str) -> int:
    """The evaluation's counter (TOK-1): whitespace-separated words."""
    return len(text.split())


def record(page: Page, index: int, text: str, start: int, end: int, name: str) -> ChunkRecord:
    """A peer's chunk as a chunk record of ``page``."""
    return ChunkRecord(
        id=f"{page.id}:{index}",
        doc_id=page.id,
        index=index,
        text=text,
        start=start,
        end=end,
        tokens=whitespace_tokens(text),
        counter="whitespace",
        content_hash=hash_text(text),
        kind="code",
        heading_path=(),
        parent_id=None,
        page_start=None,
        page_end=None,
        section=None,
        prefix="",
        oversized=False,
        title=page.id,
        source=page.id,
        strategy=name,
    )


def placed(page: Page, texts: list[str], name: str) -> list[ChunkRecord]:
    """Chunks given as text, placed in the file: exactly from a cursor, else by words."""
    out: list[ChunkRecord] = []
    cursor = 0
    missing: list[int] = []
    regions: list[tuple[int, int]] = []
    for i, text in enumerate(texts):
        core = text.strip()
        at = page.text.find(core, cursor)
        if at < 0:
            at = page.text.find(core)
        if at < 0 or not core:
            missing.append(i)
            regions.append((0, 0))
            continue
        regions.append((at, at + len(core)))
        cursor = at + 1
    if missing:
        found = place_chunks(page.text, [texts[i] for i in missing])
        for i, place in zip(missing, found, strict=True):
            regions[i] = (place.start, place.end)
    for i, (text, (start, end)) in enumerate(zip(texts, regions, strict=True)):
        out.append(record(page, i, text, start, end, name))
    return out


def grammar(language: str) -> Any:
    """The official grammar wheel's language object."""
    import tree_sitter

    module, function, _, _ = GRAMMARS[language]
    return tree_sitter.Language(getattr(import_module(module), function)())


# ------------------------------------------------------------------ the rows


def chunkspec_code(budget: int, scope: bool) -> Chunker:
    """chunkspec's ``code`` strategy (``scope_prefix`` off or on)."""
    import chunkspec

    def chunk(page: Page) -> list[ChunkRecord]:
        document = chunkspec.document_from_text(
            page.text, doc_id=page.id, input_format="code", language=page.language
        )
        options: dict[str, Any] = {"max_tokens": budget}
        if scope:
            options["scope_prefix"] = True
        return chunkspec.chunk_document(document, "code", **options)

    return chunk


def chunkspec_named(name: str) -> Chunker:
    """A strategy of the evaluation's table by name (``recursive-N``, ``window-N-O``)."""
    adapt = resolve(name)

    def chunk(page: Page) -> list[ChunkRecord]:
        return adapt(page.id, page.id, page.text)

    return chunk


_LINE = re.compile(r"[^\n]*\n|[^\n]+$")


def lines(budget: int) -> Chunker:
    """cAST's line-based baseline: whole lines in order, a chunk closed before the line that
    would take it past ``budget`` tokens (a longer line is a chunk alone)."""

    def chunk(page: Page) -> list[ChunkRecord]:
        groups: list[tuple[int, int]] = []
        start = end = 0
        used = 0
        for match in _LINE.finditer(page.text):
            size = whitespace_tokens(match.group())
            if used and used + size > budget:
                groups.append((start, end))
                start, used = match.start(), 0
            used += size
            end = match.end()
        groups.append((start, end))
        out: list[ChunkRecord] = []
        for start, end in groups:
            text = page.text[start:end]
            if not text.strip():
                continue
            lead = len(text) - len(text.lstrip())
            core = text.strip()
            s = start + lead
            out.append(record(page, len(out), core, s, s + len(core), f"lines-{budget}"))
        return out

    return chunk


def llamaindex(budget: int) -> Chunker:
    """LlamaIndex's ``CodeSplitter`` counting the same tokens, with the official grammar."""
    import tree_sitter
    from llama_index.core.node_parser import CodeSplitter

    splitters: dict[str, Any] = {}

    def chunk(page: Page) -> list[ChunkRecord]:
        if page.language not in splitters:
            splitters[page.language] = CodeSplitter(
                language=page.language,
                count_mode="token",
                max_tokens=budget,
                tokenizer=str.split,
                parser=tree_sitter.Parser(grammar(page.language)),
            )
        texts = splitters[page.language].split_text(page.text)
        return placed(page, [t for t in texts if t.strip()], f"llamaindex-{budget}")

    return chunk


def text_splitter(budget: int) -> Chunker:
    """text-splitter's ``CodeSplitter`` with the same counter; its offsets are characters."""
    from semantic_text_splitter import CodeSplitter

    splitters: dict[str, Any] = {}

    def chunk(page: Page) -> list[ChunkRecord]:
        if page.language not in splitters:
            module, function, _, _ = GRAMMARS[page.language]
            pointer = getattr(import_module(module), function)()  # it takes the capsule
            splitters[page.language] = CodeSplitter.from_callback(
                pointer, whitespace_tokens, budget
            )
        out: list[ChunkRecord] = []
        for at, text in splitters[page.language].chunk_indices(page.text):
            out.append(record(page, len(out), text, at, at + len(text), f"text-splitter-{budget}"))
        return out

    return chunk


def astchunk(budget: int, ratio: dict[str, float], expansion: bool) -> Chunker:
    """astchunk's ``ASTChunkBuilder``: ``max_chunk_size`` non-whitespace characters, N times
    the language's non-whitespace characters per token; regions from its line numbers."""
    from astchunk.astchunk_builder import ASTChunkBuilder

    builders: dict[str, Any] = {}
    name = f"astchunk{'+expansion' if expansion else ''}-{budget}"

    def chunk(page: Page) -> list[ChunkRecord]:
        if page.language not in ASTCHUNK_LANGUAGES:
            raise NotItsLanguage(page.language)
        if page.language not in builders:
            builders[page.language] = ASTChunkBuilder(
                max_chunk_size=round(budget * ratio[page.language]),
                language=page.language,
                metadata_template="default",
            )
        windows = builders[page.language].chunkify(page.text, chunk_expansion=expansion)
        starts = [m.start() for m in _LINE.finditer(page.text)]
        ends = [m.end() for m in _LINE.finditer(page.text)]
        out: list[ChunkRecord] = []
        for window in windows:
            meta = window["metadata"]
            last = len(starts) - 1  # a node ending after the file's last newline
            s = starts[min(meta["start_line_no"], last)]
            e = ends[min(meta["end_line_no"], last)]
            piece = page.text[s:e]
            s += len(piece) - len(piece.lstrip())
            e -= len(piece) - len(piece.rstrip())
            if e <= s:
                continue
            out.append(record(page, len(out), window["content"], s, e, name))
        return out

    return chunk


def chunker(family: str, budget: int, ratio: dict[str, float]) -> Chunker:
    """The row ``family`` at ``budget``."""
    if family in ("code", "code+scope"):
        return chunkspec_code(budget, family == "code+scope")
    if family == "recursive":
        return chunkspec_named(f"recursive-{budget}")
    if family == "window":
        return chunkspec_named(f"window-{budget}-{budget // 8}")
    if family == "lines":
        return lines(budget)
    if family == "llamaindex":
        return llamaindex(budget)
    if family == "text-splitter":
        return text_splitter(budget)
    if family in ("astchunk", "astchunk+expansion"):
        return astchunk(budget, ratio, family == "astchunk+expansion")
    raise ValueError(family)


# ------------------------------------------------------------------ the run


def load(root: Path) -> dict[str, tuple[Corpus, list[Page]]]:
    """Every language corpus under ``root`` and its pages."""
    out = {}
    for language in LANGUAGES:
        directory = root / language
        if not directory.is_dir():
            continue
        corpus = load_corpus(directory)
        listing = {}
        for line in (directory / "files.jsonl").read_text().splitlines():
            entry = json.loads(line)
            listing[entry["doc"]] = entry
        pages = [Page(d.id, language, listing[d.id]["suffix"], d.text) for d in corpus.documents]
        out[language] = (corpus, pages)
    return out


def nws_per_token(pages: list[Page]) -> float:
    """Non-whitespace characters per whitespace token in ``pages`` (astchunk's size unit)."""
    text = "".join(p.text for p in pages)
    return sum(1 for ch in text if not ch.isspace()) / max(whitespace_tokens(text), 1)


def measure(
    corpus: Corpus, pages: list[Page], chunk: Chunker, retriever: str, budget: int
) -> dict[str, Any]:
    """Per-question metrics of one row on one language (as ``evaluate`` computes them)."""
    started = time.process_time()
    chunks = [c for p in pages for c in chunk(p)]
    split_seconds = time.process_time() - started
    texts = [c.text for c in chunks]  # EVAL-41: the text the splitter hands its user
    sizes = [whitespace_tokens(t) for t in texts]
    regions: dict[str, list[tuple[str, int, int]]] = {}
    for c in chunks:
        regions.setdefault(c.doc_id, []).append((c.id, c.start, c.end))
    gold = [labelled(q, regions) for q in corpus.queries]
    scorer = make_scorer(retriever, texts, 0)
    rankings = []
    for first in range(0, len(corpus.queries), 16):
        batch = [q.question for q in corpus.queries[first : first + 16]]
        rankings += [
            ranked(s, 200, positive_only=retriever == "bm25") for s in scorer.scores(batch)
        ]
    fixed = [replace(c, tokens=n) for c, n in zip(chunks, sizes, strict=True)]
    per = _per_question(
        corpus, fixed, sizes, [hash_text(t) for t in texts], rankings, gold, K, BUDGETS
    )
    fallback = {c.doc_id for c in chunks if _parser_of(c).startswith("lines")}
    by_id = {p.id: p.text for p in pages}
    exact = sum(1 for c in chunks if c.text == by_id[c.doc_id][c.start : c.end])
    return {
        "chunks": len(chunks),
        "mean_tokens": sum(sizes) / max(len(chunks), 1),
        "max_tokens": max(sizes, default=0),
        "over_budget": sum(1 for n in sizes if n > budget),
        "unplaced": sum(1 for c in chunks if c.end <= c.start),
        "exact_text": exact,
        "answerable": sum(1 for g in gold if g.gold_chunk_ids) / len(gold),
        "files": len(pages),
        "line_fallback_files": len(fallback),
        "split_cpu_seconds": split_seconds,
        "cpu_seconds": time.process_time() - started,
        "values": {m: per[m] for m in METRICS},
    }


def _parser_of(chunk: ChunkRecord) -> str:
    """How chunkspec's ``code`` strategy read the chunk's file (its ``code.parser``
    metadata: ``lines: syntax error`` for CODE-4's fallback); ``""`` for other rows."""
    code = chunk.metadata.get("code") if hasattr(chunk.metadata, "get") else None
    parser = code.get("parser") if code is not None and hasattr(code, "get") else None
    return parser if isinstance(parser, str) else ""


def _mean(values: list[float]) -> float:
    return math.fsum(values) / len(values) if values else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", type=Path, default=DEFAULT_OUT, help="the built set")
    parser.add_argument("--retriever", default="bm25", choices=("bm25", "dense"))
    parser.add_argument("--budgets", default="256,512", help="chunk budgets, tokens")
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--languages", default=",".join(LANGUAGES))
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--json", metavar="OUT")
    args = parser.parse_args()
    if args.retriever == "dense":
        os.environ.setdefault(
            "CHUNKSPEC_EMBED_CACHE", str(Path(args.set).parent / "code-search-embeddings")
        )
    data = load(args.set)
    languages = [lang for lang in args.languages.split(",") if lang in data]
    budgets = [int(b) for b in args.budgets.split(",") if b]
    families = [f for f in args.families.split(",") if f]
    ratio = {lang: nws_per_token(data[lang][1]) for lang in languages}
    runs: dict[str, dict[str, dict[str, Any]]] = {}  # row -> language -> run
    unavailable: dict[str, str] = {}
    for budget in budgets:
        for family in families:
            row = f"{family}-{budget}"
            try:
                chunk = chunker(family, budget, ratio)
            except ImportError as error:
                unavailable[row] = f"{type(error).__name__}: {error}"
                print(f"# {row}: not installed ({error})", file=sys.stderr)
                continue
            for lang in languages:
                corpus, pages = data[lang]
                try:
                    run = measure(corpus, pages, chunk, args.retriever, budget)
                except NotItsLanguage:
                    continue  # astchunk: not one of its languages
                except Exception as error:  # a peer failing on a file: say so, go on
                    unavailable[f"{row}/{lang}"] = f"{type(error).__name__}: {error}"
                    print(f"# {row} on {lang}: {type(error).__name__}: {error}", file=sys.stderr)
                    continue
                runs.setdefault(row, {})[lang] = run
                print(
                    f"# {row:<26} {lang:<11} {run['chunks']:>5} chunks {run['cpu_seconds']:6.1f} s",
                    file=sys.stderr,
                    flush=True,
                )
    report = summarise(data, languages, budgets, families, runs, args.bootstrap)
    print_report(report, args.retriever)
    if args.json:
        report.update(
            {
                "retriever": args.retriever,
                "k": K,
                "budgets": BUDGETS,
                "chunk_budgets": budgets,
                "counter": "whitespace",
                "bootstrap": args.bootstrap,
                "seed": 0,
                "nws_chars_per_token": ratio,
                "unavailable": unavailable,
                "runs": {
                    row: {
                        lang: {k: v for k, v in run.items() if k != "values"}
                        for lang, run in by.items()
                    }
                    for row, by in runs.items()
                },
            }
        )
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(report, out, indent=2)
            out.write("\n")
    return 0


def summarise(
    data: dict[str, tuple[Corpus, list[Page]]],
    languages: list[str],
    budgets: list[int],
    families: list[str],
    runs: dict[str, dict[str, dict[str, Any]]],
    bootstrap: int,
) -> dict[str, Any]:
    """Pooled means with intervals and paired tests, per scope (all languages, astchunk's
    three) and budget; per-language means."""
    scopes = {
        "all": languages,
        "astchunk-languages": [x for x in languages if x in ASTCHUNK_LANGUAGES],
    }
    tables: dict[str, Any] = {}
    for scope, langs in scopes.items():
        clusters = [f"{lang}/{q.gold[0].doc_id}" for lang in langs for q in data[lang][0].queries]
        if not clusters:
            continue
        plan = resamples(clusters, bootstrap, 0) if bootstrap else None
        for budget in budgets:
            rows = [
                f"{f}-{budget}"
                for f in families
                if f"{f}-{budget}" in runs and all(lang in runs[f"{f}-{budget}"] for lang in langs)
            ]
            if not rows:
                continue
            values = {
                row: {
                    m: [v for lang in langs for v in runs[row][lang]["values"][m]] for m in METRICS
                }
                for row in rows
            }
            table: dict[str, Any] = {}
            for m in METRICS:
                best = max(rows, key=lambda r: (_mean(values[r][m]), -rows.index(r)))
                for row in rows:
                    cell = table.setdefault(row, {})
                    mine = values[row][m]
                    entry: dict[str, Any] = {"mean": _mean(mine), "best": row == best}
                    if plan is not None:
                        entry["interval"] = interval(mine, plan)
                        entry["p_vs_best"] = (
                            1.0 if row == best else paired_p(mine, values[best][m], plan)
                        )
                    cell[m] = entry
            comparisons = {}
            for base, other in PAIRS:
                a, b = f"{base}-{budget}", f"{other}-{budget}"
                if a in values and b in values and plan is not None:
                    comparisons[f"{b} - {a}"] = {
                        m: _difference(values[a][m], values[b][m], plan) for m in METRICS
                    }
            tables[f"{scope}@{budget}"] = {
                "languages": langs,
                "questions": len(clusters),
                "rows": table,
                "comparisons": comparisons,
            }
    per_language = {
        row: {
            lang: {m: _mean(run["values"][m]) for m in METRICS} | {"n": len(run["values"]["hit"])}
            for lang, run in by.items()
        }
        for row, by in runs.items()
    }
    return {"tables": tables, "per_language": per_language}


#: The paired differences reported (B - A): cAST's question (an AST splitter against
#: line-based chunks), the scope prefix, and chunkspec's ``code`` against each other row.
PAIRS = (
    ("lines", "code"),
    ("lines", "code+scope"),
    ("lines", "astchunk"),
    ("lines", "astchunk+expansion"),
    ("lines", "text-splitter"),
    ("lines", "llamaindex"),
    ("lines", "recursive"),
    ("lines", "window"),
    ("code", "code+scope"),
    ("astchunk", "code"),
    ("text-splitter", "code"),
    ("llamaindex", "code"),
    ("recursive", "code"),
    ("window", "code"),
)


def _difference(a: list[float], b: list[float], plan: Any) -> dict[str, Any]:
    diff = [y - x for x, y in zip(a, b, strict=True)]
    return {"difference": _mean(diff), "interval": interval(diff, plan)}


SHOWN = ("span_recall", "hit", "rr", "iou", "budget@1024", "precision_omega")
LABEL = {
    "span_recall": "recall@5",
    "hit": "hit@5",
    "rr": "mrr@5",
    "iou": "iou@5",
    "budget@1024": "recall@1024t",
    "precision_omega": "p_omega",
}


def print_report(report: dict[str, Any], retriever: str) -> None:
    """The tables as text."""
    for name, table in report["tables"].items():
        _, budget = name.split("@")
        print(
            f"# code search, {retriever}, chunks of at most {budget} tokens, k {K}, "
            f"{table['questions']} questions ({', '.join(table['languages'])})"
        )
        print(
            "# * best in its column; = not shown different from the best (paired bootstrap, "
            "1000 resamples by file, seed 0, p >= 0.05); [95% interval]"
        )
        head = f"{'strategy':<26}" + "".join(f"{LABEL[m]:>22}" for m in SHOWN)
        print(head)
        for row, cells in table["rows"].items():
            line = f"{row:<26}"
            for m in SHOWN:
                c = cells[m]
                mark = "*" if c["best"] else ("=" if c.get("p_vs_best", 0) >= 0.05 else " ")
                lo, hi = c.get("interval", (float("nan"), float("nan")))
                line += f"{c['mean']:>9.3f}{mark} [{lo:.2f}, {hi:.2f}]"
            print(line)
        for label, diffs in table["comparisons"].items():
            d = diffs["span_recall"]
            h = diffs["hit"]
            print(
                f"#   {label:<36} recall@5 {d['difference']:+.3f} "
                f"[{d['interval'][0]:+.3f}, {d['interval'][1]:+.3f}]  hit@5 {h['difference']:+.3f} "
                f"[{h['interval'][0]:+.3f}, {h['interval'][1]:+.3f}]"
            )
        print()
    rows = list(report["per_language"])
    langs = sorted({lang for by in report["per_language"].values() for lang in by})
    print(f"# recall@5 per language ({retriever})")
    print(f"{'strategy':<26}" + "".join(f"{lang:>11}" for lang in langs))
    for row in rows:
        by = report["per_language"][row]
        print(
            f"{row:<26}"
            + "".join(
                f"{by[lang]['span_recall']:>11.3f}" if lang in by else f"{'-':>11}"
                for lang in langs
            )
        )


if __name__ == "__main__":
    sys.exit(main())
