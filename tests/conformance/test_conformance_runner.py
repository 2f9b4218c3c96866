"""The protocol harness and the runner, against a Python port that can misbehave on demand."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from chunkspec._cli import main
from chunkspec._conformance import load_vectors
from chunkspec._conformance._generate import by_op
from chunkspec._conformance._port import Port, PortError
from chunkspec._conformance._runner import Options, run
from chunkspec._conformance._vectors import vector_files

PORT = str(Path(__file__).parents[1].joinpath("conformance_port.py"))


def port(*modes: str) -> list[str]:
    """The command line of the test port with ``modes``."""
    return [sys.executable, PORT, *modes]


def options(*modes: str, **kwargs: Any) -> Options:
    """Runner options for the test port: few generated cases, short timeouts."""
    settings: dict[str, Any] = {"cases": 60, "timeout": 2.0, "shrink_seconds": 5.0}
    settings.update(kwargs)
    return Options(command=port(*modes), **settings)


def test_hello_names_the_port_and_its_ops() -> None:
    """CONF-4: the hello exchange gives protocol, name, version, ops and features."""
    p = Port(port("features=int-float-distinction"))
    hello = p.start()
    try:
        assert hello.name == "python-test-port"
        assert hello.version == "1.0"
        assert "split_section" in hello.ops
        assert hello.features == ["int-float-distinction"]
        (answer,) = p.run([("count_tokens", {"text": "a b"})])
        assert (answer.kind, answer.value) == ("ok", 2)
    finally:
        p.stop()


def test_other_protocol_version_is_refused() -> None:
    """CONF-4, CONF-15: a port speaking a protocol version the kit does not cannot be used;
    the message names the versions the kit speaks."""
    with pytest.raises(PortError, match="protocol 3, this kit speaks 1 and 2"):
        Port(port("protocol=3")).start()


def test_port_that_exits_at_start_reports_its_stderr() -> None:
    """CONF-7: a port that dies before hello is an error that quotes its stderr."""
    with pytest.raises(PortError, match="going away"):
        Port(port("no-hello")).start()


def test_missing_program_is_a_port_error() -> None:
    """CONF-12: a command that cannot start is a clear error."""
    with pytest.raises(PortError, match="cannot start"):
        Port(["/nonexistent/port-binary"]).start()


@pytest.mark.parametrize(
    ("mode", "outcome"),
    [
        ("crash-on=words", "crash"),
        ("hang-on=words", "timeout"),
        ("garbage-on=words", "crash"),
        ("wrong-id-on=words", "crash"),
        ("skip=words", "skipped"),
    ],
)
def test_each_misbehaviour_has_its_outcome_and_the_port_restarts(mode: str, outcome: str) -> None:
    """CONF-7, CONF-8: crash, timeout, protocol violation and skip are told apart; the
    port is restarted and the next cases are answered."""
    summary = run(options(mode, "stderr", cases=0, timeout=0.5))
    words = [r for r in summary.results if r.op == "words"]
    others = [r for r in summary.results if r.op != "words"]
    assert words
    assert all(r.verdict.outcome == outcome for r in words)
    assert all(r.status in ("pass", "n/a") for r in others)
    if outcome in ("crash", "timeout"):
        assert summary.restarts >= len(words)
    if mode.startswith("crash"):
        assert "crashing on words" in words[0].verdict.stderr
    assert summary.exit_status == 1


def test_correct_port_passes_vectors_and_generated_cases() -> None:
    """CONF-10: a port that is chunkspec passes everything, in both profiles."""
    summary = run(options(cases=60))
    assert summary.exit_status == 0, [r.id for r in summary.failures]
    assert sum(summary.generated.values()) >= 600
    assert {k.split("/")[0] for k in summary.generated} == {"portable", "hazards"}
    needing = sum(1 for cases in load_vectors().values() for c in cases if c.get("needs"))
    assert summary.counts()["n/a"] == needing  # int-float-distinction cases (CONF-5)


def test_declared_feature_makes_integral_float_cases_count() -> None:
    """CONF-5: a port declaring int-float-distinction gets those cases, and passes them."""
    summary = run(options("features=int-float-distinction", cases=0))
    assert "n/a" not in summary.counts()
    assert summary.exit_status == 0


def test_wrong_answer_is_found_shrunk_and_blamed() -> None:
    """CONF-9, CONF-10: a generated disagreement is shrunk and blamed on the rule."""
    summary = run(options("wrong-words", vectors=False, cases=40, profiles=("portable",)))
    failures = [r for r in summary.failures if r.op == "words"]
    assert failures
    smallest = failures[-1]
    assert smallest.blamed == ["WORDS-1"]
    assert smallest.verdict.field == "$"
    assert smallest.input == {"n": 0}  # the minimal counterexample: words(0) == ""
    assert "+" in smallest.verdict.diff


def test_expected_failures_and_unexpected_passes() -> None:
    """CONF-11: listed failures are xfail; a listed case that passes fails the run."""
    patterns = [
        "three",
        "hazard-start-near-max-safe",
        "words/*",  # op/id: a glob over every words case, some of which fail
        "no-such-case",
        "empty",
    ]  # count_tokens/empty passes: an unexpected pass; patterns matching nothing are ignored
    summary = run(options("wrong-words", cases=0, expected_failures=patterns))
    words = [r for r in summary.results if r.op == "words"]
    assert {r.status for r in words if r.id in ("three", "hazard-start-near-max-safe")} == {"xfail"}
    assert summary.unexpected_passes == ["empty"]
    assert summary.exit_status == 1
    listed = sorted({r.id for r in words if r.status == "fail"})
    summary = run(
        options(
            "wrong-words",
            cases=0,
            expected_failures=[
                r.id for r in summary.results if r.op == "words" and r.status in ("fail", "xfail")
            ],
        )
    )
    assert summary.exit_status == 0, listed


def test_cli_reports_and_saved_counterexamples(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CONF-11, CONF-12: JSON Lines, JUnit XML and saved vectors; exit status 1."""
    status = main(
        [
            "conformance",
            "-q",
            "--cases",
            "120",
            "--profile",
            "portable",
            "--seed",
            "3",
            "--jsonl",
            str(tmp_path / "r.jsonl"),
            "--junit",
            str(tmp_path / "r.xml"),
            "--save-failures",
            str(tmp_path / "saved"),
            "--port-stderr",
            str(tmp_path / "port.err"),
            "--",
            *port("wrong-words", "stderr"),
        ]
    )
    assert "port: starting up" in (tmp_path / "port.err").read_text()
    out = capsys.readouterr().out
    assert status == 1
    assert "FAIL wrong: words three (vector)" in out
    assert "case rules: WORDS-1" in out
    assert "first difference at $" in out
    lines = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert lines[-1]["summary"]["exit_status"] == 1
    failed = [x for x in lines[:-1] if x["status"] == "fail"]
    assert failed
    assert all(x["op"] == "words" and x["diff"] for x in failed)
    suites = ET.parse(tmp_path / "r.xml").getroot().findall("testsuite")
    assert sum(int(s.get("failures", "0")) for s in suites) == len(failed)
    saved = json.loads((tmp_path / "saved" / "words.json").read_text())
    schema = json.loads(vector_files()["vectors.schema.json"])
    jsonschema.validate(saved, schema)
    case = saved["cases"][-1]
    assert case["id"].startswith("counterexample-portable-words-")
    assert case["provenance"]["port"]["name"] == "python-test-port"
    assert case["provenance"]["seed"] == 3
    assert case["rules"] == ["WORDS-1"]


