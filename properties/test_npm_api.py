"""Properties of the npm package's options API (NPM-1 to NPM-3), against Python itself.

Each example runs a batch of calls through the shipped build's exports in one Node.js
process (tests/typescript_port.py), so the examples are few and the batches large. Skipped
without Node.js.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.typescript_port import built, call_api

from chunkspec import chunk_document, document_from_text, hash_text, split_section
from properties.strategies import html_pages, markdown_documents, split_texts

#: One Node.js process an example: fewer examples than the CI profile's 1,000.
_NODE = settings(max_examples=25, deadline=None)


def _size(
    js: dict[str, Any], python: dict[str, Any], m: int, least: int | None, trail: bool
) -> None:
    """Add SIZE-2's ``min_tokens`` (None: the default; else ``least % (m + 1)``) and SIZE-8's
    ``budget_includes_headings`` to both spellings."""
    if least is not None:
        js["minTokens"] = python["min_tokens"] = least % (m + 1)
    js["budgetIncludesHeadings"] = python["budget_includes_headings"] = trail


def _heading(
    m: int, o: int, least: int | None, trail: bool
) -> tuple[dict[str, Any], dict[str, Any], str]:
    """``heading`` options, JavaScript and Python, read as Markdown."""
    js: dict[str, Any] = {"strategy": "heading", "maxTokens": m, "overlapTokens": o}
    python: dict[str, Any] = {"strategy": "heading", "max_tokens": m, "overlap_tokens": o}
    _size(js, python, m, least, trail)
    return js, python, "markdown"


def _structural(
    m: int, c: bool, s: bool, least: int | None, trail: bool
) -> tuple[dict[str, Any], dict[str, Any], str]:
    """``structural`` options, JavaScript and Python, read as Markdown."""
    js = {"strategy": "structural", "maxTokens": m, "countHeadings": c, "splitTables": s}
    python = {"strategy": "structural", "max_tokens": m, "count_headings": c, "split_tables": s}
    _size(js, python, m, least, trail)
    return js, python, "markdown"


def _window(m: int, o: int, chars: bool) -> tuple[dict[str, Any], dict[str, Any], str]:
    """``window`` options (words or characters), JavaScript and Python, read as Markdown."""
    counter = "chars1" if chars else "whitespace"
    js = {"strategy": "window", "maxTokens": m + o, "overlapTokens": o, "counter": counter}
    python = {"strategy": "window", "max_tokens": m + o, "overlap_tokens": o, "counter": counter}
    return js, python, "markdown"


def _pages(m: int) -> tuple[dict[str, Any], dict[str, Any], str]:
    """``pages`` options with the default overlap, JavaScript and Python, read as Markdown."""
    return {"strategy": "pages", "maxTokens": m}, {"strategy": "pages", "max_tokens": m}, "markdown"


def _read_as(
    choice: tuple[dict[str, Any], dict[str, Any], str], given: str | None
) -> tuple[dict[str, Any], dict[str, Any], str]:
    """NPM-5: the options with ``inputFormat`` ``given`` (None: left out, read as Markdown)."""
    js, python, _ = choice
    if given is None:
        return js, python, "markdown"
    return {**js, "inputFormat": given}, python, given


#: (JavaScript options, Python keyword arguments, input format) per strategy (NPM-1), each
#: strategy reading Markdown or plain text, the format given or left out (NPM-5).
_STRATEGY_CHOICES = st.one_of(
    st.builds(
        _heading,
        st.integers(1, 40),
        st.integers(0, 4),
        st.none() | st.integers(0, 40),
        st.booleans(),
    ),
    st.builds(
        _structural,
        st.integers(1, 40),
        st.booleans(),
        st.booleans(),
        st.none() | st.integers(0, 40),
        st.booleans(),
    ),
    st.builds(_window, st.integers(1, 10), st.integers(0, 3), st.booleans()),
    st.builds(_pages, st.integers(1, 12)),
)
_CHOICES = st.builds(_read_as, _STRATEGY_CHOICES, st.sampled_from([None, "markdown", "text"]))

#: Front matter (FM-1): YAML and TOML, a page break inside it (FM-2, the pages keep it).
_FRONT_MATTER = st.sampled_from(
    ["---\ntitle: T\n---\n", '+++\ntitle = "T"\n+++\n', "---\nk: v\n\f\n---\n"]
)

#: Text with form feeds and front matter sometimes, so every strategy meets a paged text
#: (SOURCE-4) and a Markdown file's front matter (FM-2, NPM-5).
_TEXTS = st.one_of(
    markdown_documents(),
    st.lists(markdown_documents(), max_size=3).map("\f".join),
    st.builds(str.__add__, _FRONT_MATTER, markdown_documents()),
)


@_NODE
@given(st.lists(st.tuples(_TEXTS, _CHOICES), min_size=1, max_size=12))
def test_chunk_document_equals_python(batch: list[tuple[str, Any]]) -> None:
    """NPM-1, NPM-5: chunkDocument's records are chunk_document's for the same options, read
    as F: the ``inputFormat`` given, else Markdown, under every strategy (front matter too)."""
    port = built()
    calls: list[tuple[str, list[Any]]] = []
    wanted = []
    for n, (text, (js, python, input_format)) in enumerate(batch):
        calls.append(("chunkDocument", [text, {"docId": f"d{n}", **js}]))
        document = document_from_text(text, doc_id=f"d{n}", input_format=input_format)
        options = dict(python)
        strategy = options.pop("strategy")
        wanted.append([r.to_dict() for r in chunk_document(document, strategy, **options)])
    assert call_api(port, calls) == wanted


#: Caller metadata (META-9): seed 003's keys and keys the front matter may also have.
_CALLER = st.fixed_dictionaries(
    {},
    optional={
        "tenant_id": st.sampled_from(["t1", "t2"]),
        "acl_labels": st.lists(st.sampled_from(["eng", "hr"]), max_size=2),
        "title": st.just("caller"),
        "n": st.integers(-(2**53) + 1, 2**53 - 1),
        "x": st.none() | st.booleans() | st.text(max_size=3).filter(lambda t: t.isprintable()),
    },
)

#: Markdown with front matter fields sometimes (META-3).
_FM_TEXTS = st.one_of(
    markdown_documents(),
    st.builds(
        lambda k, body: f"---\n{k}: v\ntitle: T\n---\n{body}",
        st.sampled_from(["tenant_id", "owner"]),
        markdown_documents(),
    ),
)


@_NODE
@given(st.lists(st.tuples(_FM_TEXTS, _CHOICES, _CALLER), min_size=1, max_size=8))
def test_metadata_equals_python(batch: list[tuple[str, Any, dict[str, Any]]]) -> None:
    """META-9, META-3: chunkDocument's ``metadata`` option gives Python's records of the
    document with that caller metadata: front matter fields under the caller's."""
    port = built()
    calls: list[tuple[str, list[Any]]] = []
    wanted = []
    for n, (text, (js, python, input_format), caller) in enumerate(batch):
        calls.append(("chunkDocument", [text, {"docId": f"d{n}", **js, "metadata": caller}]))
        document = document_from_text(
            text, doc_id=f"d{n}", input_format=input_format, metadata=caller
        )
        options = dict(python)
        strategy = options.pop("strategy")
        wanted.append([r.to_dict() for r in chunk_document(document, strategy, **options)])
    assert call_api(port, calls) == wanted


