"""Properties of the dict counter: dictionary words where a script has no spaces (SCRIPT-20..26).

The algorithm (SCRIPT-20, SCRIPT-21, SCRIPT-23) is checked everywhere with segmenters that
Hypothesis draws; ICU's own words (the extra ``segment``) where icu4py is installed.
"""

from __future__ import annotations

import importlib.util
import itertools
import unicodedata
from collections.abc import Iterable, Mapping

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkspec._conformance._rules import _count as kit_count
from chunkspec._core._graphemes import grapheme_bounds
from chunkspec._core._units import CLUSTER_SCRIPT_RANGES
from chunkspec._counters._dictionary import DICTIONARY_RANGES, dictionary_spans
from chunkspec._counters._registry import counter_from_name
from chunkspec.counters import UnicodeCounter
from chunkspec.records import SourceDocument, chunk_document
from properties.strategies import MULTI_SCRIPT_PIECES

#: MULTI_SCRIPT_PIECES with words a dictionary knows, so runs are long and words many.
texts = st.lists(
    st.sampled_from(
        [
            *MULTI_SCRIPT_PIECES,
            "北京",
            "天安门",
            "我爱",
            "ผม",
            "ไม่",
            "ชอบ",
            "กิน",
            "方法",
            "より",
            "ㄅㄆ",
        ]
    ),
    max_size=40,
).map("".join)

HAS_ICU = importlib.util.find_spec("icu4py") is not None
needs_icu = pytest.mark.skipif(
    not HAS_ICU,
    reason="the extra segment (icu4py) is not installed: pip install 'chunkspec[segment]'",
)


def wide(ch: str) -> bool:
    """SCRIPT-2, from its table."""
    return any(a <= ord(ch) <= b for a, b in CLUSTER_SCRIPT_RANGES)


def dictionary_script(ch: str) -> bool:
    """SCRIPT-21 literally: SCRIPT-2 but Hangul and Bopomofo, by the Unicode block names."""
    name = unicodedata.name(ch, "")
    return wide(ch) and "HANGUL" not in name and "BOPOMOFO" not in name


def model_bounds(
    text: str, ends_alone: Mapping[str, Iterable[int]] | None
) -> list[tuple[int, int]]:
    """SCRIPT-20 by position: the unicode units' boundaries, less the offsets strictly inside
    a run of two or more touching dictionary-script units that are no word end of the run
    (``ends_alone[run]``, or every offset when None)."""
    units = UnicodeCounter().token_spans(text)
    drop: set[int] = set()
    k = 0
    while k < len(units):
        if not dictionary_script(text[units[k][0]]):
            k += 1
            continue
        m = k + 1
        while (
            m < len(units)
            and units[m][0] == units[m - 1][1]
            and dictionary_script(text[units[m][0]])
        ):
            m += 1
        a, b = units[k][0], units[m - 1][1]
        if m > k + 1 and ends_alone is not None:
            ends = {a + e for e in ends_alone[text[a:b]]}
            drop |= {s for s, _ in units[k + 1 : m] if s not in ends}
        k = m
    out: list[tuple[int, int]] = []
    for a, b in units:
        if a in drop:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def test_dictionary_ranges_are_script2_less_hangul_and_bopomofo() -> None:
    """SCRIPT-21: of the assigned characters, DICTIONARY_RANGES holds exactly SCRIPT-2's
    whose names say neither Hangul nor Bopomofo."""
    assigned = [
        cp
        for a, b in CLUSTER_SCRIPT_RANGES
        for cp in range(a, b + 1)
        if unicodedata.category(chr(cp)) != "Cn"
    ]
    table = {cp for a, b in DICTIONARY_RANGES for cp in range(a, b + 1)}
    assert {cp for cp in assigned if cp in table} == {
        cp for cp in assigned if dictionary_script(chr(cp))
    }
    assert all(dictionary_script(ch) for ch in "中ひカก\u0e81ក\u1000")
    assert not any(dictionary_script(ch) for ch in "한ㄅ\uffa1")


