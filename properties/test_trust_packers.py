"""Properties of the packers' trust boundaries (docs/spec/trust.md, TRUST-10 to TRUST-15).

The central one: over random records with random labels (well-formed, of the wrong type,
nested, strings), random principals, expansion and trimming, ``pack_records`` never fails
for a label and packs exactly what the literal model (properties/pack_models.py) packs from
the records the principal may read, so it never returns a character it may not read.
"""

from __future__ import annotations

import io
import json
import math
import sys
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.counters import SMALL_MERGES, byte_encoding
from tests.pack_records import labelled

from chunkspec import ArgumentValueError, ChunkRecord, pack_records
from chunkspec._cli import main
from chunkspec.counters import CharEstimateCounter, TiktokenCounter, TokenCounter, WhitespaceCounter
from chunkspec.records import Principal

from .pack_models import model_pack_records, model_readable
from .strategies import pack_cases

Case = tuple[dict[str, str], list[ChunkRecord], list[float]]
_quiet = settings(suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)

_LABELS = st.sampled_from(["hr", "staff", "board"])
_TENANTS = st.sampled_from(["acme", "globex"])
#: Values a label key may hold that are not labels (TRUST-10): other types, nested lists,
#: objects, a list holding a non-str, the YAML ``[hr]`` read as a string.
_JUNK = st.one_of(
    st.integers(-3, 3),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.just("[hr]"),
    _LABELS,
    st.lists(st.lists(_LABELS, max_size=2), min_size=1, max_size=2),
    st.dictionaries(_LABELS, st.booleans(), min_size=1, max_size=2),
    st.lists(st.one_of(_LABELS, st.integers(0, 2), st.none()), min_size=1, max_size=3).filter(
        lambda xs: not all(isinstance(x, str) for x in xs)
    ),
)
#: Well-formed labels and the rest, mixed (CTX-13, TRUST-10).
metadata_values = st.fixed_dictionaries(
    {},
    optional={
        "tenant_id": st.one_of(st.none(), _TENANTS, _JUNK.filter(lambda v: not isinstance(v, str))),
        "acl_labels": st.one_of(st.none(), st.lists(_LABELS, max_size=3), _JUNK),
        "lang": st.just("en"),
    },
)
principals = st.one_of(st.none(), st.tuples(st.sets(_LABELS), st.one_of(st.none(), _TENANTS)))
COUNTERS = [
    WhitespaceCounter(),
    CharEstimateCounter(4),
    CharEstimateCounter(1),
    TiktokenCounter(byte_encoding(SMALL_MERGES)),
]


def well_formed(metadata: Mapping[str, object]) -> bool:
    """TRUST-10 read aloud: a tenant is absent, None or a str; labels absent, None or a
    list whose every item is a str."""
    tenant = metadata.get("tenant_id")
    labels = metadata.get("acl_labels")
    if tenant is not None and not isinstance(tenant, str):
        return False
    if labels is None:
        return True
    # A record's metadata holds a JSON list as a tuple (META-1).
    return isinstance(labels, (list, tuple)) and all(isinstance(x, str) for x in labels)


def may_read(metadata: Mapping[str, object], given: tuple[set[str], str | None] | None) -> bool:
    """Well-formed, and readable by CTX-13's model."""
    if not well_formed(metadata):
        return False
    labels, tenant = (None, None) if given is None else given
    return model_readable(dict(metadata), labels, tenant)


