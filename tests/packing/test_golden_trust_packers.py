"""Golden cases of the packers' trust boundaries (tests/golden/trust_packers.json, TRUST-10..16).

Each case runs twice: through ``pack_records`` (its input written as tests/golden/pack_records.json
writes one) and, as JSON Lines records on standard input, through ``chunkspec pack - --budget N``
with the case's ``argv`` and the principal as ``--tenant``/``--label``.
"""

from __future__ import annotations

import io
import json
import re
import sys
from contextlib import redirect_stderr, redirect_stdout
from typing import Any

import pytest

from chunkspec import pack_records
from chunkspec._cli import main
from chunkspec._conformance.packing._packing_ops import golden_record
from tests import goldens
from tests.pack_records import pack_call


def library_result(data: dict[str, Any]) -> dict[str, Any]:
    """``pack_records(...).to_dict()``, or ``{"error": {type, argument}}``."""
    records, scores, budget, options = pack_call(data)
    try:
        return pack_records(records, scores, budget, **options).to_dict()
    except (TypeError, ValueError) as error:
        kind = "TypeError" if isinstance(error, TypeError) else "ValueError"
        return {"error": {"type": kind, "argument": getattr(error, "argument", None)}}


def cli_lines(data: dict[str, Any]) -> str:
    """The case's records as JSON Lines, each with its score (RECORD-9)."""
    lines = []
    for spec, score in zip(data["records"], data["scores"], strict=True):
        fields = {k: v for k, v in spec.items() if k not in ("doc", "index", "line_extra")}
        record = golden_record(spec["doc"], spec["index"], data["documents"][spec["doc"]], fields)
        # TRUST-16: keys a line carries besides the record's (seed 003's flat access keys)
        extra = spec.get("line_extra", {})
        lines.append(json.dumps({**record, **extra, "score": score}, ensure_ascii=False) + "\n")
    return "".join(lines)


def cli_argv(data: dict[str, Any]) -> list[str]:
    """``pack - --budget N``, the case's flags, and the principal as ``--tenant``/``--label``."""
    argv = ["pack", "-", "--budget", str(data["budget"]), *data.get("argv", [])]
    principal = data.get("principal")
    if principal is not None:
        if principal.get("tenant") is not None:
            argv += ["--tenant", principal["tenant"]]
        for label in principal.get("labels", []):
            argv += ["--label", label]
    return argv


def cli_result(data: dict[str, Any]) -> dict[str, Any]:
    """Run ``chunkspec pack`` in this process; its status, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(cli_lines(data).encode("utf-8")), encoding="utf-8")
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                status = main(cli_argv(data))
            except SystemExit as exit_:
                status = exit_.code if isinstance(exit_.code, int) else 1
    finally:
        sys.stdin = stdin
    return {"status": status, "stdout": out.getvalue(), "stderr": err.getvalue()}


def run_case(data: dict[str, Any]) -> dict[str, Any]:
    """The case's output: the library's result (unless ``cli_only``) and the command's."""
    result: dict[str, Any] = {}
    if not data.get("cli_only"):
        result["pack_records"] = library_result(data)
    result["cli"] = cli_result(data)
    return result


@pytest.mark.parametrize("case", goldens.cases("trust_packers"))
def test_trust_packers(case: dict[str, Any]) -> None:
    data, expected = case["input"], case["output"]
    got = run_case(data)
    if "pack_records" in expected:
        assert got["pack_records"] == expected["pack_records"]
    cli = expected["cli"]
    assert got["cli"]["status"] == cli["status"], got["cli"]["stderr"]
    assert got["cli"]["stdout"] == cli["stdout"]
    if "stderr_match" in cli:
        assert re.fullmatch(cli["stderr_match"], got["cli"]["stderr"]), got["cli"]["stderr"]
    else:
        assert got["cli"]["stderr"] == cli["stderr"]
    assert "Traceback" not in got["cli"]["stderr"]  # CLI-1: one line, never a traceback
