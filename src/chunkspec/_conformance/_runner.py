"""The differential runner: every vector, then Hypothesis-generated cases, against a port.

Generated cases are drawn in batches (one Hypothesis example is a tuple of ``batch`` cases,
sent to the port pipelined) and judged against the in-process oracle. On a disagreement a
one-case-at-a-time search under the same seed lets Hypothesis shrink a counterexample
across the process boundary: each shrink step re-asks the port (CONF-10, CONF-11).
"""

from __future__ import annotations

import fnmatch
import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from ._blame import blame
from ._compare import Verdict, judge
from ._compare import judge as judge_answer
from ._generate import PROFILES, by_op
from ._oracle import expect
from ._port import Answer, Hello, Port
from ._produce import Batch, Producer, produce
from ._vectors import load_vectors
from ._wire import dumps

__all__ = ["Options", "Result", "Summary", "run"]


@dataclass
class Options:
    """Everything ``chunkspec conformance`` can be told."""

    command: list[str]
    vectors: bool = True
    cases: int = 1000
    seed: int = 0
    profiles: tuple[str, ...] = PROFILES
    timeout: float = 5.0
    batch: int = 100
    shrink_seconds: float = 30.0
    expected_failures: list[str] = field(default_factory=list)
    allow_skips: bool = False
    workers: int = 0  # processes drawing and answering generated cases (CONF-16); 0: none


@dataclass
class Result:
    """One judged case."""

    id: str
    op: str
    source: str  # vector (golden or hazard), generated, or shrunk
    rules: list[str]
    input: Any
    expected: dict[str, Any]
    verdict: Verdict
    status: str = ""  # pass, fail, xfail, xpass-case, skip, n/a
    blamed: list[str] = field(default_factory=list)
    explanation: str = ""
    profile: str = ""
    hazard: str = ""


@dataclass
class Summary:
    """What a run found; ``exit_status`` is 0 only when nothing failed."""

    hello: Hello
    results: list[Result] = field(default_factory=list)
    generated: dict[str, int] = field(default_factory=dict)  # distinct cases sent, per key
    drawn: dict[str, int] = field(default_factory=dict)  # cases drawn (duplicates included)
    op_seconds: dict[str, float] = field(default_factory=dict)  # batch-stage wall time, per key
    shrink_calls: int = 0
    seconds: float = 0.0
    generated_seconds: float = 0.0
    restarts: int = 0
    unexpected_passes: list[str] = field(default_factory=list)
    allow_skips: bool = False
    stderr: str = ""  # everything the port wrote on stderr (its last megabyte)

    @property
    def failures(self) -> list[Result]:
        """Results that fail the run."""
        bad = {"fail"} if self.allow_skips else {"fail", "skip"}
        return [r for r in self.results if r.status in bad]

    @property
    def rate(self) -> float:
        """Generated cases judged per second (generation, oracle, port and comparison)."""
        total = sum(self.generated.values())
        return total / self.generated_seconds if self.generated_seconds else 0.0

    @property
    def exit_status(self) -> int:
        """1 on any failure or unexpected pass, else 0."""
        return 1 if self.failures or self.unexpected_passes else 0

    def per_op(self) -> dict[str, dict[str, float]]:
        """Per ``profile/op``: distinct cases sent, cases drawn, seconds and cases per
        second of its batch stage (drawing, oracle, port and comparison)."""
        out: dict[str, dict[str, float]] = {}
        for key, sent in self.generated.items():
            seconds = self.op_seconds.get(key, 0.0)
            out[key] = {
                "distinct": sent,
                "drawn": self.drawn.get(key, 0),
                "seconds": round(seconds, 2),
                "cases_per_second": round(sent / seconds, 1) if seconds else 0.0,
            }
        return out

    def counts(self) -> dict[str, int]:
        """Number of results per status."""
        out: dict[str, int] = {}
        for r in self.results:
            out[r.status] = out.get(r.status, 0) + 1
        return out


class _Disagreement(Exception):
    """Raised inside the Hypothesis test when the port disagrees with the oracle."""


class _Enough(BaseException):
    """Ends the batch stage when ``n`` distinct cases have been sent."""


class _Found(BaseException):
    """Ends the batch stage at once: Hypothesis lets a BaseException through unreported
    (a failing batch of a hundred cases costs seconds to replay and pretty-print)."""


