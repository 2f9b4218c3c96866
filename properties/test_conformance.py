"""Properties of the conformance kit (docs/spec/conformance.md): wire, judging, blame, runs."""

from __future__ import annotations

import fnmatch
import hashlib
import json
import math
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from tests.conformance.input_classes import CLASSES

from chunkspec import split_section
from chunkspec._conformance._blame import _assemble_model, _chunks, _split_model, blame, mistakes
from chunkspec._conformance._compare import Verdict, first_difference, judge
from chunkspec._conformance._draw import draws
from chunkspec._conformance._generate import PROFILES, by_op, cases
from chunkspec._conformance._oracle import expect
from chunkspec._conformance._port import Answer, Hello, Port
from chunkspec._conformance._produce import canonical
from chunkspec._conformance._rules import _CHECKS
from chunkspec._conformance._runner import Result, Summary, _apply_expected_failures
from chunkspec._conformance._vectors import _case, manifest, rules_index
from chunkspec._conformance._wire import _encode, dumps, encode, python_arguments
from chunkspec._records._schema import record_json_schema

profiles = st.sampled_from(["portable", "hazards"])
any_case = profiles.flatmap(cases)
json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=4)
    | st.floats(allow_nan=False, allow_infinity=False)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=8,
)


@given(
    st.dictionaries(st.text("abc.json", min_size=1, max_size=8), st.text(max_size=20), min_size=1)
)
def test_manifest_hashes_each_file(files: dict[str, str]) -> None:
    """CONF-1: every file's SHA-256 is listed, and the content hash covers them all."""
    files = {name: json.dumps({"cases": [text]}) for name, text in files.items()}
    got = json.loads(manifest(files))
    lines = "".join(
        f"{name}\0{hashlib.sha256(files[name].encode()).hexdigest()}\n" for name in sorted(files)
    )
    assert got["content_hash"] == hashlib.sha256(lines.encode()).hexdigest()
    assert got["cases"] == len(files)
    for name, text in files.items():
        assert got["files"][name]["sha256"] == hashlib.sha256(text.encode()).hexdigest()


@given(by_op("portable")["split_section"] | by_op("hazards")["split_section"])
def test_expanded_split_goldens_equal_chunkspec(case: tuple[str, dict[str, Any]]) -> None:
    """CONF-2: a golden split_section case ({text, tokens} per chunk) expands to exactly the
    chunks chunkspec returns."""
    _, data = case
    expected = expect("split_section", data)
    if "error" in expected:
        return
    chunks = split_section(**python_arguments("split_section", data))
    golden = {
        "id": "x",
        "rules": ["SPLIT-9"],
        "input": data,
        "output": [{"text": c.text, "tokens": c.tokens} for c in chunks],
    }
    vector = _case("split_section", golden, "golden")
    assert vector is not None
    assert vector["output"] == expected["ok"]


@given(any_case)
def test_wire_requests_are_ascii_json_that_round_trip(case: tuple[str, dict[str, Any]]) -> None:
    """CONF-3: every generated request is one ASCII JSON line that decodes to itself."""
    op, data = case
    line = dumps({"id": 1, "op": op, "input": data})
    assert line.isascii()
    assert "\n" not in line
    back = json.loads(line)["input"]
    assert first_difference(data, back) is None


@given(json_values)
def test_a_value_never_differs_from_itself(value: Any) -> None:
    """CONF-3: equal JSON values have no first difference; numbers compare by value."""
    assert first_difference(value, json.loads(json.dumps(value))) is None
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**53:
        assert first_difference(value, float(value)) is None


@pytest.fixture(scope="module")
def port() -> Iterator[Port]:
    """chunkspec itself behind the protocol (tests/conformance_port.py), for the module."""
    process = Port(
        [sys.executable, str(Path(__file__).parents[1] / "tests" / "conformance_port.py")]
    )
    process.start()
    yield process
    process.stop()


#: Each example is a round trip to the Node port process: 300 keep the two protocol
#: properties under a minute in the gate; `nox -s conformance` sends thousands more.
_ROUND_TRIPS = settings(max_examples=300, deadline=None)


@_ROUND_TRIPS
@given(batch=st.lists(any_case, min_size=1, max_size=30))
def test_port_answers_each_request_once_in_order(
    port: Port, batch: list[tuple[str, dict[str, Any]]]
) -> None:
    """CONF-4: the harness gets one answer per request, in order, each the port's answer."""
    answers = port.run(batch, window=7)
    assert len(answers) == len(batch)
    for (op, data), answer in zip(batch, answers, strict=True):
        assert answer.kind in ("ok", "error")
        assert judge(expect(op, data), answer).outcome == "pass"


