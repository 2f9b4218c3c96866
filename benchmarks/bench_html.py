"""HTML: chunkspec beside LangChain's and unstructured's HTML chunkers, on the same real pages,
side by side in one run (docs/performance.md, "HTML").

Run with ``nox -s bench -- html`` or ``python benchmarks/bench_html.py [--only
pages|cli|scaling|entities] [--rounds N] [--sizes 1,4,16,64] [--limit SECONDS]``. Four
sections:

- **pages**: every page of each page set, one at a time: the Node.js API docs
  (``/usr/share/doc/nodejs/api/*.html`` but ``all.html``, Debian's ``nodejs-doc``) and every
  other ``*.html`` under ``/usr/share/doc`` (Debian packages' manuals). A set missing on the
  machine is said and skipped; nothing is fetched. Contenders, each given the file's path:
  ``chunk_document(read_document(path), strategy=..., max_tokens=512)`` for ``heading`` and
  ``structural`` (and ``read_document`` alone), LangChain's
  ``HTMLHeaderTextSplitter(h1..h3).split_text``, its
  ``HTMLSemanticPreservingSplitter(h1..h3, max_chunk_size=2048)`` and unstructured's
  ``chunk_by_title(partition_html(text=...), max_characters=2048)`` (a peer's call includes
  reading and decoding the file: UTF-8, else Latin-1). CPU seconds per file, best of
  ``--rounds`` interleaved rounds (each round runs every contender on every file, in turn,
  the collector on as users run it); per set the totals, MB/s and every peer's time over
  each chunkspec entry point's.
- **cli**: ``python -m chunkspec chunk FOLDER --glob '*.html' --keep-going`` once over a
  folder holding each set's pages: CPU seconds of the child (``RUSAGE_CHILDREN``),
  interpreter start-up included, and the same command on a one-paragraph page beside it
  (the start-up alone); the pages it refuses are listed.
- **scaling**: one page of 1, 4, 16 and 64 MiB (``--sizes``), made of real page bodies: the
  module sections of the Node.js docs' ``all.html`` in turn (one in four with CRLF line
  ends), each followed by a hand-written section of paragraphs, a list, a table and a code
  block in Russian, Hindi, Chinese and Arabic (no-break spaces, CRLF line ends), wrapped in
  ``all.html``'s own ``<head>``. Each contender runs on each size in a fresh process (reading
  the file is part of the call): CPU seconds, seconds per MiB (flat means linear) and peak
  RSS during the call over the input's bytes. A contender that took more than ``--limit``
  seconds (60) at one size is not run at the larger ones; the table says where it stopped.

unstructured classifies text with a spaCy pipeline (``en_core_web_sm``) that it downloads
from GitHub on first use; this machine reaches PyPI only, so when the model is not installed
the benchmark gives unstructured spaCy's blank English pipeline with its rule-based
sentencizer (no weights: tokenizer and sentence splitting only). The tagger and parser it
would run cost more, so unstructured's times here are a lower bound of its real ones.
Nothing is asserted: performance is measured, not gated.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from benchmarks.bench_scaling import _peak, _reset_peak, _rss_now  # noqa: E402

MB = 1_000_000
MIB = 1 << 20
NODE_DOCS = Path("/usr/share/doc/nodejs/api")
DEBIAN_DOCS = Path("/usr/share/doc")
ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)]),
    # unstructured's usage ping and notice: off (the machine has no network but PyPI)
    "DO_NOT_TRACK": "1",
    "SCARF_NO_ANALYTICS": "1",
    "UNSTRUCTURED_DISABLE_NOTICE": "1",
}
os.environ.update({key: ENV[key] for key in ("DO_NOT_TRACK", "SCARF_NO_ANALYTICS")})
os.environ["UNSTRUCTURED_DISABLE_NOTICE"] = "1"

#: The headings LangChain's splitters split on (h4-h6 stay inside their section).
HEADERS = [("h1", "h1"), ("h2", "h2"), ("h3", "h3")]
#: The peers' chunk size in characters: about chunkspec's 512 tokens (4 characters a token).
PEER_CHARACTERS = 2048
MAX_TOKENS = 512


# ---------------------------------------------------------------- pages


def page_sets() -> dict[str, list[Path]]:
    """The page sets on this machine (a missing one is said and left out)."""
    sets: dict[str, list[Path]] = {}
    node = sorted(p for p in NODE_DOCS.glob("*.html") if p.name != "all.html")
    if node:
        sets["nodejs"] = node
    else:
        print(f"(no Node.js HTML docs at {NODE_DOCS}: Debian's nodejs-doc; set skipped)")
    debian = sorted(
        p
        for p in DEBIAN_DOCS.rglob("*.html")
        if NODE_DOCS not in p.parents and p.is_file() and not p.is_symlink()
    )
    if debian:
        sets["debian"] = debian
    else:
        print(f"(no other *.html under {DEBIAN_DOCS}; set skipped)")
    return sets


def decode(raw: bytes) -> str:
    """A peer's text of a page: UTF-8, else Latin-1 (the peers take ``str``)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


