"""The conformance kit's golden cases (tests/golden/conformance.json), one check per kind."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from chunkspec._conformance._blame import blame
from chunkspec._conformance._compare import judge
from chunkspec._conformance._draw import draws
from chunkspec._conformance._generate import by_op
from chunkspec._conformance._oracle import expect
from chunkspec._conformance._port import Answer, PortError
from chunkspec._conformance._runner import Options, run
from chunkspec._conformance._vectors import _case, load_vectors, manifest, rules_index
from chunkspec._conformance.records._schema_cases import constraints
from tests.conformance.input_classes import CLASSES
from tests.conformance.uncaught_mistakes import uncaught_mistakes

from .. import goldens

PORT = str(Path(__file__).parents[1].joinpath("conformance_port.py"))


def _run(data: dict[str, Any]) -> dict[str, Any]:
    """Run the kit against the test port; summarise as the golden output does."""
    settings: dict[str, Any] = {"timeout": 2.0, "shrink_seconds": 5.0, **data["options"]}
    try:
        summary = run(Options(command=[sys.executable, PORT, *data["port"]], **settings))
    except PortError:
        return {"error": "PortError"}
    failing = sorted({(r.op, r.verdict.outcome) for r in summary.failures})
    out: dict[str, Any] = {
        "exit_status": summary.exit_status,
        "failing": [list(pair) for pair in failing],
    }
    if summary.unexpected_passes:
        out["unexpected_passes"] = summary.unexpected_passes
    return out


@pytest.mark.parametrize("case", goldens.cases("conformance"))
def test_conformance(case: dict[str, Any]) -> None:
    data, want = case["input"], case["output"]
    check = data["check"]
    if check == "judge":
        answer = Answer(data["answer"]["kind"], data["answer"]["value"])
        verdict = judge(data["expected"], answer)
        assert {"outcome": verdict.outcome, "field": verdict.field} == want
    elif check == "blame":
        expected = expect(data["op"], data["input"])
        verdict = judge(expected, Answer("ok", data["answer"]))
        assert verdict.outcome == "wrong"
        rules, why = blame(
            data["op"], data["input"], expected, verdict.outcome, verdict.field, verdict.answer
        )
        if isinstance(want, dict):  # the rules and the explanation (CONF-9)
            assert {"rules": rules, "explanation": why} == want
        else:
            assert rules == want, why
    elif check == "class":  # CONF-13
        (found,) = [c for c in CLASSES[data["op"]] if c.name == data["class"]]
        assert found.test(data["input"]) is want
    elif check == "alone":  # CONF-14
        kept = [v for v in load_vectors()[data["op"]] if v["id"] not in data["without"]]
        assert uncaught_mistakes(data["op"], kept) == want
    elif check == "schema_constraints":  # CONF-17
        assert [c.slug for c in constraints(data["schema"])] == want
    elif check == "validate_record":  # CONF-17
        base = expect(
            "chunk",
            {"doc_id": "d", "title": "T", "text": "a b", "max_tokens": 2, "overlap_tokens": 0},
        )
        record = {**base["ok"][0], **data["change"]}
        assert expect("validate_record", {"record": record}) == {"ok": want}
    elif check == "schema_blame":  # CONF-17
        (case,) = [v for v in load_vectors()["validate_record"] if v["id"] == data["vector"]]
        expected = {"ok": case["output"]}
        verdict = judge(expected, Answer("ok", data["answer"]))
        rules, why = blame(
            "validate_record",
            case["input"],
            expected,
            verdict.outcome,
            verdict.field,
            verdict.answer,
            case["rules"],
        )
        assert {"rules": rules, "explanation": why} == want
    elif check == "draws":  # CONF-19
        strategy, seed = (
            by_op(data["profile"])[data["op"]],
            f"{data['seed']}:{data['profile']}:{data['op']}",
        )
        bare, plain = draws(strategy, seed), draws(strategy, seed, bare=False)
        assert bare is not None
        assert plain is not None
        drawn = [next(bare) for _ in range(data["count"])]
        assert drawn[0] == (data["op"], want["first"])
        assert (drawn == [next(plain) for _ in range(data["count"])]) is want["same"]
    elif check == "rules_index":  # CONF-18
        assert rules_index(data["cases"]) == want
    elif check == "expand":
        assert _case(data["function"], data["case"], "golden") == want
    elif check == "manifest":
        got = json.loads(manifest(data["files"]))
        assert {k: got[k] for k in want} == want
    else:
        assert check == "run"
        want = dict(want)
        na = want.pop("n/a", None)
        got = _run(data)
        assert got == want
        if na is not None:
            settings = {"timeout": 2.0, **data["options"]}
            summary = run(Options(command=[sys.executable, PORT, *data["port"]], **settings))
            assert summary.counts().get("n/a", 0) == na
