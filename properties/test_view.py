"""Properties of ``chunkspec view`` (VIEW-1..VIEW-6), against literal models.

The page is parsed back with the standard library's HTML parser (as a browser reads it:
character references resolved), so what is checked is what a reader of the page sees.
"""

from __future__ import annotations

import json
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from chunkspec import ChunkRecord, hash_text
from chunkspec._cli import main
from chunkspec._cli._view_html import ViewDocument, render_page, script_json
from chunkspec._cli._view_layout import budget_of, histogram, is_crumb, segments
from properties.models import model_view_bin, model_view_coverage
from properties.strategies import html_pages, markdown_documents, view_spans, view_texts

#: Each example of the command property writes files and runs the command in process.
_FILES = settings(max_examples=60, deadline=None)


def _record(text: str, position: int, span: tuple[int, int], tokens: int, strategy: str) -> Any:
    """A record over ``text[span]`` (verbatim, RECORD-3) at ``position``."""
    piece = text[span[0] : span[1]]
    return ChunkRecord(
        id=f"d:{position}",
        doc_id="d",
        index=position,
        text=piece,
        start=span[0],
        end=span[1],
        tokens=tokens,
        counter="whitespace",
        content_hash=hash_text(piece),
        kind="window",
        heading_path=("</script>",),
        parent_id=None,
        page_start=None,
        page_end=None,
        section=None,
        prefix="",
        oversized=False,
        title="<t>",
        source="",
        strategy=strategy,
    )


class _Pieces(HTMLParser):
    """The ``(start, end, chunks, text)`` pieces of ``pre.text`` and the scripts' text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[list[Any]] = []
        self.scripts: list[str] = []
        self.where = ""
        self.inner = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "span" and self.where == "span":
            self.inner += 1  # a page rule inside a piece: no text of its own
        elif tag == "span" and found.get("data-start") is not None and self.where == "pre":
            chunks = [int(c) for c in (found["data-chunks"] or "").split()]
            self.pieces.append(
                [int(found["data-start"] or 0), int(found["data-end"] or 0), chunks, ""]
            )
            self.where = "span"
        elif tag in ("pre", "script"):
            self.where = tag
            if tag == "script":
                self.scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "span" and self.inner:
            self.inner -= 1
        elif tag == "span" and self.where == "span":
            self.where = "pre"
        elif tag in ("pre", "script"):
            self.where = ""

    def handle_data(self, data: str) -> None:
        if self.where == "span":
            self.pieces[-1][3] += data
        elif self.where == "script":
            self.scripts[-1] += data


@given(view_spans())
def test_segments_cover_each_offset_as_the_model(case: tuple[str, list[tuple[int, int]]]) -> None:
    """VIEW-2: the pieces tile the text; each offset's piece lists exactly the spans holding it,
    and every empty span is one marker at its offset."""
    text, spans = case
    pieces = segments(len(text), spans)
    full = [p for p in pieces if p.start < p.end]
    assert [p.start for p in full] == [0, *[p.end for p in full[:-1]]][: len(full)]
    assert (full[-1].end if full else 0) == len(text)
    coverage = model_view_coverage(len(text), spans)
    for piece in full:
        for offset in range(piece.start, piece.end):
            assert list(piece.chunks) == coverage[offset]
    markers = [(p.start, p.chunks) for p in pieces if p.start == p.end]
    expected = sorted(((s, (n,)) for n, (s, e) in enumerate(spans) if s == e))
    assert sorted(markers) == expected


@given(view_spans())
def test_page_draws_every_span_over_its_text(case: tuple[str, list[tuple[int, int]]]) -> None:
    """VIEW-2, VIEW-5: parsed back, the page's text is the source, each record's pieces run
    from its start to its end over ``source[start:end]``; the data script is the JSON."""
    text, spans = case
    records = [_record(text, n, span, 1, "window:max_tokens=9") for n, span in enumerate(spans)]
    parser = _Pieces()
    parser.feed(render_page([ViewDocument("d", "<t>", text, records)]))
    parser.close()
    text_nul_free = text.replace("\0", "\ufffd")
    assert "".join(p[3] for p in parser.pieces) == text_nul_free
    for n, (start, end) in enumerate(spans):
        mine = [p for p in parser.pieces if n in p[2]]
        assert (mine[0][0], mine[-1][1]) == (start, end)
        assert "".join(p[3] for p in mine) == text_nul_free[start:end]
    data = json.loads(parser.scripts[0])
    assert [c["start"] for c in data[0]["chunks"]] == [s for s, _ in spans]
    assert (
        data[0]["chunks"][0]["heading_path"] == ["</script>"] if spans else data[0]["chunks"] == []
    )


@given(st.integers(0, 300), st.integers(1, 300), st.sampled_from(["heading", "window", "pages"]))
def test_crumb_is_under_an_eighth(tokens: int, budget: int, strategy: str) -> None:
    """VIEW-3: a crumb has 8 * tokens < budget, the budget read from the strategy string."""
    record = _record("", 0, (0, 0), tokens, f"{strategy}:max_tokens={budget},overlap_tokens=0")
    assert budget_of(record.strategy) == budget
    assert is_crumb(record) == (tokens * 8 < budget)


@given(st.lists(st.integers(0, 200), max_size=20), st.one_of(st.none(), st.integers(1, 150)))
def test_histogram_bins_as_the_model(counts: list[int], budget: int | None) -> None:
    """VIEW-4: every record is in exactly one bin, the bin the model gives, and each label
    names whole numbers that include the record's tokens."""
    strategy = "custom" if budget is None else f"window:max_tokens={budget},overlap_tokens=0"
    records = [_record("", n, (0, 0), t, strategy) for n, t in enumerate(counts)]
    bars = histogram(records)
    assert len(bars) == 9
    assert sum(n for _, n in bars) == len(records)
    # No record, no budget: the bins run to 8 (VIEW-4).
    top = max(budget if budget is not None and counts else max(counts, default=0), 8)
    expected = [0] * 9
    for t in counts:
        expected[model_view_bin(t, top)] += 1
    assert [n for _, n in bars] == expected
    for i, (label, _) in enumerate(bars[:8]):
        low, high = map(int, label.split("-"))
        assert low <= high
        assert all(model_view_bin(t, top) == i for t in range(low, high + 1))
    assert bars[8][0] == f"> {top}"


