"""Hypothesis strategies shared by every property suite, one headed section per topic."""

from __future__ import annotations

# --- seed 000: split_section / assemble ----------------------------------------------------
import dataclasses
import math
import re
from typing import Any

from hypothesis import strategies as st
from tests.pack_records import pack_record

from chunkspec import Chunk, ChunkRecord

#: Characters that stress the splitter: separators, other whitespace (WS-1), look-alikes
#: that are not whitespace, and non-ASCII / astral letters.
SPLIT_ALPHABET = [
    "a",
    "b",
    "c",
    "é",
    "\U0001f600",
    " ",
    " ",
    "\n",
    "\n",
    "\t",
    "\r",
    "\x0b",
    "\x0c",
    "\x1c",
    "\x85",
    "\xa0",
    "\u2028",
    "\u3000",
    "\ufeff",
    "\u200b",
]

words_ = st.text(
    alphabet=st.sampled_from(["a", "b", "c", "é", "\U0001f600", "\ufeff"]), min_size=1, max_size=4
)


@st.composite
def documents(draw: st.DrawFn) -> str:
    """Paragraphs of lines of words, joined by realistic and odd separators."""
    glue_words = st.sampled_from([" ", " ", " ", "  ", "\t", "\xa0", " \r"])
    glue_lines = st.sampled_from(["\n", "\n", "\r\n", "\n "])
    glue_paras = st.sampled_from(["\n\n", "\n\n", "\n\n\n", "\r\n\r\n", "\n \n", "\n\n\n\n"])
    paragraphs = []
    for _ in range(draw(st.integers(0, 5))):
        lines = []
        for _ in range(draw(st.integers(1, 4))):
            line_words = draw(st.lists(words_, min_size=0, max_size=8))
            line = ""
            for index, word in enumerate(line_words):
                line += (draw(glue_words) if index else "") + word
            lines.append(line)
        paragraph = lines[0]
        for line in lines[1:]:
            paragraph += draw(glue_lines) + line
        paragraphs.append(paragraph)
    text = paragraphs[0] if paragraphs else ""
    for paragraph in paragraphs[1:]:
        text += draw(glue_paras) + paragraph
    edge = st.sampled_from(["", "", " ", "\n", "\n\n", " \t"])
    return draw(edge) + text + draw(edge)


#: Any text the splitter accepts: structured documents or raw soup from SPLIT_ALPHABET.
split_texts = st.one_of(
    documents(),
    st.text(alphabet=st.sampled_from(SPLIT_ALPHABET), max_size=80),
)

#: Every WS-1 code point (``str.isspace()``), each a possible glue between words.
WS1 = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + "\u2028\u2029\u202f\u205f\u3000"
)


@st.composite
def realistic_texts(draw: st.DrawFn) -> str:
    """Long runs of words with non-ASCII letters, mostly single spaces between them, and
    now and then a tab, an NBSP, a CRLF, a double space or any other WS-1 code point: the
    rare-other-whitespace shape the splitter's sparse word-level path is for."""
    letters = st.sampled_from(["a", "b", "é", "ß", "я", "中", "\U0001f600", "\ufeff", "\u200b"])
    word = st.text(letters, min_size=1, max_size=3)
    rare = st.sampled_from(["\t", "\xa0", "\r\n", "  ", " \t ", "\xa0 ", *WS1])
    glue = st.one_of(st.just(" "), st.just(" "), st.just(" "), st.just(" "), st.just(" "), rare)
    count = draw(st.integers(0, 120))
    text = draw(word) if count else ""
    for _ in range(count - 1):
        text += draw(glue) + draw(word)
    edge = st.sampled_from(["", "", " ", "\t", "\xa0", "\n"])
    return draw(edge) + text + draw(edge)


max_tokens = st.one_of(st.integers(1, 8), st.integers(1, 2**53 - 1))

#: The irregular pieces one-line text holds (a space-separated run with other whitespace now
#: and then), as gaps between words: a CRLF document made one line ("\r " after a word,
#: " \r " alone between spaces at a paragraph break), blank pieces, tabs glued to a word's
#: start or end, NBSPs, wide spaces, WS-1 code points that the usual scan misses (U+2000,
#: U+1680, U+205F, U+001F), and double and triple spaces.
ONE_LINE_GAPS = [
    "\r ",
    " \r ",
    " \r \r ",
    " \t ",
    " \t\xa0 ",
    " \t",
    "\t ",
    "\t",
    "\xa0",
    " \xa0 ",
    "\u3000",
    "\u2009 ",
    "\u2000",
    " \u1680 ",
    "\u205f",
    "\x1f ",
    "\r\t ",
    "  ",
    "   ",
]


@st.composite
def one_line_texts(draw: st.DrawFn) -> str:
    """One-line text whose other whitespace is sparse enough for the splitter's word-level
    sparse path (at most one such character in 16): words of 4-7 letters (Latin-1, Cyrillic,
    CJK, emoji) joined by spaces, and now and then (at most every eighth gap) one of
    ``ONE_LINE_GAPS``."""
    letters = st.sampled_from(["a", "b", "é", "я", "中", "\U0001f600", "x"])
    word = st.text(letters, min_size=4, max_size=7)
    count = draw(st.integers(1, 90))
    text = draw(word)
    for index in range(1, count):
        irregular = index % 8 == 0 and draw(st.booleans())
        text += (draw(st.sampled_from(ONE_LINE_GAPS)) if irregular else " ") + draw(word)
    edge = st.sampled_from(["", "", " ", "\r", " \t", "\xa0 "])
    return draw(edge) + text + draw(edge)


ids = st.one_of(
    st.sampled_from(["d:0", "d:1", "d:2", "d:10", "a", "B", "b", "\ue000", "\U00010000", "\uffff"]),
    st.text(alphabet=st.sampled_from(["a", "B", ":", "1", "\ue000", "\U00010000"]), max_size=3),
)

#: Scores that stress PACK-5: the default boundary, signed zeros, infinities, ints.
scores = st.one_of(
    st.sampled_from([0.35, 0.3499999999999999, 0.0, -0.0, 1.0, math.inf, -math.inf, 0, 1]),
    st.floats(allow_nan=False, min_value=-1.0, max_value=2.0),
)

min_scores = st.one_of(
    st.just(0.35),
    st.sampled_from([0.0, -0.0, math.inf, -math.inf, 1, 0.5]),
    st.floats(allow_nan=False, min_value=-1.0, max_value=2.0),
)

budgets = st.one_of(st.integers(0, 30), st.sampled_from([2**53 - 1, 2**53 - 2]))


@st.composite
def chunks(draw: st.DrawFn) -> Chunk:
    """A Chunk with a small hash alphabet (to force duplicates) and stressful fields."""
    big = draw(st.booleans()) and draw(st.booleans()) and draw(st.booleans())
    tokens = draw(st.integers(2**52, 2**53 - 1)) if big else draw(st.integers(0, 12))
    return Chunk(
        id=draw(ids),
        doc_id=draw(st.sampled_from(["d", "e", ""])),
        title=draw(st.sampled_from(["T", "", "Returns"])),
        text=draw(st.sampled_from(["x", "", "a b", "é\n\U0001f600"])),
        tokens=tokens,
        content_hash=draw(st.sampled_from(["h1", "h2", "h3", "h4", "h5"])),
        score=draw(scores),
    )