#: Hand-written paragraphs in four scripts, LF line ends here (CRLF in the page built).
MULTILINGUAL = """<section lang="ru"><h3>Как читать эту документацию</h3>
<p>Каждый раздел начинается с краткого описания модуля, за которым следуют примеры кода
и&nbsp;таблицы параметров. Если пример не работает в\u00a0вашей версии, проверьте индекс
стабильности в&nbsp;начале страницы.</p>
<p>Длинные страницы удобнее читать по частям: поиск по заголовкам ведёт прямо к нужному
методу, а&nbsp;ссылки «см.\u00a0также» — к соседним разделам.</p>
<table><tr><th>Параметр</th><th>Тип</th><th>Описание</th></tr>
<tr><td>кодировка</td><td>строка</td><td>Кодировка файла, по\u00a0умолчанию UTF-8.</td></tr>
<tr><td>флаг</td><td>строка</td><td>Режим открытия файла, например «r» или\u00a0«w».</td></tr>
</table>
<pre><code>const текст = fs.readFileSync('файл.txt', 'utf8');
console.log(текст.length);</code></pre>
</section>
<section lang="hi"><h3>इस दस्तावेज़ को कैसे पढ़ें</h3>
<p>हर खंड मॉड्यूल के छोटे परिचय से शुरू होता है, उसके बाद कोड के उदाहरण और&nbsp;विकल्पों
की तालिकाएँ आती हैं। अगर कोई उदाहरण आपके संस्करण में नहीं चलता, तो पृष्ठ की शुरुआत
में\u00a0स्थिरता सूचकांक देखें।</p>
<p>लंबे पृष्ठों को हिस्सों में पढ़ना आसान है: शीर्षकों से खोज सीधे सही विधि तक ले जाती है,
और&nbsp;«यह भी देखें» कड़ियाँ पास के खंडों तक।</p>
<ul><li>फ़ाइल सिस्टम: फ़ाइलें पढ़ना और\u00a0लिखना।</li>
<li>नेटवर्क: सर्वर और क्लाइंट बनाना।</li></ul>
</section>
<section lang="zh"><h3>如何阅读本文档</h3>
<p>每个章节先简要介绍模块，然后给出代码示例和参数表。如果示例在您的版本中无法运行，
请查看页面开头的稳定性指数。</p>
<p>较长的页面适合分段阅读：按标题搜索可以直接找到所需的方法，“另请参阅”链接则指向
相邻的章节。版本\u00a0v20&nbsp;中的行为与之前的版本相同。</p>
<ul><li>文件系统：读取和写入文件。</li><li>网络：创建服务器和客户端。</li></ul>
</section>
<section lang="ar" dir="rtl"><h3>كيف تقرأ هذا التوثيق</h3>
<p>يبدأ كل قسم بوصف موجز للوحدة، تليه أمثلة على الشيفرة وجداول&nbsp;المعاملات. إذا لم يعمل
مثال ما في\u00a0إصدارك، فراجع مؤشر الاستقرار في أعلى الصفحة.</p>
<p>من الأسهل قراءة الصفحات الطويلة على أجزاء: البحث في العناوين يقود مباشرة إلى الطريقة
المطلوبة، وروابط «انظر\u00a0أيضًا» إلى الأقسام المجاورة.</p>
<table><tr><th>المعامل</th><th>النوع</th></tr><tr><td>الترميز</td><td>نص</td></tr></table>
</section>
"""