@given(view_texts)
def test_script_json_round_trips(text: str) -> None:
    """VIEW-5: script JSON has no character that can end a script, and decodes back."""
    encoded = script_json({"t": text, "u": text + "\u2028\u2029"})
    assert not set(encoded) & set("<>&\u2028\u2029")
    assert json.loads(encoded) == {"t": text, "u": text + "\u2028\u2029"}


@_FILES
@given(markdown_documents(), st.sampled_from(["heading", "structural", "window", "recursive"]))
def test_command_draws_the_records_chunk_writes(text: str, strategy: str) -> None:
    """VIEW-1: ``view FILE`` and ``view RECORDS --source FILE`` draw ``chunk``'s records."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        source = root / "doc.md"
        source.write_bytes(text.encode())
        flags = ["--strategy", strategy, "--max-tokens", "5"]
        records_file = root / "r.jsonl"
        assert main(["chunk", str(source), *flags, "-o", str(records_file)]) == 0
        lines = records_file.read_text("utf-8").splitlines()
        records = [json.loads(line) for line in lines]
        for argv in (
            ["view", str(source), *flags],
            ["view", str(records_file), "--source", str(source)],
        ):
            assert main([*argv, "-o", str(root / "p.html")]) == 0
            parser = _Pieces()
            parser.feed((root / "p.html").read_text("utf-8"))
            parser.close()
            for n, record in enumerate(records):
                mine = [p for p in parser.pieces if n in p[2]]
                assert (mine[0][0], mine[-1][1]) == (record["start"], record["end"])


@given(html_pages(), st.sampled_from(["heading", "structural", "window"]))
def test_page_records_carry_their_markup(body: list[Any], strategy: str) -> None:
    """VIEW-6: each record of a web page carries, in the panel's data, its markup span
    (HTML-21's ``markup_span``) and the markup there, cut at 4,000 characters."""
    from chunkspec import chunk_document, document_from_bytes
    from chunkspec._cli._view_html import MARKUP_SHOWN, ViewDocument, render_page
    from properties.html_model import serialize

    markup = serialize(body, False)
    document = document_from_bytes(markup.encode(), doc_id="d", name="p.html")
    if not document.text.strip():
        return
    records = chunk_document(document, strategy=strategy, max_tokens=6)
    spans = [document.markup_span(r.start, r.end) for r in records]
    page = render_page([ViewDocument("d", "T", document.text, records, document.markup, spans)])
    data = json.loads(page.split('id="chunkspec-data">', 1)[1].split("</script>", 1)[0])
    for chunk, (a, b) in zip(data[0]["chunks"], spans, strict=True):
        want = document.markup[a : min(b, a + MARKUP_SHOWN)]
        assert chunk["markup"] == {"start": a, "end": b, "source": want}