@st.composite
def distinct_hash_chunk_lists(draw: st.DrawFn) -> list[Chunk]:
    """Up to 12 chunks whose hashes never repeat, their scores distinct or not: where
    assemble ranks by the score alone and picks the fitting prefix in one step."""
    items = draw(st.lists(chunks(), max_size=12))
    distinct_scores = draw(st.booleans())
    return [
        dataclasses.replace(
            c,
            content_hash=f"h{index}",
            score=float(index) / 7 - 1 if distinct_scores else c.score,
        )
        for index, c in enumerate(items)
    ]


chunk_lists = st.lists(chunks(), max_size=12)


# --- seed 001 / 003: Markdown documents, block lists, sentences (issue 5) -------------------

_md_words = st.sampled_from(
    ["alpha", "beta", "#", "##", "|", "-", "*", "```", "~~~", "x.", "Yes!", "(a)", ":"]
)


@st.composite
def md_fragment(draw: st.DrawFn) -> str:
    """One Markdown construct: heading (ATX or setext), paragraph, fence, table, list..."""
    words = draw(st.lists(_md_words, min_size=1, max_size=6))
    text = " ".join(words)
    kind = draw(st.integers(0, 11))
    if kind == 0:
        return "#" * draw(st.integers(1, 7)) + " " + text
    if kind == 1:
        return text + "\n" + draw(st.sampled_from(["===", "---", "-"]))
    if kind == 2:
        fence = draw(st.sampled_from(["```", "~~~", "````", "~~~~~"]))
        body = draw(st.sampled_from(["# not a heading", "```", "| a |", text]))
        closed = draw(st.booleans())
        return f"{fence}\n{body}\n{text}" + (f"\n{fence}" if closed else "")
    if kind == 3:
        return "    " + text + "\n    # code"
    if kind == 4:
        rows = draw(st.integers(0, 4))
        return "| a | b |\n|---|---|" + "".join(f"\n| {text} | {r} |" for r in range(rows))
    if kind == 5:
        return "\n".join(f"- {w}" for w in words)
    if kind == 6:
        return "> " + text + "\n> # quoted"
    if kind == 7:
        return "[ref]: /url"
    if kind == 8:
        return f"{words[0]}\n: {text}"
    if kind == 9:
        return draw(st.sampled_from([" ", "\t", "\u00a0", "\x0c", "***"]))
    return text


@st.composite
def markdown_documents(draw: st.DrawFn) -> str:
    """A Markdown document of random fragments joined by one or two line breaks."""
    parts = draw(st.lists(md_fragment(), max_size=12))
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    out = ""
    for part in parts:
        out += part + newline * draw(st.integers(1, 2))
    return out.replace("\n", newline) if newline != "\n" else out


#: Text for the sentence splitter: terminators, closers, whitespace and letters.
sentence_text = st.text(alphabet=st.sampled_from([*list("ab .!?)\"'\n\t…。"), "\xa0"]), max_size=60)

#: Sentence ends of every script (SENT-5, SENT-6): full-width and halfwidth marks with no
#: space after them, Arabic, Urdu and Devanagari marks, CJK closers, ideographs and kana.
script_sentence_text = st.text(
    alphabet=st.sampled_from([*"ab .!?\n。！？｡؟۔।॥」）』》中文かな가ก", "\u3000", "\xa0"]),
    max_size=60,
)


# --- seeds 002 and 004: sliding windows, token windows, the page chunker --------------------

#: Characters that exercise windows: ASCII, a two-byte and an astral character, sentence
#: marks, and whitespace of several kinds (no form feed: it separates pages).
WINDOW_ALPHABET = "ab .?!\n\t\u00a0\u00e9\U0001f600x"

window_texts = st.text(alphabet=WINDOW_ALPHABET, max_size=60)

#: Page texts never contain the page separator (rule PAGE-2). Every script's sentence ends
#: and closers (PAGE-9: 。 」 " । ؟) and a combining mark and an ideograph (SCRIPT-10's cuts).
page_texts = st.text(
    alphabet=WINDOW_ALPHABET + 'cdefg \u3002\u300d"\u0964\u061f\u0301\u4e2d', max_size=40
)

page_lists = st.lists(page_texts, max_size=5)


@st.composite
def sizes(draw: st.DrawFn, max_size: int = 12) -> tuple[int, int]:
    """Return a valid ``(size, overlap)``: ``size >= 1`` and ``0 <= overlap < size``."""
    size = draw(st.integers(min_value=1, max_value=max_size))
    return size, draw(st.integers(min_value=0, max_value=size - 1))


@st.composite
def section_spans(draw: st.DrawFn, length: int) -> list[tuple[int, int, str]]:
    """Return sorted, non-overlapping ``(start, end, label)`` spans inside ``[0, length]``."""
    cuts = sorted(draw(st.lists(st.integers(0, length), max_size=6)))
    spans = []
    for k in range(0, len(cuts) - 1, 2):
        spans.append((cuts[k], cuts[k + 1], draw(st.sampled_from(["intro", "body", "end"]))))
    return spans


# --- seed 001: retrieval metrics (issue 6, rules EVAL-*) ------------------------------------

#: A small id alphabet so that gold ids and answers collide often.
eval_ids = st.sampled_from(["a", "b", "c", "d", "e", "f", "g", "h"])


@st.composite
def eval_cases(
    draw: st.DrawFn,
) -> tuple[dict[str, list[str]], list[tuple[str, frozenset[str]]], int]:
    """Answers (question -> ids, duplicates allowed), labelled questions and k in [1, 12]."""
    n = draw(st.integers(min_value=1, max_value=8))
    questions = [f"q{i}" for i in range(n)]
    answers = {q: draw(st.lists(eval_ids, max_size=12)) for q in questions}
    queries = [(q, frozenset(draw(st.sets(eval_ids, max_size=3)))) for q in questions]
    return answers, queries, draw(st.integers(min_value=1, max_value=12))


#: Text made of words and every kind of whitespace, including Unicode spaces.
eval_text = st.lists(
    st.sampled_from([*"abé|- \n\t\x0b\x1c\xa0\u2003\u3000", "\n\n"]),
    max_size=200,
).map("".join)


# --- chunk records and documents (docs/spec/records.md, RECORD-* and SOURCE-*) --------------

#: Words with non-ASCII and astral letters, to put into generated Markdown.
_record_words = st.sampled_from(["alpha", "é", "na\u00efve", "\U0001f600", "\u00e9t\u00e9 x."])


@st.composite
def record_markdown(draw: st.DrawFn) -> str:
    """Markdown (headings, tables, code, lists, CRLF and CR) with non-ASCII and astral words."""
    text = draw(markdown_documents())
    return text.replace("beta", draw(_record_words)).replace("alpha", draw(_record_words))


@st.composite
def json_block_lists(draw: st.DrawFn) -> list[dict[str, object]]:
    """JSON blocks (MD-13): headings of levels 1..3 (some blank), paragraphs, tables, code."""
    blocks: list[dict[str, object]] = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["heading", "paragraph", "table", "code", "list"]))
        text = draw(st.sampled_from(["a b", "H \U0001f600", " ", "x\ny z.", "| a |\n|---|"]))
        block: dict[str, object] = {"kind": kind, "text": text}
        if kind == "heading":
            block["level"] = draw(st.integers(1, 3))
        blocks.append(block)
    return blocks