def multilingual_section(index: int) -> str:
    """The four-script section, as its own ``h2`` section, with CRLF line ends."""
    body = f"<section><h2>Translations {index}</h2>\n{MULTILINGUAL}</section>\n"
    return body.replace("\n", "\r\n")


def node_sections() -> tuple[str, list[str]]:
    """``all.html``'s ``<head>`` and its module sections (raw markup, cut before each
    top-level ``<section><h2>``; the table of contents before them left out)."""
    text = (NODE_DOCS / "all.html").read_text(encoding="utf-8")
    head = text[: text.index("</head>") + len("</head>")]
    start = text.index('id="apicontent">') + len('id="apicontent">')
    end = text.rindex("</div>", start, text.rindex("</body>"))
    content = text[start:end]
    cuts = [m.start() for m in re.finditer(r"<section><h2>", content)]
    pieces = [content[a:b] for a, b in zip(cuts, [*cuts[1:], len(content)], strict=True)]
    return head, [piece for piece in pieces if piece.strip()]


def with_translations(piece: str, every: int = 6) -> str:
    """``piece`` with the four-script sections (CRLF line ends) after every ``every``-th
    ``</section>`` in it: inside the module, beside its own subsections."""
    translated = MULTILINGUAL.replace("\n", "\r\n")
    parts = piece.split("</section>")
    out = [parts[0]]
    for k, part in enumerate(parts[1:], 1):
        out.append("</section>")
        if k % every == 0:
            out.append(translated)
        out.append(part)
    return "".join(out)


def page_unit() -> tuple[str, str]:
    """``all.html``'s ``<head>`` and about 1 MiB of its module sections in a fixed shuffled
    order (one in four with CRLF line ends), each with the four-script sections inside it
    and one more after it."""
    head, pieces = node_sections()
    random.Random(7).shuffle(pieces)
    parts: list[str] = []
    total = 0
    for k, piece in enumerate(pieces):
        if total >= MIB:
            break
        piece = with_translations(piece)
        if k % 4 == 3:
            piece = piece.replace("\r\n", "\n").replace("\n", "\r\n")
        parts.extend((piece, multilingual_section(k)))
        total += len(piece.encode("utf-8")) + len(parts[-1].encode("utf-8"))
    return head, "".join(parts)


def big_page(size: int) -> str:
    """One page of about ``size`` bytes: :func:`page_unit`'s head and its 1 MiB of sections
    repeated (whole copies, at least one), so every size is the same content per MiB and a
    step's time per MiB measures the code, not a change of content."""
    head, unit = page_unit()
    copies = max(1, round(size / len(unit.encode("utf-8"))))
    return "".join(
        [
            head,
            '\n<body><div role="main" id="apicontent">\n',
            unit * copies,
            "</div></body></html>\n",
        ]
    )


# ---------------------------------------------------------------- contenders


def chunkspec_ready() -> str | None:
    """None when this checkout's chunkspec reads HTML; else why not."""
    try:
        from chunkspec import read_document
    except ImportError as error:
        return f"chunkspec not importable: {error}"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "probe.html"
        path.write_text("<!doctype html><title>t</title><h1>A</h1><p>b</p>", encoding="utf-8")
        try:
            document = read_document(str(path))
        except Exception as error:  # the reader is not in this checkout yet
            return f"read_document refuses .html here ({type(error).__name__}: {error})"
        if getattr(document, "format", None) != "html":
            return f"read_document reads .html as {getattr(document, 'format', '?')!r}"
    return None


