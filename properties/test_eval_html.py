"""Properties of MegaMart's HTML rendering, its gold mapping and the peers' placement (EVAL-45,
EVAL-46), over generated Markdown pages read by chunkspec's own HTML reader."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkspec._errors import CorpusError
from chunkspec._evaluation._gold import GoldSpan, SpanQuery
from chunkspec._evaluation._html_corpus import locate_words, map_gold, read_page, rendered_words
from chunkspec._evaluation._html_peers import MIN_RUN, place_chunks
from chunkspec._evaluation._labelled_corpus import CorpusDocument
from chunkspec._evaluation._megamart_html import render_page

#: Words with the characters HTML escapes and a code the corpus would name.
VOCABULARY = ["kettle", "E4", "cold", "A&B", "<5", "2.0", "x", "déjà", "SKU-1"]
word = st.sampled_from(VOCABULARY)


@st.composite
def pages(draw: st.DrawFn) -> tuple[str, list[tuple[int, int]]]:
    """A Markdown page of headings, paragraphs (with a soft line break) and tables, and the
    spans a gold span could be: whole table rows and runs of a paragraph's words."""
    markdown = "# Page\n\n"
    spans: list[tuple[int, int]] = []
    for n in range(draw(st.integers(1, 3))):
        markdown += f"## Section {n}\n\n"
        if draw(st.booleans()):
            lines = [" ".join(draw(st.lists(word, min_size=1, max_size=5))) for _ in range(2)]
            paragraph = "\n".join(lines)
            found = [m.span() for m in re.finditer(r"\S+", paragraph)]
            i = draw(st.integers(0, len(found) - 1))
            j = draw(st.integers(i, len(found) - 1))
            spans.append((len(markdown) + found[i][0], len(markdown) + found[j][1]))
            markdown += paragraph + "\n\n"
        else:
            markdown += "| Code | Meaning |\n| --- | --- |\n"
            for _ in range(draw(st.integers(1, 3))):
                row = f"| {draw(word)} | {' '.join(draw(st.lists(word, min_size=1)))} |"
                spans.append((len(markdown), len(markdown) + len(row)))
                markdown += row + "\n"
            markdown += "\n"
    return markdown, spans


@given(pages(), st.data())
def test_moved_gold_has_the_rendered_words(
    page: tuple[str, list[tuple[int, int]]], data: st.DataObject
) -> None:
    """EVAL-45: a span moves to the one place its rendered words have in the page's text, and
    holds exactly those words; zero or several places is a CorpusError. The page renders
    the same twice."""
    markdown, spans = page
    doc = CorpusDocument("p", "Page", markdown)
    html = render_page(doc)
    assert render_page(doc) == html
    text = read_page("p", html).text
    start, end = data.draw(st.sampled_from(spans))
    excerpt = markdown[start:end]
    query = SpanQuery("q", "prose", "?", (GoldSpan("p", start, end),))
    places = locate_words(text, rendered_words(excerpt))
    if len(places) == 1:
        (moved,) = map_gold(query, {"p": doc}, {"p": text}).gold
        assert text[moved.start : moved.end].split() == rendered_words(excerpt)
        assert (moved.start, moved.end) == places[0]
    else:
        with pytest.raises(CorpusError, match="EVAL-45"):
            map_gold(query, {"p": doc}, {"p": text})
    assert places  # the reader shows every word of the article: never "not found"


@given(st.lists(word, min_size=1, max_size=30), st.data())
def test_a_run_of_the_text_is_placed_on_its_words(words: list[str], data: st.DataObject) -> None:
    """EVAL-46: a chunk that is a run of the text's words is placed on such a run, every word
    matched; a region starts and ends on words, or is [0, 0) with nothing matched."""
    separators = data.draw(st.lists(st.sampled_from([" ", "\n", "\n\n", "\t"]), min_size=29))
    text = "".join(w + s for w, s in zip(words, separators, strict=False))
    i = data.draw(st.integers(0, len(words) - 1))
    j = data.draw(st.integers(i + 1, len(words)))
    extra = data.draw(st.lists(st.sampled_from(["Menu", "Cookies"]), max_size=2))
    chunk = " ".join([*extra, *words[i:j]])
    (place,) = place_chunks(text, [chunk])
    if j - i >= MIN_RUN or not extra:
        assert text[place.start : place.end].split() == words[i:j]
        assert (place.matched, place.words) == (j - i, j - i + len(extra))
    if place.matched == 0:
        assert (place.start, place.end) == (0, 0)
    else:
        assert not text[place.start].isspace()
        assert not text[place.end - 1].isspace()
        assert place.start == 0 or text[place.start - 1].isspace()
        assert place.end == len(text) or text[place.end].isspace()