#: ``(text, input_format)`` of a document: Markdown, plain text, paged text (form feeds).
record_texts = st.one_of(
    st.tuples(record_markdown(), st.just("markdown")),
    st.tuples(documents(), st.just("text")),
    st.tuples(page_lists.map("\f".join), st.sampled_from(["text", "markdown"])),
    st.tuples(
        st.lists(record_markdown(), min_size=1, max_size=3).map("\f".join), st.just("markdown")
    ),
)

#: Counter names every strategy but ``recursive`` accepts (RECORD-5), all built offline.
record_counters = st.sampled_from(["whitespace", "whitespace", "chars1", "chars4", "chars3"])


# --- chunk_table: tables of documents (docs/spec/scale.md) ---------------------------------

#: Suffixes of a document's source: every input format, none, and an unknown one.
_SOURCE_SUFFIXES = [".md", ".md", ".txt", ".txt", ".json", ".pdf", "", ".xyz"]


@st.composite
def table_documents(draw: st.DrawFn) -> dict[str, object]:
    """One input row of chunk_table: doc_id, source (maybe null), bytes, input_format.

    Mostly readable Markdown and text; sometimes bad UTF-8, a JSON list of blocks (good or
    not), a PDF that is not one, blank text, or a suffix no format has.
    """
    doc_id = draw(st.sampled_from(["a", "b", "dir/c", "d\u00e9", "\U0001f600"]))
    suffix = draw(st.sampled_from(_SOURCE_SUFFIXES))
    source = draw(st.sampled_from([f"{doc_id}{suffix}", f"s3://bucket/{doc_id}{suffix}", None]))
    kind = draw(st.integers(0, 9))
    if kind <= 4:
        data = draw(markdown_documents()).encode()
    elif kind <= 6:
        data = draw(documents()).encode()
    elif kind == 7:
        data = draw(st.sampled_from([b"\xff", b"ok \xc3", b"%PDF-1.4 broken", b"  \n", b""]))
    else:
        data = draw(
            st.sampled_from(
                [
                    b'[{"kind": "heading", "level": 1, "text": "T"}, {"text": "a b c"}]',
                    b'{"blocks": []}',
                    b"[1, 2",
                    b'[{"kind": "nope"}]',
                ]
            )
        )
    input_format = draw(st.sampled_from([None, None, None, "markdown", "text"]))
    return {"doc_id": doc_id, "source": source, "bytes": data, "input_format": input_format}


@st.composite
def chunk_table_options(draw: st.DrawFn) -> dict[str, object]:
    """Options every document of a chunk_table call shares: a strategy and its counter."""
    strategy = draw(st.sampled_from(["heading", "structural", "recursive", "window", "pages"]))
    counters = ["whitespace"] if strategy == "recursive" else ["whitespace", "chars1", "chars4"]
    options: dict[str, object] = {
        "strategy": strategy,
        "max_tokens": draw(st.integers(1, 12)),
        "counter": draw(st.sampled_from(counters)),
    }
    if strategy == "structural":
        options["count_headings"] = draw(st.booleans())
        options["split_tables"] = draw(st.booleans())
    if draw(st.booleans()):
        options["max_bytes"] = draw(st.integers(0, 200))
    if draw(st.booleans()):
        options["input_format"] = draw(st.sampled_from(["markdown", "text", "json"]))
    return options


#: Constructs a block scan can get wrong beyond ``md_fragment``'s: HTML blocks, nested and
#: ordered lists, lazy continuation lines, non-ASCII text (the scan reads UTF-8 offsets),
#: NUL (markdown-it makes it U+FFFD), indented fences and headings (rule MD-14).
_scan_extras = st.sampled_from(
    [
        "<div>\nhtml *x*\n</div>",
        "<!-- c -->",
        "- a\n  - b\n\n  c",
        "1. one\n2) two",
        "> quote\nlazy line",
        "Ünïcödé 😀 título\n===",
        "# Ünïcödé 😀 #",
        "a\x00b\n---",
        "   ```\n   x\n   ```",
        "  ## indented",
        "term é\n\n: def 😀",
        "[ref]:\n/url\n'title'",
        "| é | 😀 |\n| - | - |\n| x | y |",
        "- [ ] task\n- [x] done",
        # whitespace the parsers' trims disagree on (HAZ-1, HAZ-17): Python-only, Unicode
        "## \x85",
        "\x1c y\n===",
        "# \ufeff",
        "| a |\n|---|\n\ufeff",
        "| a |\n|---|\n\x85",
        "#\u3000x\u2000 #",
        "\xa0term\x1f\n---",
        "| h |\n|---|\n| 5 |\n\u3000\nx",
        "| h |\n|---|\nx\n-",
    ]
)


@st.composite
def scan_documents(draw: st.DrawFn) -> str:
    """Markdown for the block-scan differential: fragments of both kinds, any line breaks."""
    parts = draw(st.lists(st.one_of(md_fragment(), _scan_extras), max_size=12))
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    out = ""
    for part in parts:
        out += part + "\n" * draw(st.integers(1, 2))
    return out.replace("\n", newline) if newline != "\n" else out


#: Lines that start (or interrupt, or continue) the blocks the hand-written scan models
#: (``_markdown_scan``): list markers of every kind and spacing, fences, underlines,
#: delimiter rows, HTML openers of the seven kinds, tab and space indentation, lazy lines.
_SCAN_LINES = (
    "a b",
    "text | pipe",
    "| h | i |",
    "h | i",
    "|---|---|",
    "|-|",
    "--|--",
    ":-:",
    "- |---",
    "| - | - |",
    "- a",
    "-  two",
    "-     five",
    "-",
    "- ",
    "* b",
    "+ c",
    "1. one",
    "2. two",
    "1) paren",
    "01. zero",
    "10. ten",
    "  - nested",
    "   - three",
    "    - four",
    "\t- tab",
    "-\tx",
    "  c",
    "   c",
    "    code",
    "      deep",
    "\tcode",
    " \tx",
    "```",
    "```py",
    "``` `x`",
    "~~~",
    "````",
    "   ```",
    "    ```",
    "===",
    "---",
    "- - -",
    "***",
    "_ _ _",
    "=",
    "  ---  ",
    "# h",
    "## h ##",
    "#x",
    "####### seven",
    "#",
    "   # three",
    "> q",
    "[x]: /u",
    "[x]",
    ": d",
    "<div>",
    "</div>",
    "<pre>",
    "</pre>",
    "<!-- c",
    "-->",
    "<?x",
    "?>",
    "<!X",
    "<![CDATA[",
    "]]>",
    "<a href='x'>",
    "<span>x</span>",
    "<x",
    # HTML blocks' closers anywhere on a later line, indented, in another case (MD-14).
    "<script>",
    "x </SCRIPT> y",
    "  --> x",
    "a ]]>",
    "\t?>",
    "",
    "",
    "",
    "  ",
    "\t",
    "\xa0",
    "\xa0x",
    "é ü",
    # MD-15: block quote lines of every shape, and lines after them (lazy or not).
    ">",
    "> ",
    ">q",
    "  > q",
    "    > q",
    ">\tq",
    "> > q",
    ">> q",
    "> - a",
    "> 1. x",
    "> ```",
    "> # h",
    "> [x]: /u",
    "> | h |",
    "> <div>",
    "> Stability: 2 - Stable",
    # MD-17: quote lines whose content is a plain paragraph line (or not quite), before lazy
    # lines ("a b", "  c", "    code", "\xa0x", "é ü", "[x]" above are lazy candidates).
    "> a b",
    ">    three",
    ">     code",
    "> \tx",
    "> x | y",
    "> =",
    "> é\xa0ü",
    "  >  p",
    # MD-16: link reference definitions, the plain forms and the ones left to the parser.
    "[x]: /u",
    "[x]: /u 'title'",
    '[x]: /u "title"',
    "[x]: /u (title)",
    "[x]:/u",
    "   [x]: /u",
    "[X y]: https://example.org/a#b",
    "[x]: <u>",
    "[x]: javascript:alert",
    "[x]:",
    "[x]: /u 'open",
    "'closed'",
    '"t"',
    "(t)",
    "[ ]: /u",
    "[x]: /u|v",
    "[x]: /u trailing",
    "[\xa0]: /u",
)