def case_id(profile: str, op: str, data: Any) -> str:
    """A stable id for a generated case: profile, op and a hash of its wire input."""
    digest = hashlib.sha256(dumps(data).encode("ascii")).hexdigest()[:12]
    return f"gen-{profile}-{op.replace('_', '-')}-{digest}"


def _status(verdict: Verdict) -> str:
    """pass, fail, skip or n/a (before expected failures are applied)."""
    if verdict.outcome == "pass":
        return "pass"
    if verdict.outcome == "skipped":
        return "skip"
    if verdict.outcome == "n/a":
        return "n/a"
    return "fail"


def _result(
    case_id_: str,
    op: str,
    source: str,
    rules: list[str],
    data: Any,
    expected: dict[str, Any],
    answer: Answer,
    profile: str = "",
    hazard: str = "",
) -> Result:
    """Judge one answer and blame a failure."""
    verdict = judge(expected, answer)
    result = Result(case_id_, op, source, rules, data, expected, verdict, _status(verdict))
    result.profile, result.hazard = profile, hazard
    if result.status == "fail":
        blamed, why = blame(
            op,
            data,
            expected,
            verdict.outcome,
            verdict.field,
            verdict.answer if verdict.answer is not None else verdict.actual,
            rules,
        )
        result.blamed = blamed
        result.explanation = why
    return result


def _run_vectors(port: Port, hello: Hello) -> list[Result]:
    """Judge every vector; ops the port lacks are skipped, unmet needs are n/a."""
    results: list[Result] = []
    pending: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
    for op, cases in load_vectors().items():
        for case in cases:
            expected = {"ok": case["output"]} if "output" in case else {"error": case["error"]}
            if op not in hello.ops:
                answer = Answer("skipped", f"the port does not support {op}")
            elif not set(case.get("needs", [])) <= set(hello.features):
                verdict = Verdict("n/a", message=f"needs {', '.join(case['needs'])}")
                results.append(
                    Result(
                        case["id"],
                        op,
                        "vector",
                        case["rules"],
                        case["input"],
                        expected,
                        verdict,
                        "n/a",
                        hazard=case.get("hazard", ""),
                    )
                )
                continue
            else:
                pending.append((op, case, expected))
                continue
            results.append(
                _result(case["id"], op, "vector", case["rules"], case["input"], expected, answer)
            )
    answers = port.run([(op, case["input"]) for op, case, _ in pending])
    for (op, case, expected), answer in zip(pending, answers, strict=True):
        results.append(
            _result(
                case["id"],
                op,
                "vector",
                case["rules"],
                case["input"],
                expected,
                answer,
                hazard=case.get("hazard", ""),
            )
        )
    return results


