"""Generated cases drawn and answered in worker processes, ahead of the port (CONF-16).

The batch stage's Python work is drawing a case (about two thirds) and asking the oracle
(most of the rest); judging a port's answer is cheap. Worker processes run the plan of the
run (each profile and op in the runner's order, stage ``i`` in worker ``i mod W``): each
draws an op's cases from the same seeded source as in process (``_draw.draws``), drops the
ones drawn before (CONF-10), computes the oracle's answer and its canonical JSON text, and
writes the batches to its stdout (at most ``_AHEAD`` batches ahead). The main process
only talks to the port and compares, so drawing, the port and the comparison run at once.
The cases are exactly those the in-process stage draws (same source, same order, same
dedupe); an op whose stage stopped at a failure is cancelled, and its worker moves on.
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import queue
import struct
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._errors import ChunkspecError
from ._draw import draws
from ._generate import by_op
from ._oracle import expect
from ._wire import dumps

__all__ = ["Batch", "Producer", "canonical", "produce"]

#: Batches a worker may run ahead of the main process (bounds its memory).
_AHEAD = 64


@dataclass
class Batch:
    """Distinct cases of one op, their wire texts, the oracle's answers and the draws spent."""

    cases: list[tuple[str, dict[str, Any]]]
    texts: list[str]
    expected: list[dict[str, Any]]
    same: list[str | None]  # the canonical text of an ``ok`` answer (None: compare in full)
    drawn: int


def canonical(value: Any) -> str | None:
    """The JSON text two answers share when they are equal by CONF-3 (integral floats
    written as integers), or None when a value has no such text (a non-finite number)."""
    try:
        return dumps(_integral(value))
    except ValueError:
        return None


def _integral(value: Any) -> Any:
    """``value`` with every integral float under ``2**53`` as an int (``0.0`` is ``0``)."""
    kind = type(value)
    if kind is float:
        return int(value) if value.is_integer() and abs(value) < 2**53 else value
    if kind is list:
        return [_integral(v) for v in value]
    if kind is dict:
        return {k: _integral(v) for k, v in value.items()}
    return value


def produce(
    seed: int, profile: str, op: str, n: int, size: int, *, canonical_texts: bool = False
) -> Iterator[Batch] | None:
    """The batches of one op's stage: ``n`` distinct cases in batches of ``size``, at most
    twenty times ``n`` draws (CONF-10); None when the fast source is unavailable."""
    source = draws(by_op(profile)[op], f"{seed}:{profile}:{op}")
    if source is None:
        return None
    return _batches(source, n, size, canonical_texts)


def _batches(
    source: Iterator[tuple[str, dict[str, Any]]], n: int, size: int, canonical_texts: bool
) -> Iterator[Batch]:
    """Draw, dedupe and answer; one Batch per ``size`` distinct cases."""
    seen: set[str] = set()
    sent = drawn = 0
    while sent < n and drawn < 20 * n:
        batch = Batch([], [], [], [], 0)
        while len(batch.cases) < min(size, n - sent) and drawn < 20 * n:
            case = next(source)
            drawn += 1
            batch.drawn += 1
            text = dumps(case[1])
            if text not in seen:
                seen.add(text)
                answer = expect(*case)
                batch.cases.append(case)
                batch.texts.append(text)
                batch.expected.append(answer)
                same = canonical_texts and "ok" in answer
                batch.same.append(canonical(answer["ok"]) if same else None)
        sent += len(batch.cases)
        yield batch


def _work(stages: list[tuple[int, str, str]], seed: int, n: int, size: int) -> None:
    """A worker's loop: each ``(index, profile, op)`` stage in order, written to stdout as
    frames ``(index, Batch)``, ``(index, None)`` at a stage's end and ``(index, False)``
    when the fast source is unavailable; a ``cancel INDEX`` line on stdin stops that stage
    and those before it."""
    cancelled = [-1]

    def listen() -> None:
        for line in sys.stdin:
            word, _, index = line.partition(" ")
            if word == "cancel":
                cancelled[0] = max(cancelled[0], int(index))

    threading.Thread(target=listen, daemon=True).start()
    # A writer thread drains the frames, so the worker runs up to _AHEAD batches ahead of
    # the main process (a pipe alone holds about one): both workers draw at once.
    frames: queue.Queue[bytes | None] = queue.Queue(_AHEAD)
    writer = threading.Thread(target=_write_frames, args=(frames, sys.stdout.buffer))
    writer.start()
    for index, profile, op in stages:
        if cancelled[0] >= index:
            frames.put(_frame((index, None)))
            continue
        batches = produce(seed, profile, op, n, size, canonical_texts=True)
        if batches is None:
            frames.put(_frame((index, False)))
            continue
        for batch in batches:
            if cancelled[0] >= index:
                break
            frames.put(_frame((index, batch)))
        frames.put(_frame((index, None)))
    frames.put(None)
    writer.join()


