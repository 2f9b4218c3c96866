"""Properties of stable chunk keys (docs/spec/incremental.md, KEY-1..KEY-7, SCALE-12)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from chunkspec import chunk_document, document_from_text
from chunkspec.records import ChunkRecord
from properties.models import model_chunk_keys
from properties.strategies import markdown_documents

VOCABULARY = ["alpha", "beta", "gamma", "delta", "eps"]

paragraphs = st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=9).map(" ".join)
sections = st.lists(st.lists(paragraphs, min_size=1, max_size=4), min_size=1, max_size=5)


def _markdown(body: list[list[str]]) -> tuple[str, list[list[int]]]:
    """A page of sections with distinct headings; the offset of every paragraph."""
    text = "# Title\n\n"
    offsets: list[list[int]] = []
    for number, section in enumerate(body):
        text += f"## Section {number}\n\n"
        offsets.append([])
        for paragraph in section:
            offsets[-1].append(len(text))
            text += paragraph + "\n\n"
    return text, offsets


def _records(
    text: str, strategy: str, max_tokens: int, min_tokens: int | None = None
) -> list[ChunkRecord]:
    """chunk_document of ``text`` as Markdown (``min_tokens`` None: SIZE-2's default)."""
    document = document_from_text(text, doc_id="d", input_format="markdown")
    if min_tokens is None:
        return chunk_document(document, strategy, max_tokens=max_tokens)
    return chunk_document(document, strategy, max_tokens=max_tokens, min_tokens=min_tokens)


@settings(max_examples=60)
@given(
    markdown_documents(),
    st.sampled_from(["heading", "structural", "recursive", "window"]),
    st.integers(1, 12),
)
def test_keys_are_the_formula(text: str, strategy: str, max_tokens: int) -> None:
    """KEY-1, KEY-2, KEY-3, KEY-4: every record's key is the literal model's, and a
    document's keys are pairwise distinct 64-digit hex strings."""
    if strategy == "recursive" and not text.split():
        return
    records = _records(text, strategy, max_tokens)
    keys = [record.key for record in records]
    assert keys == model_chunk_keys([record.to_dict() for record in records])
    assert len(set(keys)) == len(keys)
    assert all(len(key) == 64 and set(key) <= set("0123456789abcdef") for key in keys)


@settings(max_examples=40)
@given(sections, st.integers(2, 8))
def test_repeated_chunks_get_distinct_keys(body: list[list[str]], max_tokens: int) -> None:
    """KEY-3: a section that repeats a paragraph gives equal chunks distinct keys, and the
    same document chunked twice gives the same keys."""
    text, _ = _markdown([[*section, *section] for section in body])
    first = _records(text, "structural", max_tokens)
    again = _records(text, "structural", max_tokens)
    assert [r.key for r in first] == [r.key for r in again]
    assert len({r.key for r in first}) == len(first)


@settings(max_examples=80)
@given(
    sections,
    st.data(),
    st.sampled_from(["structural", "heading"]),
    st.integers(2, 12),
    paragraphs,
)
def test_an_edit_changes_only_its_section_from_the_edit_on(
    body: list[list[str]], data: st.DataObject, strategy: str, max_tokens: int, new: str
) -> None:
    """KEY-5, KEY-6: replacing one paragraph of one section keeps the key of every chunk of
    another section and of every chunk of that section that ends before its neighbour (the
    last old chunk of the section starting before the paragraph) starts, with the seed
    chunks (min_tokens 0); with SIZE-2's default merge, every chunk whose heading path is
    neither the section's nor one of its ancestors' keeps its key."""
    section = data.draw(st.integers(0, len(body) - 1))
    paragraph = data.draw(st.integers(0, len(body[section]) - 1))
    merged = data.draw(st.booleans())
    before, _ = _markdown(body)
    edited = [list(s) for s in body]
    edited[section][paragraph] = new
    after, offsets = _markdown(edited)
    edit_start = offsets[section][paragraph]
    small = None if merged else 0
    previous = _records(before, strategy, max_tokens, small)
    old = {r.key for r in previous}
    path = ("Title", f"Section {section}")
    if merged:
        for record in _records(after, strategy, max_tokens, small):
            if record.heading_path != path[: len(record.heading_path)]:
                assert record.key in old, record
        return
    # the neighbour: the last old chunk of the section that starts before the edited block
    starts = [r.start for r in previous if r.heading_path == path and r.start < edit_start]
    stable_until = max(starts, default=-1)
    for record in _records(after, strategy, max_tokens, small):
        if record.heading_path != path or record.end <= stable_until:
            assert record.key in old, record


@settings(max_examples=60)
@given(st.lists(paragraphs, min_size=2, max_size=8), st.data(), st.integers(2, 10), paragraphs)
def test_windows_before_an_edit_keep_their_keys(
    body: list[str], data: st.DataObject, max_tokens: int, inserted: str
) -> None:
    """KEY-7: inserting a paragraph keeps the key of every window that ends before it; when
    the inserted tokens are a multiple of the step, the windows after it keep theirs too."""
    where = data.draw(st.integers(1, len(body)))
    before = "\n\n".join(body)
    after = "\n\n".join([*body[:where], inserted, *body[where:]])
    edit_start = len("\n\n".join(body[:where]))
    overlap = data.draw(st.integers(0, max_tokens - 1))

    def windows(text: str, counter: str) -> list[ChunkRecord]:
        document = document_from_text(text, doc_id="d", input_format="text")
        return chunk_document(
            document, "window", max_tokens=max_tokens, overlap_tokens=overlap, counter=counter
        )

    for counter in ("subword", "whitespace"):  # SCRIPT-35's default, and words
        previous = windows(before, counter)
        old = {r.key for r in previous}
        new = windows(after, counter)
        for record in new:
            if record.end <= edit_start:
                assert record.key in old
    # Words: every token boundary is a cut, so windows after the edit start where they did,
    # shifted by whole steps. (Under subword a repeated span is no cut, SCRIPT-10: windows
    # near the edit may end a token earlier and shift the later ones' phase.)
    step = max_tokens - overlap
    shifted = len(inserted.split())
    distinct = all(len({r.content_hash for r in rs}) == len(rs) for rs in (previous, new))
    if shifted % step == 0 and distinct:
        # no window repeats another's text, so no occurrence number (KEY-3) moves
        suffix = {r.key for r in new if r.start > edit_start + len(inserted) + 2}
        assert suffix <= old


@settings(max_examples=40)
@given(st.lists(markdown_documents(), min_size=1, max_size=3), st.integers(1, 8))
def test_chunk_table_key_column(texts: list[str], max_tokens: int) -> None:
    """SCALE-12: chunk_table's key column is each document's records' keys on chunk rows
    and null on error rows, whatever the batches."""
    import pyarrow as pa

    from chunkspec.arrow import chunk_table

    table = pa.table({"doc_id": [f"d{n}" for n in range(len(texts))], "text": texts})
    rows = chunk_table(
        table, strategy="structural", max_tokens=max_tokens, input_format="markdown"
    ).to_pylist()
    expected: list[str | None] = []
    for n, text in enumerate(texts):
        records = _records_of(text, f"d{n}", max_tokens)
        expected.extend([r.key for r in records] or [None])
    assert [row["key"] for row in rows] == expected
    assert all((row["key"] is None) == (row["error"] is not None) for row in rows)


def _records_of(text: str, doc_id: str, max_tokens: int) -> list[ChunkRecord]:
    """chunk_document of ``text`` (structural), as chunk_table reads a ``text`` cell."""
    document = document_from_text(text, doc_id=doc_id, input_format="markdown")
    return chunk_document(document, "structural", max_tokens=max_tokens)


@settings(max_examples=15, deadline=None)
@given(
    st.lists(markdown_documents(), min_size=1, max_size=4),
    st.sampled_from(["heading", "structural", "window"]),
    st.integers(1, 10),
)
def test_the_port_computes_the_same_keys(texts: list[str], strategy: str, size: int) -> None:
    """KEY-8: the TypeScript port's chunkDocument gives every record Python's key."""
    from tests.typescript_port import built, call_api

    port = built()
    calls = [
        ("chunkDocument", [text, {"docId": "d", "strategy": strategy, "maxTokens": size}])
        for text in texts
    ]
    for text, answer in zip(texts, call_api(port, calls), strict=True):
        document = document_from_text(text, doc_id="d", input_format="markdown")  # NPM-5
        records = chunk_document(document, strategy, max_tokens=size)
        assert [r["key"] for r in answer] == [r.key for r in records]