@given(
    pack_cases(),
    st.data(),
    principals,
    st.integers(0, 60),
    st.sampled_from([-math.inf, 0.4]),
    st.sampled_from(COUNTERS),
    st.sampled_from(["reading", "score"]),
    st.booleans(),
    st.sampled_from([None, 0.5, 1.0, 0.01]),
    st.booleans(),
)
def test_never_a_character_the_principal_may_not_read(
    case: Case,
    data: st.DataObject,
    given_principal: tuple[set[str], str | None] | None,
    budget: int,
    min_score: float,
    counter: TokenCounter,
    order: str,
    titles: bool,
    expand: float | None,
    trim: bool,
) -> None:
    """TRUST-15, TRUST-10, CTX-13, CTX-14: with labels of any shape, pack_records never
    fails and packs what the literal model packs from the readable, well-formed records
    alone; ``withheld`` counts the rest and ``unreadable_labels`` names the malformed."""
    _, records, scores = case
    tagged = [labelled(r, data.draw(metadata_values)) for r in records]
    principal = None if given_principal is None else Principal(*given_principal)
    trim = trim and not isinstance(counter, TiktokenCounter)  # the model scans, code bisects
    options: dict[str, Any] = {"min_score": min_score, "counter": counter, "order": order}
    options.update(titles=titles, expand=expand, trim=trim)
    packed = pack_records(tagged, scores, budget, principal=principal, **options)
    readable = [may_read(r.metadata, given_principal) for r in tagged]
    text, tokens, layout, withheld = model_pack_records(
        tagged,
        scores,
        budget,
        min_score,
        counter.count,
        order,
        lambda r: may_read(r.metadata, given_principal),
        titles,
        expand,
        trim,
    )
    assert packed.text == text
    assert packed.tokens == tokens
    assert packed.withheld == withheld == readable.count(False)
    assert [(p.doc_id, p.start, p.end, p.text) for p in packed.passages] == [
        (p.doc_id, p.start, p.end, p.text) for p in layout
    ]
    assert packed.unreadable_labels == tuple(r.id for r in tagged if not well_formed(r.metadata))
    keep = [i for i, ok in enumerate(readable) if ok]
    alone = pack_records(
        [tagged[i] for i in keep], [scores[i] for i in keep], budget, principal=principal, **options
    )
    assert (packed.text, packed.passages) == (alone.text, alone.passages)
    assert alone.withheld == 0
    assert alone.unreadable_labels == ()


@given(pack_cases(), st.data(), st.sampled_from(["a/README", "b/README", "d.md"]))
def test_one_document_one_source(case: Case, data: st.DataObject, other: str) -> None:
    """TRUST-12: readable records of one doc id naming two sources are refused, the error
    naming both records and both sources; withheld ones have no say."""
    _, records, scores = case
    moved = data.draw(st.sets(st.integers(0, max(0, len(records) - 1)), max_size=2))
    hidden = data.draw(st.sets(st.integers(0, max(0, len(records) - 1)), max_size=2))
    changed = [
        ChunkRecord(**{**r.to_dict(), "source": other, "heading_path": r.heading_path})
        if k in moved
        else r
        for k, r in enumerate(records)
    ]
    changed = [
        labelled(r, {"acl_labels": "x"}) if k in hidden else r for k, r in enumerate(changed)
    ]
    visible = [r for k, r in enumerate(changed) if k not in hidden]
    sources: dict[str, set[str]] = {}
    for r in visible:
        sources.setdefault(r.doc_id, set()).add(r.source)
    if all(len(s) == 1 for s in sources.values()):
        packed = pack_records(changed, scores, 40, min_score=-math.inf)
        assert {p.source for p in packed.passages} <= {r.source for r in visible}
        return
    with pytest.raises(ArgumentValueError) as caught:
        pack_records(changed, scores, 40, min_score=-math.inf)
    message = str(caught.value)
    assert caught.value.argument.endswith(".source")
    at = int(caught.value.argument[len("records[") :].split("]")[0])
    mine = changed[at]
    assert at not in hidden
    assert repr(mine.id) in message
    assert repr(mine.source) in message
    firsts = [r for r in visible if r.doc_id == mine.doc_id and r.source != mine.source]
    assert any(repr(r.id) in message and repr(r.source) in message for r in firsts)