def _differential(
    port: Port,
    options: Options,
    profile: str,
    op: str,
    n: int,
    summary: Summary,
    producer: Producer | None = None,
) -> list[Result]:
    """Run ``n`` generated cases of ``op``; on a disagreement shrink it; return failures.

    Stage 1 draws batches of ``options.batch`` cases (one Hypothesis example each) and
    sends each batch pipelined; it stops at the first batch with a failure. Stage 2 searches
    again one case at a time under the same seed and lets Hypothesis shrink the first
    failure it meets, re-asking the port at every step, within ``options.shrink_seconds``.
    Shrinking a single case is far cheaper than shrinking a batch of a hundred.
    """
    strategy = by_op(profile)[op]
    size = max(1, min(options.batch, n))
    key = f"{profile}/{op}"
    failures: list[Result] = []

    def judge(
        batch: list[tuple[str, dict[str, Any]]],
        answers: list[Answer],
        known: Batch | None = None,
    ) -> list[Result]:
        out = []
        for k, ((case_op, data), answer) in enumerate(zip(batch, answers, strict=True)):
            if known is not None:
                expected, same = known.expected[k], known.same[k]
                if same is not None and answer.kind == "ok" and _same_text(same, answer.value):
                    continue  # equal JSON text: equal by CONF-3, without the walk
            else:
                expected = expect(case_op, data)
            if answer.kind in ("ok", "error") and judge_answer(expected, answer).outcome == "pass":
                continue  # the common case, without building a Result
            result = _result(
                case_id(profile, case_op, data),
                case_op,
                "generated",
                [],
                data,
                expected,
                answer,
                profile=profile,
            )
            if result.status == "fail":
                out.append(result)
        return out

    def judge_batch(batch: list[tuple[str, dict[str, Any]]]) -> list[Result]:
        return judge(batch, port.run(batch, window=max(size, 1)))

    def judge_previous() -> None:
        """Judge the batch sent before; stop the stage at its first failure."""
        batch = previous.pop()
        failed = judge(batch, port.collect(), known.pop() if known else None)
        if failed:
            failures.append(min(failed, key=lambda r: _size(r.input)))
            raise _Found

    quiet = settings(
        database=None,
        deadline=None,
        report_multiple_bugs=False,
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
    )

    seen: set[str] = set()

    # Inputs are distinct (CONF-10): a case drawn before is not sent again, and drawing
    # goes on until ``n`` distinct cases were sent (or twenty times the batches were drawn:
    # a small input space runs out).
    @settings(quiet, max_examples=20 * max(1, math.ceil(n / size)), phases=(Phase.generate,))
    @hypothesis_seed(options.seed)
    @given(st.tuples(*[strategy] * size))  # a fixed-size tuple draws no "one more?" choices
    def generate(drawn: tuple[tuple[str, dict[str, Any]], ...]) -> None:
        summary.drawn[key] = summary.drawn.get(key, 0) + len(drawn)
        room = n - summary.generated.get(key, 0)
        batch: list[tuple[str, dict[str, Any]]] = []
        for case in drawn:
            text = dumps(case[1])
            if text not in seen and len(batch) < room:
                seen.add(text)
                batch.append(case)
        if not batch:
            if room <= 0:
                raise _Enough
            return
        # Pipelined across examples: the port answers this batch while Hypothesis draws
        # the next one; the batch sent before is judged meanwhile.
        summary.generated[key] = summary.generated.get(key, 0) + len(batch)
        port.submit(batch)
        if previous:
            judge_previous()
        previous.append(batch)
        if len(batch) == room:
            raise _Enough

    previous: list[list[tuple[str, dict[str, Any]]]] = []
    known: list[Batch] = []
    started = time.monotonic()
    produced = (
        producer.stage(profile, op)
        if producer is not None
        else produce(options.seed, profile, op, n, size)
    )
    try:
        if produced is None:
            generate()
        else:
            for ready in produced:
                summary.drawn[key] = summary.drawn.get(key, 0) + ready.drawn
                if not ready.cases:
                    continue
                summary.generated[key] = summary.generated.get(key, 0) + len(ready.cases)
                port.submit(ready.cases, ready.texts)
                if previous:
                    judge_previous()
                previous.append(ready.cases)
                known.append(ready)
    except _Enough:
        pass
    except _Found:
        previous.clear()
        if producer is not None:
            producer.cancel()
    try:
        if previous:
            judge_previous()
    except _Found:
        pass
    finally:
        port.drain()
        summary.op_seconds[key] = summary.op_seconds.get(key, 0.0) + time.monotonic() - started
    if not failures:
        return []
    first = failures[0]
    best: list[Result] = []
    since = time.monotonic()

    @settings(
        quiet,
        max_examples=max(1000, 10 * summary.generated.get(key, 0)),
        phases=(Phase.generate, Phase.shrink),
    )
    @hypothesis_seed(options.seed)
    @given(strategy)
    def shrink(case: tuple[str, dict[str, Any]]) -> None:
        if time.monotonic() - since > options.shrink_seconds:
            return  # budget spent: keep the smallest counterexample so far
        summary.shrink_calls += 1
        failed = judge_batch([case])
        if failed:
            if not best or _size(failed[0].input) < _size(best[0].input):
                best[:] = failed
            raise _Disagreement

    try:
        shrink()
    except _Disagreement:
        pass
    except Exception:  # Flaky after the budget ran out: we keep what we have
        pass
    smallest = best[0] if best and _size(best[0].input) < _size(first.input) else first
    smallest = _fewest_chunks(smallest, judge_batch, summary)
    if smallest is first:
        return [first]
    smallest.source = "shrunk"
    return [first, smallest]


def _same_text(same: str, value: Any) -> bool:
    """True when the port's answer is written as the oracle's canonical text (CONF-16)."""
    try:
        return dumps(value) == same
    except ValueError:  # a NaN in the answer: compare in full
        return False