#: The lines of ``_SCAN_LINES`` that open, continue or end a block quote or a link reference
#: definition (MD-15, MD-16), drawn half the time by ``quote_reference_documents``.
_QUOTE_REFERENCE_LINES = tuple(
    line for line in _SCAN_LINES if line[:1] in (">", "[", "'", '"', "(") or line == "    > q"
)


@st.composite
def quote_reference_documents(draw: st.DrawFn) -> str:
    """Markdown made line by line, every other line (on average) a block quote or link
    reference definition line, the rest any ``_SCAN_LINES`` line (MD-15, MD-16)."""
    line = st.one_of(st.sampled_from(_QUOTE_REFERENCE_LINES), st.sampled_from(_SCAN_LINES))
    lines = draw(st.lists(line, max_size=16))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n"]))


@st.composite
def scan_line_documents(draw: st.DrawFn) -> str:
    """Markdown made line by line from ``_SCAN_LINES``: every interleaving of starts,
    continuations and terminators, with ``\\n`` line ends (MD-14)."""
    lines = draw(st.lists(st.sampled_from(_SCAN_LINES), max_size=16))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n"]))


# --- chunkspec view ------------------------------------------------------------------------

#: Text a page must draw exactly: markup, a script end, CR, NUL-free controls, astral letters.
VIEW_ALPHABET = ["a", "b", " ", "\n", "\r", "\f", "<", ">", "&", '"', "'", "/", "é", "\U0001f600"]
view_texts = st.lists(st.sampled_from([*VIEW_ALPHABET, "</script>", "<!--"]), max_size=20).map(
    "".join
)


@st.composite
def view_spans(draw: st.DrawFn) -> tuple[str, list[tuple[int, int]]]:
    """A text and spans inside it: overlapping, nested, empty, repeated or leaving gaps."""
    text = draw(view_texts)
    offsets = st.integers(0, len(text))
    spans = [
        tuple(sorted(draw(st.tuples(offsets, offsets)))) for _ in range(draw(st.integers(0, 6)))
    ]
    return text, [(s, e) for s, e in spans]


@st.composite
def signal_plans(draw: st.DrawFn) -> dict[str, object]:
    """How to stop an ``ingest`` run (CLI-13): workers, when, which signals, to whom."""
    return {
        "workers": draw(st.sampled_from([1, 2])),
        "delay": draw(st.integers(0, 40)) / 20,  # seconds after the run started, 0 to 2
        "signals": draw(st.lists(st.sampled_from(["SIGINT", "SIGTERM"]), min_size=1, max_size=2)),
        "gap": draw(st.integers(0, 10)) / 20,  # seconds between two signals
        "to": draw(st.sampled_from(["group", "parent"])),
    }


# --- front matter (FM rules) ----------------------------------------------------------------

#: Lines that open, close or nearly close front matter, and lines FM-3 reads or skips.
_FM_LINES = (
    "---",
    "----",
    "+++",
    "++++",
    " ---",
    "   ---  ",
    "    ---",
    "\t---",
    "--- x",
    "...",
    "... ",
    " ...",
    "....",
    "title: A  b",
    'title = "T"',
    "title: 'it''s'",
    "  title: nested",
    "tags: [a, b] # c",
    "x: |",
    "[t]",
    "",
    "# H",
    "text",
)

#: FM-3's keys and one-line values that a model writer quotes three ways.
fm_keys = st.from_regex(r"[A-Za-z0-9_-]{1,8}", fullmatch=True)
fm_values = st.text(
    alphabet=st.sampled_from([*"ab #:'\"\\=[]-é", "\U0001f600"]), min_size=1, max_size=12
).filter(lambda v: v == v.strip(" \t") and "\n" not in v)


@st.composite
def front_matter_documents(draw: st.DrawFn) -> str:
    """A text opening with ``---``/``+++`` (often), lines of ``_FM_LINES``, then Markdown."""
    marker = draw(st.sampled_from(["---", "+++", "-----", "--", "--- x", ""]))
    lines = draw(st.lists(st.sampled_from(_FM_LINES), max_size=8))
    tail = draw(markdown_documents())
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    head = newline.join([marker, *lines]) if marker else newline.join(lines)
    return head + newline + tail if head else tail


# --- every script (SCRIPT rules) -----------------------------------------------------------

#: Pieces of text in many scripts: Chinese, Japanese, Korean (syllables and conjoining
#: jamo), Thai with its marks, Arabic and Hebrew with bidi controls, Devanagari with a
#: virama, Latin with combining marks, emoji ZWJ sequences, skin tones, flags, and the
#: sentence marks and spaces between them.
MULTI_SCRIPT_PIECES = [
    "机器",
    "学习",
    "。",
    "！",
    "，",
    "日本語",
    "カタカナ",
    "ひらがな",
    "한국어",
    "\u1100\u1161\u11a8",
    "ภาษาไทย",
    "กำ",
    "مرحبا",
    "؟",
    "\u202bשלום\u202c",
    "\u2067عربي\u2069",
    "हिन्दी",
    "।",
    "e\u0301",
    "a\u0308\u0323",
    "Word",
    "x1",
    ".",
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",
    "\U0001f44b\U0001f3fd",
    "\U0001f1ef\U0001f1f5",
    "\U00020000",
    " ",
    " ",
    "\n",
    "\n\n",
    "\u3000",
]

multi_script_texts = st.lists(st.sampled_from(MULTI_SCRIPT_PIECES), max_size=40).map("".join)
# --- pack_records (docs/spec/context.md) ---------------------------------------------------

#: Few letters, so that two documents often share a text (CTX-7) and records often overlap.
PACK_ALPHABET = "ab \n"
PACK_PATHS = [(), ("T",), ("T", "A"), ("B",), ("T", "B")]
PACK_SCORES = [0.0, 0.3, 0.5, 0.5, 0.9, 1.0, -0.0]


