"""The npm package's options-object API (NPM-1 to NPM-3), through the shipped build's exports.

``tests/golden/npm_api.json`` states each call and the Python call whose answer it must
return; the corpus test compares ``chunkDocument`` with ``chunk_document`` on every Markdown
file of the repository's docs and examples under every strategy. Skipped without Node.js.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from chunkspec import assemble, chunk_document, document_from_text, split_section
from chunkspec.core import Chunk
from tests import goldens
from tests.typescript_port import Port, built, call_api

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def port() -> Port:
    """Node.js with the port's builds (tests/typescript_port.py)."""
    return built()


def _chunk_wire(chunk: Chunk) -> dict[str, Any]:
    """A seed Chunk under Python's field names, as the API runner writes one."""
    return {
        "id": chunk.id,
        "doc_id": chunk.doc_id,
        "title": chunk.title,
        "text": chunk.text,
        "tokens": chunk.tokens,
        "content_hash": chunk.content_hash,
        "score": chunk.score,
    }


def python_records(text: str, python: dict[str, Any], doc_id: str) -> list[dict[str, Any]]:
    """NPM-1: the records of ``chunk_document(document_from_text(text, ...), ...)``."""
    read = {k: python[k] for k in ("input_format", "title", "source", "metadata") if k in python}
    options = {k: v for k, v in python.items() if k not in read}
    document = document_from_text(text, doc_id=doc_id, **read)
    strategy = options.pop("strategy")
    return [r.to_dict() for r in chunk_document(document, strategy, **options)]


def expected(case: dict[str, Any]) -> Any:
    """What a golden case's call must return, from the Python call it names."""
    call = case["input"]["call"]
    args = case["input"]["args"]
    output = case["output"]
    if call == "pureHashText":
        return output["value"]
    if call == "chunkDocument":
        return python_records(args[0], output["python"], args[1]["docId"])
    if call == "splitSection":
        return [_chunk_wire(c) for c in split_section(*output["positional"])]
    chunks = [Chunk(**c) for c in args[0]]
    packed = assemble(chunks, *output["positional"])
    return None if packed is None else [packed[0], packed[1]]


def test_npm_api_goldens(port: Port) -> None:
    """NPM-1, NPM-2, NPM-3: every golden case, in one run of the package."""
    cases = goldens.load_file("npm_api")["cases"]
    results = call_api(port, [(c["input"]["call"], c["input"]["args"]) for c in cases])
    for case, got in zip(cases, results, strict=True):
        if "error" in case:
            wanted = {"error": case["error"]["type"], "argument": case["error"]["argument"]}
            assert got == wanted, case["id"]
            continue
        assert got == expected(case), case["id"]
        for field, values in case["output"].get("pins", {}).items():
            assert [record[field] for record in got] == values, (case["id"], field)