def _size(data: Any) -> tuple[int, int, str]:
    """How big a counterexample is: its chunks first (for assemble), then its wire text
    (shorter, then smaller: ``{"n":3}`` before ``{"n":6}``)."""
    chunks = data.get("chunks") if isinstance(data, dict) else None
    text = dumps(data)
    return (len(chunks) if isinstance(chunks, list) else 0, len(text), text)


def _fewest_chunks(
    result: Result,
    judge_batch: Callable[[list[tuple[str, dict[str, Any]]]], list[Result]],
    summary: Summary,
) -> Result:
    """Drop an assemble counterexample's chunks one at a time while the port still fails
    (asking it each time), until no single chunk can go (CONF-10).

    Hypothesis shrinks the draw, whose chunk bytes also pick the fields, so it often
    keeps chunks a smaller case does not need; this pass removes them.
    """
    chunks = result.input.get("chunks") if isinstance(result.input, dict) else None
    if result.op != "assemble" or not isinstance(chunks, list):
        return result
    best = result
    changed = True
    while changed:
        changed = False
        items = best.input["chunks"]
        for k in range(len(items)):
            trial = {**best.input, "chunks": items[:k] + items[k + 1 :]}
            summary.shrink_calls += 1
            failed = judge_batch([("assemble", trial)])
            if failed:
                best, changed = failed[0], True
                break
    return best


def _apply_expected_failures(summary: Summary, patterns: list[str]) -> None:
    """Mark expected failures (xfail); an entry whose cases all pass is an unexpected pass.

    An entry matches a case id (vector ids are unique per function) or ``function/id``.
    """
    for pattern in patterns:
        matched = [
            r
            for r in summary.results
            if fnmatch.fnmatchcase(r.id, pattern) or fnmatch.fnmatchcase(f"{r.op}/{r.id}", pattern)
        ]
        for r in matched:
            if r.status == "fail":
                r.status = "xfail"
        if matched and not any(r.status == "xfail" for r in matched):
            summary.unexpected_passes.append(pattern)


def _producer(options: Options, hello: Hello) -> Producer | None:
    """The worker that draws and answers the run's cases (CONF-16), started while the
    vectors run; None when there is nothing to draw or it cannot start."""
    plan = [
        (profile, op)
        for profile in options.profiles
        for op in by_op(profile)
        if op in hello.ops and options.cases > 0
    ]
    if not plan or options.workers <= 0:
        return None
    size = max(1, min(options.batch, options.cases))
    try:
        return Producer(plan, options.seed, options.cases, size, options.workers)
    except OSError:  # no second process here: draw in process
        return None


def run(options: Options, progress: Callable[[str], None] = lambda _: None) -> Summary:
    """Check the port ``options.command`` and return the summary (the port is stopped)."""
    started = time.monotonic()
    port = Port(options.command, timeout=options.timeout)
    hello = port.start()
    summary = Summary(hello=hello, allow_skips=options.allow_skips)
    progress(f"port {hello.name} {hello.version}: ops {', '.join(hello.ops)}")
    producer = _producer(options, hello)
    try:
        if options.vectors:
            summary.results += _run_vectors(port, hello)
            progress(f"vectors: {len(summary.results)} cases")
        generated_start = time.monotonic()
        for profile in options.profiles:
            # Every op the port announces and the kit generates gets --cases distinct cases
            # (CONF-10); an op registered in by_op needs nothing more.
            for op in by_op(profile):
                if op not in hello.ops or options.cases <= 0:
                    continue
                summary.results += _differential(
                    port, options, profile, op, options.cases, summary, producer
                )
            mine = [k for k in summary.generated if k.startswith(profile + "/")]
            done = sum(summary.generated[k] for k in mine)
            detail = ", ".join(
                f"{k.split('/', 1)[1]} {summary.generated[k]}/{summary.drawn.get(k, 0)}"
                for k in mine
            )
            progress(f"generated ({profile}): {done} distinct cases (distinct/drawn: {detail})")
        summary.generated_seconds = time.monotonic() - generated_start
    finally:
        if producer is not None:
            producer.close()
        summary.restarts = port.restarts
        port.stop()
        summary.stderr = port.stderr_text()
    _apply_expected_failures(summary, options.expected_failures)
    summary.seconds = time.monotonic() - started
    return summary
