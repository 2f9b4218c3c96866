"""Properties of chunk sizes (docs/spec/size.md, SIZE-1..SIZE-10, OPT-7..OPT-8, RECORD-16..17)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example as case
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkspec import ChunkOptions, HeadingAwareChunker, chunk_document, document_from_text
from chunkspec._chunkers._heading_aware import _Run
from chunkspec._chunkers._span import embedded
from chunkspec._chunkers._split_markdown import split_blocks, structural_spans
from chunkspec._cli import _chunk_command
from chunkspec._cli._chunking_flags import chunk_options
from chunkspec._cli._io import CliError
from chunkspec._cli._main import build_parser
from chunkspec._core._graphemes import grapheme_bounds
from chunkspec._records._record import ChunkRecord
from chunkspec._text._blocks import ChunkContext
from chunkspec._text._documents import SourceDocument
from properties.models import model_merge_small, model_split_texts
from properties.strategies import markdown_documents

_WORDS = st.sampled_from(["alpha", "beta", "gamma", "x", "code()", "é", "Run:"])


@st.composite
def sectioned(draw: st.DrawFn) -> str:
    """A document of nested headings, short and long paragraphs, code blocks and tables."""
    parts: list[str] = []
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.integers(0, 5))
        size = draw(st.sampled_from([1, 3, 10, 30]))
        words = " ".join(draw(st.lists(_WORDS, min_size=1, max_size=size)))
        if kind <= 1:
            parts.append("#" * draw(st.integers(1, 3)) + " " + words)
        elif kind == 2:
            parts.append(f"```\n{words}\n```")
        elif kind == 3:
            parts.append(f"| a | b |\n|---|---|\n| {words} | y |")
        else:
            parts.append(words)
    return "\n\n".join(parts) + "\n"


texts = st.one_of(sectioned(), markdown_documents())


@st.composite
def size_options(draw: st.DrawFn, counters: tuple[str, ...] = ("whitespace", "chars4")) -> Any:
    """ChunkOptions of a retrieval strategy with any min_tokens and trail budget."""
    strategy = draw(st.sampled_from(["heading", "structural"]))
    size = draw(st.integers(1, 40))
    least = draw(st.one_of(st.none(), st.integers(0, size)))
    return ChunkOptions(
        strategy,
        size,
        counter=draw(st.sampled_from(counters)),
        min_tokens=least,
        budget_includes_headings=draw(st.booleans()),
    )


def _document(text: str) -> SourceDocument:
    return document_from_text(text, doc_id="d")


def _heading_only(document: SourceDocument, record: ChunkRecord) -> bool:
    """Every non-blank block the record touches is a heading."""
    touched = [
        b
        for b in document.blocks().blocks
        if b.start < record.end and b.end > record.start and b.text.strip()
    ]
    return bool(touched) and all(b.kind == "heading" for b in touched)


def _count(options: ChunkOptions, path: tuple[str, ...], text: str) -> int:
    """The tokens the record would have (SIZE-8)."""
    counter = options.token_counter()
    return counter.count(embedded(path, text) if options.budget_includes_headings else text)


@settings(max_examples=300)
@given(texts, size_options())
def test_merged_records_are_exact_spans(text: str, options: ChunkOptions) -> None:
    """SIZE-6, RECORD-2, SIZE-7: text == prefix + source[start:end], ids 0..n-1, starts in
    order, every parent an earlier heading record."""
    records = chunk_document(_document(text), options)
    for i, r in enumerate(records):
        assert r.id == f"d:{i}"
        assert r.index == i
        assert r.text == r.prefix + text[r.start : r.end]
        if i:
            assert records[i - 1].start <= r.start
            assert records[i - 1].end <= r.end
        if r.parent_id is not None:
            parent = int(r.parent_id.split(":")[1])
            assert parent < i
            assert records[parent].kind == "heading"


@settings(max_examples=300)
@given(texts, size_options())
def test_min_tokens_zero_is_the_seed_output(text: str, options: ChunkOptions) -> None:
    """SIZE-2, RECORD-16: min_tokens=0 gives one record per seed chunk, as before the SIZE
    rules, and a strategy string without min_tokens."""
    options = options.replace(min_tokens=0, budget_includes_headings=False)
    document = _document(text)
    records = chunk_document(document, options)
    counter = options.token_counter()
    if not text.strip():
        return
    if options.strategy == "heading":
        chunker = HeadingAwareChunker(options.max_tokens, options.overlap, counter=counter)
        seed = [
            (c.start, c.end, c.kind, c.heading_path, c.parent_id, "")
            for c in chunker.chunk(document.blocks())
        ]
    else:
        seed = [
            (c.start, c.end, c.kind, c.heading_path, None, c.prefix)
            for c in split_blocks(document.blocks(), options.max_tokens, counter)
        ]

    got = [(r.start, r.end, r.kind, r.heading_path, r.parent_id, r.prefix) for r in records]
    assert got == seed
    assert all("min_tokens" not in r.strategy for r in records)
    assert all(r.tokens == counter.count(r.text) for r in records)


def _heading_spans(document: SourceDocument, options: ChunkOptions) -> list[Any]:
    """Seed 003's chunks with SIZE-3's room for headings and SIZE-9's trail budget."""
    chunker = HeadingAwareChunker(
        options.max_tokens, options.overlap, counter=options.token_counter()
    )
    return _Run(
        chunker,
        document.blocks(),
        ChunkContext(),
        trail=options.budget_includes_headings,
        glue=True,
        least=options.minimum,
    ).run()


