"""Properties of ``chunkspec pack --merge`` (CLI-25, CLI-26; docs/spec/context.md)."""

from __future__ import annotations

import io
import json
import math
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chunkspec import ChunkRecord, pack_records
from chunkspec._cli import main

from .strategies import pack_cases

_quiet = settings(suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
Case = tuple[dict[str, str], list[ChunkRecord], list[float]]


def _run(argv: list[str], data: bytes, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run ``main(argv)`` with ``data`` on standard input; return (status, stdout, stderr)."""
    old = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        status = main(argv)
    except SystemExit as exit_:
        code = exit_.code
        status = 0 if code is None else code if isinstance(code, int) else 1
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return status, out, err


def _lines(records: list[ChunkRecord], scores: list[float]) -> bytes:
    """The records as JSON Lines, each with its score."""
    rows = [{**r.to_dict(), "score": s} for r, s in zip(records, scores, strict=True)]
    return "".join(json.dumps(row) + "\n" for row in rows).encode()


@_quiet
@given(
    pack_cases(),
    st.integers(0, 40),
    st.sampled_from(["reading", "score"]),
    st.sampled_from([None, "chars4", "chars1"]),
)
def test_merge_prints_what_the_library_packs(
    capsys: pytest.CaptureFixture[str],
    case: Case,
    budget: int,
    order: str,
    counter: str | None,
) -> None:
    """CLI-25: ``pack --merge`` prints pack_records' context (``--cite``: its JSON); nothing
    packed is exit status 1 with nothing on stdout."""
    _, records, scores = case
    argv = ["pack", "-", "--merge", "--budget", str(budget), "--min-score=-inf"]
    argv += ["--order", order] + (["--counter", counter] if counter else [])
    expected = pack_records(
        records, scores, budget, min_score=-math.inf, order=order, counter=counter
    )
    status, out, err = _run(argv, _lines(records, scores), capsys)
    cited = _run([*argv, "--cite"], _lines(records, scores), capsys)
    if expected.passages:
        assert (status, out, err) == (0, expected.text + "\n", "")
        assert cited[0] == 0
        assert json.loads(cited[1]) == json.loads(json.dumps(expected.to_dict()))
    else:
        assert (status, out) == (1, "")
        assert err.startswith("chunkspec pack: abstain")
        assert cited[:2] == (1, "")


@_quiet
@given(pack_cases(), st.integers(0, 40))
def test_merge_output_within_budget_default_may_not_be(
    capsys: pytest.CaptureFixture[str], case: Case, budget: int
) -> None:
    """CLI-26: with --merge the printed context (less the final newline) counts at most
    --budget words; without it the budget counts the records' tokens fields only, as
    seed 000's assemble does, so the output holds at least two more words per header."""
    _, records, scores = case
    data = _lines(records, scores)
    argv = ["pack", "-", "--budget", str(budget), "--min-score=-inf"]
    status, out, _ = _run([*argv, "--merge"], data, capsys)
    assert status in (0, 1)
    assert len(out.split()) <= budget
    status, out, err = _run([*argv, "--ids"], data, capsys)
    if status == 0:
        ids = err.split()
        tokens = {r.id: r.tokens for r in records}
        assert sum(tokens[i] for i in ids) <= budget
        # each header "[id] title > ..." adds at least two words the budget did not count
        assert len(out.split()) >= sum(tokens[i] for i in ids) + 2 * len(ids)