@given(
    st.sampled_from(["max_tokens", "budget", "tokens", "n", "start"]),
    st.floats(allow_nan=False, allow_infinity=False) | st.integers(),
)
def test_needs_marks_exactly_integral_floats(field: str, value: float | int) -> None:
    """CONF-5: a case needs int-float-distinction iff an int field holds an integral float
    other than -0.0."""
    raw = {"id": "c", "rules": ["CONF-5"], "input": {field: value}, "output": None}
    case = _case("words", raw, "golden")
    assert case is not None
    needs = case.get("needs", [])
    negative_zero = value == 0 and math.copysign(1.0, value) < 0
    integral = isinstance(value, float) and value.is_integer() and not negative_zero
    assert (needs == ["int-float-distinction"]) == integral


errors = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(["TypeError", "ValueError"]),
        "argument": st.sampled_from(["n", "budget", "chunks[0].score"]),
    }
)


@given(
    errors,
    st.sampled_from(["TypeError", "ValueError", "Error"]),
    st.none() | st.sampled_from(["n", "budget", "chunks[0].score"]),
)
def test_errors_match_by_kind_and_named_argument(
    want: dict[str, str], kind: str, argument: str | None
) -> None:
    """CONF-6: an error passes iff the kind matches and a named argument matches."""
    got: dict[str, Any] = {"kind": kind, "message": "m"}
    if argument is not None:
        got["argument"] = argument
    outcome = judge({"error": want}, Answer("error", got)).outcome
    ok = kind == want["kind"] and argument in (None, want["argument"])
    assert outcome == ("pass" if ok else "wrong")


@given(st.binary(max_size=60), st.integers(1, 5))
def test_anything_but_a_well_formed_answer_is_a_crash(line: bytes, rid: int) -> None:
    """CONF-7: a line that is not a JSON answer with the request's id is a crash."""
    answer = Port(["unused"])._parse(line, rid)
    try:
        parsed = json.loads(line)
    except ValueError:
        parsed = None
    well_formed = (
        isinstance(parsed, dict)
        and parsed.get("id") == rid
        and any(k in parsed for k in ("ok", "error", "skipped"))
    )
    assert (answer.kind != "crash") == well_formed


@given(
    st.sampled_from([{"ok": 1}, {"error": {"kind": "TypeError", "argument": "n"}}]),
    st.sampled_from(["ok", "error", "skipped", "crash", "timeout"]),
)
def test_outcome_depends_on_answer_kind(expected: dict[str, Any], kind: str) -> None:
    """CONF-8: crash, timeout and skipped are their own outcomes; an error on a valid input
    is rejected; an answer where an error is due is wrong."""
    value: Any = {"kind": "ValueError", "message": "m"} if kind == "error" else 2
    outcome = judge(expected, Answer(kind, value)).outcome
    if kind in ("crash", "timeout"):
        assert outcome == kind
    elif kind == "skipped":
        assert outcome == "skipped"
    elif "ok" in expected:
        assert outcome == ("rejected" if kind == "error" else "wrong")
    else:
        assert outcome == "wrong"


@given(by_op("hazards")["assemble"])
def test_utf16_order_is_blamed_on_pack_2(case: tuple[str, dict[str, Any]]) -> None:
    """CONF-9: whenever UTF-16 id order changes assemble's answer, the kit blames PACK-2."""
    _, data = case
    expected = expect("assemble", data)
    if "error" in expected:
        return
    wrong = _assemble_model(data, key="utf-16")
    verdict = judge(expected, Answer("ok", wrong))
    if verdict.outcome == "pass":
        return
    rules, why = blame("assemble", data, expected, "wrong", verdict.field, wrong)
    assert "PACK-2" in rules, why


@given(any_case)
def test_generated_cases_get_an_answer_or_a_named_error(case: tuple[str, dict[str, Any]]) -> None:
    """CONF-10: every generated case is a valid request the oracle answers, or rejects with
    a TypeError/ValueError (bad arguments are drawn on purpose)."""
    op, data = case
    got = expect(op, data)
    assert ("ok" in got) != ("error" in got)
    if "error" in got and got["error"]["argument"] is not None:
        assert got["error"]["kind"] in ("TypeError", "ValueError")


_STATUSES = st.sampled_from(["pass", "fail"])


@given(
    st.lists(st.tuples(st.sampled_from(["a1", "a2", "b1"]), _STATUSES), max_size=6),
    st.lists(st.sampled_from(["a1", "a*", "b*", "c"]), max_size=3),
)
def test_expected_failures_model(cases_: list[tuple[str, str]], patterns: list[str]) -> None:
    """CONF-11: matching failures become xfail; a pattern whose cases all pass is an
    unexpected pass; a pattern matching nothing is neither."""
    summary = Summary(hello=Hello("p", "1", []))
    summary.results = [
        Result(cid, "words", "vector", ["WORDS-1"], {}, {"ok": ""}, Verdict(status), status)
        for cid, status in cases_
    ]
    _apply_expected_failures(summary, patterns)
    for (cid, status), result in zip(cases_, summary.results, strict=True):
        listed = any(fnmatch.fnmatchcase(cid, p) for p in patterns)
        assert result.status == ("xfail" if listed and status == "fail" else status)
    for pattern in patterns:
        matched = [s for cid, s in cases_ if fnmatch.fnmatchcase(cid, pattern)]
        unexpected = bool(matched) and "fail" not in matched
        assert (pattern in summary.unexpected_passes) == unexpected