@st.composite
def pack_cases(draw: st.DrawFn) -> tuple[dict[str, str], list[ChunkRecord], list[float]]:
    """Sources of 1-3 documents, records over them (overlapping, touching, prefixed,
    some ``recursive``), and a score per record."""
    sources = {
        doc: draw(st.text(alphabet=PACK_ALPHABET, min_size=1, max_size=30))
        for doc in draw(st.lists(st.sampled_from(["d", "e", "f"]), min_size=1, unique=True))
    }
    records: list[ChunkRecord] = []
    for doc, source in sources.items():
        recursive = draw(st.booleans()) and draw(st.booleans())
        for index in range(draw(st.integers(0, 6))):
            start = draw(st.integers(0, len(source) - 1))  # a record spans a character
            end = draw(st.integers(start + 1, min(len(source), start + 12)))
            pages = draw(st.sampled_from([None, (1, 1), (1, 2), (2, 3)]))
            fields: dict[str, object] = {
                "start": start,
                "end": end,
                "heading_path": draw(st.sampled_from(PACK_PATHS)),
                "page_start": pages[0] if pages else None,
                "page_end": pages[1] if pages else None,
            }
            if recursive:
                fields["strategy"] = "recursive:max_tokens=8"
                fields["text"] = " ".join(source[start:end].split())
            else:
                fields["prefix"] = draw(st.sampled_from(["", "", "H|"]))
            records.append(pack_record(doc, index, source, **fields))
    order = draw(st.permutations(range(len(records))))
    shuffled = [records[i] for i in order]
    scores = [draw(st.sampled_from(PACK_SCORES)) for _ in shuffled]
    return sources, shuffled, scores


# --- web pages (docs/spec/html.md): trees that serialize to markup the parser keeps -------
#: A generated page node: ``("t", text)`` or ``("e", tag, attributes, children)``.
HtmlNode = tuple[Any, ...]

#: Words with non-ASCII and astral letters, NBSP and markup characters (escaped on output).
_html_words = st.sampled_from(
    ["alpha", "beta", "é", "na\u00efve", "日本", "\U0001f600", "a<b", "x&y", "\u00a0", "Ω"]
)
#: White space between words: CSS's collapsible kinds, and NBSP, which is a letter here.
_html_glue = st.sampled_from([" ", " ", " ", "  ", "\n", "\t", " \n  ", "\f", ""])


@st.composite
def html_texts(draw: st.DrawFn) -> str:
    """Words and white space, sometimes starting or ending with white space."""
    parts = [draw(_html_glue) if draw(st.booleans()) else ""]
    for _ in range(draw(st.integers(1, 5))):
        parts.append(draw(_html_words))
        parts.append(draw(_html_glue))
    return "".join(parts)


@st.composite
def html_inline(draw: st.DrawFn, depth: int = 2, links: bool = True) -> list[HtmlNode]:
    """Inline content: text, ``br``, and inline elements holding inline content."""
    out: list[HtmlNode] = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["t", "t", "t", "br", "el", "hidden"]))
        if kind == "t" or depth == 0:
            out.append(("t", draw(html_texts())))
        elif kind == "br":
            out.append(("e", "br", {}, []))
        elif kind == "hidden":
            tag = draw(st.sampled_from(["script", "style", "span-hidden", "button", "template"]))
            marker = [("t", "HIDDENWORD")]
            if tag == "span-hidden":
                out.append(("e", "span", {"hidden": ""}, marker))
            else:
                out.append(("e", tag, {}, marker))
        else:
            tags = ["b", "i", "em", "code", "span", "my-el", *(["a"] if links else [])]
            tag = draw(st.sampled_from(tags))
            attrs = {"href": "https://example.org/x"} if tag == "a" else {}
            inner = draw(html_inline(depth - 1, links and tag != "a"))
            out.append(("e", tag, attrs, inner))
    return out


@st.composite
def html_flow(draw: st.DrawFn, depth: int = 2) -> list[HtmlNode]:
    """Flow content: headings, paragraphs, containers, lists, tables, code, quotes,
    furniture, hidden elements and bare inline runs."""
    out: list[HtmlNode] = []
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(
            st.sampled_from(
                ["h", "p", "p", "div", "list", "table", "pre", "quote", "furniture", "inline"]
            )
        )
        if kind == "h":
            children = draw(html_inline(1))
            if draw(st.booleans()):
                children.append(
                    ("e", "a", {"href": "#here"}, [("t", draw(st.sampled_from(["#", "¶"])))])
                )
            out.append(("e", f"h{draw(st.integers(1, 6))}", {}, children))
        elif kind == "p":
            out.append(("e", "p", {}, draw(html_inline())))
        elif kind == "div" and depth > 0:
            tag = draw(st.sampled_from(["div", "section", "article", "my-card"]))
            out.append(("e", tag, {}, draw(html_flow(depth - 1))))
        elif kind == "list":
            tag = draw(st.sampled_from(["ul", "ol"]))
            items: list[HtmlNode] = []
            for _ in range(draw(st.integers(1, 3))):
                content = draw(html_inline(1))
                if depth > 0 and draw(st.booleans()):
                    content.append(("e", "ul", {}, [("e", "li", {}, draw(html_inline(1)))]))
                items.append(("e", "li", {}, content))
            out.append(("e", tag, {}, items))
        elif kind == "table":
            rows: list[HtmlNode] = []
            head = draw(st.booleans())
            width = draw(st.integers(1, 3))
            for r in range(draw(st.integers(1, 4))):
                cell = "th" if head and r == 0 else "td"
                cells: list[HtmlNode] = [
                    ("e", cell, {}, draw(html_inline(1))) for _ in range(width)
                ]
                rows.append(("e", "tr", {}, cells))
            body: list[HtmlNode] = []
            if draw(st.booleans()):
                body.append(("e", "caption", {}, draw(html_inline(1))))
            body.append(("e", "tbody", {}, rows))
            out.append(("e", "table", {}, body))
        elif kind == "pre":
            lines = draw(st.lists(html_texts(), min_size=1, max_size=3))
            out.append(("e", "pre", {}, [("t", "\n".join(lines))]))
        elif kind == "quote":
            paragraphs: list[HtmlNode] = [
                ("e", "p", {}, draw(html_inline(1))) for _ in range(draw(st.integers(1, 2)))
            ]
            out.append(("e", "blockquote", {}, paragraphs))
        elif kind == "furniture":
            tag, attrs = draw(
                st.sampled_from(
                    [("nav", {}), ("aside", {}), ("footer", {}), ("header", {}),
                     ("div", {"class": "cookie-banner"}), ("div", {"role": "navigation"})]
                )
            )  # fmt: skip
            out.append(("e", tag, attrs, [("t", "FURNITUREWORD")]))
        else:
            out.extend(draw(html_inline()))
    return out


@st.composite
def html_pages(draw: st.DrawFn) -> list[HtmlNode]:
    """A page body's flow content, sometimes with a ``main`` landmark."""
    body = draw(html_flow())
    if draw(st.integers(0, 3)) == 0:
        body = [("e", "nav", {}, [("t", "FURNITUREWORD")]), ("e", "main", {}, body)]
    return body


