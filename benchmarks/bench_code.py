"""Source code: chunkspec's ``code`` strategy beside text-splitter's and LlamaIndex's
``CodeSplitter`` and ``astchunk``, on the same real files with the same counter, side by
side in one run (docs/performance.md, "Code").

Run with ``nox -s bench -- code`` or ``python benchmarks/bench_code.py [--only
files|cli|scaling|ingest] [--counters chars,words,tiktoken] [--rounds N] [--cap MB]
[--sizes 1,4,16] [--limit SECONDS] [--repos pydantic-core,numpy] [--offline]``.

The files are released packages' own sources (benchmarks/code_sources.py: pinned sdists
from PyPI, npm tarballs, a Debian package), downloaded once into
``$CHUNKSPEC_BENCH_CACHE/code`` (default ``~/.cache/chunkspec-bench/code``); later runs,
and ``--offline`` runs, read the cache. A source that is neither cached nor downloadable is
said at the top of the output and its sets are left out.

Sections:

- **files**: per language (Python, Python files with at least 3% non-ASCII characters --
  Chinese and Cyrillic identifiers, strings and comments --, C, C++, Rust, Go, JavaScript,
  TypeScript), up to ``--cap`` MB of files each (sorted, round-robin over the set's
  packages), one in four rewritten with CRLF line ends; and a ``large`` set of the three
  largest real files (a 2.6 MB Python dict of Chinese phrases, a 3.2 MB generated Go table,
  lodash.js). Every contender reads the file itself (chunkspec: ``read_document``; a peer:
  UTF-8 decode) and chunks it, one file at a time; CPU seconds (``time.process_time``),
  best of ``--rounds`` interleaved rounds. Per counter:

  - ``chars``: 2048 characters. chunkspec ``counter="chars1"``; text-splitter
    ``CodeSplitter(grammar, 2048)`` (characters); LlamaIndex ``CodeSplitter(max_chars=2048,
    parser=...)``; astchunk ``ASTChunkBuilder(max_chunk_size=2048)`` (it counts
    non-whitespace characters, its only counter: its chunks are larger);
  - ``words``: 256 words of chunkspec's ``WhitespaceCounter``, the very object given to
    the peers (text-splitter ``CodeSplitter.from_callback(grammar, counter.count, 256)``,
    LlamaIndex ``count_mode="token", tokenizer=counter.token_spans``);
  - ``tiktoken``: 512 ``cl100k_base`` tokens: chunkspec ``TiktokenCounter``; the peers
    given ``encoding.encode_ordinary`` of the same tiktoken encoding (text-splitter through
    ``from_callback``), and text-splitter's own Rust tiktoken (``from_tiktoken_model(grammar,
    "gpt-4", 512)``) as one more row. The rank file is the one llama-index-core ships (no
    download).

  chunkspec also runs ``window`` (no overlap) and, with ``words`` (the one counter it
  takes, RECORD-11), ``recursive`` on the same files: what a user had for code before
  ``code``; and ``tree-sitter parse alone`` is the parse of the file with the same grammar
  wheel, which every contender makes: the floor under all of them.
- **cli**: ``python -m chunkspec chunk FOLDER --strategy code --counter chars1 --max-tokens
  2048 --keep-going`` over a folder of each set's files: the child's CPU, start-up included.
- **scaling**: one Python file of 1, 4, 16 (and 64 with ``--sizes 1,4,16,64``) MiB: the
  ``python`` and ``python-non-ascii`` sets' files concatenated (one in four with CRLF line
  ends) to about 1 MiB, repeated whole. Each contender (chars counter) in a fresh process per
  size, reading the file inside the call: CPU seconds, seconds per MiB (flat is linear) and
  peak RSS during the call over the input's bytes. A contender is not run at the next size
  when its time there, projected by its last step's growth, is over ``--limit`` seconds
  (60).
- **ingest**: ``python -m chunkspec ingest TREE --strategy code --out DIR --format jsonl
  --workers 1`` over whole unpacked sdists (``--repos``): files, records, CPU and wall
  seconds, files/s and MiB/s of the files it chunked.

Nothing is asserted: performance is measured, not gated.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.util
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))


def _llama_tiktoken_cache() -> str | None:
    """The folder of tiktoken rank files that llama-index-core ships, if installed."""
    spec = importlib.util.find_spec("llama_index.core")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "_static" / "tiktoken_cache"
    return str(folder) if folder.is_dir() else None


if "TIKTOKEN_CACHE_DIR" not in os.environ and (_cache := _llama_tiktoken_cache()):
    os.environ["TIKTOKEN_CACHE_DIR"] = _cache  # cl100k_base offline, for every contender

from benchmarks.bench_scaling import _peak, _reset_peak, _rss_now  # noqa: E402
from benchmarks.code_sources import (  # noqa: E402
    SOURCES,
    CodeSet,
    cache_root,
    code_sets,
    ensure,
    ready_trees,
)

MB = 1_000_000
MIB = 1 << 20
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}

#: counter key -> (chunkspec's counter name, budget)
COUNTERS: dict[str, tuple[str, int]] = {
    "chars": ("chars1", 2048),
    "words": ("whitespace", 256),
    "tiktoken": ("tiktoken:cl100k_base", 512),
}

Call = Callable[[Path, str], Any]


# ---------------------------------------------------------------- languages and counters


def language_of(path: Path) -> str | None:
    """chunkspec's language name for ``path``'s suffix (CODE-1's table), or None."""
    from chunkspec._code._languages import SUFFIX_LANGUAGE

    return SUFFIX_LANGUAGE.get(path.suffix.lower())


_GRAMMARS: dict[str, Any] = {}


def grammar(language: str) -> Any:
    """The tree-sitter grammar chunkspec parses ``language`` with (the same wheel and
    function, CODE-1), as the capsule the grammar wheel returns."""
    if language not in _GRAMMARS:
        from chunkspec._code._languages import LANGUAGES

        entry = LANGUAGES[language]
        _GRAMMARS[language] = getattr(importlib.import_module(entry.module), entry.function)()
    return _GRAMMARS[language]


_COUNTER_OBJECTS: dict[str, Any] = {}


def counter_object(key: str) -> Any:
    """chunkspec's counter for ``key`` (built once)."""
    if key not in _COUNTER_OBJECTS:
        from chunkspec.counters import resolve_counter

        _COUNTER_OBJECTS[key] = resolve_counter(COUNTERS[key][0])
    return _COUNTER_OBJECTS[key]


def tiktoken_ready() -> str | None:
    """None when cl100k_base loads offline; else why not."""
    try:
        counter_object("tiktoken")
    except Exception as error:
        return f"{type(error).__name__}: {str(error)[:160]}"
    return None


def code_ready() -> str | None:
    """None when this checkout's chunkspec has the ``code`` input format and strategy."""
    try:
        from chunkspec import chunk_document, read_document
    except ImportError as error:
        return f"chunkspec not importable: {error}"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "probe.py"
        path.write_text("def f():\n    return 1\n", encoding="utf-8")
        try:
            document = read_document(str(path))
            chunk_document(document, strategy="code", max_tokens=64)
        except Exception as error:  # the strategy is not in this checkout yet
            return f"{type(error).__name__}: {str(error)[:160]}"
        if getattr(document, "format", None) != "code":
            return f"read_document reads .py as {getattr(document, 'format', '?')!r}"
    return None


#: Set by main(): whether ``code`` is here (else .py etc. are read as text).
CODE_READY: list[bool] = [False]


def parser_of(record: Any) -> str:
    """What read a ``code`` record's file: ``tree-sitter`` or ``lines: WHY`` (CODE-3)."""
    try:
        return str(record.metadata["code"]["parser"])
    except (KeyError, TypeError, AttributeError):
        return "?"


def decode(path: Path) -> str:
    """A peer's text of a file: UTF-8 (every benchmark file is UTF-8)."""
    return path.read_bytes().decode("utf-8")


# ---------------------------------------------------------------- contenders


def _chunkspec(strategy: str) -> Callable[[str], Call | None]:
    """``chunk_document(read_document(path), strategy=..., max_tokens=N, counter=C)``."""

    def make(key: str) -> Call | None:
        if strategy == "code" and not CODE_READY[0]:
            return None
        if strategy == "recursive" and key != "words":
            return None  # RECORD-11: recursive counts whitespace words only
        from chunkspec import chunk_document, read_document

        counter = counter_object(key)
        budget = COUNTERS[key][1]
        extra: dict[str, Any] = {"overlap_tokens": 0} if strategy == "window" else {}
        fmt = None if CODE_READY[0] else "text"

        def call(path: Path, language: str) -> Any:
            document = read_document(str(path), input_format=fmt)
            return chunk_document(
                document, strategy=strategy, max_tokens=budget, counter=counter, **extra
            )

        return call

    return make


def _text_splitter(native_tiktoken: bool = False) -> Callable[[str], Call | None]:
    """semantic-text-splitter's ``CodeSplitter(grammar, ...)``; ``.chunks(text)``."""

    def make(key: str) -> Call | None:
        from semantic_text_splitter import CodeSplitter

        budget = COUNTERS[key][1]
        if native_tiktoken and key != "tiktoken":
            return None
        splitters: dict[str, Any] = {}

        def build(language: str) -> Any:
            lang = grammar(language)
            if native_tiktoken:
                return CodeSplitter.from_tiktoken_model(lang, "gpt-4", budget)
            if key == "chars":
                return CodeSplitter(lang, budget)
            if key == "words":
                return CodeSplitter.from_callback(lang, counter_object("words").count, budget)
            encoding = counter_object("tiktoken").encoding
            return CodeSplitter.from_callback(
                lang, lambda text: len(encoding.encode_ordinary(text)), budget
            )

        def call(path: Path, language: str) -> Any:
            if language not in splitters:
                splitters[language] = build(language)
            return splitters[language].chunks(decode(path))

        return call

    return make


def _llama(key: str) -> Call | None:
    """LlamaIndex ``CodeSplitter(language, parser=tree_sitter.Parser(grammar), ...)``
    (given the parser: its own default downloads nothing but needs
    ``tree-sitter-language-pack``); ``.split_text(text)``."""
    import tree_sitter
    from llama_index.core.node_parser import CodeSplitter

    budget = COUNTERS[key][1]
    splitters: dict[str, Any] = {}

    def build(language: str) -> Any:
        parser = tree_sitter.Parser(tree_sitter.Language(grammar(language)))
        if key == "chars":
            return CodeSplitter(language=language, max_chars=budget, parser=parser)
        tokenizer = (
            counter_object("words").token_spans
            if key == "words"
            else counter_object("tiktoken").encoding.encode_ordinary
        )
        return CodeSplitter(
            language=language,
            count_mode="token",
            max_tokens=budget,
            tokenizer=tokenizer,
            parser=parser,
        )

    def call(path: Path, language: str) -> Any:
        if language not in splitters:
            splitters[language] = build(language)
        return splitters[language].split_text(decode(path))

    return call


#: astchunk's languages (its own names); it has no others.
ASTCHUNK_LANGUAGES = {"python": "python", "typescript": "typescript", "java": "java"}


def _astchunk(key: str) -> Call | None:
    """astchunk ``ASTChunkBuilder(max_chunk_size=2048, language=...).chunkify(text)``:
    non-whitespace characters only, so the chars counter only."""
    if key != "chars":
        return None
    from astchunk import ASTChunkBuilder

    builders: dict[str, Any] = {}

    def call(path: Path, language: str) -> Any:
        if language not in ASTCHUNK_LANGUAGES:
            raise LookupError(f"astchunk has no {language}")
        if language not in builders:
            builders[language] = ASTChunkBuilder(
                max_chunk_size=COUNTERS[key][1],
                language=ASTCHUNK_LANGUAGES[language],
                metadata_template="default",
            )
        return builders[language].chunkify(decode(path))

    return call


def _parse_alone(key: str) -> Call | None:
    """``tree_sitter.Parser(grammar).parse(path.read_bytes())``: the parse every contender
    makes (chunkspec's and the peers' grammar wheels are the same), their floor."""
    import tree_sitter

    parsers: dict[str, Any] = {}

    def call(path: Path, language: str) -> Any:
        if language not in parsers:
            parsers[language] = tree_sitter.Parser(tree_sitter.Language(grammar(language)))
        return [parsers[language].parse(path.read_bytes())]

    return call


#: label -> maker(counter key) of a call on (path, language); chunkspec's first.
CHUNKSPEC: dict[str, Callable[[str], Call | None]] = {
    "chunkspec code": _chunkspec("code"),
    "chunkspec recursive": _chunkspec("recursive"),
    "chunkspec window": _chunkspec("window"),
    "tree-sitter parse alone": _parse_alone,
}
PEERS: dict[str, Callable[[str], Call | None]] = {
    "text-splitter CodeSplitter": _text_splitter(),
    "text-splitter CodeSplitter (its Rust tiktoken)": _text_splitter(native_tiktoken=True),
    "LlamaIndex CodeSplitter": _llama,
    "astchunk ASTChunkBuilder": _astchunk,
}
SHORT = {
    "chunkspec code": "code",
    "chunkspec recursive": "recursive",
    "chunkspec window": "window",
    "tree-sitter parse alone": "parse",
    "text-splitter CodeSplitter": "text-splitter",
    "text-splitter CodeSplitter (its Rust tiktoken)": "text-splitter (Rust tiktoken)",
    "LlamaIndex CodeSplitter": "LlamaIndex",
    "astchunk ASTChunkBuilder": "astchunk",
}


def contenders(key: str) -> dict[str, Call]:
    """Every contender that runs with counter ``key`` and is installed, made."""
    made: dict[str, Call] = {}
    for label, make in {**CHUNKSPEC, **PEERS}.items():
        try:
            call = make(key)
        except ImportError as error:
            print(f"({label}: not installed: {error})")
            continue
        if call is not None:
            made[label] = call
    return made


def cpu(fn: Callable[[], object]) -> tuple[float, object]:
    """CPU seconds of ``fn()`` (this process) and its result."""
    t0 = time.process_time()
    result = fn()
    return time.process_time() - t0, result


# ---------------------------------------------------------------- inputs


def prepare(sets: list[CodeSet], folder: Path) -> dict[str, list[tuple[Path, str]]]:
    """Copy each set's files into ``folder/SET/`` (flat, names kept unique, suffix kept),
    every fourth with CRLF line ends; return set -> [(copy, language)]."""
    prepared: dict[str, list[tuple[Path, str]]] = {}
    for code_set in sets:
        rows = []
        for k, path in enumerate(code_set.files):
            language = language_of(path)
            if language is None:
                continue
            target = folder / code_set.name / f"{k:04d}-{path.name}"
            target.parent.mkdir(parents=True, exist_ok=True)
            data = path.read_bytes()
            if k % 4 == 3:
                data = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
            target.write_bytes(data)
            rows.append((target, language))
        prepared[code_set.name] = rows
    return prepared


def describe(rows: list[tuple[Path, str]]) -> str:
    """Files, MB, non-ASCII share, CRLF share of a prepared set."""
    texts = [p.read_bytes().decode("utf-8") for p, _ in rows]
    chars = sum(len(t) for t in texts)
    non_ascii = sum(sum(not c.isascii() for c in t) for t in texts)
    lines = sum(t.count("\n") for t in texts)
    crlf = sum(t.count("\r\n") for t in texts)
    size = sum(p.stat().st_size for p, _ in rows)
    return (
        f"{len(rows)} files, {size / MB:.2f} MB, {non_ascii / max(chars, 1):.1%} of the "
        f"characters non-ASCII, {crlf / max(lines, 1):.0%} of line ends CRLF"
    )


# ---------------------------------------------------------------- files section


def files_section(
    name: str, rows: list[tuple[Path, str]], key: str, made: dict[str, Call], rounds: int
) -> dict[str, float]:
    """Print one set's totals for counter ``key``; return each contender's total CPU."""
    best: dict[str, dict[Path, float]] = {label: {} for label in made}
    chunks: dict[str, dict[Path, int]] = {label: {} for label in made}
    failed: dict[str, dict[Path, str]] = {label: {} for label in made}
    parsers: dict[Path, str] = {}  # how chunkspec code read each file (CODE-3, CODE-4)
    for _ in range(rounds):
        for label, call in made.items():
            gc.collect()
            for path, language in rows:
                if path in failed[label]:
                    continue
                try:
                    seconds, result = cpu(lambda: call(path, language))  # noqa: B023
                except Exception as error:  # a contender that cannot take a file: said
                    failed[label][path] = f"{type(error).__name__}: {str(error)[:100]}"
                    continue
                chunks[label][path] = len(result) if hasattr(result, "__len__") else 1
                best[label][path] = min(seconds, best[label].get(path, float("inf")))
                if label == "chunkspec code" and isinstance(result, list) and result:
                    parsers[path] = parser_of(result[0])
    labels = list(made)
    # the totals are over the files every contender took that takes the set's languages
    takers = [label for label in labels if len(failed[label]) < len(rows)]
    good = [p for p, _ in rows if all(p in best[label] for label in takers)]
    size = {p: p.stat().st_size for p, _ in rows}
    total = sum(size[p] for p in good)
    base = next((label for label in CHUNKSPEC if label in takers), takers[0])
    load = os.getloadavg()
    counter, budget = COUNTERS[key]
    print(
        f"\n### {name}, counter {key} ({counter}, {budget}): {describe(rows)}; best of "
        f"{rounds} interleaved rounds; load {load[0]:.1f}\n"
    )
    print(
        f"Totals over the {len(good)} files every contender took ({total / MB:.2f} MB); "
        f"ratios are a contender's CPU over {base}'s:\n"
    )
    print(f"| contender | CPU s | MB/s | chunks | over {SHORT[base]} (total) | (median file) |")
    print("|---|---:|---:|---:|---:|---:|")
    totals = {label: sum(best[label].get(p, 0.0) for p in good) for label in labels}
    for label in labels:
        if label not in takers:
            print(f"| {label} | — | — | — | — | — |")
            continue
        ratio = totals[label] / max(totals[base], 1e-9)
        median = (
            statistics.median(best[label][p] / max(best[base][p], 1e-9) for p in good)
            if good
            else float("nan")
        )
        count = sum(chunks[label].get(p, 0) for p in good)
        shown = "—" if label == "tree-sitter parse alone" else f"{count:,}"
        print(
            f"| {label} | {totals[label]:.3f} | {total / MB / max(totals[label], 1e-9):.2f} "
            f"| {shown} | {ratio:.2f} | {median:.2f} |",
            flush=True,
        )
    read = Counter(parsers.values())
    if set(read) - {"tree-sitter"}:
        print(
            "\nhow chunkspec code read these files (metadata parser, CODE-3, CODE-4): "
            + ", ".join(f"{n} {why}" for why, n in read.most_common())
        )
    for label in labels:
        if label not in takers:
            why = next(iter(failed[label].values()), "")
            print(f"\n{label}: takes none of these files ({why})")
            continue
        for path, why in list(failed[label].items())[:3]:
            print(f"\n{label} failed on {path.name}: {why}")
        if len(failed[label]) > 3:
            print(f"\n{label} failed on {len(failed[label]) - 3} more files")
    return {label: totals[label] for label in takers}


# ---------------------------------------------------------------- cli section


def run_cli(arguments: list[str]) -> tuple[float, str, int]:
    """CPU seconds of ``python -m chunkspec ARGUMENTS`` (the child's), its standard error
    when it exited 2 (``--keep-going``: the files it refused) and its peak RSS."""
    script = (
        "import resource, subprocess, sys, json\n"
        "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,"
        " text=True)\n"
        "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "print(json.dumps({'cpu': u.ru_utime + u.ru_stime, 'code': r.returncode,"
        " 'err': r.stderr, 'peak': u.ru_maxrss * 1024}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, sys.executable, "-m", "chunkspec", *arguments],
        check=True,
        env=ENV,
        capture_output=True,
        text=True,
    )
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    if answer["code"] not in (0, 2):
        raise RuntimeError(
            f"chunkspec {' '.join(arguments)}: exit {answer['code']}: {answer['err']}"
        )
    return float(answer["cpu"]), answer["err"] if answer["code"] else "", int(answer["peak"])


def cli_options(key: str = "chars") -> list[str]:
    """The command's options for counter ``key`` (``code``; before it, ``window`` over the
    files read as text)."""
    counter, budget = COUNTERS[key]
    strategy = (
        ["--strategy", "code"]
        if CODE_READY[0]
        else ["--strategy", "window", "--overlap-tokens", "0"]
    )
    read = [] if CODE_READY[0] else ["--input-format", "text"]
    return [*strategy, *read, "--counter", counter, "--max-tokens", str(budget)]


def repository_walk() -> bool:
    """True when folder walks take code files by themselves (REPO-1's repository walk)."""
    return importlib.util.find_spec("chunkspec._corpus._repository") is not None


#: The globs of the ingest runs over a tree before the repository walk (one run each,
#: summed): one suffix a run, so no two files of a run share a doc id without suffix.
SUFFIX_GLOBS = ("*.py", "*.c", "*.h", "*.cpp", "*.hpp", "*.rs", "*.go", "*.js", "*.ts")


def cli_section(
    prepared: dict[str, list[tuple[Path, str]]], totals: dict[str, dict[str, float]], rounds: int
) -> None:
    """Print ``chunkspec chunk FOLDER`` once per set beside the peers' in-process totals."""
    options = [*cli_options(), "--glob", "*"]  # every prepared file is code
    print(
        f"\n## The command: `python -m chunkspec chunk FOLDER {' '.join(options)} --keep-going`\n"
    )
    with tempfile.TemporaryDirectory(prefix="bench-code-cli-") as name:
        folder = Path(name)
        tiny = folder / "tiny.py"
        tiny.write_text("def f():\n    return 1\n", encoding="utf-8")
        startup = min(
            run_cli(["chunk", str(tiny), *options, "--output", str(folder / "t.jsonl")])[0]
            for _ in range(rounds)
        )
        print(f"start-up (the same command on a two-line file): {startup:.2f} CPU s\n")
        peers = [label for label in PEERS if any(label in t for t in totals.values())]
        print(
            "| set | MB | CPU s | MB/s | "
            + " | ".join(f"{SHORT[p]} / command" for p in peers)
            + " |"
        )
        print("|---|---:|---:|---:|" + "---:|" * len(peers))
        refused: list[str] = []
        for set_name, rows in prepared.items():
            if not rows:
                continue
            source = rows[0][0].parent
            size = sum(p.stat().st_size for p, _ in rows) / MB
            out = folder / f"{set_name}.jsonl"
            runs = [
                run_cli(["chunk", str(source), *options, "--keep-going", "--output", str(out)])
                for _ in range(rounds)
            ]
            seconds = min(run[0] for run in runs)
            refused.extend(f"{set_name}: {line}" for line in runs[0][1].splitlines()[:3])
            found = totals.get(set_name, {})
            ratios = [f"{found[p] / seconds:.2f}" if p in found else "" for p in peers]
            print(
                f"| {set_name} ({len(rows)} files) | {size:.2f} | {seconds:.2f} "
                f"| {size / seconds:.2f} | " + " | ".join(ratios) + " |",
                flush=True,
            )
        for line in refused:
            print(f"\nthe command (--keep-going) said: {line}")
    print(
        "\n(the peers' columns: their in-process CPU totals (chars counter) over the same "
        "files, from the files section, over the command's CPU seconds, start-up included)"
    )


# ---------------------------------------------------------------- scaling section


def scaling_unit(prepared: dict[str, list[tuple[Path, str]]]) -> str:
    """About 1 MiB of real Python: the ``python-non-ascii`` and ``python`` sets' files
    (prepared: one in four CRLF) taken in turn, each ending in a line end."""
    queues = [[p for p, _ in prepared.get(name, [])] for name in ("python-non-ascii", "python")]
    parts: list[str] = []
    total = 0
    while total < MIB and any(queues):
        for queue in queues:
            if queue and total < MIB:
                text = queue.pop(0).read_bytes().decode("utf-8")
                if not text.endswith("\n"):
                    text += "\r\n" if "\r\n" in text else "\n"
                parts.append(text)
                total += len(text.encode("utf-8"))
    return "".join(parts)


def big_file(unit: str, size: int) -> str:
    """``unit`` repeated whole to about ``size`` bytes (at least once)."""
    return unit * max(1, round(size / len(unit.encode("utf-8"))))


def worker(label: str, key: str, path: Path) -> None:
    """In a fresh process: make the contender, then print its CPU seconds, the peak RSS
    the call added, and its chunks (the file is read inside the call)."""
    CODE_READY[0] = code_ready() is None
    call = {**CHUNKSPEC, **PEERS}[label](key)
    if call is None:
        raise SystemExit(f"{label} does not run with {key}")
    language = language_of(path) or "python"
    gc.collect()
    reset = _reset_peak()
    baseline = _rss_now()
    seconds, result = cpu(lambda: call(path, language))
    peak = _peak() if reset else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    count = len(result) if hasattr(result, "__len__") else 1
    print(json.dumps({"cpu": seconds, "memory": max(0, peak - baseline), "items": count}))


def measure(label: str, key: str, path: Path) -> tuple[float, int, int]:
    """CPU seconds, working bytes and chunks of ``label`` on ``path``, in a fresh process."""
    done = subprocess.run(
        [sys.executable, __file__, "--worker", label, key, str(path)],
        check=True,
        env=ENV,
        capture_output=True,
        text=True,
    )
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    return answer["cpu"], answer["memory"], answer["items"]


def measure_capped(label: str, key: str, path: Path, limit: float) -> tuple[float, int, int] | None:
    """:func:`measure` with the child's CPU time capped at ``limit`` seconds
    (``RLIMIT_CPU``); None when the cap stopped it."""

    def cap() -> None:
        seconds = int(limit) + 1
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 5))

    done = subprocess.run(
        [sys.executable, __file__, "--worker", label, key, str(path)],
        env=ENV,
        capture_output=True,
        text=True,
        preexec_fn=cap,
    )
    if done.returncode != 0:
        if done.returncode < 0 or "SIGXCPU" in done.stderr:
            return None
        raise RuntimeError(f"{label} on {path.name}: {done.stderr.strip()[-200:]}")
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    return answer["cpu"], answer["memory"], answer["items"]


def large_section(rows: list[tuple[Path, str]], labels: list[str], limit: float) -> None:
    """Print each contender on each of the largest real files, a fresh process each, its
    CPU time capped at ``limit`` seconds."""
    print(
        f"\n### large, counter chars (chars1, 2048): {describe(rows)}; one fresh process per "
        f"contender and file (reading the file inside the call), CPU capped at {limit:g} s\n"
    )
    print(
        "| file | MB | non-ASCII | "
        + " | ".join(f"{SHORT[x]} s (mem/input)" for x in labels)
        + " |"
    )
    print("|---|---:|---:|" + "---:|" * len(labels))
    for path, language in rows:
        text = path.read_bytes().decode("utf-8")
        cells = []
        for label in labels:
            try:
                found = measure_capped(label, "chars", path, limit)
            except RuntimeError as error:
                said = str(error)
                last = said.strip().splitlines()[-1] if said.strip() else said
                cells.append("—" if "has no" in said else f"error: {last[-60:]}")
                continue
            if found is None:
                cells.append(f"> {limit:g}")
            else:
                cells.append(f"{found[0]:.2f} ({found[1] / path.stat().st_size:.0f}x)")
        name = path.name.split("-", 1)[1]
        print(
            f"| {name} ({language}) | {path.stat().st_size / MB:.2f} "
            f"| {sum(not c.isascii() for c in text) / len(text):.0%} | " + " | ".join(cells) + " |",
            flush=True,
        )


def measure_cli(path: Path, folder: Path) -> tuple[float, int, int]:
    """CPU seconds and peak RSS of ``chunkspec chunk FILE`` (the child's), and its records."""
    out = folder / "out.jsonl"
    seconds, _, peak = run_cli(["chunk", str(path), *cli_options(), "--output", str(out)])
    with out.open("rb") as lines:
        count = sum(1 for _ in lines)
    out.unlink()
    return seconds, peak, count


COMMAND = "chunkspec chunk FILE (command)"


def projected(cells: list[tuple[float, float, int]], sizes: list[float]) -> float:
    """The next size's seconds, projected by the last step's growth (time over size when
    there is one step only: linear)."""
    n = len(cells)
    last = cells[-1][0]
    if n >= 2 and cells[-2][0] > 0.05:
        return (
            last * last / cells[-2][0] * (sizes[n] / sizes[n - 1]) / (sizes[n - 1] / sizes[n - 2])
        )
    return last * sizes[n] / sizes[n - 1]


def scaling_section(
    prepared: dict[str, list[tuple[Path, str]]], sizes: list[float], limit: float
) -> None:
    """Print the scaling table: one fresh process per contender and size."""
    unit = scaling_unit(prepared)
    if not unit:
        print("\n(no Python files: the scaling section is skipped)")
        return
    print(
        f"\n## One Python file from {sizes[0]:g} to {sizes[-1]:g} MiB (real files "
        f"concatenated; a fresh process per contender and size; counter chars, 2048; a "
        f"contender whose next size projects over {limit:g} s is stopped)\n"
    )
    labels = [
        *(["chunkspec code"] if CODE_READY[0] else []),
        "chunkspec window",
        COMMAND,
        "tree-sitter parse alone",
        "text-splitter CodeSplitter",
        "LlamaIndex CodeSplitter",
        "astchunk ASTChunkBuilder",
    ]
    with tempfile.TemporaryDirectory(prefix="bench-code-scaling-") as name:
        folder = Path(name)
        paths = []
        for size in sizes:
            path = folder / f"big-{size:g}MiB.py"
            path.write_bytes(big_file(unit, int(size * MIB)).encode("utf-8"))
            paths.append(path)
        print(
            f"input: {', '.join(f'{p.stat().st_size / MIB:.2f}' for p in paths)} MiB; "
            f"{sum(not c.isascii() for c in unit) / len(unit):.1%} of the characters "
            f"non-ASCII, {unit.count(chr(13)) / max(unit.count(chr(10)), 1):.0%} of line ends "
            f"CRLF\n"
        )
        head = " | ".join(f"{s:g} MiB s" for s in sizes)
        per = " | ".join(f"s/MiB {s:g}" for s in sizes)
        mem = " | ".join(f"mem/input {s:g}" for s in sizes)
        print(f"| contender | {head} | {per} | {mem} | chunks (largest size run) |")
        print("|---|" + "---:|" * (3 * len(sizes) + 1), flush=True)
        tiny = folder / "tiny.py"
        tiny.write_text("def f():\n    return 1\n", encoding="utf-8")
        for label in labels:
            cells: list[tuple[float, float, int]] = []
            stopped = ""
            try:
                baseline = measure_cli(tiny, folder)[1] if label == COMMAND else 0
                for size, path in zip(sizes, paths, strict=True):
                    if stopped:
                        break
                    if label == COMMAND:
                        seconds, memory, count = measure_cli(path, folder)
                        memory = max(0, memory - baseline)
                    else:
                        seconds, memory, count = measure(label, "chars", path)
                    cells.append((seconds, memory / path.stat().st_size, count))
                    if len(cells) < len(sizes) and projected(cells, sizes) > limit:
                        stopped = f"{size:g}"
            except subprocess.CalledProcessError as error:
                print(f"| {label} | failed: {error.stderr.strip().splitlines()[-1][:120]} |")
                continue
            n = len(cells)
            missing = ["—"] * (len(sizes) - n)
            times = [f"{c[0]:.2f}" for c in cells] + missing
            per_mib = [
                f"{c[0] / (p.stat().st_size / MIB):.3f}"
                for c, p in zip(cells, paths[:n], strict=True)
            ] + missing
            mems = [f"{c[1]:.1f}" for c in cells] + missing
            note = f" (stopped after {stopped} MiB)" if stopped and n < len(sizes) else ""
            print(
                f"| {label}{note} | "
                + " | ".join(times + per_mib + mems)
                + f" | {cells[-1][2]:,} |",
                flush=True,
            )
    print(
        "\n(memory: peak RSS during the call minus the RSS before it, over the file's bytes; "
        "the command's: its peak RSS minus the same command's on a two-line file)"
    )


# ---------------------------------------------------------------- ingest section


def ingest_once(tree: Path, out: Path, options: list[str]) -> tuple[float, float, str, str]:
    """One ``chunkspec ingest`` run: CPU seconds (the command's and its workers'), wall
    seconds, its summary line and its standard error; raises on an exit other than 0/2."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "chunkspec", "ingest", str(tree), *options, "--out", str(out)],
        env=ENV,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 2):
        raise RuntimeError(f"ingest exit {done.returncode}: {done.stderr.strip()[-300:]}")
    summary = (done.stdout.strip().splitlines() or [""])[-1]
    return seconds, wall, summary, done.stderr


def ingest_section(trees: dict[str, Path], repos: list[str], workers: int) -> None:
    """Print ``chunkspec ingest TREE --strategy code`` over whole unpacked sdists."""
    options = [*cli_options(), "--format", "jsonl", "--workers", str(workers)]
    walk = repository_walk()
    globs: tuple[str | None, ...] = (None,) if walk else SUFFIX_GLOBS
    shown = " ".join(options)
    if walk:
        print(f"\n## A whole repository: `python -m chunkspec ingest TREE {shown} --out DIR`\n")
    else:
        print(
            f"\n## A whole repository: `python -m chunkspec ingest TREE {shown} --glob G --out "
            f"DIR`, once for each G in {', '.join(SUFFIX_GLOBS)} (this checkout's folder walk "
            "takes no code files by itself), summed\n"
        )
    print(
        "| tree | files in tree | MiB in tree | files chunked | MiB chunked | error rows "
        "| records | CPU s | wall s | files/s (CPU) | MiB/s (CPU) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for repo in repos:
        tree = trees.get(repo)
        if tree is None:
            print(f"| {repo} | not in the cache | | | | | | | | | |")
            continue
        every = [p for p in tree.rglob("*") if p.is_file()]
        documents: set[str] = set()
        errors: set[str] = set()
        kinds: Counter[str] = Counter()
        records = 0
        seconds = wall = 0.0
        said: list[str] = []
        try:
            for glob in globs:
                if glob and not any(tree.rglob(glob)):
                    continue  # no such files: the command would refuse the empty input
                with tempfile.TemporaryDirectory(prefix="bench-code-ingest-") as name:
                    out = Path(name) / "out"
                    extra = ["--glob", glob] if glob else []
                    cpu_s, wall_s, summary, stderr = ingest_once(tree, out, [*options, *extra])
                    seconds += cpu_s
                    wall += wall_s
                    said.append(summary)
                    said.extend(line for line in stderr.splitlines() if " skipped " in line)
                    for part in sorted(out.glob("part-*.jsonl")):
                        with part.open(encoding="utf-8") as lines:
                            for line in lines:
                                row = json.loads(line)
                                source = str(row.get("source") or row.get("doc_id"))
                                if row.get("error"):
                                    errors.add(source)
                                    kinds[str(row["error"]).rpartition(": ")[2][:60]] += 1
                                else:
                                    documents.add(source)
                                    records += 1
        except RuntimeError as error:
            print(f"| {repo} | {str(error)[:300]} | | | | | | | | | |")
            continue
        chunked = 0
        for source in documents:
            candidate = Path(source)
            if not candidate.is_absolute():
                candidate = tree / source
            if candidate.is_file():
                chunked += candidate.stat().st_size
        size = sum(p.stat().st_size for p in every)
        print(
            f"| {repo} | {len(every):,} | {size / MIB:.1f} | {len(documents):,} "
            f"| {chunked / MIB:.1f} | {len(errors):,} | {records:,} | {seconds:.1f} | {wall:.1f} "
            f"| {len(documents) / max(seconds, 1e-9):.1f} "
            f"| {chunked / MIB / max(seconds, 1e-9):.2f} |",
            flush=True,
        )
        print(
            f"\n{repo}: error rows: "
            + (", ".join(f"{n} {why}" for why, n in kinds.most_common(6)) or "none")
        )
        for line in said:
            if line.strip():
                print(f"\n(ingest on {repo} said: {line.strip()[:240]})")
        print()


# ---------------------------------------------------------------- main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("files", "cli", "scaling", "ingest"), action="append")
    parser.add_argument("--counters", default="chars,words,tiktoken")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (files, cli)")
    parser.add_argument("--cap", type=float, default=1.0, help="MB of files per set")
    parser.add_argument("--set", action="append", help="sets to run (python, c, ..., large)")
    parser.add_argument(
        "--sizes",
        default=os.environ.get("CHUNKSPEC_BENCH_CODE_SIZES", "1,4,16"),
        help="MiB, for scaling (64 MiB: --sizes 1,4,16,64 or CHUNKSPEC_BENCH_CODE_SIZES)",
    )
    parser.add_argument("--limit", type=float, default=60.0, help="seconds; see scaling")
    parser.add_argument("--repos", default="pydantic-core,numpy", help="trees for ingest")
    parser.add_argument("--workers", type=int, default=1, help="ingest --workers")
    parser.add_argument("--offline", action="store_true", help="never download")
    parser.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker[0], args.worker[1], Path(args.worker[2]))
        return 0
    only = set(args.only or ("files", "cli", "scaling", "ingest"))
    missing_code = code_ready()
    CODE_READY[0] = missing_code is None
    load = os.getloadavg()
    print(
        f"# Code benchmark, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, Python "
        f"{sys.version.split()[0]}, {os.cpu_count()} CPUs, load {load[0]:.2f}",
        flush=True,
    )
    if missing_code:
        print(
            f"(chunkspec's code strategy is not in this checkout: {missing_code}; its rows "
            "are left out, the files are read as text for recursive and window)"
        )
    trees, missing = ensure(offline=args.offline)
    print(f"sources: {cache_root()} ({len(trees)} of {len(SOURCES)} cached)")
    for line in missing:
        print(f"(SOURCE MISSING: {line}; its sets are smaller or left out)")
    if not trees:
        print("(no sources: nothing to run; run once with network to fill the cache)")
        return 1
    for source in SOURCES:
        if source.name in trees:
            print(
                f"- {source.name}: {source.registry} {source.package} {source.version} "
                f"({source.filename}), {source.licence}"
            )
    sets = code_sets(trees, int(args.cap * MB))
    if args.set:
        sets = [s for s in sets if s.name in args.set]
    keys = [k for k in args.counters.split(",") if k]
    if "tiktoken" in keys and (why := tiktoken_ready()):
        print(f"(tiktoken counter left out: {why})")
        keys.remove("tiktoken")
    with tempfile.TemporaryDirectory(prefix="bench-code-") as name:
        prepared = prepare(sets, Path(name))
        totals: dict[str, dict[str, float]] = {}
        if "files" in only:
            print("\n## Real files, one at a time, side by side")
            for key in keys:
                made = contenders(key)
                for code_set in sets:
                    if code_set.name == "large":
                        if key == "chars":  # a peer may take minutes: capped, one by one
                            large_section(prepared["large"], list(made), args.limit)
                        continue
                    found = files_section(
                        code_set.name, prepared[code_set.name], key, made, args.rounds
                    )
                    if key == "chars":
                        totals[code_set.name] = found
        if "cli" in only:
            cli_section(prepared, totals, args.rounds)
        if "scaling" in only:
            python_sets = prepare(  # the same unit whatever --cap and --set say
                [s for s in code_sets(trees, MB) if s.name.startswith("python")],
                Path(name) / "scaling-input",
            )
            sizes = [float(s) for s in args.sizes.split(",")]
            scaling_section(python_sets, sizes, args.limit)
        if "ingest" in only:
            ingest_section(ready_trees(), args.repos.split(","), args.workers)
    print(f"\n# done {time.strftime('%H:%M UTC', time.gmtime())}, load {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