def _chunkspec(strategy: str | None) -> Callable[[], Callable[[Path], Any]]:
    """chunk_document(read_document(path), strategy=..., max_tokens=512); None: read only."""

    def make() -> Callable[[Path], Any]:
        from chunkspec import chunk_document, read_document

        if strategy is None:
            return lambda path: read_document(str(path))
        return lambda path: chunk_document(
            read_document(str(path)), strategy=strategy, max_tokens=MAX_TOKENS
        )

    return make


def _parser_alone() -> Callable[[Path], Any]:
    """turbohtml.parse with source locations, as chunkspec's reader calls it: the parser's
    share of chunkspec's time and memory."""
    import turbohtml

    return lambda path: turbohtml.parse(
        path.read_bytes().decode("utf-8", "replace").replace("\r\n", "\n"),
        source_locations=True,
    )


def _header_splitter() -> Callable[[Path], Any]:
    """LangChain HTMLHeaderTextSplitter(h1..h3).split_text."""
    from langchain_text_splitters import HTMLHeaderTextSplitter

    splitter = HTMLHeaderTextSplitter(headers_to_split_on=HEADERS)
    return lambda path: splitter.split_text(decode(path.read_bytes()))


def _semantic_splitter() -> Callable[[Path], Any]:
    """LangChain HTMLSemanticPreservingSplitter(h1..h3, max_chunk_size=2048).split_text."""
    import warnings

    from langchain_text_splitters import HTMLSemanticPreservingSplitter

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "in beta"
        splitter = HTMLSemanticPreservingSplitter(HEADERS, max_chunk_size=PEER_CHARACTERS)
    return lambda path: splitter.split_text(decode(path.read_bytes()))


def unstructured_pipeline() -> str:
    """Give unstructured its spaCy pipeline: the real model when installed, else spaCy's
    blank English one with the rule-based sentencizer; return which."""
    import spacy
    from unstructured.nlp import tokenize

    if spacy.util.is_package("en_core_web_sm"):
        return "en_core_web_sm"
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    tokenize._get_nlp = lambda: nlp  # instead of downloading en_core_web_sm
    return "spacy.blank('en') + sentencizer (en_core_web_sm needs a download)"


def _unstructured() -> Callable[[Path], Any]:
    """unstructured chunk_by_title(partition_html(text=...), max_characters=2048)."""
    unstructured_pipeline()
    from unstructured.chunking.title import chunk_by_title
    from unstructured.partition.html import partition_html

    return lambda path: chunk_by_title(
        partition_html(text=decode(path.read_bytes())), max_characters=PEER_CHARACTERS
    )


#: label -> a maker of the call on a path; chunkspec's first (the peers' ratios are over them).
CHUNKSPEC: dict[str, Callable[[], Callable[[Path], Any]]] = {
    "chunkspec heading": _chunkspec("heading"),
    "chunkspec structural": _chunkspec("structural"),
    "chunkspec read_document": _chunkspec(None),
    "turbohtml.parse (chunkspec's parser)": _parser_alone,
}
PEERS: dict[str, Callable[[], Callable[[Path], Any]]] = {
    "LangChain HTMLHeaderTextSplitter": _header_splitter,
    "LangChain HTMLSemanticPreservingSplitter": _semantic_splitter,
    "unstructured partition_html+chunk_by_title": _unstructured,
}
#: The chunkspec entry points the peers' ratios are taken over.
BASES = ("chunkspec heading", "chunkspec structural")