#: Every strategy's options (JavaScript spelling) and Python's arguments for the same call.
STRATEGIES: list[tuple[dict[str, Any], dict[str, Any], str]] = [
    (
        {"strategy": "heading", "maxTokens": 40},
        {"strategy": "heading", "max_tokens": 40},
        "markdown",
    ),
    ({"strategy": "heading"}, {"strategy": "heading"}, "markdown"),
    (
        {"strategy": "heading", "maxTokens": 60, "minTokens": 0},
        {"strategy": "heading", "max_tokens": 60, "min_tokens": 0},
        "markdown",
    ),
    (
        {"strategy": "heading", "maxTokens": 60, "minTokens": 25, "overlapTokens": 5},
        {"strategy": "heading", "max_tokens": 60, "min_tokens": 25, "overlap_tokens": 5},
        "markdown",
    ),
    ({"strategy": "structural"}, {"strategy": "structural"}, "markdown"),
    (
        {"strategy": "structural", "maxTokens": 60, "minTokens": 0},
        {"strategy": "structural", "max_tokens": 60, "min_tokens": 0},
        "markdown",
    ),
    (
        {"strategy": "structural", "maxTokens": 60, "minTokens": 25},
        {"strategy": "structural", "max_tokens": 60, "min_tokens": 25},
        "markdown",
    ),
    (
        {"strategy": "structural", "maxTokens": 30, "splitTables": True},
        {"strategy": "structural", "max_tokens": 30, "split_tables": True},
        "markdown",
    ),
    (
        {"strategy": "structural", "maxTokens": 30, "countHeadings": True},
        {"strategy": "structural", "max_tokens": 30, "count_headings": True},
        "markdown",
    ),
    (
        {"strategy": "heading", "maxTokens": 60, "budgetIncludesHeadings": True},
        {"strategy": "heading", "max_tokens": 60, "budget_includes_headings": True},
        "markdown",
    ),
    (
        {"strategy": "heading", "maxTokens": 30, "minTokens": 0, "budgetIncludesHeadings": True},
        {
            "strategy": "heading",
            "max_tokens": 30,
            "min_tokens": 0,
            "budget_includes_headings": True,
        },
        "markdown",
    ),
    (
        {"strategy": "structural", "maxTokens": 60, "budgetIncludesHeadings": True},
        {"strategy": "structural", "max_tokens": 60, "budget_includes_headings": True},
        "markdown",
    ),
    (
        {"strategy": "structural", "maxTokens": 30, "minTokens": 0, "budgetIncludesHeadings": True},
        {
            "strategy": "structural",
            "max_tokens": 30,
            "min_tokens": 0,
            "budget_includes_headings": True,
        },
        "markdown",
    ),
    ({"strategy": "window", "maxTokens": 25}, {"strategy": "window", "max_tokens": 25}, "markdown"),
    (
        {"strategy": "window", "maxTokens": 25, "inputFormat": "text"},
        {"strategy": "window", "max_tokens": 25},
        "text",
    ),
    (
        {"strategy": "window", "maxTokens": 100, "counter": "chars1", "overlapTokens": 10},
        {"strategy": "window", "max_tokens": 100, "counter": "chars1", "overlap_tokens": 10},
        "markdown",
    ),
    (
        {"strategy": "window", "maxTokens": 100, "counter": "chars1", "inputFormat": "text"},
        {"strategy": "window", "max_tokens": 100, "counter": "chars1"},
        "text",
    ),
    ({"strategy": "pages", "maxTokens": 30}, {"strategy": "pages", "max_tokens": 30}, "markdown"),
    (
        {"strategy": "pages", "maxTokens": 30, "inputFormat": "text"},
        {"strategy": "pages", "max_tokens": 30},
        "text",
    ),
    (
        {"strategy": "heading", "maxTokens": 40, "inputFormat": "text"},
        {"strategy": "heading", "max_tokens": 40},
        "text",
    ),
    (
        {"strategy": "structural", "maxTokens": 40, "inputFormat": "text"},
        {"strategy": "structural", "max_tokens": 40},
        "text",
    ),
]


def test_chunk_document_equals_python_on_the_repository(port: Port) -> None:
    """NPM-1: on every docs/ and examples/ Markdown file, every strategy, the same records."""
    paths = sorted([*ROOT.joinpath("docs").rglob("*.md"), *ROOT.joinpath("examples").glob("*.md")])
    texts = [p.read_text("utf-8") for p in paths]
    calls: list[tuple[str, list[Any]]] = []
    wanted: list[list[dict[str, Any]]] = []
    for n, text in enumerate(texts):
        for js, python, input_format in STRATEGIES:
            calls.append(("chunkDocument", [text, {"docId": f"d{n}", "source": "s.md", **js}]))
            document = document_from_text(
                text, doc_id=f"d{n}", input_format=input_format, source="s.md"
            )
            options = dict(python)
            strategy = options.pop("strategy")
            records = chunk_document(document, strategy, **options)
            wanted.append([r.to_dict() for r in records])
    got = call_api(port, calls)
    assert sum(map(len, wanted)) > 10_000
    for call, mine, theirs in zip(calls, got, wanted, strict=True):
        assert mine == theirs, call[1][1]


def test_chunk_document_equals_python_on_every_script(port: Port) -> None:
    """NPM-1 with SCRIPT-6 and SCRIPT-8: on generated multi-script texts (CJK, kana, Hangul
    and jamo, Thai, Arabic and Hebrew with bidi controls, emoji sequences, combining marks),
    every strategy counts unicode units as Python does and cuts at the same places."""
    import random

    from properties.strategies import MULTI_SCRIPT_PIECES

    rng = random.Random(25)
    texts = [
        "".join(rng.choice([*MULTI_SCRIPT_PIECES, "# T\n\n", "\n\n## U\n\n"]) for _ in range(n))
        for n in [rng.randint(1, 120) for _ in range(150)]
    ]
    calls: list[tuple[str, list[Any]]] = []
    wanted: list[list[dict[str, Any]]] = []
    for n, text in enumerate(texts):
        if not text.strip():
            continue
        for js, python, input_format in STRATEGIES:
            if js.get("counter") == "chars1":
                continue
            for size, counter in ((3, None), (17, None), (5, "unicode")):
                js_options = {**js, "maxTokens": size}
                options = {**python, "max_tokens": size}
                if "min_tokens" in options:  # SIZE-2: at most max_tokens
                    least = min(size, options["min_tokens"])
                    js_options["minTokens"] = options["min_tokens"] = least
                if counter is not None:  # COUNT-11: the unicode counter asked for by name
                    js_options["counter"] = options["counter"] = counter
                calls.append(("chunkDocument", [text, {"docId": f"d{n}", **js_options}]))
                document = document_from_text(text, doc_id=f"d{n}", input_format=input_format)
                strategy = options.pop("strategy")
                wanted.append([r.to_dict() for r in chunk_document(document, strategy, **options)])
    got = call_api(port, calls)
    assert any(r["counter"] == "unicode" for records in wanted for r in records)
    for call, mine, theirs in zip(calls, got, wanted, strict=True):
        assert mine == theirs, (call[1][0], call[1][1])