@given(
    st.lists(st.sampled_from(["pass", "fail", "skip", "n/a", "xfail"]), max_size=6),
    st.booleans(),
    st.booleans(),
)
def test_exit_status(statuses: list[str], allow_skips: bool, xpass: bool) -> None:
    """CONF-12: exit status 1 iff a case failed, a skip was not allowed, or an expected
    failure passed."""
    summary = Summary(hello=Hello("p", "1", []), allow_skips=allow_skips)
    summary.results = [
        Result("c", "words", "vector", [], {}, {"ok": ""}, Verdict(s), s) for s in statuses
    ]
    summary.unexpected_passes = ["x"] if xpass else []
    bad = "fail" in statuses or ("skip" in statuses and not allow_skips) or xpass
    assert summary.exit_status == (1 if bad else 0)


@_ROUND_TRIPS
@given(batches=st.lists(st.lists(any_case, min_size=1, max_size=4), min_size=1, max_size=8))
def test_pipelined_batches_keep_their_order(
    port: Port, batches: list[list[tuple[str, dict[str, Any]]]]
) -> None:
    """CONF-4: batches submitted before any is collected are answered in order (a writer
    thread per batch once reordered them)."""
    for batch in batches:
        port.submit(batch)
    for batch in batches:
        answers = port.collect()
        assert len(answers) == len(batch)
        for (op, data), answer in zip(batch, answers, strict=True):
            assert judge(expect(op, data), answer).outcome == "pass"


@given(by_op("portable")["split_section"] | by_op("hazards")["split_section"])
def test_blame_split_model_without_a_mistake_is_chunkspec(case: tuple[str, dict[str, Any]]) -> None:
    """CONF-9: blame's literal split_section model, with no mistake swapped in, gives
    exactly chunkspec's chunks, so only a swapped-in mistake can explain a port's answer."""
    _, data = case
    expected = expect("split_section", data)
    assume("ok" in expected)
    parts = _split_model(data["text"], data["max_tokens"])
    assert _chunks(data, parts) == expected["ok"]


@given(by_op("portable")["assemble"] | by_op("hazards")["assemble"])
def test_blame_assemble_model_without_a_mistake_is_chunkspec(
    case: tuple[str, dict[str, Any]],
) -> None:
    """CONF-9: blame's literal assemble model, with no mistake swapped in, gives exactly
    chunkspec's answer."""
    _, data = case
    expected = expect("assemble", data)
    assume("ok" in expected)
    assert _assemble_model(data) == expected["ok"]


@given(any_case)
def test_class_tests_answer_on_every_generated_case(case: tuple[str, dict[str, Any]]) -> None:
    """CONF-13: every input class of the case's op answers True or False on it, whatever
    argument is out of range (a class test that raised would stop the coverage count)."""
    op, data = case
    for c in CLASSES[op]:
        assert c.test(data) in (True, False), c.name


@given(any_case)
def test_a_modelled_mistake_is_never_cannot_tell(case: tuple[str, dict[str, Any]]) -> None:
    """CONF-14: when a port's answer is a modelled mistake's answer, blame names a rule."""
    op, data = case
    expected = expect(op, data)
    assume("ok" in expected)
    for mistake, _rules, answer in mistakes(op, data, expected["ok"]):
        verdict = judge(expected, Answer("ok", answer))
        if verdict.outcome != "wrong":
            continue
        rules, why = blame(op, data, expected, verdict.outcome, verdict.field, verdict.answer)
        assert rules, (mistake, why)


@given(any_case)
def test_the_reference_answer_passes_every_rule_check(case: tuple[str, dict[str, Any]]) -> None:
    """CONF-9: every rule check of blame by rule holds on chunkspec's own answer (a check
    that failed there would blame a rule chunkspec keeps)."""
    op, data = case
    expected = expect(op, data)
    assume("ok" in expected)
    for rule, _what, check, _explains in _CHECKS.get(op, []):
        assert check(data, expected["ok"]), rule


_LEAVES = st.sampled_from(
    [0, 0.0, -0.0, 1, 1.0, 2.5, True, False, None, "", "0", "a", 2**53, 2.0**53]
)
_JSONISH = st.recursive(
    _LEAVES,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("ab"), inner, max_size=2)
    ),
    max_leaves=6,
)