def contenders(with_chunkspec: bool) -> dict[str, Callable[[Path], Any]]:
    """Every contender whose package is installed, made (imports done, splitters built)."""
    made: dict[str, Callable[[Path], Any]] = {}
    makers = {**(CHUNKSPEC if with_chunkspec else {}), **PEERS}
    for label, make in makers.items():
        try:
            made[label] = make()
        except ImportError as error:
            print(f"({label}: not installed: {error})")
    return made


def cpu(fn: Callable[[], object]) -> tuple[float, object]:
    """CPU seconds of ``fn()`` (this process, ``time.process_time``) and its result."""
    t0 = time.process_time()
    result = fn()
    return time.process_time() - t0, result


# ---------------------------------------------------------------- pages section


def pages_section(
    name: str, files: list[Path], made: dict[str, Callable[[Path], Any]], rounds: int
) -> dict[str, float]:
    """Print one page set's per-file and total tables; return each contender's total CPU."""
    best: dict[str, dict[Path, float]] = {label: {} for label in made}
    chunks: dict[str, dict[Path, int]] = {label: {} for label in made}
    failed: dict[str, dict[Path, str]] = {label: {} for label in made}
    for _ in range(rounds):
        for label, call in made.items():
            gc.collect()  # once per contender and round: a full collection per page costs
            for path in files:  # more than most pages' chunking on this heap
                if path in failed[label]:
                    continue
                try:
                    seconds, result = cpu(lambda: call(path))  # noqa: B023
                except Exception as error:  # a peer that cannot take a page: said, not fatal
                    failed[label][path] = f"{type(error).__name__}: {str(error)[:80]}"
                    continue
                chunks[label][path] = len(result) if hasattr(result, "__len__") else 1
                best[label][path] = min(seconds, best[label].get(path, float("inf")))
    good = [p for p in files if all(p in best[label] for label in made)]
    size = {p: p.stat().st_size for p in files}
    total_bytes = sum(size[p] for p in good)
    load = os.getloadavg()
    print(
        f"\n### {name}: {len(files)} pages, {sum(size.values()) / MB:.2f} MB; best of "
        f"{rounds} interleaved rounds; load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}\n"
    )
    labels = list(made)
    short = {label: _short(label) for label in labels}
    print("| page | KB | " + " | ".join(f"{short[label]} ms" for label in labels) + " |")
    print("|---|---:|" + "---:|" * len(labels))
    for path in files:
        cells = []
        for label in labels:
            if path in failed[label]:
                cells.append("error")
            else:
                cells.append(f"{1000 * best[label][path]:.1f}")
        shown = path.relative_to(NODE_DOCS if name == "nodejs" else DEBIAN_DOCS)
        print(f"| {shown} | {size[path] / 1000:.1f} | " + " | ".join(cells) + " |")
    for label in labels:
        for path, why in failed[label].items():
            print(f"\n{label} failed on {path}: {why}")
    print(
        f"\nTotals over the {len(good)} pages every contender took ({total_bytes / MB:.2f} MB):\n"
    )
    bases = [b for b in BASES if b in made]
    print(
        "| contender | CPU s | MB/s | chunks | "
        + " | ".join(f"time / {b.split()[-1]} (total) | (median page)" for b in bases)
        + " |"
    )
    print("|---|---:|---:|---:|" + "---:|---:|" * len(bases))
    totals = {label: sum(best[label][p] for p in good) for label in labels}
    for label in labels:
        ratios = []
        for b in bases:
            per_page = (
                statistics.median(best[label][p] / max(best[b][p], 1e-9) for p in good)
                if good
                else float("nan")
            )
            ratios.append(f"{totals[label] / max(totals[b], 1e-9):.2f} | {per_page:.2f}")
        count = sum(chunks[label].get(p, 0) for p in good)
        print(
            f"| {label} | {totals[label]:.2f} | {total_bytes / MB / max(totals[label], 1e-9):.2f} "
            f"| {count:,} | " + " | ".join(ratios) + " |",
            flush=True,
        )
    return totals


