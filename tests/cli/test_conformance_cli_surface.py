"""The ``conformance`` and ``vectors`` subcommands' surface, in-process (so mutation testing
sees it): every option's metavar and help text as docs/cli.md describes them, and the types
and defaults the parser hands to the runner."""

from __future__ import annotations

import argparse

import pytest

import chunkspec._cli._conformance_command as conformance_cli
from chunkspec._cli import main


def _help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """``main(argv)`` for a ``--help``: its stdout with every run of whitespace squeezed."""
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 0
    out, err = capsys.readouterr()
    assert err == ""
    return " ".join(out.split())


def test_conformance_help_rows(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each option is shown with its metavar followed by its help text (docs/cli.md)."""
    monkeypatch.setenv("COLUMNS", "400")
    out = _help(["conformance", "--help"], capsys)
    rows = [
        "Start COMMAND as a port speaking the JSON Lines protocol of docs/conformance.md, "
        "run every vector, then generated differential cases. Exit 0 when everything passes, "
        "1 on any failure, 2 when the port cannot be used.",
        "--cases N generated cases per operation and profile (default 1000; 0: vectors only)",
        "--seed S Hypothesis seed --profile",
        "--no-vectors skip the vectors --timeout",
        "--timeout SEC per-case answer timeout (default 5)",
        "--batch K generated cases per pipelined batch (default 100)",
        "--shrink-seconds SEC time budget for shrinking each disagreement (default 30)",
        "--expected-failures FILE case ids (or fnmatch patterns) the port is known to fail, "
        "one a line",
        "--allow-skips do not fail on cases the port skips --save-failures",
        "--save-failures DIR write failing generated cases (shrunk) as vectors into DIR",
        "--jsonl FILE write a JSON Lines report --junit",
        "--junit FILE write a JUnit XML report",
        "--port-stderr FILE keep the port's stderr (its last megabyte) in FILE",
        "-q, --quiet print only failures and the summary",
    ]
    for row in rows:
        assert row in out, (row, out)


def test_top_level_help_lists_vectors_and_conformance(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "400")
    out = _help(["--help"], capsys)
    assert "vectors write the conformance vectors for a port's repository" in out, out
    assert "conformance check a port (a JSON Lines subprocess) against chunkspec" in out, out


def _parsed(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> argparse.Namespace:
    """The namespace ``chunkspec conformance`` hands to its ``run``."""
    seen: list[argparse.Namespace] = []

    def fake_run(args: argparse.Namespace) -> int:
        seen.append(args)
        return 0

    monkeypatch.setattr(conformance_cli, "run", fake_run)
    assert main(["conformance", *argv]) == 0
    (args,) = seen
    return args


def test_conformance_option_types_and_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    args = _parsed(["--", "port"], monkeypatch)
    assert (args.cases, args.seed, args.profile, args.no_vectors) == (1000, 0, "all", False)
    assert (args.timeout, args.batch, args.shrink_seconds) == (5.0, 100, 30.0)
    assert (args.expected_failures, args.allow_skips, args.save_failures) == (None, False, None)
    assert (args.jsonl, args.junit, args.port_stderr, args.quiet) == (None, None, None, False)
    args = _parsed(
        ["--shrink-seconds", "0.5", "--timeout", "2.5", "--seed", "7", "--", "port"], monkeypatch
    )
    assert (args.shrink_seconds, args.timeout, args.seed) == (0.5, 2.5, 7)
    assert type(args.shrink_seconds) is float
    assert args.port_command == ["--", "port"]