@settings(max_examples=300)
@given(texts, size_options())
def test_merge_matches_the_model(text: str, options: ChunkOptions) -> None:
    """SIZE-3, SIZE-4, SIZE-5: the runs are model_merge_small's over the chunker's spans,
    with SIZE-5's sections and kinds."""
    if not options.minimum or not text.strip():
        return
    document = _document(text)
    records = chunk_document(document, options)
    if options.strategy == "heading":
        chunks = _heading_spans(document, options)
        spans = [(c.start, c.end, c.kind, c.heading_path, "") for c in chunks]
        at = {c.id: i for i, c in enumerate(chunks)}
        parent = [None if c.parent_id is None else at[c.parent_id] for c in chunks]
        # SIZE-5: the chunks before the first heading may take it
        first = next((i for i, s in enumerate(spans) if s[2] == "heading"), len(spans))

        def joins(run: list[int], k: int) -> bool:
            if spans[k][2] == "heading" and spans[run[0]][2] != "heading" and run[0] >= first:
                return False
            homes = {parent[i] for i in run} | {i for i in run if spans[i][2] == "heading"}
            return parent[k] in homes

        def glued(k: int) -> bool:
            return spans[k][2] == "heading" and k + 1 < len(spans) and parent[k + 1] == k

        blocks = {(b.start, b.end) for b in document.blocks().blocks if b.kind in ("code", "table")}

        def whole(k: int) -> bool:
            return (spans[k][0], spans[k][1]) in blocks

    else:
        seed = structural_spans(document, options.replace(min_tokens=0))
        if not seed:
            return  # MD-19: a document of headings only (test_a_document_of_headings_is_chunked)
        spans = [(s.start, s.end, s.kind, s.heading_path or (), s.prefix) for s in seed]
        heads = [b.start for b in document.blocks().blocks if b.kind == "heading"]

        def joins(run: list[int], k: int) -> bool:
            return not any(spans[run[-1]][1] <= h < spans[k][0] for h in heads)

        def glued(k: int) -> bool:
            return False

        def whole(k: int) -> bool:
            return False

    def count(i: int, j: int) -> int:
        return _count(options, spans[i][3], spans[i][4] + text[spans[i][0] : spans[j][1]])

    runs = model_merge_small(
        count,
        len(spans),
        lambda i: spans[i][2] == "heading",
        options.minimum,
        options.max_tokens,
        joins,
        glued,
        whole,
    )
    assert [(r.start, r.end) for r in records] == [(spans[r[0]][0], spans[r[-1]][1]) for r in runs]
    for record, run in zip(records, runs, strict=True):
        if options.strategy == "heading":
            preamble = run[0] < first <= run[-1]  # SIZE-5: it holds the first heading
            assert record.kind == ("heading" if preamble else spans[run[0]][2])
        else:
            alone = [count(i, i) for i in run]
            assert record.kind == spans[run[alone.index(max(alone))]][2]


@settings(max_examples=300)
@given(texts, size_options(counters=("whitespace",)))
def test_a_merge_never_passes_the_budget(text: str, options: ChunkOptions) -> None:
    """SIZE-10: with whitespace tokens, a record over max_tokens is one heading, table or
    code block that no rule splits, or (SIZE-9) one whose trail was not counted."""
    document = _document(text)
    parsed = document.blocks().blocks
    blocks = {(b.start, b.end) for b in parsed if b.kind != "paragraph"}
    # SIZE-11: headings (a chain, no text between) and the whole block they introduce
    introduced = {
        (h.start, b.end)
        for i, b in enumerate(parsed)
        if b.kind in ("code", "table")
        for h in parsed[:i]
        if all(x.kind == "heading" or not x.text.strip() for x in parsed[parsed.index(h) : i])
    }
    for r in chunk_document(document, options):
        if not r.oversized:
            continue
        if (r.start, r.end) in introduced:
            continue
        trail = " > ".join(r.heading_path)
        uncounted = options.budget_includes_headings and (
            len(trail.split()) > options.max_tokens // 2
        )
        assert uncounted or (r.start, r.end) in blocks, r


