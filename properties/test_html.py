"""Properties of the HTML reader (docs/spec/html.md): the literal model, the text's shape,
the markup map's equation on generated pages and on broken markup, chunking pages."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkspec import InputError, chunk_document, document_from_bytes
from chunkspec._text._html._page import read_markup
from properties.html_model import model_blocks, serialize
from properties.strategies import html_pages

_HTML_KINDS = {"heading", "paragraph", "list", "definition", "table", "code", "quote"}


def _page(body: list[Any], entities: bool, doctype: bool = True) -> str:
    """A whole page around ``body``: doctype, a head with a title, the body."""
    head = "<!DOCTYPE html><html lang=en><head><title>T</title></head>" if doctype else ""
    return f"{head}<body>{serialize(body, entities)}</body></html>"


@given(html_pages(), st.booleans(), st.booleans())
def test_reader_equals_the_literal_model(body: list[Any], entities: bool, keep: bool) -> None:
    """HTML-4, HTML-5, HTML-6, HTML-7, HTML-8, HTML-9, HTML-10, HTML-11, HTML-12: the blocks
    of a generated page are the literal model's, kind, level and text, and the text is
    those blocks joined by blank lines."""
    page = read_markup(_page(body, entities), "d", keep_furniture=keep)
    got = [(b.kind, b.level, b.text) for b in page.parsed.blocks]
    assert got == model_blocks(body, keep)
    assert page.parsed.source == "\n\n".join(text for _, _, text in got)
    assert "HIDDENWORD" not in page.parsed.source  # HTML-5


def _mutations() -> st.SearchStrategy[list[tuple[str, int, str]]]:
    """Edits that break markup: a tag dropped, a stray or misnested tag, a comment, text in
    a table, a NUL, CRLF."""
    edit = st.tuples(
        st.sampled_from(["drop-tag", "insert", "crlf"]),
        st.integers(0, 10**6),
        st.sampled_from(
            ["</b>", "</p>", "<p>", "<b>", "</div>", "<!-- c -->", "<!---->", "stray text",
             "</td>", "<tr>", "\x00", "&amp", "&notit;", "<li>", "</table>", "<i><b>", "</i>"]
        ),
    )  # fmt: skip
    return st.lists(edit, max_size=6)


def _broken(markup: str, edits: list[tuple[str, int, str]]) -> str:
    """``markup`` with the edits applied, each at a position taken modulo its length."""
    for kind, at, piece in edits:
        tags = list(re.finditer(r"<[^>]*>", markup))
        if kind == "drop-tag" and tags:
            m = tags[at % len(tags)]
            markup = markup[: m.start()] + markup[m.end() :]
        elif kind == "insert":
            k = at % (len(markup) + 1)
            markup = markup[:k] + piece + markup[k:]
        elif kind == "crlf":
            markup = markup.replace("\n", "\r\n")
    return markup


def _runs_text(runs: list[tuple[int, int, int, int, bool]], text: str, a: int, b: int,
               start: int, end: int) -> str:  # fmt: skip
    """HTML-21's right side: the text whose markup lies in [a, b) (an exact run's characters
    one by one, any other run whole), clipped to [start, end)."""
    out = []
    for ts, te, ms, me, exact in runs:
        if exact:
            lo, hi = max(ms, a), min(me, b)
            if lo >= hi:
                continue
            ts, te = ts + lo - ms, ts + hi - ms
        elif not (a <= ms and me <= b and ms < me):
            continue
        lo, hi = max(ts, start), min(te, end)
        if lo < hi:
            out.append(text[lo:hi])
    return "".join(out)


def _placed_text(runs: list[tuple[int, int, int, int, bool]], text: str, start: int,
                 end: int) -> str:  # fmt: skip
    """HTML-21's left side: text[start:end] less the text in no run."""
    return "".join(text[max(ts, start) : min(te, end)] for ts, te, _, _, _ in runs
                   if max(ts, start) < min(te, end))  # fmt: skip


