"""EVAL-45, EVAL-46: MegaMart's pages as web pages, their gold moved, LangChain's splitters.

The generator is checked for determinism and for its furniture with the standard library's
HTML parser; the gold mapping on hand-made texts and, through chunkspec's HTML reader, on
every page and gold span of the bundled corpus.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from mdit_py_plugins.deflist import deflist_plugin

from chunkspec._errors import CorpusError
from chunkspec._evaluation._gold import GoldSpan, SpanQuery
from chunkspec._evaluation._html_corpus import (
    html_corpus,
    locate_words,
    map_gold,
    rendered_words,
)
from chunkspec._evaluation._html_peers import MIN_RUN, place_chunks
from chunkspec._evaluation._labelled_corpus import Corpus, CorpusDocument, load_corpus
from chunkspec._evaluation._megamart_html import (
    RELATED,
    SITE,
    related_pages,
    render_corpus,
    render_page,
    write_pages,
)


class _Tags(HTMLParser):
    """Every start tag with its attributes, and the text inside each open element."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.open: list[str] = []
        self.text: dict[str, list[str]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in ("meta", "link", "input", "br"):
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.open:
            while self.open.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        for tag in set(self.open):
            self.text.setdefault(tag, []).append(data)

    def inside(self, tag: str) -> str:
        return " ".join(" ".join(self.text.get(tag, [])).split())


@pytest.fixture(scope="module")
def megamart() -> Corpus:
    return load_corpus()


def _page(corpus: Corpus, doc_id: str) -> _Tags:
    parsed = _Tags()
    parsed.feed(render_corpus(corpus)[doc_id])
    return parsed


def test_rendering_is_deterministic(megamart: Corpus) -> None:
    """EVAL-45: the same corpus renders to the same pages, whatever order it lists them in."""
    first = render_corpus(megamart)
    again = render_corpus(megamart)
    shuffled = Corpus(megamart.name, tuple(reversed(megamart.documents)), megamart.queries)
    assert first == again
    assert render_corpus(shuffled) == first
    assert list(first) == [d.id for d in megamart.documents]


def test_write_pages(tmp_path: Path) -> None:
    """EVAL-45: the pages written are the rendered bytes, one ID.html each."""
    lone = CorpusDocument("faq", "FAQ", "# FAQ\n\nText & more.\n")
    pages = {"faq": render_page(lone)}
    (path,) = write_pages(pages, tmp_path / "site")
    assert path == tmp_path / "site" / "faq.html"
    assert path.read_bytes() == pages["faq"].encode("utf-8")
    assert "<p>Text &amp; more.</p>" in pages["faq"]


def test_furniture_is_there(megamart: Corpus) -> None:
    """EVAL-45: title, description, header with the site and a menu, aside, footer, banner."""
    doc = megamart.document("product-kt-100")
    page = _page(megamart, doc.id)
    names = [t for t, _ in page.tags]
    for tag in ("title", "header", "nav", "main", "article", "aside", "footer", "script"):
        assert tag in names, tag
    assert page.inside("title") == f"{doc.title} | {SITE}"
    (description,) = [a for t, a in page.tags if t == "meta" and a.get("name") == "description"]
    assert description["content"]
    assert description["content"].startswith("Our reviewers tested")
    assert SITE in page.inside("header")
    menu = [a["href"] for t, a in page.tags if t == "a"][:8]
    assert "/products/" in menu
    assert "/stores/" in menu
    assert "©" in page.inside("footer")
    assert any(t == "div" and a.get("class") == "cookie-banner" for t, a in page.tags)
    assert "Related pages" in page.inside("aside")
    assert page.inside("aside").count(doc.title.split()[0]) >= 1


def test_article_is_markdown_it_rendering(megamart: Corpus) -> None:
    """EVAL-45: the article is markdown-it-py's rendering of the page, with tables."""
    doc = megamart.document("store-1142")
    page = render_page(doc)
    body = MarkdownIt("commonmark").enable("table").use(deflist_plugin).render(doc.text)
    assert body in page
    assert "<table>" in body
    assert "<h1>MegaMart Haarlem North (store 1142)</h1>" in body


def test_related_pages_are_the_next_of_their_kind(megamart: Corpus) -> None:
    """EVAL-45: four related pages, the next of the same kind in id order, wrapping."""
    related = related_pages(megamart.documents)
    stores = sorted(d.id for d in megamart.documents if d.id.startswith("store-"))
    assert [d.id for d in related[stores[-1]]] == stores[:RELATED]
    assert all(r.id.startswith("product-") for r in related["product-kt-100"])
    lone = CorpusDocument("faq", "FAQ", "# FAQ\n\nText.\n")
    assert related_pages([lone]) == {"faq": []}
    assert "<aside" not in render_page(lone)


def test_rendered_words_drop_cell_delimiters() -> None:
    """EVAL-45: a table row's pipes separate words as spaces do."""
    assert rendered_words("| E4 | Battery too cold |") == ["E4", "Battery", "too", "cold"]
    assert rendered_words("| Model | KT-100 |\n| Article number | SKU-1 |") == [
        "Model",
        "KT-100",
        "Article",
        "number",
        "SKU-1",
    ]
    assert rendered_words("a|b") == ["a", "b"]


def test_locate_words_whole_words_any_whitespace() -> None:
    """EVAL-45: whole words, separated by whitespace only; every place, overlaps included."""
    text = "E4\tBattery too\n\ncold. xE4 Battery too cold"
    assert locate_words(text, ["E4", "Battery", "too"]) == [(0, 14)]
    assert locate_words(text, ["Battery", "too"]) == [(3, 14), (26, 37)]
    assert locate_words(text, ["cold"]) == [(38, 42)]  # "cold." is another word
    assert locate_words("a a a", ["a", "a"]) == [(0, 3), (2, 5)]
    assert locate_words("a b", []) == []


def test_map_gold_moves_spans_and_refuses_to_guess() -> None:
    """EVAL-45: a span is moved to its one place; none or several is a CorpusError."""
    md = CorpusDocument("p", "P", "# P\n\n| Code | Meaning |\n| --- | --- |\n| E4 | Cold |\n")
    start = md.text.index("| E4")
    query = SpanQuery("q", "identifier", "E4?", (GoldSpan("p", start, start + 13),))
    html = "P\n\nCode\tMeaning\nE4\tCold\n"
    (moved,) = map_gold(query, {"p": md}, {"p": html}).gold
    assert (moved.doc_id, html[moved.start : moved.end]) == ("p", "E4\tCold")
    with pytest.raises(CorpusError, match=r"q: gold\[0\] .* not found .* \(EVAL-45\)"):
        map_gold(query, {"p": md}, {"p": "P\n\nE4 Warm\n"})
    with pytest.raises(CorpusError, match="found 2 times"):
        map_gold(query, {"p": md}, {"p": "E4 Cold\n\nE4 Cold\n"})


def test_place_chunks_by_runs_of_words() -> None:
    """EVAL-46: a chunk spans its first to last matching run of MIN_RUN words or more."""
    text = "Menu Home\n\nAlpha beta gamma delta.\n\nEpsilon zeta eta theta.\n"
    chunk = "Home Shop Alpha beta gamma delta. Epsilon zeta eta"
    (place,) = place_chunks(text, [chunk])
    assert text[place.start : place.end] == "Alpha beta gamma delta.\n\nEpsilon zeta eta"
    assert (place.matched, place.words) == (7, 9)
    short, nowhere = place_chunks(text, ["theta.", "Cookies and more words"])
    assert text[short.start : short.end] == "theta."
    assert (nowhere.start, nowhere.end, nowhere.matched) == (0, 0, 0)
    assert MIN_RUN == 3


def test_every_megamart_span_moves(megamart: Corpus) -> None:
    """EVAL-45 on the bundled corpus: all 849 spans move, each to the same words."""
    view = html_corpus(megamart)
    assert view.spans == sum(len(q.gold) for q in megamart.queries) == 849
    texts = {d.id: d.text for d in view.corpus.documents}
    for before, after in zip(megamart.queries, view.corpus.queries, strict=True):
        assert (before.id, before.kind, before.together) == (after.id, after.kind, after.together)
        for old, new in zip(before.gold, after.gold, strict=True):
            source = megamart.document(old.doc_id).text[old.start : old.end]
            assert texts[new.doc_id][new.start : new.end].split() == rendered_words(source)
    for doc in view.corpus.documents:
        assert doc.document is not None
        assert doc.document.format == "html"
        assert doc.text == doc.document.text
        assert "cookies" not in doc.text.lower()  # the banner is furniture (the reader's rule)


def _pair() -> tuple[Corpus, Corpus]:
    """A one-page corpus and a rendering of it whose text and gold offsets differ."""
    md = CorpusDocument("a", "A", "# A\n\n| alpha | beta |\n")
    view = CorpusDocument("a", "A", "A\n\nalpha\tbeta\n")
    q = SpanQuery("q", "prose", "alpha?", (GoldSpan("a", 7, 19),))
    moved = SpanQuery("q", "prose", "alpha?", (GoldSpan("a", 3, 13),))
    return Corpus("tiny", (md,), (q,)), Corpus("tiny-html", (view,), (moved,))


def test_rendering_rows_run_on_their_corpus() -> None:
    """EVAL-45: html:NAME chunks the rendering and is scored on its gold, same questions."""
    pytest.importorskip("bm25s")
    from chunkspec._evaluation._evaluate import evaluate

    corpus, view = _pair()
    report = evaluate(
        corpus, ["fixed-8", "html:fixed-8"], k=1, renderings={"html": view}, bootstrap=0
    )
    assert [s.name for s in report.strategies] == ["fixed-8", "html:fixed-8"]
    assert [(s.chunks, s.mean_tokens) for s in report.strategies] == [(1, 7.0), (1, 3.0)]
    cells = {c.strategy: c for c in report.cells if c.question_class == "all"}
    assert cells["fixed-8"].span_recall == cells["html:fixed-8"].span_recall == 1.0
    assert cells["html:fixed-8"].span_precision == 10 / 13  # "alpha\tbeta" of "A\n\nalpha\tbeta"
    with pytest.raises(ValueError, match="strategy must be document"):
        evaluate(corpus, ["html:fixed-8"])  # no rendering called html
    other = Corpus("x", view.documents, (SpanQuery("z", "prose", "?", view.queries[0].gold),))
    with pytest.raises(ValueError, match=r"renderings\['html'\] must hold the corpus's questions"):
        evaluate(corpus, ["html:fixed-8"], renderings={"html": other})


def test_peers_refuse_markdown() -> None:
    """EVAL-46: LangChain's HTML splitters read HTML pages only."""
    pytest.importorskip("langchain_text_splitters")
    pytest.importorskip("bs4")
    from chunkspec._evaluation._strategy_names import resolve

    adapt = resolve("langchain-html-header")
    with pytest.raises(ValueError, match="reads HTML pages: name it html:langchain-html-header"):
        adapt("a", "A", "# A\n\ntext\n")


@pytest.mark.parametrize("name", ["langchain-html-header", "langchain-html-semantic"])
def test_peers_on_a_megamart_page(megamart: Corpus, name: str) -> None:
    """EVAL-46: the peers' chunks of a real page are records placed in its HTML text."""
    pytest.importorskip("langchain_text_splitters")
    pytest.importorskip("bs4")
    from chunkspec._evaluation._html_corpus import read_page
    from chunkspec._evaluation._strategy_names import resolve

    doc = megamart.document("product-kt-100")
    page = read_page(doc.id, render_page(doc))
    records = resolve(name)(doc.id, doc.title, page)
    assert records
    assert [r.id for r in records] == [f"{doc.id}:{n}" for n in range(len(records))]
    placed = [r for r in records if r.end > r.start]
    assert len(placed) >= len(records) - 2  # the furniture-only chunks at most
    table = next(r for r in placed if "SKU-803910" in r.text and "Weight" in r.text)
    assert "11.9 kg" in page.text[table.start : table.end]


def test_trail_peers_index_their_header_metadata(megamart: Corpus) -> None:
    """EVAL-46, EVAL-41: +trail indexes the splitter's headers as a trail; plain does not."""
    pytest.importorskip("langchain_text_splitters")
    pytest.importorskip("bs4")
    from chunkspec._evaluation._html_corpus import read_page
    from chunkspec._evaluation._strategy_names import indexed_text, resolve

    doc = megamart.document("product-kt-100")
    page = read_page(doc.id, render_page(doc))
    plain = resolve("langchain-html-header")(doc.id, doc.title, page)
    trail = resolve("langchain-html-header+trail")(doc.id, doc.title, page)
    assert [r.text for r in plain] == [r.text for r in trail]
    body = next(n for n, r in enumerate(trail) if r.heading_path[-1:] == ("Specifications",))
    assert trail[body].heading_path == (doc.title, "Specifications")
    assert indexed_text(trail[body]) == f"{doc.title} > Specifications\n\n{trail[body].text}"
    assert indexed_text(plain[body]) == plain[body].text


def test_cli_html_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """EVAL-45 through ``chunkspec eval``: html: rows beside the Markdown rows, one note."""
    pytest.importorskip("bm25s")
    from chunkspec._cli import main

    pages = tmp_path / "shop" / "pages"
    pages.mkdir(parents=True)
    (pages / "kettle.md").write_text(
        "# Kettle\n\n## Errors\n\n| Code | Meaning |\n| --- | --- |\n| E4 | Too cold |\n\n"
        "## Care\n\nDescale the kettle every month.\n",
        encoding="utf-8",
    )
    (tmp_path / "shop" / "queries.jsonl").write_text(
        '{"id": "e4", "class": "identifier", "question": "What is error E4?", '
        '"gold": [{"doc": "kettle", "quote": "| E4 | Too cold |"}]}\n',
        encoding="utf-8",
    )
    argv = ["eval", str(tmp_path / "shop"), "--strategies", "structural", "html:structural"]
    assert main([*argv, "--bootstrap", "0", "--no-baselines"]) == 0
    captured = capsys.readouterr()
    assert captured.err == (
        "chunkspec eval: html: 1 pages rendered with site furniture, 1 gold spans moved into "
        "their text (EVAL-45)\n"
    )
    rows = [line.split() for line in captured.out.splitlines() if line.startswith("all ")]
    assert [r[1] for r in rows] == ["structural", "html:structural"] * 2
    assert rows[0][2:6] == rows[1][2:6] == ["1.000", "1.000", "1.000", "1.000"]


def test_furnished_pages_keep_their_furniture_and_gold(megamart: Corpus) -> None:
    """EVAL-45 with HTML-11's keep_furniture: the furniture is text, and every span moves."""
    view = html_corpus(megamart, keep_furniture=True)
    assert view.corpus.name == "megamart-html+furniture"
    assert view.spans == 849
    text = view.corpus.document("product-kt-100").text
    assert text.startswith(f"{SITE}\n\nHome\n")
    assert "Related pages" in text
    assert text.rstrip().endswith("Cookie policy")
