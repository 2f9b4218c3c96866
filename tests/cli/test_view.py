"""``chunkspec view`` (VIEW-1..VIEW-5): the golden cases and the HTML, read without a browser."""

from __future__ import annotations

import itertools
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from chunkspec import ChunkRecord, chunk_document, document_from_bytes
from chunkspec._cli import main
from chunkspec._cli._view_html import ViewDocument, render_page, script_json
from chunkspec._cli._view_layout import histogram, is_crumb, segments
from chunkspec._errors import ArgumentValueError
from chunkspec._text._documents import read_document
from tests import goldens

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _record(fields: dict[str, Any]) -> ChunkRecord:
    """A record with the golden case's tokens, strategy and oversized; the rest fixed."""
    return ChunkRecord(
        id="d:0",
        doc_id="d",
        index=0,
        text="",
        start=0,
        end=0,
        tokens=fields["tokens"],
        counter="whitespace",
        content_hash="e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        kind="prose",
        heading_path=(),
        parent_id=None,
        page_start=None,
        page_end=None,
        section=None,
        prefix="",
        oversized=fields["oversized"],
        title="d",
        source="",
        strategy=fields["strategy"],
    )


@pytest.mark.parametrize("case", goldens.cases("view"))
def test_view_golden(case: dict[str, Any]) -> None:
    """VIEW-2, VIEW-3, VIEW-4, VIEW-6 golden cases."""
    given = case["input"]
    if "html" in given:  # VIEW-6: a page's records carry their markup in the panel's data
        document = document_from_bytes(given["html"].encode(), doc_id="d", name="p.html")
        options = {k: given[k] for k in ("strategy", "max_tokens", "min_tokens")}
        records = chunk_document(document, **options)
        spans = [document.markup_span(r.start, r.end) for r in records]
        page = render_page([ViewDocument("d", "T", document.text, records, document.markup, spans)])
        data = json.loads(page.split('id="chunkspec-data">', 1)[1].split("</script>", 1)[0])
        assert [c["markup"] for c in data[0]["chunks"]] == case["output"]["markup"]
        return
    if "json" in given:
        assert script_json(given["json"]) == case["output"]["script_json"]
        return
    if "spans" in given:
        spans = [tuple(span) for span in given["spans"]]
        if "error" in case:
            with pytest.raises(ArgumentValueError) as caught:
                segments(len(given["text"]), spans)
            assert caught.value.argument == case["error"]["argument"]
            return
        got = [[s.start, s.end, list(s.chunks)] for s in segments(len(given["text"]), spans)]
        assert got == case["output"]["segments"]
        return
    records = [_record(fields) for fields in given["records"]]
    if "marks" in case["output"]:
        marks = [
            sorted({"oversized"} if r.oversized else set()) + (["crumb"] if is_crumb(r) else [])
            for r in records
        ]
        assert marks == case["output"]["marks"]
    else:
        assert [list(bar) for bar in histogram(records)] == case["output"]["histogram"]


class _Page(HTMLParser):
    """The drawn pieces of a page (VIEW-2): per section, ``(start, end, chunks, text)``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.sections: list[list[list[Any]]] = []
        self.open: list[Any] | None = None
        self.in_pre = False
        self.scripts: list[str] = []
        self.in_script = False
        self.urls: list[str] = []
        self.inner = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        for name in ("src", "href"):
            if found.get(name) and not str(found[name]).startswith("data:"):
                self.urls.append(str(found[name]))  # VIEW-5: a data: URL is not fetched
        if tag == "section":
            self.sections.append([])
        elif tag == "pre":
            self.in_pre = True
        elif tag == "script":
            self.in_script = True
            self.scripts.append("")
        elif tag == "span" and self.open is not None:
            self.inner += 1  # a page rule inside a piece: no text of its own
        elif tag == "span" and self.in_pre:
            chunks = [int(c) for c in (found["data-chunks"] or "").split()]
            self.open = [int(found["data-start"] or 0), int(found["data-end"] or 0), chunks, ""]
            self.sections[-1].append(self.open)

    def handle_endtag(self, tag: str) -> None:
        if tag == "span" and self.inner:
            self.inner -= 1
        elif tag == "span":
            self.open = None
        elif tag == "pre":
            self.in_pre = False
        elif tag == "script":
            self.in_script = False

    def handle_data(self, data: str) -> None:
        if self.open is not None:
            self.open[3] += data
        if self.in_script:
            self.scripts[-1] += data


def _parse(page: str) -> _Page:
    """Parse a page."""
    parser = _Page()
    parser.feed(page)
    parser.close()
    return parser


def _check(pieces: list[list[Any]], text: str, records: list[dict[str, Any]]) -> None:
    """VIEW-2: the pieces draw the text once; each record's pieces are exactly its span."""
    assert "".join(p[3] for p in pieces) == text
    for position, record in enumerate(records):
        mine = [p for p in pieces if position in p[2]]
        assert mine[0][0] == record["start"]
        assert mine[-1][1] == record["end"]
        assert all(a[1] == b[0] for a, b in itertools.pairwise(mine))
        assert "".join(p[3] for p in mine) == text[record["start"] : record["end"]]


def _records(path: Path) -> list[dict[str, Any]]:
    """The records of a JSON Lines file."""
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]