@settings(max_examples=400)
@given(texts, size_options())
@case(  # a chain of headings: "# alpha", a setext heading under it, an indented body
    "# alpha\nalpha alpha alpha alpha\n---\n    alpha\n    # code\n",
    ChunkOptions(strategy="heading", max_tokens=8, budget_includes_headings=True),
)
def test_a_heading_alone_is_an_exception(text: str, options: ChunkOptions) -> None:
    """SIZE-10, SIZE-3, SIZE-4, SIZE-7: under heading with min_tokens > 0, a record made only
    of headings could not be merged with the record after it or before it."""
    options = options.replace(strategy="heading", overlap_tokens=None)
    if not options.minimum:
        return
    document = _document(text)
    records = chunk_document(document, options)

    def merged(a: ChunkRecord, b: ChunkRecord) -> int:
        return _count(options, a.heading_path, a.prefix + text[a.start : b.end])

    for i, r in enumerate(records):
        if not _heading_only(document, r):
            continue
        after = records[i + 1] if i + 1 < len(records) else None
        before = records[i - 1] if i else None
        if after is not None and after.parent_id == r.id:
            # SIZE-3: a heading comes with its first child, through a chain of headings
            # ("# a" over the setext "b\n---" over a body): the whole chain did not fit.
            last = i + 1
            while (
                last + 1 < len(records)
                and _heading_only(document, records[last])
                and records[last + 1].parent_id == records[last].id
            ):
                last += 1
            assert merged(r, records[last]) > options.max_tokens  # SIZE-3: its body did not fit
        elif before is not None and r.parent_id == before.id:
            assert merged(before, r) > options.max_tokens  # SIZE-4: its parent's did not


@settings(max_examples=300)
@given(texts, size_options())
def test_tokens_say_what_they_count(text: str, options: ChunkOptions) -> None:
    """SIZE-8, RECORD-16, RECORD-17: tokens count the embedded text exactly when the strategy
    string says budget_includes_headings=true; oversized is tokens > max_tokens."""
    counter = options.token_counter()
    for r in chunk_document(_document(text), options):
        said = r.strategy.endswith(",budget_includes_headings=true")
        assert said == options.budget_includes_headings
        shown = embedded(r.heading_path, r.text) if said else r.text
        assert r.tokens == counter.count(shown)
        assert r.oversized == (r.tokens > options.max_tokens)


@settings(max_examples=300)
@given(texts, st.integers(1, 40), st.one_of(st.none(), st.integers(0, 5)))
def test_the_trail_fits_the_budget(text: str, size: int, least: int | None) -> None:
    """SIZE-9: under heading with budget_includes_headings, a body record whose trail costs
    at most half the budget has its embedded text within max_tokens (SCRIPT-35's subword
    units), but a table or code block over it, which stays whole (SIZE-11), and a body of
    one grapheme cluster, which no cut makes smaller (SCRIPT-8)."""
    least = None if least is None else min(least, size)
    options = ChunkOptions("heading", size, min_tokens=least, budget_includes_headings=True)
    counter = options.token_counter()
    document = _document(text)
    whole = {(b.start, b.end) for b in document.blocks().blocks if b.kind in ("code", "table")}
    for r in chunk_document(document, options):
        cost = counter.count(" > ".join(r.heading_path) + "\n\n")
        if (r.start, r.end) in whole and options.minimum:
            continue  # SIZE-11: a table or code block over the budget stays whole
        if r.kind == "body" and cost <= size // 2:
            assert r.tokens <= size or len(grapheme_bounds(r.text.strip())) <= 2, r


@given(
    st.sampled_from(["recursive", "window", "pages"]),
    st.integers(1, 50),
    st.integers(1, 50),
    st.booleans(),
)
def test_other_strategies_refuse(strategy: str, size: int, least: int, trail: bool) -> None:
    """SIZE-1, OPT-7: min_tokens > 0 or budget_includes_headings elsewhere is a ValueError
    naming the option; min_tokens 0 is accepted and the default is 0."""
    assert ChunkOptions(strategy, size).minimum == 0
    assert ChunkOptions(strategy, size, min_tokens=0).minimum == 0
    with pytest.raises(ValueError, match=r"^min_tokens"):
        ChunkOptions(strategy, size, min_tokens=least)
    if trail:
        with pytest.raises(ValueError, match=r"^budget_includes_headings"):
            ChunkOptions(strategy, size, budget_includes_headings=True)


