"""Judging a port's answer against the oracle's (CONF-8): the outcome and the first difference."""

from __future__ import annotations

import difflib
import json
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._port import Answer

__all__ = ["OUTCOMES", "Verdict", "first_difference", "judge"]

#: Every outcome a case can have; only ``pass`` (and ``n/a``) are not failures.
OUTCOMES = ("pass", "wrong", "rejected", "crash", "timeout", "skipped", "n/a")


@dataclass
class Verdict:
    """The outcome of one case, with the first differing field and a diff for failures."""

    outcome: str
    field: str = ""
    expected: Any = None
    actual: Any = None
    diff: str = ""
    message: str = ""
    stderr: str = ""
    answer: Any = None  # the port's whole answer (``actual`` is only the differing part)


def _same_number(a: Any, b: Any) -> bool:
    """Numbers compare by value (``0 == 0.0 == -0.0``); bools are not numbers."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return (
        isinstance(a, (int, float))
        and isinstance(b, (int, float))
        and (
            a == b
            or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))
        )
    )


def first_difference(expected: Any, actual: Any, path: str = "$") -> tuple[str, Any, Any] | None:
    """Return ``(path, expected, actual)`` at the first place the values differ, else None."""
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        return None if _same_number(expected, actual) else (path, expected, actual)
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return (path, expected, actual)
        for key in expected:
            if key not in actual:
                return (f"{path}.{key}", expected[key], "<missing>")
            found = first_difference(expected[key], actual[key], f"{path}.{key}")
            if found:
                return found
        for key in actual:
            if key not in expected:
                return (f"{path}.{key}", "<absent>", actual[key])
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return (path, expected, actual)
        for k, (e, a) in enumerate(zip(expected, actual, strict=False)):
            found = first_difference(e, a, f"{path}[{k}]")
            if found:
                return found
        if len(expected) != len(actual):
            return (f"{path}.length", len(expected), len(actual))
        return None
    if type(expected) is not type(actual) or expected != actual:
        return (path, expected, actual)
    return None


def _pretty(value: Any) -> list[str]:
    """Pretty JSON lines with every non-ASCII character escaped, so invisibles show."""
    return json.dumps(value, ensure_ascii=True, indent=1, sort_keys=True).splitlines()


def _diff(expected: Any, actual: Any) -> str:
    """A unified diff of the expected and actual answers."""
    lines = difflib.unified_diff(
        _pretty(expected), _pretty(actual), "expected", "actual", lineterm="", n=2
    )
    return "\n".join(lines)


def judge(expected: dict[str, Any], answer: Answer) -> Verdict:
    """Compare the oracle's ``{"ok"|"error": ...}`` with the port's answer."""
    if answer.kind in ("crash", "timeout"):
        return Verdict(answer.kind, message=str(answer.value), stderr=answer.stderr)
    if answer.kind == "skipped":
        return Verdict("skipped", message=str(answer.value))
    got = {answer.kind: answer.value}
    if "ok" in expected:
        if answer.kind == "error":
            return Verdict(
                "rejected",
                field="$",
                expected=expected["ok"],
                actual=answer.value,
                diff=_diff(expected, got),
                message=f"port raised {_error_text(answer.value)} on a valid input",
            )
        found = first_difference(expected["ok"], answer.value)
        if found is None:
            return Verdict("pass")
        path, want, have = found
        return Verdict(
            "wrong", path, want, have, _diff(expected["ok"], answer.value), answer=answer.value
        )
    want_error = expected["error"]
    if answer.kind != "error":
        return Verdict(
            "wrong",
            "error",
            want_error,
            answer.value,
            _diff(expected, got),
            f"expected {want_error['kind']} naming {want_error.get('argument')!r}, got an answer",
        )
    have = answer.value if isinstance(answer.value, dict) else {}
    if have.get("kind") != want_error["kind"]:
        return Verdict(
            "wrong", "error.kind", want_error["kind"], have.get("kind"), _diff(expected, got)
        )
    want_arg, have_arg = want_error.get("argument"), have.get("argument")
    if want_arg is not None and have_arg is not None and want_arg != have_arg:
        return Verdict("wrong", "error.argument", want_arg, have_arg, _diff(expected, got))
    return Verdict("pass")


def _error_text(value: Any) -> str:
    """``Kind(argument): message`` for an error payload."""
    if not isinstance(value, dict):
        return repr(value)
    return f"{value.get('kind')}({value.get('argument', '')}): {value.get('message', '')}"