#: A wrong value for each option and the error it must raise (NPM-2); None: leave out.
_WRONG: dict[str, list[tuple[Any, str]]] = {
    "docId": [(5, "TypeError"), ("a\ud800", "ValueError")],
    "title": [(None, "TypeError"), (["t"], "TypeError")],
    "source": [(1, "TypeError")],
    "strategy": [("recursive", "ValueError"), ("Heading", "ValueError"), (1, "ValueError")],
    "maxTokens": [(0, "ValueError"), (True, "TypeError"), (1.5, "TypeError"), ("8", "TypeError")],
    "overlapTokens": [(-1, "ValueError"), (0.5, "TypeError")],
    "counter": [("chars4", "ValueError"), ("tiktoken", "ValueError")],
    "countHeadings": [("yes", "TypeError"), (1, "TypeError")],
    "splitTables": [(0, "TypeError")],
    # SIZE-1, SIZE-2: an int >= 0, not above maxTokens, above 0 only for heading, structural
    "minTokens": [(-1, "ValueError"), (True, "TypeError"), (2, "ValueError"), (9, "ValueError")],
    "budgetIncludesHeadings": [("yes", "TypeError"), (True, "ValueError")],
    "metadata": [(["x"], "TypeError"), (5, "TypeError"), (None, "TypeError")],
    "max_tokens": [(8, "ValueError")],  # Python's spelling is no option: names ``options``
}