@given(html_pages(), st.booleans(), _mutations(), st.data())
def test_markup_span_equation_on_broken_markup(
    body: list[Any], entities: bool, edits: list[tuple[str, int, str]], data: st.DataObject
) -> None:
    """HTML-3, HTML-18, HTML-19, HTML-20, HTML-21: on any markup (generated pages broken by
    dropped, stray and misnested tags, comments, NULs, CRLF), exact runs are markup, runs
    go forward in both text and markup, blocks tile the text, and for any range the markup
    span holds the markup of exactly that range's placed text."""
    markup = _broken(_page(body, entities), edits)
    document = document_from_bytes(markup.encode("utf-8"), doc_id="d", name="p.html")
    text, source = document.text, document.markup
    assert document.markup_map is not None
    runs = document.markup_map.runs()
    last_text = last_markup = 0
    for ts, te, ms, me, exact in runs:
        assert last_text <= ts < te, (runs, markup)
        assert last_markup <= ms <= me, (runs, markup)
        last_text, last_markup = te, me
        if exact:
            assert text[ts:te] == source[ms:me]
    css_space = " \t\n\f"  # HTML-4: NBSP and the other spaces are letters
    assert text == text.rstrip(css_space)
    for block in document.blocks().blocks:
        assert block.kind in _HTML_KINDS
        assert block.text == text[block.start : block.end]
        assert not block.text.isspace()
        assert block.text == block.text.rstrip(css_space)
        if block.kind == "table":  # HTML-10: the first row's leading empty cells are tabs
            assert block.text.lstrip("\t") == block.text.lstrip(css_space)
        elif block.kind != "code":  # HTML-6: a code block keeps its first line's indent
            assert block.text == block.text.lstrip(css_space)
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    a, b = document.markup_span(start, end)
    assert 0 <= a <= b <= len(source)
    assert _runs_text(runs, text, a, b, start, end) == _placed_text(runs, text, start, end)


@given(html_pages(), st.sampled_from(["heading", "structural", "recursive", "window"]))
def test_records_map_back_to_their_markup(body: list[Any], strategy: str) -> None:
    """HTML-16, HTML-17, HTML-21: every strategy chunks a page; each record's markup span
    holds exactly its text's markup, the spans of records never go backwards, and on these
    well-formed pages the span read alone as a page gives the record's text up to white
    space (a span holding furniture or a permalink excepted: their rules depend on the
    sections and the heading around them)."""
    markup = _page(body, entities=False)
    document = document_from_bytes(markup.encode("utf-8"), doc_id="d", name="p.html")
    if not document.text.strip():
        return
    records = chunk_document(document, strategy=strategy, max_tokens=8)
    assert document.markup_map is not None
    runs = document.markup_map.runs()
    previous = 0
    for record in records:
        slice_ = record.prefix + document.text[record.start : record.end]
        assert record.text.split() == slice_.split()  # RECORD-2
        a, b = document.markup_span(record.start, record.end)
        assert previous <= a <= b
        previous = a
        assert _runs_text(runs, document.text, a, b, record.start, record.end) == _placed_text(
            runs, document.text, record.start, record.end
        )
        fragment = document.markup[a:b]
        furniture = re.search(r"<(nav|aside|header|footer)\b|cookie|role=|href=.#", fragment)
        if a < b and furniture is None:
            alone = read_markup(fragment, "d").parsed.source
            placed = _placed_text(runs, document.text, record.start, record.end)
            assert "".join(alone.split()) == "".join(placed.split())


_prefix = st.lists(st.sampled_from([" ", "\n", "\t", "<!-- saved -->", "<!---->"]), max_size=4).map(
    "".join
)


_openings = st.sampled_from(
    ["<!DOCTYPE html>", "<!doctype HTML>", "<html>", "<HTML lang=en>", "<p>", "# md", "%PDF-1.7"]
)


@given(_prefix, _openings, st.booleans())
def test_pages_are_sniffed_by_their_opening(prefix: str, opening: str, bom: bool) -> None:
    """HTML-1: a file without a known suffix is a page when its first KiB opens, after white
    space, a BOM and comments, with a doctype or ``<html``; a PDF by its magic; else no
    format (an InputError naming --input-format)."""
    data = ("\ufeff" if bom else "").encode() + (prefix + opening + "<p>x").encode()
    want = "html" if opening.lower().startswith(("<!doctype", "<html")) else None
    if opening.startswith("%PDF"):
        want = "pdf"
    if want is None:
        with pytest.raises(InputError, match="--input-format"):
            document_from_bytes(data, doc_id="d", name="index")
    elif want == "html":
        assert document_from_bytes(data, doc_id="d", name="index").format == "html"


