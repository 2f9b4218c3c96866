"""Golden cases for MegaMart's HTML rendering: moving gold (EVAL-45) and placing the peers'
chunks (EVAL-46), tests/golden/{move_gold,place_chunks}.json."""

from __future__ import annotations

from typing import Any

import pytest

from chunkspec._evaluation._gold import GoldSpan, SpanQuery
from chunkspec._evaluation._html_corpus import map_gold
from chunkspec._evaluation._html_peers import place_chunks
from chunkspec._evaluation._labelled_corpus import CorpusDocument

from .. import goldens


@pytest.mark.parametrize("case", goldens.cases("move_gold"))
def test_move_gold(case: dict[str, Any]) -> None:
    data = case["input"]
    query = SpanQuery("q", "prose", "?", (GoldSpan("p", data["start"], data["end"]),))
    markdown = {"p": CorpusDocument("p", "P", data["markdown"])}

    def call() -> GoldSpan:
        (moved,) = map_gold(query, markdown, {"p": data["html_text"]}).gold
        return moved

    if "error" in case:
        with pytest.raises(ValueError, match=r"q: gold\[0\] .* \(EVAL-45\)") as info:
            call()
        assert getattr(info.value, "argument", None) == case["error"]["argument"]
        return
    moved = call()
    assert (moved.doc_id, moved.start, moved.end) == ("p", *case["output"].values())


@pytest.mark.parametrize("case", goldens.cases("place_chunks"))
def test_place_chunks(case: dict[str, Any]) -> None:
    data = case["input"]
    placed = place_chunks(data["text"], data["chunks"])
    assert [
        {"start": p.start, "end": p.end, "matched": p.matched, "words": p.words} for p in placed
    ] == case["output"]