@given(size_options(), st.integers(-3, 45))
def test_options_carry_min_tokens(options: ChunkOptions, value: int) -> None:
    """OPT-7, OPT-8, SIZE-2, RECORD-16: the default is min(64, max_tokens // 8); to_dict and
    from_dict keep both options; the strategy string names min_tokens when not 0 and
    reads back; a string without it means 0; a bad value is a ValueError."""
    assert ChunkOptions(options.strategy, options.max_tokens).minimum == min(
        64, options.max_tokens // 8
    )
    assert ChunkOptions.from_dict(options.to_dict()) == options
    back = ChunkOptions.from_strategy_string(options.strategy_string, counter=options.counter)
    assert back.minimum == options.minimum
    assert back.budget_includes_headings == options.budget_includes_headings
    assert ("min_tokens=" in options.strategy_string) == (options.minimum > 0)
    bare = options.strategy_string.replace(f",min_tokens={options.minimum}", "")
    assert ChunkOptions.from_strategy_string(bare, counter=options.counter).minimum == 0
    if 0 <= value <= options.max_tokens:
        assert options.replace(min_tokens=value).minimum == value
    else:
        with pytest.raises(ValueError, match=r"^min_tokens"):
            options.replace(min_tokens=value)


@given(st.integers(-2, 600), st.booleans())
def test_cli_flags(value: int, trail: bool) -> None:
    """CLI-21: chunk --min-tokens N and --budget-includes-headings give the options; a bad N
    is one error naming --min-tokens."""
    argv = ["chunk", "doc.md", "--min-tokens", str(value)]
    args = build_parser().parse_args(argv + (["--budget-includes-headings"] if trail else []))
    if 0 <= value <= 512:
        options = chunk_options(args, _chunk_command.OPTIONS)
        assert options.minimum == value
        assert options.budget_includes_headings == trail
    else:
        with pytest.raises(CliError, match=r"^--min-tokens"):
            chunk_options(args, _chunk_command.OPTIONS)


@st.composite
def heading_chains(draw: st.DrawFn) -> str:
    """Real-file shapes: text or nothing, then headings with no text between (the first of
    the lowest level: each joins the run of the ones before, SIZE-5), then a long section."""
    parts: list[str] = []
    if draw(st.booleans()):
        parts.append(" ".join(draw(st.lists(_WORDS, min_size=1, max_size=30))))
    top = draw(st.integers(1, 3))
    levels = [top, *draw(st.lists(st.integers(top, 6), min_size=0, max_size=5))]
    for level in levels:
        title = " ".join(draw(st.lists(_WORDS, min_size=1, max_size=3)))
        closing = draw(st.sampled_from(["", " " + "#" * level]))
        parts.append("#" * level + " " + title + closing)
    for _ in range(draw(st.integers(1, 3))):
        parts.append(" ".join(draw(st.lists(_WORDS, min_size=1, max_size=60))))
    return "\n\n".join(parts) + "\n"


@settings(max_examples=400)
@given(
    heading_chains(),
    st.integers(1, 60),
    st.sampled_from(["whitespace", "chars4", "unicode"]),
    st.one_of(st.none(), st.integers(1, 8)),
)
@case("# A\n\n## B\n\n" + " ".join(["alpha"] * 30) + "\n", 10, "whitespace", None)
def test_a_chain_of_headings_never_stands_alone(
    text: str, size: int, counter: str, least: int | None
) -> None:
    """SIZE-3, SIZE-10: the first body chunk after a chain of headings leaves room for the
    headings' text and markup (``# A`` / ``## B`` / a long section), so whenever the
    headings alone fit the budget with room to spare no record is only headings."""
    least = None if least is None else min(least, size)
    options = ChunkOptions("heading", size, counter=counter, min_tokens=least)
    if not options.minimum:
        return
    document = _document(text)
    blocks = [b for b in document.blocks().blocks if b.text.strip()]
    first = next(i for i, b in enumerate(blocks) if b.kind == "heading")
    body = next(b for b in blocks[first:] if b.kind != "heading")
    heads = text[blocks[first].start : body.start]
    if options.token_counter().count(heads) >= size:
        return  # no room beside the headings (SIZE-10's exception)
    for r in chunk_document(document, options):
        assert not _heading_only(document, r), r