@given(
    st.text(alphabet=st.sampled_from("aé€жΩ日 x"), min_size=1, max_size=20),
    st.sampled_from(["utf-8", "windows-1252", "windows-1251", "iso-8859-2", "shift_jis"]),
    st.sampled_from(["declared", "caller", "bom", "none"]),
)
def test_encodings_read_in_the_standards_order(text: str, codec: str, how: str) -> None:
    """HTML-2: a BOM, else the caller's encoding, else the page's declaration, else UTF-8;
    bytes not valid in the chosen encoding are an InputError naming it, never replaced."""
    try:
        body = text.encode(codec)
    except UnicodeEncodeError:
        return  # the text has a letter the encoding lacks
    meta = f'<meta charset="{codec}">'.encode() if how == "declared" else b""
    data = meta + b"<p>" + body + b"</p>"
    encoding = codec if how == "caller" else None
    if how == "bom":
        data = "\ufeff<p>".encode() + text.encode() + b"</p>"
    chosen = "utf-8" if how in ("bom", "none") else codec
    if how == "none":
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            with pytest.raises(InputError, match="--input-encoding"):
                document_from_bytes(data, doc_id="d", name="p.html")
            return
    document = document_from_bytes(data, doc_id="d", name="p.html", encoding=encoding)
    expected = (text if how == "bom" else body.decode(chosen)).strip(" ")
    assert " ".join(document.text.split(" ")) == " ".join(expected.split())


@given(st.text(alphabet=st.sampled_from("ab \n\tÉ"), max_size=12), html_pages(), st.booleans())
def test_title_is_the_title_element_else_a_level_one_heading(
    title: str, body: list[Any], given_title: bool
) -> None:
    """HTML-13: the caller's title; else the title element's text folded if not blank; else
    the first level-1 heading's text; else the doc id."""
    escaped = title.replace("&", "&amp;").replace("<", "&lt;")
    markup = f"<title>{escaped}</title>{serialize(body, False)}"
    document = document_from_bytes(
        markup.encode(), doc_id="d", name="p.html", title="Given" if given_title else None
    )
    if given_title:
        assert document.title == "Given"
    elif title.split():
        assert document.title == " ".join(title.split())
    else:
        ones = [b.text for b in document.blocks().blocks if b.kind == "heading" and b.level == 1]
        assert document.title == (" ".join(ones[0].split()) if ones else "d")


_meta_names = st.sampled_from(["description", "Author", "KEYWORDS", "robots", "generator"])


@given(
    st.lists(st.tuples(_meta_names, st.sampled_from(["", " x  y ", "z"])), max_size=4),
    st.sampled_from([None, "en", "pt-BR"]),
    st.dictionaries(st.sampled_from(["author", "corpus_id"]), st.just("caller"), max_size=2),
)
def test_page_metadata_under_the_callers(
    metas: list[tuple[str, str]], lang: str | None, caller: dict[str, str]
) -> None:
    """HTML-14: description, author, keywords (the first non-blank of each) and the html
    lang are the metadata; no other meta; the caller's metadata wins on a key in both."""
    head = "".join(f'<meta name="{n}" content="{c}">' for n, c in metas)
    opening = f"<html lang={lang}>" if lang else "<html>"
    markup = f"{opening}<head>{head}</head><body><p>x</p>"
    document = document_from_bytes(markup.encode(), doc_id="d", name="p.html", metadata=caller)
    want: dict[str, str] = {}
    for name, content in metas:
        key = name.lower()
        if key in ("description", "author", "keywords") and content.split():
            want.setdefault(key, " ".join(content.split()))
    if lang:
        want["language"] = lang
    want.update(caller)
    assert document.record_metadata == want