@given(texts, st.data())
def test_units_match_model_for_any_segmenter(text: str, data: st.DataObject) -> None:
    """SCRIPT-20, SCRIPT-23: with any segmenter's ends (Hypothesis draws them, inside a
    cluster or past the run too), the units are the model's; spans exact, disjoint, in
    order, never inside a cluster, covering unicode's characters; count at most unicode's."""
    drawn: dict[str, list[int]] = {}

    def segmenter(runs: list[str]) -> list[Iterable[int]]:
        for run in runs:
            if run not in drawn:
                drawn[run] = data.draw(st.lists(st.integers(-1, len(run) + 2)), label=run)
        return [drawn[run] for run in runs]

    spans = dictionary_spans(text, segmenter)
    assert spans == model_bounds(text, drawn)
    bounds = set(grapheme_bounds(text))
    unicode_spans = UnicodeCounter().token_spans(text)
    assert "".join(text[a:b] for a, b in spans) == "".join(text[a:b] for a, b in unicode_spans)
    assert all(a < b <= c for (a, b), (c, _) in itertools.pairwise(spans))
    assert all(a in bounds and b in bounds for a, b in spans if not text[a].isspace())
    assert len(spans) <= len(unicode_spans)


@needs_icu
@given(texts)
def test_icu_units_are_words_of_each_run_alone(text: str) -> None:
    """SCRIPT-20, SCRIPT-23, SCRIPT-26: ICU's units are the model's with each run given to
    ICU alone (the counter gives ICU all runs at once); the same from a second counter;
    count equals the number of spans."""
    from icu4py.breakers import WordBreaker

    def alone(run: str) -> list[int]:
        joined = list(WordBreaker(run, "root").segments())
        offsets, units = {}, 0
        for k, ch in enumerate(run):
            offsets[units] = k
            units += 2 if ord(ch) > 0xFFFF else 1
        offsets[units] = len(run)
        return [offsets[e] for _, e in joined if e in offsets]

    counter = counter_from_name("dict")
    spans = counter.token_spans(text)
    runs: dict[str, Iterable[int]] = {}

    class Lazy(dict[str, Iterable[int]]):
        def __missing__(self, run: str) -> Iterable[int]:
            return alone(run)

    assert spans == model_bounds(text, Lazy(runs))
    assert counter.count(text) == len(spans)
    counter_from_name.cache_clear()
    assert counter_from_name("dict").token_spans(text) == spans


_SIZES = st.integers(1, 12)


@needs_icu
@given(texts, st.sampled_from(["heading", "structural", "window", "pages"]), _SIZES, st.booleans())
def test_chunks_hold_the_budget_and_cut_at_words(
    text: str, strategy: str, size: int, markdown: bool
) -> None:
    """SCRIPT-24, SCRIPT-22, RECORD-5: with the dict counter (records named
    dict:icu-VERSION), heading, structural, window and pages chunks never exceed
    max_tokens, start and end at cluster boundaries and inside no dictionary word of the
    document (a unit of a dictionary script: a sentence end may still cut a unit of
    punctuation, as with unicode); tokens is the count of the text by the record's
    counter."""
    fmt = "markdown" if markdown and strategy in ("heading", "structural") else "text"
    document = SourceDocument(doc_id="d", text=text, format=fmt, title="T")
    counter = counter_from_name("dict")
    bounds = set(grapheme_bounds(text))
    words = [(a, b) for a, b in counter.token_spans(text) if dictionary_script(text[a])]
    inside = {k for a, b in words for k in range(a + 1, b)}
    for r in chunk_document(document, strategy, max_tokens=size, counter="dict"):
        assert r.text == r.prefix + text[r.start : r.end]
        assert r.counter == counter_name_of(counter)
        assert counter_from_name(r.counter).count(r.text) == r.tokens
        if r.kind in ("heading", "code", "table"):
            continue
        assert r.tokens <= size, (r.text, r.tokens)
        assert r.start in bounds
        assert r.end in bounds
        assert r.start not in inside, (r.start, r.text)
        assert r.end not in inside, (r.end, r.text)


def counter_name_of(counter: object) -> str:
    """The record name of ``counter`` (SCRIPT-22)."""
    name = getattr(counter, "name", "")
    assert isinstance(name, str)
    assert name.startswith("dict:icu-")
    return name


@given(texts, st.sampled_from(["chunk", "window", "pages", "split_markdown"]), st.text(max_size=8))
def test_the_kit_counts_no_dict_records(text: str, op: str, version: str) -> None:
    """SCRIPT-25: the conformance kit has no dict counter: its RECORD-14 check counts a
    record named dict:icu-VERSION as n/a (None), never with units of its own."""
    assert kit_count(op, f"dict:icu-{version}", text) is None
    assert kit_count(op, "dict", text) is None