# REPO-7: .gitignore files and the trees they apply to, for the comparison with real git.

#: Pieces of a .gitignore pattern: names, wildcards, brackets, escapes and spaces.
GITIGNORE_PIECES = (
    "a", "b", "d", "sub", "é", ".py", "*", "**", "?", "/", "[ab]", "[!a]", "[^b]", "[a-c]",
    "[]a]", "[[:alpha:]]", "\\*", "\\!", "\\#", " ", "\\ ", "#", "!",
)  # fmt: skip

#: File names of the trees (no two stems alike in a folder: doc ids never collide).
IGNORE_TREE_FILES = ("a", "b", "ab", "a.py", "x y", "é", "[a]", "a*", "!a", "#a", "a ")

#: Folder names of the trees.
IGNORE_TREE_FOLDERS = ("d", "sub", "é", "b b")


@st.composite
def gitignore_texts(draw: st.DrawFn) -> str:
    """A .gitignore: 1 to 6 lines, each maybe negated, maybe folders only, maybe CRLF."""
    lines = []
    for _ in range(draw(st.integers(1, 6))):
        body = "".join(draw(st.lists(st.sampled_from(GITIGNORE_PIECES), min_size=1, max_size=4)))
        if draw(st.booleans()) and draw(st.booleans()):
            body = "!" + body
        if draw(st.integers(0, 4)) == 0:
            body += "/"
        lines.append(body)
    ending = "\r\n" if draw(st.integers(0, 5)) == 0 else "\n"
    return ending.join(lines) + ending


@st.composite
def ignore_trees(draw: st.DrawFn) -> dict[str, str]:
    """A folder tree (relative path -> text) with a .gitignore at the top and maybe in
    folders below it; no path is both a file and a folder."""
    files: dict[str, str] = {}
    folders: set[str] = set()
    for _ in range(draw(st.integers(1, 10))):
        parts = draw(st.lists(st.sampled_from(IGNORE_TREE_FOLDERS), max_size=2))
        name = draw(st.sampled_from(IGNORE_TREE_FILES))
        path = "/".join([*parts, name])
        above = {"/".join(parts[:depth]) for depth in range(1, len(parts) + 1)}
        if path in folders or any(folder in files for folder in above):
            continue
        files[path] = "x\n"
        folders |= above
    files[".gitignore"] = draw(gitignore_texts())
    for folder in sorted(folders):
        if draw(st.integers(0, 2)) == 0:
            files[f"{folder}/.gitignore"] = draw(gitignore_texts())
    return files


# --- code: source programs for the code strategy (docs/spec/code.md) -----------------------
CODE_LANGUAGES = ["python", "javascript", "typescript", "go", "rust", "c", "cpp", "java"]

#: Names: mostly ASCII (every grammar parses them), some letters outside it, one with a
#: combining mark (a grammar that refuses it makes a syntax error: CODE-3).
_code_names = st.sampled_from(
    ["a", "b", "c", "foo", "bar_2", "Baz", "q", "run", "café", "naïve", "日本", "x\u0301y"]
)
#: Words of strings and comments: CJK, emoji (modifiers, ZWJ), combining marks, Thai, and a
#: long word without spaces (SCRIPT-8's units and clusters, CODE-9).
_code_words = st.sampled_from(
    ["word", "two", "é", "日本語", "🙂", "👍🏽", "👩\u200d👧", "e\u0301", "ก่อน", "x",
     "a.b", "long_wordwithoutspaces日本語日本語🙂🙂", "ok"]
)  # fmt: skip
#: Spaces between those words: white space that is no line end (CODE-4, CODE-11).
_code_spaces = st.sampled_from([" ", " ", " ", " ", "  ", "\t", "\xa0", "\u3000", "\x0c", "\x85",
                                "\u2028"])  # fmt: skip


@st.composite
def _code_prose(draw: st.DrawFn, low: int = 1, high: int = 5) -> str:
    words = draw(st.lists(_code_words, min_size=low, max_size=high))
    return "".join((draw(_code_spaces) if i else "") + w for i, w in enumerate(words))


@st.composite
def _code_fill(draw: st.DrawFn, template: str, long: bool = False) -> str:
    """``template`` with ``{n}`` names, ``{e}`` expressions, ``{s}`` strings and ``{w}``
    words drawn (``long``: many words, over a small budget alone: CODE-9)."""

    def prose() -> str:
        return draw(_code_prose(8, 30) if long else _code_prose())

    def one(match: Any) -> str:
        kind = match.group(1)
        if kind == "n":
            return str(draw(_code_names))
        if kind == "s":
            return '"' + prose() + '"'
        if kind == "w":
            return prose()
        return draw(st.sampled_from(["1", "x", "x + 2", "f(x, 3)", '"s t"', "a * (b - 1)"]))

    return re.sub(r"\{([nesw])\}", one, template)