@given(
    st.sampled_from(["acl_labels", "ACL_LABELS", "tenant_id", " Tenant_Id "]),
    st.sampled_from([None, {"acl_labels": ["hr"]}, {"tenant_id": "t1"}, {"acl_labels": None}]),
    st.sampled_from(["{}", "<nav>{}</nav>", "<div hidden>{}</div>", "<template>{}</template>",
                     "<svg>{}</svg>", "<main><p>m</p></main><aside>{}</aside>",
                     "<noscript>{}</noscript>", "<p>before</p><footer>{}</footer>",
                     "<!-- {} -->", "<script>var s = '{}';</script>"]),
)  # fmt: skip
def test_access_keys_are_never_read_from_a_page(
    name: str, caller: dict[str, Any] | None, around: str
) -> None:
    """HTML-15: a page whose meta names an access key, anywhere in the tree (rendered or
    not: furniture, hidden, template, foreign content) or in markup that reads as such a
    tag (a comment, a script, a noscript), is refused unless the caller's metadata sets
    that key; the page's value is never read."""
    meta = f'<meta name="{name}" content="public">'
    markup = around.replace("{}", meta) + "<p>x</p>"
    key = name.strip().lower()
    sets = caller is not None and caller.get(key) is not None
    if not sets:
        with pytest.raises(InputError, match=f"{key}.*HTML-15"):
            document_from_bytes(markup.encode(), doc_id="d", name="p.html", metadata=caller)
        return
    document = document_from_bytes(markup.encode(), doc_id="d", name="p.html", metadata=caller)
    assert document.record_metadata == caller  # the caller's value, nothing of the page's


_OPENED: list[str] = []
_WATCHING: list[bool] = [False]


def _audit(event: str, args: tuple[Any, ...]) -> None:
    """Record every file the interpreter opens while watching (sys.addaudithook)."""
    if _WATCHING[0] and event in ("open", "os.listdir", "socket.connect"):
        _OPENED.append(f"{event} {args[0]!r}")


_HOOKED: list[bool] = []


@given(
    html_pages(),
    st.lists(
        st.sampled_from(
            ['<iframe src="{p}">f</iframe>', '<img src="{p}">',
             '<link rel=stylesheet href="{p}">', '<script src="{p}"></script>',
             '<base href="file://{p}">', '<object data="{p}"></object>',
             '<iframe srcdoc="&lt;p&gt;x"></iframe>', '<a href="{p}">link</a>',
             '<embed src="http://127.0.0.1:9/{p}">', '<link rel=import href="{p}">']
        ),
        min_size=1,
        max_size=4,
    ),
)  # fmt: skip
def test_nothing_outside_the_page_is_read(body: list[Any], references: list[str]) -> None:
    """HTML-22: reading a page that points at files and addresses opens no file and no
    connection: the interpreter's audit events while it reads name none."""
    import sys
    import tempfile

    if not _HOOKED:
        sys.addaudithook(_audit)
        _HOOKED.append(True)
    with tempfile.NamedTemporaryFile(suffix=".sentinel") as target:
        markup = "".join(r.format(p=target.name) for r in references) + serialize(body, False)
        data = markup.encode()
        _OPENED.clear()
        _WATCHING[0] = True
        try:
            document_from_bytes(data, doc_id="d", name="p.html")
        finally:
            _WATCHING[0] = False
        assert not [event for event in _OPENED if "sentinel" in event or "socket" in event]
        _WATCHING[0] = True  # the control: the hook does see an open of the target
        try:
            with open(target.name, "rb"):
                pass
        finally:
            _WATCHING[0] = False
        assert any("sentinel" in event for event in _OPENED)


_docx_text = st.text(alphabet=st.sampled_from("abc é日Ω\U0001f600"), min_size=1, max_size=12)


@settings(max_examples=25)  # python-docx builds a file in ~0.4 s: 25 is the gate's 10 s
@given(
    st.lists(
        st.tuples(st.sampled_from(["Normal", "Heading 1", "Heading 2", "List Bullet"]), _docx_text),
        min_size=1,
        max_size=6,
    )
)
def test_word_files_read_as_their_html(paragraphs: list[tuple[str, str]]) -> None:
    """HTML-23: a Word file's headings are headings at their style's level, its paragraphs
    and list items text, in order; its markup is mammoth's HTML and the spans map into it."""
    from tests.docx_files import build_docx

    document = document_from_bytes(build_docx(paragraphs), doc_id="d", name="w.docx")
    assert document.format == "docx"
    heads = [(b.level, b.text) for b in document.blocks().blocks if b.kind == "heading"]
    want = [
        (int(style[-1]), " ".join(text.split()))
        for style, text in paragraphs
        if style.startswith("Heading") and text.split()
    ]
    assert heads == want
    words = [w for _, text in paragraphs for w in text.split()]
    assert document.text.split() == words
    assert document.markup.startswith("<")
    runs = document.markup_map.runs() if document.markup_map else []
    for start, end, a, b, exact in runs:
        if exact:
            assert document.text[start:end] == document.markup[a:b]
