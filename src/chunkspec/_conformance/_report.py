"""Reports: a human summary, JSON Lines and JUnit XML (CONF-12), and saved counterexamples."""

from __future__ import annotations

import datetime
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from .._version import __version__
from ._runner import Result, Summary
from ._vectors import FORMAT

__all__ = ["human", "jsonl", "junit", "save_failures"]


def _short(value: Any, limit: int = 160) -> str:
    """ASCII JSON of ``value``, cut to ``limit`` characters."""
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def describe(r: Result) -> str:
    """The failure report of one case: id, rules, first differing field, diff, stderr."""
    v = r.verdict
    lines = [f"FAIL {v.outcome}: {r.op} {r.id} ({r.source}{', ' + r.profile if r.profile else ''})"]
    if r.rules:
        lines.append(f"  case rules: {', '.join(r.rules)}")
    if r.blamed:
        lines.append(f"  blamed: {', '.join(r.blamed)}: {r.explanation}")
    lines.append(f"  input: {_short(r.input, 400)}")
    if v.field:
        want, got = _short(v.expected), _short(v.actual)
        lines.append(f"  first difference at {v.field}: expected {want}, got {got}")
    if v.message:
        lines.append(f"  {v.message}")
    if v.diff:
        lines += ["  " + line for line in v.diff.splitlines()[:40]]
    if v.stderr.strip():
        lines.append("  port stderr (tail):")
        lines += ["    " + line for line in v.stderr.strip().splitlines()[-15:]]
    return "\n".join(lines)


def human(summary: Summary) -> str:
    """The text printed at the end of a run."""
    out = [describe(r) for r in summary.failures]
    for pattern in summary.unexpected_passes:
        out.append(f"UNEXPECTED PASS: expected failure {pattern!r} passed; remove it from the file")
    by_profile: dict[str, list[str]] = {}
    for key, row in summary.per_op().items():
        profile, op = key.split("/", 1)
        by_profile.setdefault(profile, []).append(
            f"{op} {row['distinct']:,.0f}/{row['drawn']:,.0f} ({row['cases_per_second']:,.0f}/s)"
        )
    for profile, rows in by_profile.items():
        out.append(f"generated, {profile} (distinct/drawn, cases per second): {', '.join(rows)}")
    counts = summary.counts()
    vectors = sum(1 for r in summary.results if r.source == "vector")
    generated = sum(summary.generated.values())
    drawn = sum(summary.drawn.values())
    out.append(
        f"chunkspec conformance: {summary.hello.name} {summary.hello.version}: "
        f"{vectors} vectors, {generated} generated cases (distinct, of {drawn} drawn) "
        f"({summary.rate:,.0f} cases/s), {summary.shrink_calls} shrink calls, "
        f"{summary.restarts} restarts; "
        + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
        + f"; {'FAILED' if summary.exit_status else 'OK'} in {summary.seconds:.1f} s"
    )
    return "\n".join(out)


def _record(r: Result) -> dict[str, Any]:
    """The JSON Lines record of one result."""
    v = r.verdict
    record: dict[str, Any] = {
        "id": r.id,
        "op": r.op,
        "source": r.source,
        "status": r.status,
        "outcome": v.outcome,
        "rules": r.rules,
    }
    if r.profile:
        record["profile"] = r.profile
    if r.hazard:
        record["hazard"] = r.hazard
    if r.status in ("fail", "xfail"):
        record.update(
            blamed=r.blamed,
            explanation=r.explanation,
            input=r.input,
            expected=r.expected,
            field=v.field,
            expected_value=v.expected,
            actual_value=v.actual,
            message=v.message,
            diff=v.diff,
            stderr=v.stderr,
        )
    return record


def jsonl(summary: Summary, path: Path) -> None:
    """One line per vector case and per generated failure, then a summary line."""
    with path.open("w", encoding="utf-8") as out:
        for r in summary.results:
            out.write(json.dumps(_record(r), ensure_ascii=True) + "\n")
        out.write(
            json.dumps(
                {
                    "summary": {
                        "port": {"name": summary.hello.name, "version": summary.hello.version},
                        "counts": summary.counts(),
                        "generated": summary.generated,
                        "drawn": summary.drawn,
                        "per_op": summary.per_op(),
                        "cases_per_second": round(summary.rate, 1),
                        "shrink_calls": summary.shrink_calls,
                        "restarts": summary.restarts,
                        "unexpected_passes": summary.unexpected_passes,
                        "exit_status": summary.exit_status,
                    }
                }
            )
            + "\n"
        )


