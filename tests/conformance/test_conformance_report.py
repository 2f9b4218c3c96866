"""The conformance kit's reports (CONF-9, CONF-12), written from hand-made results.

Each test builds a :class:`Summary` literally and compares the whole report (text, JSON
Lines records, JUnit XML tree) with what docs/spec/conformance.md and docs/conformance.md
say it holds, so that a renamed key, a lost line or a changed limit shows.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from chunkspec import __version__
from chunkspec._conformance._compare import Verdict, judge
from chunkspec._conformance._port import Answer, Hello
from chunkspec._conformance._report import (
    _short,
    _xml_safe,
    describe,
    human,
    jsonl,
    junit,
    save_failures,
)
from chunkspec._conformance._runner import Result, Summary
from chunkspec._conformance._vectors import export, vector_files


def _result(
    cid: str,
    op: str,
    source: str,
    status: str,
    verdict: Verdict,
    **extra: Any,
) -> Result:
    r = Result(cid, op, source, extra.pop("rules", []), extra.pop("input", {"n": 1}), {}, verdict)
    r.expected = extra.pop("expected", {"ok": "w0"})
    r.status = status
    for key, value in extra.items():
        setattr(r, key, value)
    return r


# -- _short ------------------------------------------------------------------------------------


def test_short_keeps_up_to_the_limit_and_cuts_beyond() -> None:
    """CONF-9: values are shown as ASCII JSON, cut to 160 characters with "..."."""
    exact = "x" * 158  # JSON '"xxx...x"' is 160 characters
    assert _short(exact) == json.dumps(exact)
    over = "x" * 159  # 161 characters: cut to 157 and "..."
    assert _short(over) == '"' + "x" * 156 + "..."
    assert len(_short(over)) == 160
    assert _short("\u00e9\ufeff") == '"\\u00e9\\ufeff"'
    assert _short(None) == "null"
    assert _short("abcdef", limit=5) == '"a...'


# -- describe ----------------------------------------------------------------------------------


def test_describe_shows_every_part_of_a_failure() -> None:
    """CONF-9: id, source and profile, case rules, blamed rules and why, input, the first
    difference, the message, the diff (40 lines) and the stderr tail (15 lines)."""
    diff = "\n".join(f"d{k}" for k in range(45))
    stderr = "\n".join(f"e{k}" for k in range(20)) + "\n\n"
    verdict = Verdict(
        "wrong",
        field="$[0].text",
        expected="a\u00e9",
        actual="b",
        diff=diff,
        message="a message",
        stderr=stderr,
    )
    r = _result(
        "gen-portable-words-0123",
        "words",
        "shrunk",
        "fail",
        verdict,
        rules=["WORDS-1", "WORDS-2"],
        blamed=["TOK-1", "WS-1"],
        explanation="why so",
        profile="portable",
        input={"n": "y" * 500},
    )
    got = describe(r).split("\n")
    shown_input = json.dumps({"n": "y" * 500})[:397] + "..."
    assert got[:6] == [
        "FAIL wrong: words gen-portable-words-0123 (shrunk, portable)",
        "  case rules: WORDS-1, WORDS-2",
        "  blamed: TOK-1, WS-1: why so",
        f"  input: {shown_input}",
        '  first difference at $[0].text: expected "a\\u00e9", got "b"',
        "  a message",
    ]
    assert got[6:46] == [f"  d{k}" for k in range(40)]
    assert got[46] == "  port stderr (tail):"
    assert got[47:] == [f"    e{k}" for k in range(5, 20)]


def test_describe_leaves_out_what_a_failure_lacks() -> None:
    """CONF-9: a vector failure without profile, blame, field, message, diff or stderr."""
    r = _result("three", "words", "vector", "fail", Verdict("crash", stderr=" \n"))
    assert describe(r) == 'FAIL crash: words three (vector)\n  input: {"n": 1}'


def test_describe_cuts_long_expected_and_actual_values() -> None:
    """CONF-9: the values at the first difference are cut at 160 characters each."""
    r = _result("c", "words", "vector", "fail", Verdict("wrong", "$", "p" * 300, "q" * 300))
    line = describe(r).split("\n")[2]
    assert line == f'  first difference at $: expected "{"p" * 156}..., got "{"q" * 156}...'


# -- JSON Lines --------------------------------------------------------------------------------


def _summary() -> Summary:
    """Vector pass, fail, xfail, skip and n/a results, a generated failure and a key with
    no failure, and an unexpected pass."""
    fail = Verdict("wrong", "$", "w0", "w0 ", diff="-a\n+b", message="m", stderr="s", answer="w0 ")
    results = [
        _result("ok-case", "words", "vector", "pass", Verdict("pass"), rules=["WORDS-1"]),
        _result(
            "bad-case",
            "words",
            "vector",
            "fail",
            fail,
            rules=["WORDS-1"],
            blamed=["WORDS-1", "WS-1"],
            explanation="first difference at $",
            hazard="HAZ-1",
            input={"n": 1, "word": "\u00e9"},
        ),
        _result(
            "known",
            "count_tokens",
            "vector",
            "xfail",
            Verdict("wrong", "$", 1, 2, diff="d", message="", stderr=""),
            rules=["TOK-1"],
            expected={"ok": 1},
        ),
        _result("skip-case", "render", "vector", "skip", Verdict("skipped", message="no render")),
        _result("na-case", "assemble", "vector", "n/a", Verdict("n/a", message="needs x")),
        _result(
            "gen-hazards-words-abc",
            "words",
            "generated",
            "fail",
            Verdict("timeout", message="no answer within 5 s", stderr="late"),
            profile="hazards",
        ),
    ]
    return Summary(
        hello=Hello("my-port", "2.1", ["words"]),
        results=results,
        generated={"hazards/words": 30, "portable/hash_text": 7},
        drawn={"hazards/words": 41, "portable/hash_text": 7},
        op_seconds={"hazards/words": 2.0, "portable/hash_text": 0.5},
        shrink_calls=4,
        seconds=2.0,
        generated_seconds=3.0,
        restarts=2,
        unexpected_passes=["gone-*"],
    )


def test_jsonl_records_every_field(tmp_path: Path) -> None:
    """CONF-12: one ASCII JSON line per result (the failure fields for fail and xfail),
    then the summary line with counts, cases per op, cases per second, restarts."""
    path = tmp_path / "r.jsonl"
    jsonl(_summary(), path)
    raw = path.read_bytes()
    assert raw.isascii()
    lines = [json.loads(line) for line in raw.decode("ascii").splitlines()]
    assert len(lines) == 7
    assert lines[0] == {
        "id": "ok-case",
        "op": "words",
        "source": "vector",
        "status": "pass",
        "outcome": "pass",
        "rules": ["WORDS-1"],
    }
    assert lines[1] == {
        "id": "bad-case",
        "op": "words",
        "source": "vector",
        "status": "fail",
        "outcome": "wrong",
        "rules": ["WORDS-1"],
        "hazard": "HAZ-1",
        "blamed": ["WORDS-1", "WS-1"],
        "explanation": "first difference at $",
        "input": {"n": 1, "word": "\u00e9"},
        "expected": {"ok": "w0"},
        "field": "$",
        "expected_value": "w0",
        "actual_value": "w0 ",
        "message": "m",
        "diff": "-a\n+b",
        "stderr": "s",
    }
    assert '"word": "\\u00e9"' in raw.decode("ascii").splitlines()[1]
    assert lines[2] == {
        "id": "known",
        "op": "count_tokens",
        "source": "vector",
        "status": "xfail",
        "outcome": "wrong",
        "rules": ["TOK-1"],
        "blamed": [],
        "explanation": "",
        "input": {"n": 1},
        "expected": {"ok": 1},
        "field": "$",
        "expected_value": 1,
        "actual_value": 2,
        "message": "",
        "diff": "d",
        "stderr": "",
    }
    assert lines[3]["status"] == "skip"
    assert "message" not in lines[3]
    assert lines[4] == {
        "id": "na-case",
        "op": "assemble",
        "source": "vector",
        "status": "n/a",
        "outcome": "n/a",
        "rules": [],
    }
    assert lines[5]["profile"] == "hazards"
    assert (lines[5]["outcome"], lines[5]["stderr"]) == ("timeout", "late")
    assert lines[6] == {
        "summary": {
            "port": {"name": "my-port", "version": "2.1"},
            "counts": {"pass": 1, "fail": 2, "xfail": 1, "skip": 1, "n/a": 1},
            "generated": {"hazards/words": 30, "portable/hash_text": 7},
            "drawn": {"hazards/words": 41, "portable/hash_text": 7},
            "per_op": {
                "hazards/words": {
                    "distinct": 30,
                    "drawn": 41,
                    "seconds": 2.0,
                    "cases_per_second": 15.0,
                },
                "portable/hash_text": {
                    "distinct": 7,
                    "drawn": 7,
                    "seconds": 0.5,
                    "cases_per_second": 14.0,
                },
            },
            "cases_per_second": 12.3,
            "shrink_calls": 4,
            "restarts": 2,
            "unexpected_passes": ["gone-*"],
            "exit_status": 1,
        }
    }


# -- JUnit XML ---------------------------------------------------------------------------------


def _tree(element: ET.Element) -> Any:
    """An element as (tag, attributes, text, children), recursively."""
    return (
        element.tag,
        dict(element.attrib),
        (element.text or "").strip(),
        [_tree(child) for child in element],
    )


def test_junit_suites_cases_failures_and_skips(tmp_path: Path) -> None:
    """CONF-12: a testsuite per function for vectors and per profile and op for generated
    cases; failures typed by outcome with the blamed (else the case's) rules; skip, n/a and
    xfail as skipped; a generated op without failures as one passing testcase; unexpected
    passes as failures; per-suite counts."""
    summary = _summary()
    path = tmp_path / "r.xml"
    junit(summary, path)
    assert path.read_bytes().startswith(b"<?xml version='1.0' encoding='utf-8'?>")
    root = ET.parse(path).getroot()
    bad, timeout = summary.results[1], summary.results[5]
    assert _tree(root) == (
        "testsuites",
        {"name": "chunkspec conformance"},
        "",
        [
            (
                "testsuite",
                {"name": "vectors.words", "tests": "2", "failures": "1", "skipped": "0"},
                "",
                [
                    (
                        "testcase",
                        {"classname": "vectors.words", "name": "ok-case"},
                        "",
                        [],
                    ),
                    (
                        "testcase",
                        {"classname": "vectors.words", "name": "bad-case"},
                        "",
                        [
                            (
                                "failure",
                                {"type": "wrong", "message": "WORDS-1, WS-1"},
                                describe(bad),
                                [],
                            )
                        ],
                    ),
                ],
            ),
            (
                "testsuite",
                {
                    "name": "vectors.count_tokens",
                    "tests": "1",
                    "failures": "0",
                    "skipped": "1",
                },
                "",
                [
                    (
                        "testcase",
                        {"classname": "vectors.count_tokens", "name": "known"},
                        "",
                        [("skipped", {"message": "xfail: "}, "", [])],
                    )
                ],
            ),
            (
                "testsuite",
                {"name": "vectors.render", "tests": "1", "failures": "0", "skipped": "1"},
                "",
                [
                    (
                        "testcase",
                        {"classname": "vectors.render", "name": "skip-case"},
                        "",
                        [("skipped", {"message": "skip: no render"}, "", [])],
                    )
                ],
            ),
            (
                "testsuite",
                {"name": "vectors.assemble", "tests": "1", "failures": "0", "skipped": "1"},
                "",
                [
                    (
                        "testcase",
                        {"classname": "vectors.assemble", "name": "na-case"},
                        "",
                        [("skipped", {"message": "n/a: needs x"}, "", [])],
                    )
                ],
            ),
            (
                "testsuite",
                {
                    "name": "generated.hazards.words",
                    "tests": "1",
                    "failures": "1",
                    "skipped": "0",
                },
                "",
                [
                    (
                        "testcase",
                        {
                            "classname": "generated.hazards.words",
                            "name": "gen-hazards-words-abc",
                        },
                        "",
                        [
                            (
                                "failure",
                                {"type": "timeout", "message": ""},
                                describe(timeout),
                                [],
                            )
                        ],
                    )
                ],
            ),
            (
                "testsuite",
                {
                    "name": "generated.portable.hash_text",
                    "tests": "1",
                    "failures": "0",
                    "skipped": "0",
                },
                "",
                [
                    (
                        "testcase",
                        {
                            "classname": "generated.portable.hash_text",
                            "name": "7 generated cases",
                        },
                        "",
                        [],
                    )
                ],
            ),
            (
                "testsuite",
                {"name": "expected-failures", "tests": "1", "failures": "1", "skipped": "0"},
                "",
                [
                    (
                        "testcase",
                        {"name": "gone-*"},
                        "",
                        [("failure", {"type": "unexpected-pass", "message": "gone-*"}, "", [])],
                    )
                ],
            ),
        ],
    )


def test_junit_failure_message_falls_back_to_the_case_rules(tmp_path: Path) -> None:
    """CONF-12: a failure with nothing blamed carries the case's own rules."""
    r = _result("v", "words", "vector", "fail", Verdict("crash"), rules=["WORDS-1", "WORDS-2"])
    summary = Summary(hello=Hello("p", "1", ["words"]), results=[r])
    junit(summary, tmp_path / "r.xml")
    failure = ET.parse(tmp_path / "r.xml").getroot().find("testsuite/testcase/failure")
    assert failure is not None
    assert failure.get("message") == "WORDS-1, WORDS-2"


def test_junit_counts_a_generated_op_once_its_profile_matches(tmp_path: Path) -> None:
    """CONF-12: the "N generated cases" testcase is left out only for the op and profile
    that already have a failure listed."""
    failed = _result(
        "gen-portable-words-1", "words", "generated", "fail", Verdict("crash"), profile="portable"
    )
    summary = Summary(
        hello=Hello("p", "1", ["words", "render"]),
        results=[failed],
        generated={"portable/words": 5, "hazards/words": 6, "portable/render": 7},
    )
    junit(summary, tmp_path / "r.xml")
    root = ET.parse(tmp_path / "r.xml").getroot()
    names = {
        s.get("name"): [c.get("name") for c in s.findall("testcase")]
        for s in root.findall("testsuite")
    }
    assert names == {
        "generated.portable.words": ["gen-portable-words-1"],
        "generated.hazards.words": ["6 generated cases"],
        "generated.portable.render": ["7 generated cases"],
    }


# -- messages ----------------------------------------------------------------------------------


def test_rejected_message_names_kind_argument_and_message() -> None:
    """CONF-8: an error on a valid input is reported as ``Kind(argument): message``."""
    error = {"kind": "TypeError", "argument": "n", "message": "bad n"}
    verdict = judge({"ok": 1}, Answer("error", error))
    assert verdict.message == "port raised TypeError(n): bad n on a valid input"
    verdict = judge({"ok": 1}, Answer("error", {"kind": "ValueError"}))
    assert verdict.message == "port raised ValueError():  on a valid input"
    verdict = judge({"ok": 1}, Answer("error", ["x"]))
    assert verdict.message == "port raised ['x'] on a valid input"


# -- vectors export ----------------------------------------------------------------------------


def test_export_creates_missing_parents_and_writes_lf(tmp_path: Path) -> None:
    """CONF-1: ``export`` creates the directory with its parents; files are the exact
    texts, with LF line ends."""
    target = tmp_path / "a" / "b"
    files = export(target)
    assert files == vector_files()
    for name, text in files.items():
        assert text.isascii(), name  # so the files are the same bytes in any encoding
        assert (target / name).read_bytes() == text.encode("utf-8")


def test_diff_is_sorted_ascii_json_with_headers() -> None:
    """CONF-9: the diff compares whole answers as pretty JSON with sorted keys and every
    non-ASCII character escaped, under "expected" / "actual" headers."""
    verdict = judge({"ok": {"b": 1, "a": "\u00e9"}}, Answer("ok", {"b": 2, "a": "\u00e9"}))
    assert verdict.diff == "\n".join(
        [
            "--- expected",
            "+++ actual",
            "@@ -1,4 +1,4 @@",
            " {",
            '  "a": "\\u00e9",',
            '- "b": 1',
            '+ "b": 2',
            " }",
        ]
    )


def test_xml_safe_escapes_exactly_what_xml_cannot_hold() -> None:
    """CONF-12: JUnit text keeps tab, LF, CR, U+0020..U+D7FF, U+E000..U+FFFD and astral
    characters, and writes every other code point as a visible ``\\uXXXX``."""
    text = "a\tb\n\r \x00\x1f\ud7ff\ud800\udfff\ue000\ufffd\ufffe\uffff\U00010000X"
    assert _xml_safe(text) == (
        "a\tb\n\r \\u0000\\u001f\ud7ff\\ud800\\udfff\ue000\ufffd\\ufffe\\uffff\U00010000X"
    )


def test_human_summary_lists_failures_unexpected_passes_and_figures() -> None:
    """CONF-12: each failure, each unexpected pass, a line per profile with each op's
    distinct and drawn cases and rate, then one line with the figures."""
    summary = _summary()
    lines = human(summary).split("\n")
    assert lines[-4:] == [
        "UNEXPECTED PASS: expected failure 'gone-*' passed; remove it from the file",
        "generated, hazards (distinct/drawn, cases per second): words 30/41 (15/s)",
        "generated, portable (distinct/drawn, cases per second): hash_text 7/7 (14/s)",
        "chunkspec conformance: my-port 2.1: 5 vectors, 37 generated cases "
        "(distinct, of 48 drawn) (12 cases/s), 4 shrink calls, 2 restarts; "
        "fail 2, n/a 1, pass 1, skip 1, xfail 1; FAILED in 2.0 s",
    ]
    assert human(summary).startswith(describe(summary.results[1]) + "\n")


def test_save_failures_writes_generated_and_shrunk_cases_with_provenance(tmp_path: Path) -> None:
    """CONF-11: failing generated and shrunk cases become vectors (``counterexample-`` ids,
    blamed rules, the oracle's output or error) with provenance; a second save into the
    same directory keeps them once."""
    first = _result(
        "gen-portable-words-1",
        "words",
        "generated",
        "fail",
        Verdict("wrong", "$", "w0", "w0 "),
        blamed=["WORDS-1"],
        explanation="first difference at $",
        profile="portable",
    )
    shrunk = _result(
        "gen-portable-words-2",
        "words",
        "shrunk",
        "fail",
        Verdict("wrong", "error", {"kind": "ValueError", "argument": "n"}, "w0"),
        input={"n": -1},
        expected={"error": {"kind": "ValueError", "argument": "n"}},
        profile="portable",
    )
    vector = _result("three", "words", "vector", "fail", Verdict("wrong", "$", "a", "b"))
    summary = Summary(hello=Hello("my-port", "2.1", ["words"]), results=[vector, first, shrunk])
    target = tmp_path / "a" / "b"
    assert save_failures(summary, target, 7) == [target / "words.json"]
    assert save_failures(summary, target, 7) == [target / "words.json"]
    raw = (target / "words.json").read_bytes()
    assert raw.isascii()
    data = json.loads(raw)
    dates = [case["provenance"].pop("date") for case in data["cases"]]
    for date in dates:
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", date), date
    provenance = {
        "found_by": f"chunkspec conformance {__version__}",
        "port": {"name": "my-port", "version": "2.1"},
        "profile": "portable",
        "seed": 7,
    }
    assert data == {
        "$schema": "vectors.schema.json",
        "format": 1,
        "suite_version": __version__,
        "function": "words",
        "cases": [
            {
                "id": "counterexample-portable-words-1",
                "rules": ["WORDS-1"],
                "input": {"n": 1},
                "output": "w0",
                "source": "counterexample",
                "provenance": {
                    **provenance,
                    "shrunk": False,
                    "outcome": "wrong",
                    "port_answer": "w0 ",
                    "explanation": "first difference at $",
                },
            },
            {
                "id": "counterexample-portable-words-2",
                "rules": ["CONF-10"],
                "input": {"n": -1},
                "error": {"kind": "ValueError", "argument": "n"},
                "source": "counterexample",
                "provenance": {
                    **provenance,
                    "shrunk": True,
                    "outcome": "wrong",
                    "port_answer": "w0",
                    "explanation": "",
                },
            },
        ],
    }
