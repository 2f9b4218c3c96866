"""Golden cases for split_markdown, HeadingAwareChunker and split_sentences."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from chunkspec import HeadingAwareChunker, parse_markdown, split_markdown, split_sentences
from chunkspec._text._markdown import PARSER_VARIABLE, PARSERS
from chunkspec._text._markdown_fast import available
from chunkspec.markdown import ChunkContext, document_from_blocks, parse_text
from tests import goldens

_ERRORS = {"TypeError": TypeError, "ValueError": ValueError}


class CharacterCounter:
    """One token per character: a counter that is not additive over whitespace."""

    def count(self, text: str) -> int:
        return len(text)


def _counter(data: dict[str, Any]) -> dict[str, Any]:
    """Replace ``"counter": "characters"`` by a CharacterCounter."""
    if data.get("counter") == "characters":
        return {**data, "counter": CharacterCounter()}
    return data


def _expect_error(case: dict[str, Any], call: Any) -> None:
    """Assert ``call()`` raises the case's error naming the case's argument."""
    with pytest.raises(_ERRORS[case["error"]["type"]]) as info:
        call()
    assert getattr(info.value, "argument", None) == case["error"]["argument"]


#: Both block scans (MD-14): the compiled one only where the ``fast`` extra is installed.
_SCANS = [PARSERS[1]] + ([PARSERS[0]] if available() else [])


@pytest.mark.parametrize("scan", _SCANS)
@pytest.mark.parametrize("case", goldens.cases("split_markdown"))
def test_split_markdown(case: dict[str, Any], scan: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The chunks, every field, in order, from each block scan (MD-14)."""
    monkeypatch.setenv(PARSER_VARIABLE, scan)
    if "error" in case:
        _expect_error(case, lambda: split_markdown(**case["input"]))
        return
    chunks = split_markdown(**_counter(case["input"]))
    got = [{**dataclasses.asdict(c), "heading_path": list(c.heading_path)} for c in chunks]
    for record in got:
        assert record.pop("doc_id") == case["input"]["doc_id"]
    assert got == case["output"]


def _run_heading_aware(data: dict[str, Any]) -> list[Any]:
    """Parse the case's input and chunk it."""
    if "markdown" in data:
        document = parse_markdown("doc", data["markdown"])
    elif "text" in data:
        document = parse_text("doc", data["text"])
    else:
        document = document_from_blocks("doc", data["blocks"])
    options: dict[str, Any] = {k: data[k] for k in ("max_tokens", "overlap_tokens") if k in data}
    if data.get("counter") == "characters":
        options["counter"] = CharacterCounter()
    elif "counter" in data:
        options["counter"] = data["counter"]  # a bad counter, for an error case
    raw = data.get("context", {})
    context = ChunkContext(
        raw.get("tenant_id", ""), raw.get("corpus_id", ""), tuple(raw.get("acl_labels", ()))
    )
    chunks = HeadingAwareChunker(**options).chunk(document, context)
    for c in chunks:
        assert c.text == document.source[c.start : c.end]
    return list(chunks)


@pytest.mark.parametrize("case", goldens.cases("heading_aware"))
def test_heading_aware(case: dict[str, Any]) -> None:
    """Positions, parents, kinds, levels, texts (and attributes/context where given)."""
    if "error" in case:
        _expect_error(case, lambda: _run_heading_aware(case["input"]))
        return
    chunks = _run_heading_aware(case["input"])
    got = []
    for c, want in zip(chunks, case["output"], strict=False):
        record: dict[str, Any] = {
            "position": c.position,
            "parent": None if c.parent_id is None else int(c.parent_id.rsplit(":", 1)[1]),
            "kind": c.kind,
            "text": c.text,
        }
        if c.kind == "heading":
            record["level"] = c.metadata["level"]
        if "attributes" in want:
            record["attributes"] = [dict(a) for a in c.block_attributes]
        for key in ("tenant_id", "corpus_id", "document_id"):
            if key in want:
                record[key] = getattr(c, key)
        if "acl_labels" in want:
            record["acl_labels"] = list(c.acl_labels)
        if "heading_path" in want:
            record["heading_path"] = list(c.heading_path)
        got.append(record)
    assert len(chunks) == len(case["output"])
    assert got == case["output"]


@pytest.mark.parametrize("case", goldens.cases("split_sentences"))
def test_split_sentences(case: dict[str, Any]) -> None:
    """The sentences, in order."""
    if "error" in case:
        _expect_error(case, lambda: split_sentences(**case["input"]))
        return
    assert split_sentences(**case["input"]) == case["output"]