def junit(summary: Summary, path: Path) -> None:
    """JUnit XML: one testsuite per op for vectors and per profile for generated cases."""
    root = ET.Element("testsuites", name="chunkspec conformance")
    suites: dict[str, ET.Element] = {}

    def suite(name: str) -> ET.Element:
        if name not in suites:
            suites[name] = ET.SubElement(root, "testsuite", name=name)
        return suites[name]

    for r in summary.results:
        name = f"vectors.{r.op}" if r.source == "vector" else f"generated.{r.profile}.{r.op}"
        case = ET.SubElement(suite(name), "testcase", classname=name, name=r.id)
        if r.status == "fail":
            failure = ET.SubElement(
                case, "failure", type=r.verdict.outcome, message=", ".join(r.blamed or r.rules)
            )
            failure.text = _xml_safe(describe(r))
        elif r.status in ("skip", "n/a", "xfail"):
            ET.SubElement(case, "skipped", message=f"{r.status}: {r.verdict.message}")
    for key, count in summary.generated.items():
        profile, op = key.split("/", 1)
        name = f"generated.{profile}.{op}"
        if not any(r.op == op and r.profile == profile for r in summary.results):
            ET.SubElement(suite(name), "testcase", classname=name, name=f"{count} generated cases")
    for pattern in summary.unexpected_passes:
        case = ET.SubElement(suite("expected-failures"), "testcase", name=pattern)
        ET.SubElement(case, "failure", type="unexpected-pass", message=pattern)
    for element in suites.values():
        cases = element.findall("testcase")
        element.set("tests", str(len(cases)))
        element.set("failures", str(sum(1 for c in cases if c.find("failure") is not None)))
        element.set("skipped", str(sum(1 for c in cases if c.find("skipped") is not None)))
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)


def _xml_safe(text: str) -> str:
    """Escape characters XML 1.0 cannot hold."""
    return "".join(
        c
        if c in "\t\n\r" or (" " <= c <= "\ud7ff") or ("\ue000" <= c <= "\ufffd") or c > "\uffff"
        else f"\\u{ord(c):04x}"
        for c in text
    )


def save_failures(summary: Summary, directory: Path, seed: int) -> list[Path]:
    """Write each failing generated case as a vector with provenance into ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    by_op: dict[str, list[Result]] = {}
    for r in summary.failures:
        if r.source in ("generated", "shrunk"):
            by_op.setdefault(r.op, []).append(r)
    now = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    for op, results in by_op.items():
        path = directory / f"{op}.json"
        data: dict[str, Any] = (
            json.loads(path.read_text("utf-8"))
            if path.is_file()
            else {
                "$schema": "vectors.schema.json",
                "format": FORMAT,
                "suite_version": __version__,
                "function": op,
                "cases": [],
            }
        )
        known = {c["id"] for c in data["cases"]}
        for r in results:
            cid = r.id.replace("gen-", "counterexample-", 1)
            if cid in known:
                continue
            case: dict[str, Any] = {"id": cid, "rules": r.blamed or ["CONF-10"], "input": r.input}
            if "ok" in r.expected:
                case["output"] = r.expected["ok"]
            else:
                case["error"] = r.expected["error"]
            case["source"] = "counterexample"
            case["provenance"] = {
                "found_by": f"chunkspec conformance {__version__}",
                "port": {"name": summary.hello.name, "version": summary.hello.version},
                "profile": r.profile,
                "seed": seed,
                "shrunk": r.source == "shrunk",
                "outcome": r.verdict.outcome,
                "port_answer": r.verdict.actual,
                "explanation": r.explanation,
                "date": now,
            }
            data["cases"].append(case)
            known.add(cid)
        path.write_text(json.dumps(data, ensure_ascii=True, indent=1) + "\n", encoding="utf-8")
        written.append(path)
    return written