_OPS = sorted(by_op("portable"))


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(PROFILES), st.sampled_from(_OPS), st.text(max_size=8))
def test_a_seed_draws_the_same_cases_with_or_without_records(
    profile: str, op: str, seed: str
) -> None:
    """CONF-19: under any seed, an op's first cases drawn without recording choices are
    those plain ConjectureData draws from the same source (model: plain ConjectureData)."""
    strategy = by_op(profile)[op]
    bare, plain = draws(strategy, seed), draws(strategy, seed, bare=False)
    assert bare is not None
    assert plain is not None
    assert [next(bare) for _ in range(8)] == [next(plain) for _ in range(8)]


_WIRE_LEAVES = st.sampled_from(
    [0, 1, -0.0, 2.5, math.inf, -math.inf, math.nan, True, None, "", "a"]
)
_WIRE_VALUES = st.recursive(
    _WIRE_LEAVES,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(st.sampled_from("ab"), inner, max_size=2)
    ),
    max_leaves=8,
)


@given(_WIRE_VALUES)
def test_encode_is_the_general_walk(value: Any) -> None:
    """CONF-3: the oracle's encoder, with its fast path for plain dicts and lists, writes
    what the general walk writes (model: ``_encode``, a type test per value)."""
    assert dumps(encode(value)) == dumps(_encode(value))


@given(_JSONISH, _JSONISH)
def test_canonical_text_passes_only_equal_answers(expected: Any, actual: Any) -> None:
    """CONF-16: an answer whose JSON text is the oracle's canonical text is equal to it by
    CONF-3 (the fast path never passes a wrong answer), and the canonical text itself, read
    back, is always equal (it never fails a right one)."""
    same = canonical(expected)
    assert same is not None
    assert first_difference(expected, json.loads(same)) is None
    if dumps(actual) == same:
        assert first_difference(expected, actual) is None


@given(st.lists(any_case, min_size=2, max_size=5))
def test_a_batch_message_carries_each_case_as_sent(batch: list[tuple[str, dict[str, Any]]]) -> None:
    """CONF-15: under protocol 2 the kit writes a batch as one JSON line whose requests are
    the cases' ops and inputs, in order, and whose id is the first case's."""
    port = Port(["unused"])
    written: list[str] = []
    port._write_async = written.extend  # type: ignore[method-assign,assignment]
    port._proc = _Alive()  # type: ignore[assignment]
    port.protocol = 2
    port.submit(batch)
    (line,) = written
    assert line.isascii()
    message = json.loads(line)
    assert message["id"] == 1
    assert message["op"] == "batch"
    assert [(r["op"], r["input"]) for r in message["input"]["requests"]] == [
        (op, json.loads(dumps(data))) for op, data in batch
    ]


class _Alive:
    """A stand-in process that is running."""

    def poll(self) -> None:
        """Still running."""


_FIELD_VALUES: st.SearchStrategy[Any] = st.sampled_from(
    [None, True, 0, -1, 1.5, 2**53, "", "x", "d:0", [], ["a"], [1], {}]
)


@given(st.sampled_from(sorted(record_json_schema()["properties"])), _FIELD_VALUES, st.booleans())
def test_validate_record_is_the_json_schema(field: str, value: Any, drop: bool) -> None:
    """CONF-17: chunkspec's validate_record answer is the JSON Schema's, on a record
    chunkspec writes with any one field changed or dropped."""
    import jsonschema

    base = expect(
        "chunk", {"doc_id": "d", "title": "T", "text": "a b", "max_tokens": 2, "overlap_tokens": 0}
    )["ok"][0]
    record = {k: v for k, v in base.items() if k != field} if drop else {**base, field: value}
    valid = jsonschema.Draft202012Validator(record_json_schema()).is_valid(record)
    assert expect("validate_record", {"record": record}) == {"ok": valid}


@given(
    st.dictionaries(
        st.sampled_from(["a.json", "b.json"]),
        st.lists(
            st.fixed_dictionaries(
                {"rules": st.lists(st.sampled_from(["WS-1", "PAGE-9", "PAGE-10", "RECORD-7"]))}
            ),
            max_size=4,
        ),
    )
)
def test_rules_index_lists_exactly_the_cited_rules(cases: dict[str, list[dict[str, Any]]]) -> None:
    """CONF-18: a file's index entry is every rule its cases cite, each once, PAGE-9 before
    PAGE-10."""
    index = rules_index(cases)
    for name, file_cases in cases.items():
        assert set(index[name]) == {r for c in file_cases for r in c["rules"]}
        assert len(index[name]) == len(set(index[name]))
        if "PAGE-9" in index[name] and "PAGE-10" in index[name]:
            assert index[name].index("PAGE-9") < index[name].index("PAGE-10")