#: One row a brace language: its first lines, top-level statements, a function's header, a
#: type with members (header, member templates, close), nested block headers, statements,
#: comments and attributes/decorators.
_BRACE: dict[str, dict[str, Any]] = {
    "javascript": {
        "head": [], "top": ["const {n} = {e};", "import {n} from {s};", "let {n} = {s};"],
        "func": ["function {n}(a, b) {", "export function {n}() {", "async function {n}() {"],
        "types": [("class {n} {", ["{n}(a) {"], [], "}"),
                  ("export class {n} extends B {", ["static {n}() {", "get {n}() {"], [], "}")],
        "nested": ["function {n}(a) {", "if ({n}) {", "for (;;) {", "const {n} = () => {"],
        "close": {"const {n} = () => {": "};"},
        "stmt": ["let {n} = {e};", "console.log({s});", "return {e};", "{n}({e});"],
        "comments": ["// {w}", "/* {w} */", "/** {w} */"], "attrs": [],
    },
    "typescript": {
        "head": [], "top": ["const {n}: number = {e};", "type {n} = string;"],
        "func": ["function {n}(a: number): number {", "export function {n}() {"],
        "types": [("class {n} {", ["{n}(a: string) {"], ["{n}: number = 1;"], "}"),
                  ("interface {n} {", [], ["{n}: string;", "{n}(): void;"], "}"),
                  ("enum {n} {", [], ["A,", "B = 2,"], "}"),
                  ("namespace {n} {", ["export function {n}() {"], ["const {n} = {e};"], "}")],
        "nested": ["function {n}() {", "if ({n}) {", "while ({n}) {"], "close": {},
        "stmt": ["let {n} = {e};", "console.log({s});", "return {e};"],
        "comments": ["// {w}", "/* {w} */"], "attrs": [],
    },
    "go": {
        "head": ["package main", ""], "top": ["var {n} = {e}", "const {n} = {s}", "import \"fmt\""],
        "func": ["func {n}(a int) int {", "func (r *T) {n}() {", "func {n}() {"],
        "types": [("type {n} struct {", [], ["{n} int", "{n} string"], "}"),
                  ("type {n} interface {", [], ["{n}() int"], "}")],
        "nested": ["if {n} > 0 {", "for {", "{n} := func() {", "switch {n} {"],
        "close": {},
        "stmt": ["{n} := {e}", "fmt.Println({s})", "return", "{n} = {e}"],
        "comments": ["// {w}", "/* {w} */"], "attrs": [],
    },
    "rust": {
        "head": [], "top": ["use std::{n};", "const {n}: &str = {s};", "static {n}: i32 = 1;"],
        "func": ["fn {n}(a: i32) -> i32 {", "pub fn {n}() {", "async fn {n}() {"],
        "types": [("impl {n} {", ["fn {n}(&self) {", "pub fn {n}() -> Self {"], [], "}"),
                  ("impl Display for {n} {", ["fn fmt(&self) {"], [], "}"),
                  ("struct {n} {", [], ["{n}: i32,", "pub {n}: String,"], "}"),
                  ("enum {n} {", [], ["A,", "B(i32),"], "}"),
                  ("trait {n} {", ["fn {n}(&self) {"], ["fn {n}(&self);"], "}"),
                  ("mod {n} {", ["fn {n}() {"], ["use super::*;"], "}")],
        "nested": ["if {n} > 0 {", "loop {", "fn {n}() {", "let {n} = || {"],
        "close": {"let {n} = || {": "};"},
        "stmt": ["let {n} = {e};", "println!({s});", "return {e};", "{n}({e});"],
        "comments": ["// {w}", "/// {w}", "/* {w} */"],
        "attrs": ["#[derive(Debug)]", "#[inline]", "#[cfg(test)]"],
    },
    "c": {
        "head": [], "top": ["#include <stdio.h>", "int {n} = {e};", "static const char *{n} = {s};",
                            "struct {n};", "typedef int {n};"],
        "func": ["int {n}(int a) {", "static char *{n}(void) {",
                 "void {n}(int argc, char **argv) {"],
        "types": [("struct {n} {", [], ["int {n};", "char *{n};"], "};"),
                  ("enum {n} {", [], ["A,", "B = 2,"], "};")],
        "nested": ["if ({n}) {", "{", "while ({n}) {", "for (;;) {"], "close": {},
        "stmt": ["int {n} = {e};", "printf({s});", "return {e};", "{n}({e});"],
        "comments": ["// {w}", "/* {w} */"], "attrs": [],
    },
    "cpp": {
        "head": [], "top": ["#include <vector>", "int {n} = {e};", "using namespace std;"],
        "func": ["int {n}(int a) {", "template <typename T> T {n}(T a) {", "auto {n}() -> int {",
                 "{n}::{n}(int a) :\n    b(a) {"],  # a label up to a ':' (CODE-7)
        "types": [("class {n} {", ["int {n}(int a) {", "void {n}() const {"],
                   ["public:", "int {n};"], "};"),
                  ("namespace {n} {", ["int {n}() {"], ["int {n} = 1;"], "}"),
                  ("struct {n} {", ["void {n}() {"], ["int {n};"], "};")],
        "nested": ["if ({n}) {", "{", "for (;;) {", "auto {n} = [&]() {"],
        "close": {"auto {n} = [&]() {": "};"},
        "stmt": ["int {n} = {e};", "std::cout << {s};", "return {e};"],
        "comments": ["// {w}", "/* {w} */"], "attrs": [],
    },
    "java": {
        "head": ["package p;", ""], "top": ["import java.util.List;"],
        "func": [],
        "types": [("class {n} {", ["int {n}(int a) {", "public void {n}() {", "{n}() {"],
                   ["int {n} = {e};", "private String {n} = {s};"], "}"),
                  ("interface {n} {", [], ["int {n}();"], "}"),
                  ("enum {n} {", [], ["A, B;"], "}")],
        "nested": ["if ({n} > 0) {", "while (true) {", "{"], "close": {},
        "stmt": ["int {n} = {e};", "System.out.println({s});", "return {e};"],
        "comments": ["// {w}", "/* {w} */", "/** {w} */"], "attrs": ["@Override", "@Deprecated"],
    },
}  # fmt: skip


@st.composite
def _brace_body(draw: st.DrawFn, row: dict[str, Any], depth: int, pad: str) -> list[str]:
    """Statements in a function or block: comments (above, trailing, long), blank lines,
    nested blocks and functions."""
    out: list[str] = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["stmt", "stmt", "comment", "blank", "long", "nest"]))
        if kind == "nest" and depth > 0:
            header = draw(st.sampled_from(row["nested"]))
            out.append(pad + draw(_code_fill(header)))
            out += draw(_brace_body(row, depth - 1, pad + "    "))
            out.append(pad + row["close"].get(header, "}"))
        elif kind == "comment" and row["comments"]:
            out.append(pad + draw(_code_fill(draw(st.sampled_from(row["comments"])))))
        elif kind == "blank":
            out.append(draw(st.sampled_from(["", "   "])))
        elif kind == "long":
            template = draw(st.sampled_from([*row["comments"], row["stmt"][1]]))
            out.append(pad + draw(_code_fill(template, long=True)))
        else:
            line = pad + draw(_code_fill(draw(st.sampled_from(row["stmt"]))))
            if row["comments"] and draw(st.integers(0, 3)) == 0:
                line += " " + draw(_code_fill(row["comments"][0]))  # a trailing comment
            out.append(line)
    return out


@st.composite
def _brace_items(draw: st.DrawFn, row: dict[str, Any], depth: int, pad: str) -> list[str]:
    """Top-level items: functions, types with members and methods, comments, attributes."""
    out: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["top", "func", "func", "type", "type", "comment", "blank"]))
        if draw(st.integers(0, 2)) == 0 and kind in ("func", "type"):
            for _ in range(draw(st.integers(1, 2))):  # documentation above a definition
                source = row["comments"] + row["attrs"]
                out.append(pad + draw(_code_fill(draw(st.sampled_from(source)))))
            if draw(st.integers(0, 2)) == 0:  # a blank line: not its documentation (CODE-5)
                out.append("")
        if kind == "func" and row["func"]:
            out.append(pad + draw(_code_fill(draw(st.sampled_from(row["func"])))))
            out += draw(_brace_body(row, depth, pad + "    "))
            out.append(pad + "}")
        elif kind in ("type", "func"):
            header, methods, members, close = draw(st.sampled_from(row["types"]))
            out.append(pad + draw(_code_fill(header)))
            for _ in range(draw(st.integers(0, 3))):
                inner = pad + "    "
                if methods and draw(st.booleans()):
                    if row["attrs"] and draw(st.integers(0, 3)) == 0:
                        out.append(inner + draw(st.sampled_from(row["attrs"])))
                    out.append(inner + draw(_code_fill(draw(st.sampled_from(methods)))))
                    out += draw(_brace_body(row, depth, inner + "    "))
                    out.append(inner + "}")
                elif members:
                    out.append(inner + draw(_code_fill(draw(st.sampled_from(members)))))
                elif draw(st.booleans()):
                    out.append(inner + draw(_code_fill(draw(st.sampled_from(row["comments"])))))
            out.append(pad + close)
        elif kind == "comment":
            template = draw(st.sampled_from(row["comments"]))
            out.append(pad + draw(_code_fill(template, long=draw(st.booleans()))))
        elif kind == "blank":
            out.append("")
        else:
            out.append(pad + draw(_code_fill(draw(st.sampled_from(row["top"])))))
    return out


