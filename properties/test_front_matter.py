"""Properties of front matter (FM-1 to FM-5): the plugin's rule, never chunked, its fields."""

from __future__ import annotations

import dataclasses

from hypothesis import example, given
from hypothesis import strategies as st

from chunkspec import ChunkRecord, chunk_document, document_from_text
from chunkspec._text._front_matter import find_front_matter
from properties.models import model_front_matter, model_lines
from properties.strategies import (
    fm_keys,
    fm_values,
    front_matter_documents,
    markdown_documents,
)

STRATEGIES = ("heading", "structural", "recursive", "window", "pages")


@given(st.one_of(front_matter_documents(), markdown_documents()))
def test_front_matter_is_the_plugins(text: str) -> None:
    """FM-1, FM-5: the block's lines are those of mdit-py-plugins' front_matter token (TOML
    by the marker swap); none is found where the plugin finds none (unclosed, say)."""
    found = find_front_matter(text)
    model = model_front_matter(text)
    if model is None:
        assert found is None
        return
    assert found is not None
    lines = model_lines(text)
    assert found.end == lines[model[1] - 1][1]
    assert found.body_start == (lines[model[1]][0] if model[1] < len(lines) else len(text))
    assert found.format == ("yaml" if text.startswith("-") else "toml")


@given(front_matter_documents(), st.sampled_from(STRATEGIES), st.integers(1, 12))
# The front matter's text ("---") is also the document's own heading text after it.
@example("+++\n---\n+++\n+++\n    ---\n---\n---\n", "heading", 1)
def test_front_matter_is_never_chunked(text: str, strategy: str, budget: int) -> None:
    """FM-2: no record of any strategy holds front matter or has it in its heading path;
    the records are those of the text after it, offsets moved by where it ends."""
    document = document_from_text(text, doc_id="d", title="T")
    records = chunk_document(document, strategy, max_tokens=budget)
    found = find_front_matter(text)
    if found is None:
        return
    rest = text[found.body_start :]
    # The front matter's text may appear again after it, as the document's own text: only
    # a body found nowhere after it can be told from the document's headings.
    unique = bool(found.body.strip()) and found.body not in rest
    for r in records:
        assert r.start >= found.end, (r, found)
        assert not (unique and any(found.body in h for h in r.heading_path)), r
    if not rest.strip() or find_front_matter(rest) is not None:
        return  # no records; or the rest alone would open front matter of its own
    alone = chunk_document(
        document_from_text(rest, doc_id="d", title="T"), strategy, max_tokens=budget
    )
    moved = [
        dataclasses.replace(r, start=r.start + found.body_start, end=r.end + found.body_start)
        for r in alone
    ]
    paged = "\f" in text[: found.body_start]  # its form feeds still count pages (FM-2)
    skip = {"page_start", "page_end", "metadata"} if paged else {"metadata"}
    assert all(r.metadata == found.fields for r in records)  # META-3: its fields

    def fields(r: ChunkRecord) -> dict[str, object]:
        return {k: v for k, v in r.to_dict().items() if k not in skip}

    assert [fields(r) for r in records] == [fields(r) for r in moved]


def _quoted(value: str, how: int, kind: str) -> str:
    """A model writer: ``value`` double-quoted (escapes), single-quoted, or plain."""
    if how == 0:
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if how == 1 and (kind == "yaml" or "'" not in value):
        return "'" + (value.replace("'", "''") if kind == "yaml" else value) + "'"
    return value


@given(
    st.dictionaries(fm_keys, st.tuples(fm_values, st.integers(0, 2)), max_size=5),
    st.sampled_from(["yaml", "toml"]),
)
def test_fields_read_back_what_a_writer_wrote(
    fields: dict[str, tuple[str, int]], kind: str
) -> None:
    """FM-3: top-level one-line scalars read back as written; a plain value that looks like
    a quote, comment, block scalar or anchor is left out, never misread."""
    marker, sep = ("---", ": ") if kind == "yaml" else ("+++", " = ")
    lines = [f"{k}{sep}{_quoted(v, how, kind)}" for k, (v, how) in fields.items()]
    text = "\n".join([marker, *lines, marker, "body"])
    found = find_front_matter(text)
    assert found is not None
    assert found.format == kind
    for key, (value, how) in fields.items():
        plain = how == 2 or (how == 1 and kind == "toml" and "'" in value)
        if not plain:
            assert found.fields[key] == value
            continue
        if value[0] in "\"'":
            assert found.fields.get(key) != value  # read as a quote, or left out
            continue
        cut = value.split(" #")[0].rstrip(" \t")  # a comment ends a plain value
        special = "#|>&*!" if kind == "yaml" else "#|>"
        assert found.fields.get(key) == (cut if cut and cut[0] not in special else None)
    assert set(found.fields) <= set(fields)


@given(front_matter_documents())
def test_title_is_the_title_field(text: str) -> None:
    """FM-4: a non-blank ``title`` field, whitespace folded, names the document; else the
    heading rule (SOURCE-5) as if there were no front matter."""
    document = document_from_text(text, doc_id="d")
    found = document.front_matter
    assert found == find_front_matter(text)
    title = " ".join(found.fields.get("title", "").split()) if found else ""
    if title:
        assert document.title == title
    elif found is not None:
        # A blank first line: the same Markdown, and it cannot open front matter again.
        rest = "\n" + text[found.body_start :]
        assert document.title == document_from_text(rest, doc_id="d").title