@settings(max_examples=400)
@given(
    heading_chains(),
    st.integers(1, 60),
    st.sampled_from(["whitespace", "chars4", "unicode"]),
    st.integers(1, 12),
)
@case("(configuration)=\n\n# A\n\n" + " ".join(["alpha"] * 30) + "\n", 10, "whitespace", 3)
def test_a_short_preamble_merges_forward(text: str, size: int, counter: str, least: int) -> None:
    """SIZE-3, SIZE-5: text before the first heading (a badge, a MyST label) under
    min_tokens waits with the first headings for their body chunk, so the three share a
    record whenever they fit the budget together; that record is a heading record."""
    options = ChunkOptions("heading", size, counter=counter, min_tokens=min(least, size))
    document = _document(text)
    blocks = [b for b in document.blocks().blocks if b.text.strip()]
    if blocks[0].kind == "heading":
        return  # no preamble
    first = next(i for i, b in enumerate(blocks) if b.kind == "heading")
    body = next(b for b in blocks[first:] if b.kind != "heading")
    count = options.token_counter().count
    preamble = text[blocks[0].start : blocks[first - 1].end]
    if count(preamble) >= options.minimum or count(text[blocks[0].start : body.start]) >= size:
        return  # not a crumb, or no room beside it
    records = chunk_document(document, options)
    assert records[0].start == blocks[0].start
    assert records[0].end > blocks[first].start, records[0]
    assert records[0].kind == "heading"
    assert records[0].section == blocks[first].text


@st.composite
def headings_only(draw: st.DrawFn) -> str:
    """A document of headings and nothing else (a table of contents), ATX or setext."""
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 12))):
        title = " ".join(draw(st.lists(_WORDS, min_size=1, max_size=4)))
        if draw(st.integers(0, 4)):
            lines.append("#" * draw(st.integers(1, 6)) + " " + title)
        else:
            lines.append(title + "\n" + draw(st.sampled_from(["===", "---"])))
    return "\n\n".join(lines) + "\n"


@settings(max_examples=300)
@given(headings_only(), st.integers(1, 40))
@case("# Contents\n\n## Introduction\n\n## Usage\n", 4)
def test_a_document_of_headings_is_chunked(text: str, size: int) -> None:
    """MD-19: with min_tokens > 0, structural chunks a document of headings only as one
    prose run of their lines, from the first title to the last, split as seed 000's
    split_section (the model) splits it, then merged (SIZE-3: heading records are open, so
    neighbours merge while they fit); every record is a heading record named after the
    heading it starts in or before. With min_tokens=0 (seed 001's chunks) there is none."""
    options = ChunkOptions(
        "structural", size, min_tokens=1, counter="whitespace"
    )  # the model's words
    document = _document(text)
    titled = [b for b in document.blocks().blocks if b.kind == "heading" and b.text.strip()]
    records = chunk_document(document, options)
    start, end = titled[0].start, titled[-1].end
    pieces = [t.split() for t in model_split_texts(text[start:end], size)]
    runs = model_merge_small(
        lambda i, j: sum(len(p) for p in pieces[i : j + 1]),
        len(pieces),
        lambda i: True,
        1,
        size,
        lambda run, k: True,
        lambda k: False,
    )
    want = [[w for i in run for w in pieces[i]] for run in runs]
    assert [r.text.split() for r in records] == want
    assert not chunk_document(document, options.replace(min_tokens=0))
    for r in records:
        assert r.kind == "heading"
        assert r.heading_path == ()
        assert r.section == next(b.text for b in titled if b.end > r.start)


@settings(max_examples=400)
@given(texts, size_options())
@case(
    "# T\n\nIntro text here.\n\n```\nline one two\nline three four\n```\n\nAfter it.\n",
    ChunkOptions("heading", 12, overlap_tokens=3, min_tokens=1),
)
@case(
    "# T\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n| 5 | 6 |\n",
    ChunkOptions("heading", 6, min_tokens=1),
)
def test_tables_and_code_stay_whole(text: str, options: ChunkOptions) -> None:
    """SIZE-11, SIZE-10: with min_tokens > 0, no heading or structural record starts or ends
    inside a table or code block (an overlap starts outside one or at its start)."""
    if not options.minimum or options.split_tables:
        return
    document = _document(text)
    whole = [(b.start, b.end) for b in document.blocks().blocks if b.kind in ("code", "table")]
    for r in chunk_document(document, options):
        for start, end in whole:
            assert not start < r.start < end, (r, start, end)
            assert not start < r.end < end, (r, start, end)