def test_cli_passing_port_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    """CONF-12: exit 0 and a summary with the figures."""
    assert main(["conformance", "-q", "--cases", "10", "--", *port()]) == 0
    out = capsys.readouterr().out
    assert "OK" in out
    assert "cases/s" in out


def test_cli_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    """CONF-12: no command, or a port that cannot start, is exit 2 with one line."""
    assert main(["conformance"]) == 2
    assert "give the port's command" in capsys.readouterr().err
    assert main(["conformance", "--", "/nonexistent/port"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "cannot start" in err


def test_expected_failure_can_name_the_function() -> None:
    """CONF-11: ``function/id`` picks one function's case when ids repeat across files."""
    summary = run(options(cases=0, expected_failures=["count_tokens/empty"]))
    assert summary.unexpected_passes == ["count_tokens/empty"]
    assert not [r for r in summary.results if r.status == "xfail"]


@pytest.mark.parametrize(
    "option",
    [
        ["--cases", "-1"],
        ["--batch", "0"],
        ["--timeout", "0"],
        ["--timeout", "-1"],
        ["--workers", "-1"],
    ],
)
def test_cli_refuses_bad_numbers(option: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """CONF-12: a negative --cases or --workers, a --batch below 1 or a --timeout not above 0
    is exit 2 with one line naming the limits."""
    assert main(["conformance", *option, "--", "unused-port"]) == 2
    assert capsys.readouterr().err == (
        "chunkspec conformance: error: --cases must be >= 0, --batch >= 1, --workers >= 0 "
        "and --timeout > 0\n"
    )


def test_cli_cases_are_per_operation_and_distinct(tmp_path: Path) -> None:
    """CONF-10, CONF-12: ``--cases N`` sends N distinct cases of every op (whatever the
    batch size), and the report gives per op the distinct cases, the draws and the rate."""
    report = tmp_path / "r.jsonl"
    argv = ["conformance", "-q", "--no-vectors", "--profile", "portable", "--cases", "15"]
    for batch in ("2", "1"):
        assert main([*argv, "--batch", batch, "--jsonl", str(report), "--", *port()]) == 0
        summary = json.loads(report.read_text().splitlines()[-1])["summary"]
        ops = sorted(by_op("portable"))
        assert summary["generated"] == {f"portable/{op}": 15 for op in ops}
        per_op = summary["per_op"]
        assert sorted(per_op) == [f"portable/{op}" for op in ops]
        for key, row in per_op.items():
            assert row["distinct"] == 15
            assert row["drawn"] == summary["drawn"][key] >= 15
            assert row["cases_per_second"] > 0


def test_shrinking_finds_a_smaller_counterexample() -> None:
    """CONF-10: the first failing case and the smallest one found are both reported; a
    port wrong only from n = 3 on is shrunk to ``{"n": 3}`` (same length as ``{"n": 6}``,
    but smaller)."""
    summary = run(
        options("wrong-words=3", vectors=False, cases=40, batch=3, profiles=("portable",))
    )
    first, smallest = summary.failures
    assert (first.source, smallest.source) == ("generated", "shrunk")
    assert first.input["n"] > 3
    assert smallest.input == {"n": 3}


def test_no_shrunk_case_when_the_first_failure_is_smallest() -> None:
    """CONF-10: when shrinking finds nothing smaller than the first failure, only the
    first failure is reported."""
    summary = run(options("wrong-words", vectors=False, cases=40, profiles=("portable",)))
    (only,) = summary.failures
    assert (only.source, only.input) == ("generated", {"n": 0})


def test_cli_progress_lines(capsys: pytest.CaptureFixture[str]) -> None:
    """CLI: without -q, progress goes to stderr, each line prefixed with the command."""
    assert main(["conformance", "--cases", "0", "--", *port()]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0] == (
        "chunkspec conformance: port python-test-port 1.0: ops split_section, assemble, "
        "count_tokens, hash_text, render, words, chunk, split_markdown, heading_aware, "
        "token_windows, chunk_pages, split_sentences, validate_record, pack_records, read_html, "
        "chunk_code, chunk_document"
    )
    assert err[1].startswith("chunkspec conformance: vectors: ")


def test_expected_failures_file_skips_comments_and_blanks(tmp_path: Path) -> None:
    """CONF-11: one entry a line; ``#`` starts a comment; blank lines are ignored."""
    from chunkspec._cli._conformance_command import _patterns

    listed = tmp_path / "xfail.txt"
    listed.write_text("# known\nthree  # trailing comment\n\n  words/*  \n#\n", "utf-8")
    assert _patterns(str(listed)) == ["three", "words/*"]
    assert _patterns(None) == []


def test_cli_no_vectors_runs_no_vector(tmp_path: Path) -> None:
    """CONF-12: ``--no-vectors`` with ``--cases 0`` judges nothing and passes."""
    report = tmp_path / "r.jsonl"
    argv = ["conformance", "-q", "--no-vectors", "--cases", "0", "--jsonl", str(report)]
    assert main([*argv, "--", *port()]) == 0
    lines = report.read_text().splitlines()
    assert len(lines) == 1
    assert json.loads(lines[0])["summary"]["counts"] == {}