_SIZE_FIELDS = ("text", "start", "end", "kind", "heading_path", "parent_id", "section", "tokens")
_JS_NAMES = {
    "strategy": "strategy",
    "max_tokens": "maxTokens",
    "min_tokens": "minTokens",
    "counter": "counter",
    "overlap_tokens": "overlapTokens",
    "budget_includes_headings": "budgetIncludesHeadings",
}


def test_size_goldens(port: Port) -> None:
    """SIZE-2 to SIZE-9, RECORD-16, RECORD-17: tests/golden/size.json's chunk cases through
    chunkDocument (doc id ``g``), and its ``min_tokens`` errors as chunkDocument's."""
    cases = [c for c in goldens.load_file("size")["cases"] if c["input"]["op"] == "chunk"]
    calls: list[tuple[str, list[Any]]] = [
        (
            "chunkDocument",
            [
                c["input"]["text"],
                {"docId": "g", **{_JS_NAMES[k]: v for k, v in c["input"]["options"].items()}},
            ],
        )
        for c in cases
    ]
    errors = [
        c
        for c in goldens.load_file("size")["cases"]
        if c["input"]["op"] == "options" and "error" in c and c["error"]["argument"] == "min_tokens"
    ]
    for c in errors:
        options = {_JS_NAMES[k]: v for k, v in c["input"]["fields"].items()}
        calls.append(("chunkDocument", ["# T\n\ntext", {"docId": "g", **options}]))
    got = call_api(port, calls)
    assert len(cases) >= 7
    assert len(errors) >= 4
    for case, records in zip(cases, got, strict=False):
        want = case["output"]
        assert all(r["strategy"] == want["strategy"] for r in records), case["id"]
        mine = [{**{k: r[k] for k in _SIZE_FIELDS}, "oversized": r["oversized"]} for r in records]
        assert mine == want["records"], case["id"]
    for case, answer in zip(errors, got[len(cases) :], strict=True):
        kind = {"TypeError": "TypeError", "ValueError": "ValueError"}[case["error"]["type"]]
        assert answer == {"error": kind, "argument": "minTokens"}, case["id"]


#: Pieces of generated Markdown: headings of every level, empty headings, short and long
#: prose, lists, code, tables, quotes (SIZE-3's chains of headings, SIZE-5's sections).
_PIECES = [
    "# A\n\n",
    "## B b\n\n",
    "### C\n\n",
    "#### D\n\n",
    "##\n\n",
    "Setext\n------\n\n",
    "One.\n\n",
    "Two words.\n\n",
    "A short sentence here. And another one follows it.\n\n",
    " ".join(f"w{i}" for i in range(40)) + ".\n\n",
    "- item one\n- item two\n\n",
    "```\ncode line one\ncode two\n```\n\n",
    "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\n",
    "> quoted words go here\n\n",
    "Intro:\n\n",
]


def test_chunk_document_equals_python_on_generated_markdown(port: Port) -> None:
    """SIZE-2 to SIZE-9 on generated Markdown: heading and structural records equal Python's
    at the default min_tokens, at 0, at explicit values, with and without the trail budget."""
    import itertools
    import random

    rng = random.Random(16)
    texts = ["".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 40))) for _ in range(250)]
    calls: list[tuple[str, list[Any]]] = []
    wanted: list[list[dict[str, Any]]] = []
    grid = itertools.product(
        ("heading", "structural"), (4, 9, 24, 80), (None, 0, 1, 2), (False, True)
    )
    for (n, text), (strategy, size, least, trail) in itertools.product(enumerate(texts), grid):
        minimum = {None: None, 0: 0, 1: size // 2, 2: size}[least]
        js: dict[str, Any] = {"docId": f"d{n}", "strategy": strategy, "maxTokens": size}
        options: dict[str, Any] = {"max_tokens": size, "budget_includes_headings": trail}
        js["budgetIncludesHeadings"] = trail
        if minimum is not None:
            js["minTokens"] = options["min_tokens"] = minimum
        calls.append(("chunkDocument", [text, js]))
        records = chunk_document(document_from_text(text, doc_id=f"d{n}"), strategy, **options)
        wanted.append([r.to_dict() for r in records])
    got = call_api(port, calls)
    assert any(r["kind"] == "heading" and "\n" in r["text"] for rs in wanted for r in rs)
    for call, mine, theirs in zip(calls, got, wanted, strict=True):
        assert mine == theirs, (call[1][0], call[1][1])