@_NODE
@given(st.lists(st.sampled_from(sorted(_WRONG)).flatmap(
    lambda key: st.tuples(st.just(key), st.sampled_from(_WRONG[key]))
), min_size=1, max_size=20))  # fmt: skip
def test_one_wrong_option_is_named(wrong: list[tuple[str, tuple[Any, str]]]) -> None:
    """NPM-2: options otherwise fine but one wrong give the error the model names."""
    port = built()
    calls: list[tuple[str, list[Any]]] = []
    models = []
    for key, (value, kind) in wrong:
        options: dict[str, Any] = {"docId": "d", "strategy": "window", "maxTokens": 4}
        if key in ("countHeadings", "splitTables"):
            options["strategy"] = "structural"
        options[key] = value
        calls.append(("chunkDocument", ["a b c", options]))
        models.append({"error": kind, "argument": "options" if key == "max_tokens" else key})
    assert call_api(port, calls) == models


@_NODE
@given(st.lists(st.tuples(split_texts, st.integers(1, 6), st.booleans()), min_size=1, max_size=12))
def test_split_section_options_equal_positional(batch: list[tuple[str, int, bool]]) -> None:
    """NPM-3: splitSection({docId, title?, text, maxTokens}) is the positional call with
    title defaulting to docId, and the positional call still answers as Python's."""
    port = built()
    calls: list[tuple[str, list[Any]]] = []
    wanted = []
    for text, budget, titled in batch:
        options: dict[str, Any] = {"docId": "d", "text": text, "maxTokens": budget}
        if titled:
            options["title"] = "T"
        calls.append(("splitSection", [options]))
        calls.append(("splitSection", ["d", "T" if titled else "d", text, budget]))
        chunks = split_section("d", "T" if titled else "d", text, budget)
        python = [
            {
                "id": c.id,
                "doc_id": c.doc_id,
                "title": c.title,
                "text": c.text,
                "tokens": c.tokens,
                "content_hash": c.content_hash,
                "score": c.score,
            }
            for c in chunks
        ]
        wanted.extend([python, python])
    assert call_api(port, calls) == wanted


@_NODE
@given(st.lists(st.text(max_size=200), min_size=1, max_size=30))
def test_pure_sha256_is_hash_text(texts: list[str]) -> None:
    """NPM-4: the browser build's SHA-256 (src/sha256.ts) gives hash_text's digest (HASH-1)
    for any text, of any length across the 55/56/64-byte padding edges."""
    texts = [t.encode("utf-8", "replace").decode("utf-8") for t in texts]
    got = call_api(built(), [("pureHashText", [t]) for t in texts])
    assert got == [hash_text(t) for t in texts]


@_NODE
@given(
    st.lists(
        st.tuples(
            html_pages(),
            st.sampled_from(["heading", "structural", "window", "pages"]),
            st.integers(1, 30),
            st.booleans(),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_chunk_document_of_pages_equals_python(batch: list[tuple[Any, str, int, bool]]) -> None:
    """NPM-1, HTML-16, HTML-17: chunkDocument with inputFormat html gives, record for
    record, chunk_document's records of the page document_from_text reads as html."""
    from properties.html_model import serialize

    port = built()
    calls: list[tuple[str, list[Any]]] = []
    wanted = []
    for n, (body, strategy, m, keep) in enumerate(batch):
        markup = serialize(body, entities=n % 2 == 0)
        js = {"docId": f"p{n}", "inputFormat": "html", "strategy": strategy, "maxTokens": m}
        calls.append(("chunkDocument", [markup, {**js, "keepFurniture": keep}]))
        document = document_from_text(
            markup, doc_id=f"p{n}", input_format="html", keep_furniture=keep
        )
        if not document.text.strip():
            calls.pop()
            continue
        wanted.append([r.to_dict() for r in chunk_document(document, strategy, max_tokens=m)])
    if calls:
        assert call_api(port, calls) == wanted