_PY_STATEMENTS = ["{n} = {e}", "import {n}", "print({s})", "return {e}", "pass", "{n}({e})",
                  "from {n} import {n}", "{n} += 1"]  # fmt: skip


@st.composite
def _python_body(draw: st.DrawFn, depth: int, pad: str, top: bool = False) -> list[str]:
    """Python statements: defs (decorated, with docstrings, nested), classes with methods,
    comments above and trailing, long strings and comments, blank lines."""
    out: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["stmt", "stmt", "comment", "blank", "long", "def", "class",
                                     "if"]))  # fmt: skip
        if kind in ("def", "class", "if") and depth > 0:
            if kind != "if" and draw(st.integers(0, 2)) == 0:
                out.append(pad + draw(_code_fill("# {w}")))
                if draw(st.booleans()):  # a blank line: not its documentation (CODE-5)
                    out.append("")
            if kind == "def":
                for _ in range(draw(st.integers(0, 2))):
                    out.append(pad + draw(_code_fill(draw(st.sampled_from(["@{n}", "@{n}({e})"])))))
            header = {"def": "def {n}(self, a, b=1):", "class": "class {n}(Base):",
                      "if": "if {n}:"}[kind]  # fmt: skip
            out.append(pad + draw(_code_fill(header)))
            if kind != "if" and draw(st.booleans()):
                out.append(pad + "    " + draw(_code_fill('"""{w}"""', long=draw(st.booleans()))))
            out += draw(_python_body(depth - 1, pad + "    "))
        elif kind == "comment":
            out.append(pad + draw(_code_fill("# {w}")))
        elif kind == "blank":
            out.append(draw(st.sampled_from(["", "    "])))
        elif kind == "long":
            template = draw(st.sampled_from(["# {w}", "{n} = {s}", "print({s}, {s})"]))
            out.append(pad + draw(_code_fill(template, long=True)))
        else:
            line = pad + draw(_code_fill(draw(st.sampled_from(_PY_STATEMENTS))))
            if draw(st.integers(0, 3)) == 0:
                line += "  " + draw(_code_fill("# {w}"))
            out.append(line)
    return out


#: Edits that make a syntax error (CODE-3): an unbalanced bracket, a stray keyword.
_code_breaks = st.sampled_from(["}", "{", ")", "(", " def ", ":::", '"', "@@", "fn fn", "*/"])


@st.composite
def code_sources(
    draw: st.DrawFn, languages: list[str] | None = None, errors: bool = True
) -> tuple[str, str]:
    """``(text, language)``: a generated program, its lines ended by ``\\n``, ``\\r\\n``,
    ``\\r`` or a mix, sometimes with trailing spaces, no final line end, or a syntax error."""
    language = draw(st.sampled_from(languages or CODE_LANGUAGES))
    depth = draw(st.integers(0, 3))
    if language == "python":
        lines = draw(_python_body(depth + 1, "", top=True))
    else:
        row = _BRACE[language]
        lines = list(row["head"]) + draw(_brace_items(row, depth, ""))
    if draw(st.integers(0, 3)) == 0:
        lines = [line + draw(st.sampled_from([" ", "\t", "  "])) for line in lines]
    ends = draw(st.sampled_from(["\n", "\n", "\n", "\r\n", "\r", "mixed"]))
    text = ""
    for line in lines:
        end = draw(st.sampled_from(["\n", "\r\n", "\r"])) if ends == "mixed" else ends
        text += line + end
    if draw(st.booleans()):
        text = text.rstrip("\r\n")
    if errors and draw(st.integers(0, 5)) == 0:  # a syntax error somewhere
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(_code_breaks) + text[at:]
    return text, language


#: Nesting around CODE-3's depth limit (256): a bracket or block per level, one word each.
_DEEP = {
    "python": ("x = ", "[ ", "1", " ]", ""),
    "javascript": ("let x = ", "[ ", "1", " ]", ";"),
    "rust": ("fn f() { let x = ", "( ", "1", " )", "; }"),
    "c": ("int f() {\n", "{ ", "x;", " }", "\n}"),
    "go": ("package main\nfunc f() {\n", "{\n", "x()", "\n}", "\n}"),
}


@st.composite
def deep_code_sources(draw: st.DrawFn) -> tuple[str, str]:
    """``(text, language)``: one expression or block nested 200 to 300 levels deep."""
    language = draw(st.sampled_from(sorted(_DEEP)))
    head, opening, inner, closing, tail = _DEEP[language]
    n = draw(st.integers(200, 300))
    return head + opening * n + inner + closing * n + tail, language


# -- vector stores (STORE rules, properties/test_stores.py) ---------------------------------

#: Labels and tenants: a few plain ones (so principals often hold a row's labels) and the
#: strings that break a filter built by pasting (quotes, backslashes, SQL, LIKE wildcards).
store_labels = st.sampled_from(
    ["a", "b", "c", "staff", "o'brien", 'q"uote', "back\\slash", "x') OR true --", "50%_", "𝔘"]
)
store_tenants = st.sampled_from([None, None, "t1", "t2", "o'brien"])


@st.composite
def store_access(draw: st.DrawFn) -> dict[str, Any]:
    """A stored row's access fields (STORE-3): tenant, sorted labels, and now and then
    labels that could not be read (labels_readable false: no tenant, no labels)."""
    if draw(st.integers(0, 9)) == 0:
        return {"tenant": None, "labels": [], "labels_readable": False}
    labels = sorted(set(draw(st.lists(store_labels, max_size=3))))
    return {"tenant": draw(store_tenants), "labels": labels, "labels_readable": True}


@st.composite
def store_principals(draw: st.DrawFn) -> Any:
    """None, or a principal holding some, all or none of the labels, with or without a
    tenant."""
    from chunkspec._packing._access import Principal

    if draw(st.integers(0, 4)) == 0:
        return None
    return Principal(draw(st.lists(store_labels, max_size=6)), tenant=draw(store_tenants))


@st.composite
def store_results(draw: st.DrawFn) -> list[dict[str, Any]]:
    """An ingest result's chunk rows: a few small Markdown documents, chunked, as
    ``to_dict()`` plus ``error`` null, with metadata holding access labels (or none, or a
    malformed one)."""
    from chunkspec import chunk_document, document_from_text

    rows: list[dict[str, Any]] = []
    for n in range(draw(st.integers(1, 4))):
        sections = draw(
            st.lists(st.lists(_code_words, min_size=1, max_size=12), min_size=1, max_size=4)
        )
        text = "# Doc\n\n" + "".join(
            f"## S{i}\n\n{' '.join(words)}\n\n" for i, words in enumerate(sections)
        )
        access = draw(store_access())
        metadata: dict[str, Any] = {}
        if access["labels"]:
            metadata["acl_labels"] = access["labels"]
        if access["tenant"] is not None:
            metadata["tenant_id"] = access["tenant"]
        if not access["labels_readable"]:
            metadata["acl_labels"] = "a, b"  # a string: unreadable (TRUST-10)
        document = document_from_text(text, doc_id=f"doc{n}", metadata=metadata)
        size = draw(st.sampled_from([4, 8, 50]))
        for record in chunk_document(document, "heading", max_tokens=size, min_tokens=0):
            rows.append({**record.to_dict(), "error": None})
    return rows