@given(pack_cases(), st.text(min_size=1, max_size=20).map(lambda s: "/nonexistent/" + s))
def test_record_counter_never_opens_a_file(case: Case, path: str) -> None:
    """TRUST-13: records naming huggingface:PATH are refused without opening PATH (a
    ValueError naming records[i].counter, not the tokenizer's error); with the caller's
    counter they pack as whitespace records do."""
    _, records, scores = case
    if not records:
        return
    named = [
        ChunkRecord(
            **{**r.to_dict(), "counter": f"huggingface:{path}", "heading_path": r.heading_path}
        )
        for r in records
    ]
    with pytest.raises(ArgumentValueError) as caught:
        pack_records(named, scores, 40, min_score=-math.inf)
    assert caught.value.argument.startswith("records[")
    assert caught.value.argument.endswith("].counter")
    given = pack_records(named, scores, 40, min_score=-math.inf, counter="whitespace")
    plain = pack_records(records, scores, 40, min_score=-math.inf, counter="whitespace")
    assert (given.text, given.passages) == (plain.text, plain.passages)


def _run(argv: list[str], data: bytes, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run ``main(argv)`` with ``data`` on standard input; return (status, stdout, stderr)."""
    old = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        status = main(argv)
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else 1
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return status, out, err


def _lines(records: list[ChunkRecord], scores: list[float]) -> bytes:
    """The records as JSON Lines, each with its score."""
    rows = [{**r.to_dict(), "score": s} for r, s in zip(records, scores, strict=True)]
    return "".join(json.dumps(row) + "\n" for row in rows).encode()


def _principal_flags(given_principal: tuple[set[str], str | None] | None) -> list[str]:
    """``--tenant`` and ``--label`` for a drawn principal."""
    if given_principal is None:
        return []
    labels, tenant = given_principal
    flags = [] if tenant is None else ["--tenant", tenant]
    for label in sorted(labels):
        flags += ["--label", label]
    return flags


def _packs_as_readable(
    capsys: pytest.CaptureFixture[str],
    lines: bytes,
    readable_lines: bytes,
    budget: int,
    merge: bool,
    given_principal: tuple[set[str], str | None] | None,
) -> str:
    """Run ``pack`` (``--merge`` or not) for the principal over ``lines`` and over the lines
    it may read; assert it never fails for a label and prints the same; return stderr."""
    argv = ["pack", "-", "--budget", str(budget), "--min-score=-inf"]
    argv += ["--merge"] if merge else []
    argv += _principal_flags(given_principal)
    status, out, err = _run(argv, lines, capsys)
    alone = _run(argv, readable_lines, capsys)
    assert status in (0, 1), err  # never 2: a label does not fail the request
    assert (status, out) == alone[:2]
    return err


@_quiet
@given(pack_cases(), st.data(), principals, st.integers(0, 40), st.booleans())
def test_both_packers_withhold_alike(
    capsys: pytest.CaptureFixture[str],
    case: Case,
    data: st.DataObject,
    given_principal: tuple[set[str], str | None] | None,
    budget: int,
    merge: bool,
) -> None:
    """TRUST-11, TRUST-10: plain ``pack`` and ``pack --merge`` over lines with labels of any
    shape print what they print for the readable lines alone, never fail for a label, and
    say on stderr how many were withheld and which had unreadable labels."""
    _, records, scores = case
    tagged = [labelled(r, data.draw(metadata_values)) for r in records]
    keep = [i for i, r in enumerate(tagged) if may_read(r.metadata, given_principal)]
    kept = _lines([tagged[i] for i in keep], [scores[i] for i in keep])
    err = _packs_as_readable(capsys, _lines(tagged, scores), kept, budget, merge, given_principal)
    bad = [r.id for r in tagged if not well_formed(r.metadata)]
    denied = len(tagged) - len(keep) - len(bad)
    lines = [line for line in err.splitlines() if "withheld" in line]
    expected = []
    if denied:
        plural = "record" if denied == 1 else "records"
        expected.append(f"chunkspec pack: withheld {denied} {plural} the reader may not read")
    if bad:
        plural = "record" if len(bad) == 1 else "records"
        named = ", ".join(bad[:10]) + (f" and {len(bad) - 10} more" if len(bad) > 10 else "")
        expected.append(
            f"chunkspec pack: withheld {len(bad)} {plural} with unreadable labels: {named}"
        )
    assert lines == expected


@_quiet
@given(st.text(alphabet="abc/\n\t .", min_size=1, max_size=15))
def test_command_line_counter_that_cannot_be_built_is_one_line(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """TRUST-14: ``pack --merge --counter huggingface:PATH`` for a PATH that holds no
    tokenizer is one line on stderr and exit status 2, never a traceback."""
    row = {
        "id": "d:0",
        "doc_id": "d",
        "index": 0,
        "text": "one two",
        "start": 0,
        "end": 7,
        "tokens": 2,
        "counter": "whitespace",
        "kind": "window",
        "heading_path": [],
        "parent_id": None,
        "page_start": None,
        "page_end": None,
        "section": None,
        "prefix": "",
        "oversized": False,
        "title": "D",
        "source": "d.md",
        "strategy": "window:max_tokens=8,overlap_tokens=2",
        "metadata": {},
        "score": 0.9,
    }
    from chunkspec import hash_text

    row["content_hash"] = hash_text("one two")
    argv = [
        "pack",
        "-",
        "--merge",
        "--budget",
        "9",
        "--counter",
        f"huggingface:/nonexistent/{name}",
    ]
    status, out, err = _run(argv, (json.dumps(row) + "\n").encode(), capsys)
    assert (status, out) == (2, "")
    assert err.startswith("chunkspec pack: error: ")
    assert err.count("\n") == 1
    assert err.endswith("\n")


#: TRUST-16: what a line may carry at its top level besides its record: nothing, or seed
#: 003's flat ``tenant_id``/``acl_labels``, well-formed or not.
flat_keys = st.fixed_dictionaries(
    {},
    optional={
        "tenant_id": st.one_of(_TENANTS, st.integers(0, 2)),
        "acl_labels": st.one_of(st.lists(_LABELS, max_size=2), st.just("hr")),
    },
)


def flat_may_read(
    metadata: Mapping[str, object],
    flat: Mapping[str, object],
    given: tuple[set[str], str | None] | None,
) -> bool:
    """TRUST-16 read aloud: a flat key that the metadata states otherwise makes the labels
    unreadable; else the metadata with the flat keys over it is read as CTX-13 says."""
    plain = {key: list(v) if isinstance(v, tuple) else v for key, v in metadata.items()}
    for key, value in flat.items():
        if key in plain and plain[key] != value:
            return False
    return may_read({**plain, **flat}, given)


@_quiet
@given(pack_cases(), st.data(), principals, st.integers(0, 40), st.booleans())
def test_flat_access_keys_are_labels_too(
    capsys: pytest.CaptureFixture[str],
    case: Case,
    data: st.DataObject,
    given_principal: tuple[set[str], str | None] | None,
    budget: int,
    merge: bool,
) -> None:
    """TRUST-16: a line's top-level ``tenant_id``/``acl_labels`` count as labels for both
    packers: the output equals that of the lines the model says the reader may read, and a
    label never fails the request."""
    _, records, scores = case
    tagged = [labelled(r, data.draw(metadata_values)) for r in records]
    flats = [data.draw(flat_keys) for _ in tagged]
    keep = [i for i, r in enumerate(tagged) if flat_may_read(r.metadata, flats[i], given_principal)]
    rows = [
        {**r.to_dict(), **flat, "score": s}
        for r, flat, s in zip(tagged, flats, scores, strict=True)
    ]
    lines = "".join(json.dumps(row) + "\n" for row in rows).encode()
    kept = _lines([tagged[i] for i in keep], [scores[i] for i in keep])
    _packs_as_readable(capsys, lines, kept, budget, merge, given_principal)