def _write_frames(frames: queue.Queue[bytes | None], out: Any) -> None:
    """Write each frame in order until None."""
    while (data := frames.get()) is not None:
        out.write(data)
        out.flush()


def _frame(item: Any) -> bytes:
    """One length-prefixed pickle."""
    data = pickle.dumps(item, protocol=pickle.HIGHEST_PROTOCOL)
    return struct.pack("<I", len(data)) + data


class _ProducerGone(ChunkspecError):
    """The worker process ended before the plan did."""


class Producer:
    """Worker processes that draw and answer the run's generated cases ahead of the main
    process (plain ``python`` children speaking length-prefixed pickles on a pipe); stage
    ``i`` of the plan is worker ``i % workers``'s."""

    def __init__(
        self, plan: list[tuple[str, str]], seed: int, n: int, size: int, workers: int = 2
    ) -> None:
        self.plan = plan
        self._args = (seed, n, size)
        self._index = -1
        root = str(Path(__file__).resolve().parents[2])  # the directory holding chunkspec
        path = os.environ.get("PYTHONPATH", "")
        env = {**os.environ, "PYTHONPATH": root + (os.pathsep + path if path else "")}
        count = max(1, min(workers, len(plan)))
        self._workers: list[subprocess.Popen[bytes] | None] = []
        for w in range(count):
            stages = [(i, p, op) for i, (p, op) in enumerate(plan) if i % count == w]
            self._workers.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "chunkspec._conformance._produce",
                        json.dumps([stages, seed, n, size]),
                    ],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    env=env,
                )
            )

    def stage(self, profile: str, op: str) -> Iterator[Batch] | None:
        """The batches of the next stage of the plan, which must be ``(profile, op)``."""
        self._index += 1
        index = self._index
        if self.plan[index] != (profile, op):  # pragma: no cover - a runner bug
            raise RuntimeError(f"producer plan {self.plan[index]}, runner {(profile, op)}")
        worker = self._workers[index % len(self._workers)]
        if worker is not None:
            try:
                first = self._get(worker, index)
            except _ProducerGone:  # it could not start or died: draw in process instead
                self._workers[index % len(self._workers)] = None
            else:
                return None if first is False else self._rest(worker, index, first)
        seed, n, size = self._args
        return produce(seed, profile, op, n, size)

    def cancel(self) -> None:
        """Stop the current stage (it failed): its worker moves on to its next."""
        worker = self._workers[self._index % len(self._workers)]
        if worker is None or worker.stdin is None:
            return
        with contextlib.suppress(OSError):
            worker.stdin.write(f"cancel {self._index}\n".encode("ascii"))
            worker.stdin.flush()

    def _rest(self, worker: subprocess.Popen[bytes], index: int, first: Any) -> Iterator[Batch]:
        """Yield the stage's batches until its end marker."""
        item = first
        while item is not None:
            yield item
            item = self._get(worker, index)

    @staticmethod
    def _get(worker: subprocess.Popen[bytes], index: int) -> Any:
        """The next item of stage ``index``, skipping what is left of cancelled stages."""
        stream = worker.stdout
        assert stream is not None
        while True:
            head = stream.read(4)
            if len(head) < 4:
                raise _ProducerGone(f"a case producer exited (status {worker.poll()})")
            (length,) = struct.unpack("<I", head)
            got_index, item = pickle.loads(stream.read(length))
            if got_index == index:
                return item

    def close(self) -> None:
        """End the workers."""
        for worker in self._workers:
            if worker is None:
                continue
            worker.kill()
            worker.wait()
            for stream in (worker.stdin, worker.stdout):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()


if __name__ == "__main__":
    # Through the package's module, so that the pickled batches name its Batch class.
    from chunkspec._conformance._produce import _work as work

    work(*json.loads(sys.argv[1]))