def _short(label: str) -> str:
    """A column name for a contender."""
    return {
        "chunkspec heading": "heading",
        "chunkspec structural": "structural",
        "chunkspec read_document": "read",
        "turbohtml.parse (chunkspec's parser)": "parse",
        "LangChain HTMLHeaderTextSplitter": "LC header",
        "LangChain HTMLSemanticPreservingSplitter": "LC semantic",
        "unstructured partition_html+chunk_by_title": "unstructured",
    }.get(label, label)


# ---------------------------------------------------------------- cli section


def run_cli(arguments: list[str]) -> tuple[float, str]:
    """CPU seconds of ``python -m chunkspec ARGUMENTS`` (child's user + system time) and
    what it wrote to standard error when it exited 2 (``--keep-going``: bad inputs listed)."""
    script = (
        "import resource, subprocess, sys, json\n"
        "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,"
        " text=True)\n"
        "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "print(json.dumps({'cpu': u.ru_utime + u.ru_stime, 'code': r.returncode,"
        " 'err': r.stderr}))\n"
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
    return float(answer["cpu"]), answer["err"] if answer["code"] else ""


def cli_section(
    sets: dict[str, list[Path]], totals: dict[str, dict[str, float]], rounds: int
) -> None:
    """Print ``chunkspec chunk FOLDER`` once per set beside the peers' in-process totals."""
    print("\n## The command: `python -m chunkspec chunk FOLDER --glob '*.html' --keep-going`\n")
    with tempfile.TemporaryDirectory(prefix="bench-html-") as name:
        folder = Path(name)
        tiny = folder / "tiny.html"
        tiny.write_text(
            "<!doctype html><title>t</title><h1>Tiny</h1><p>One paragraph.</p>", encoding="utf-8"
        )
        startup = min(
            run_cli(["chunk", str(tiny), "--output", str(folder / "tiny.jsonl")])[0]
            for _ in range(rounds)
        )
        print(f"start-up (the same command on a one-paragraph page): {startup:.2f} CPU s\n")
        peers = [label for label in PEERS if any(label in t for t in totals.values())]
        refused: list[str] = []
        print(
            "| pages | MB | CPU s | MB/s | "
            + " | ".join(f"{_short(p)} / command" for p in peers)
            + " |"
        )
        print("|---|---:|---:|---:|" + "---:|" * len(peers))
        for set_name, files in sets.items():
            pages = folder / set_name
            for k, path in enumerate(files):  # a flat copy: names kept unique
                target = pages / f"{k:04d}-{path.name}"
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, target)
            size = sum(p.stat().st_size for p in files) / MB
            out = folder / f"{set_name}.jsonl"
            runs = [
                run_cli(
                    ["chunk", str(pages), "--glob", "*.html", "--keep-going", "--output", str(out)]
                )
                for _ in range(rounds)
            ]
            seconds = min(cpu for cpu, _ in runs)
            refused.extend(f"{set_name}: {line}" for line in runs[0][1].splitlines())
            found = totals.get(set_name, {})
            ratios = [f"{found[p] / seconds:.2f}" if p in found else "" for p in peers]
            print(
                f"| {set_name} ({len(files)} files) | {size:.2f} | {seconds:.2f} "
                f"| {size / seconds:.2f} | " + " | ".join(ratios) + " |",
                flush=True,
            )
    for line in refused:
        print(f"\nthe command (--keep-going) said: {line}")
    print(
        "\n(the peers' columns: their in-process CPU totals over the same pages, from the "
        "pages section, over the command's CPU seconds start-up included)"
    )


# ---------------------------------------------------------------- scaling section


def worker(label: str, path: Path) -> None:
    """In a fresh process: make the contender, then print its CPU seconds and the peak RSS
    the call added (the file is read inside the call)."""
    call = {**CHUNKSPEC, **PEERS}[label]()
    gc.collect()
    reset = _reset_peak()
    baseline = _rss_now()
    seconds, result = cpu(lambda: call(path))
    peak = _peak() if reset else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    count = len(result) if hasattr(result, "__len__") else 1
    print(json.dumps({"cpu": seconds, "memory": max(0, peak - baseline), "items": count}))


def measure(label: str, path: Path) -> tuple[float, int, int]:
    """CPU seconds, working bytes and chunks of ``label`` on ``path``, in a fresh process."""
    done = subprocess.run(
        [sys.executable, __file__, "--worker", label, str(path)],
        check=True,
        env=ENV,
        capture_output=True,
        text=True,
    )
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    return answer["cpu"], answer["memory"], answer["items"]


def measure_cli(path: Path, folder: Path) -> tuple[float, int, int]:
    """CPU seconds and peak RSS of ``chunkspec chunk FILE`` (the child's), and its records."""
    out = folder / "out.jsonl"
    script = (
        "import resource, subprocess, sys, json\n"
        "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)\n"
        "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "print(json.dumps({'cpu': u.ru_utime + u.ru_stime, 'peak': u.ru_maxrss * 1024}))\n"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            script,
            sys.executable,
            "-m",
            "chunkspec",
            "chunk",
            str(path),
            "--output",
            str(out),
        ],
        check=True,
        env=ENV,
        capture_output=True,
        text=True,
    )
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    with out.open("rb") as lines:
        count = sum(1 for _ in lines)
    out.unlink()
    return answer["cpu"], answer["peak"], count


def scaling_section(sizes: list[float], labels: list[str], limit: float) -> None:
    """Print the scaling table: one fresh process per contender and size."""
    if not NODE_DOCS.joinpath("all.html").is_file():
        print(f"\n(no {NODE_DOCS}/all.html: the scaling section is skipped)")
        return
    print(
        f"\n## One page from 1 to {sizes[-1]:g} MiB (real page bodies; a fresh process per "
        f"contender and size; stop after a size over {limit:g} s)\n"
    )
    with tempfile.TemporaryDirectory(prefix="bench-html-scaling-") as name:
        folder = Path(name)
        paths = []
        for size in sizes:
            path = folder / f"page-{size:g}MiB.html"
            text = big_page(int(size * MIB))
            path.write_bytes(text.encode("utf-8"))
            paths.append(path)
        text = paths[0].read_bytes().decode("utf-8")
        non_ascii = sum(not c.isascii() for c in text)
        print(
            f"input: {', '.join(f'{p.stat().st_size / MIB:.2f}' for p in paths)} MiB; "
            f"{non_ascii / len(text):.1%} of the characters non-ASCII, "
            f"{text.count(chr(13)) / max(text.count(chr(10)), 1):.0%} of line ends CRLF, "
            f"{text.count(chr(0xA0)) + text.count('&nbsp;'):,} no-break spaces at "
            f"{paths[0].stat().st_size / MIB:.2f} MiB\n"
        )
        tiny = folder / "tiny.html"
        tiny.write_text("<!doctype html><title>t</title><p>One paragraph.</p>", encoding="utf-8")
        head = " | ".join(f"{s:g} MiB s" for s in sizes)
        per = " | ".join(f"s/MiB {s:g}" for s in sizes)
        mem = " | ".join(f"mem/input {s:g}" for s in sizes)
        print(f"| contender | {head} | {per} | {mem} | chunks (largest size run) |")
        print("|---|" + "---:|" * (3 * len(sizes) + 1), flush=True)
        for label in labels:
            cells: list[tuple[float, float, int]] = []
            stopped = ""
            baseline = measure_cli(tiny, folder)[1] if label == "chunkspec chunk (command)" else 0
            for size, path in zip(sizes, paths, strict=True):
                if stopped:
                    break
                if label == "chunkspec chunk (command)":
                    seconds, memory, count = measure_cli(path, folder)
                    memory = max(0, memory - baseline)
                else:
                    seconds, memory, count = measure(label, path)
                cells.append((seconds, memory / path.stat().st_size, count))
                if seconds > limit:
                    stopped = f"{size:g}"
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
                + " | ".join(times)
                + " | "
                + " | ".join(per_mib)
                + " | "
                + " | ".join(mems)
                + f" | {cells[-1][2]:,} |",
                flush=True,
            )


def entities_section(made: dict[str, Callable[[Path], Any]], limit: float) -> None:
    """Print each contender's CPU on one paragraph of ``word&amp;x more `` repeated n times
    (n doubling from 625; a contender over ``limit`` seconds is not run at the next n), and
    on the same words as n separate paragraphs: character references inside one text node."""
    print("\n## One text node full of character references: `<p>` + `word&amp;x more ` * n\n")
    counts = (625, 1250, 2500, 5000)
    print("| contender | " + " | ".join(f"n={n} s" for n in counts) + " | 5000 paragraphs s |")
    print("|---|" + "---:|" * (len(counts) + 1))
    with tempfile.TemporaryDirectory(prefix="bench-html-entities-") as name:
        folder = Path(name)
        head = "<!doctype html><title>references</title>"
        for label, call in made.items():
            cells = []
            for n in counts:
                path = folder / f"one-{n}.html"
                path.write_text(head + "<p>" + "word&amp;x more " * n + "</p>", encoding="utf-8")
                gc.collect()
                seconds = cpu(lambda: call(path))[0]  # noqa: B023
                cells.append(f"{seconds:.2f}")
                if seconds > limit:
                    break
            cells += ["—"] * (len(counts) - len(cells))
            apart = folder / "apart.html"
            apart.write_text(head + "<p>word&amp;x more</p>" * counts[-1], encoding="utf-8")
            cells.append(f"{cpu(lambda: call(apart))[0]:.2f}")  # noqa: B023
            print(f"| {label} | " + " | ".join(cells) + " |", flush=True)


# ---------------------------------------------------------------- main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("pages", "cli", "scaling", "entities"), action="append")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (pages, cli)")
    parser.add_argument("--sizes", default="1,4,16,64", help="MiB, for scaling")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds; see scaling")
    parser.add_argument("--set", action="append", help="page sets to run (nodejs, debian)")
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker[0], Path(args.worker[1]))
        return 0
    only = set(args.only or ("pages", "cli", "scaling", "entities"))
    missing = chunkspec_ready()
    load = os.getloadavg()
    print(
        f"# HTML benchmark, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, Python "
        f"{sys.version.split()[0]}, load {load[0]:.2f}; chunk size: chunkspec max_tokens="
        f"{MAX_TOKENS} (whitespace counter), peers {PEER_CHARACTERS} characters",
        flush=True,
    )
    if missing:
        print(f"(chunkspec left out: {missing}; the peers run alone)")
    with contextlib.suppress(ImportError):
        print(f"unstructured's spaCy pipeline: {unstructured_pipeline()}")
    sets = page_sets()
    if args.set:
        sets = {name: files for name, files in sets.items() if name in args.set}
    totals: dict[str, dict[str, float]] = {}
    if only & {"pages", "cli", "entities"}:
        made = contenders(missing is None)
        if "pages" in only:
            print("\n## Real pages, one at a time, side by side")
            for name, files in sets.items():
                totals[name] = pages_section(name, files, made, args.rounds)
    if "cli" in only and missing is None:
        cli_section(sets, totals, args.rounds)
    if "entities" in only:
        entities_section(made, args.limit / 4)
    if "scaling" in only:
        labels = [*(list(CHUNKSPEC) if missing is None else []), *PEERS]
        if missing is None:
            labels.insert(2, "chunkspec chunk (command)")
        scaling_section([float(s) for s in args.sizes.split(",")], labels, args.limit)
    print(f"\n# done {time.strftime('%H:%M UTC', time.gmtime())}, load {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