@pytest.mark.parametrize(
    ("example", "flags"),
    [
        ("returns-policy.md", ["--strategy", "heading", "--max-tokens", "60"]),
        ("returns-policy.md", ["--strategy", "structural", "--max-tokens", "30"]),
        ("returns-policy.md", ["--strategy", "window", "--max-tokens", "25"]),
        ("returns-policy.md", ["--strategy", "recursive", "--max-tokens", "40"]),
        ("report.pdf", ["--strategy", "pages", "--max-tokens", "50"]),
    ],
)
def test_page_spans_equal_records(example: str, flags: list[str], tmp_path: Path) -> None:
    """VIEW-1, VIEW-2: the page of ``view`` draws the records ``chunk`` writes, both ways."""
    path = EXAMPLES / example
    records_file = tmp_path / "r.jsonl"
    assert main(["chunk", str(path), *flags, "-o", str(records_file)]) == 0
    records = _records(records_file)
    text = read_document(path).text
    for argv in (
        ["view", str(path), *flags],
        ["view", str(records_file), "--source", str(path)],
    ):
        page = tmp_path / "page.html"
        assert main([*argv, "-o", str(page)]) == 0
        parsed = _parse(page.read_text("utf-8"))
        (pieces,) = parsed.sections
        _check(pieces, text, records)
        assert parsed.urls == []  # VIEW-5: nothing fetched


#: Text no page may let through as markup.
HOSTILE = (
    "# </script><script>alert(1)</script> & <b>x</b>\r\n\r\n\u2028 \U0001f600 done \"q\" 'a'\n"
)


def test_hostile_text_is_escaped(tmp_path: Path) -> None:
    """VIEW-5: document text, titles and heading paths never become markup or end a script."""
    path = tmp_path / "evil <img src=x>.md"
    path.write_text(HOSTILE, "utf-8", newline="")
    page_file = tmp_path / "p.html"
    argv = ["view", str(path), "--max-tokens", "3", "-o", str(page_file)]
    assert main(argv) == 0
    page = page_file.read_text("utf-8")
    parsed = _parse(page)
    # Two scripts only: the data and the page's own; the data is JSON that parses back.
    assert len(parsed.scripts) == 2
    data = json.loads(parsed.scripts[0])
    paths = [chunk["heading_path"] for chunk in data[0]["chunks"]]
    assert ["</script><script>alert(1)</script> & <b>x</b>"] in paths
    assert "</script><script>alert" not in page
    assert "<b>x</b>" not in page
    assert "<img" not in page
    assert parsed.urls == []
    records_file = tmp_path / "r.jsonl"
    assert main(["chunk", str(path), "--max-tokens", "3", "-o", str(records_file)]) == 0
    _check(parsed.sections[0], HOSTILE, _records(records_file))


def test_script_json_cannot_end_the_script() -> None:
    """VIEW-5: ``<``, ``>``, ``&``, U+2028 and U+2029 are escapes; the JSON reads back."""
    value = {"t": "</script><!-- & \u2028\u2029"}
    text = script_json(value)
    assert not re.search("[<>&\u2028\u2029]", text)
    assert json.loads(text) == value


def test_empty_record_is_a_marker() -> None:
    """VIEW-2: a record with start == end is drawn as an empty marker piece."""
    record = ChunkRecord.from_dict(
        {
            **_record({"tokens": 0, "strategy": "custom", "oversized": False}).to_dict(),
            "start": 2,
            "end": 2,
        }
    )
    page = render_page([ViewDocument("d", "d", "abcd", [record])])
    (pieces,) = _parse(page).sections
    assert [p[:3] for p in pieces] == [[0, 2, []], [2, 2, [0]], [2, 4, []]]
    assert 'class="seg empty' in page


def test_stdout_and_keep_going(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """VIEW-1: no -o writes the page on stdout; --keep-going draws the good documents, exit 2."""
    monkeypatch.chdir(tmp_path)
    Path("a.md").write_text("alpha beta", "utf-8")
    assert main(["view", "a.md", "--max-tokens", "5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("<!DOCTYPE html>")
    assert 'data-doc-id="a"' in out
    assert main(["view", "a.md", "nope.md", "--keep-going", "-o", "p.html"]) == 2
    err = capsys.readouterr().err
    assert "skipped: nope.md: no such file" in err
    assert 'data-doc-id="a"' in Path("p.html").read_text("utf-8")


def test_summary_counts(tmp_path: Path) -> None:
    """VIEW-3, VIEW-4: the summary's chunk, crumb and oversized counts are the records'."""
    path = EXAMPLES / "returns-policy.md"
    page = tmp_path / "p.html"
    records = tmp_path / "r.jsonl"
    flags = ["--strategy", "heading", "--max-tokens", "40", "--min-tokens", "0"]
    assert main(["view", str(path), *flags, "-o", str(page)]) == 0
    assert main(["chunk", str(path), *flags, "-o", str(records)]) == 0
    rows = _records(records)
    html = page.read_text("utf-8")
    fact = dict(re.findall(r'data-fact="(\w+)">([^<]*)<', html))
    assert fact["chunks"] == str(len(rows))
    assert fact["oversized"] == str(sum(r["oversized"] for r in rows))
    crumbs = sum(8 * r["tokens"] < 40 for r in rows)
    assert fact["crumbs"] == str(crumbs)
    assert crumbs > 0
