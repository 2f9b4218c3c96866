"""A port as one long-lived subprocess speaking JSON Lines (CONF-4, CONF-6, CONF-7).

Requests are pipelined: a window of requests is written by a writer thread while a reader
thread collects answer lines, so a fast port is never idle waiting for Python. Each answer
must arrive within ``timeout`` seconds of the previous one (or of the request being
written); a port that hangs is killed and restarted, one that exits is restarted, and both
outcomes keep the tail of the port's stderr.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import queue
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from .._errors import ChunkspecError
from ._wire import dumps

__all__ = ["PROTOCOL", "PROTOCOLS", "Answer", "Port", "PortError"]

#: The newest protocol version this kit speaks (the hello exchange checks it, CONF-4).
PROTOCOL = 2
#: Every version it speaks: 1 sends one case a message, 2 adds batch messages (CONF-15).
PROTOCOLS = (1, 2)

_STDERR_KEEP = 1 << 20


class PortError(ChunkspecError):
    """The port cannot be used at all (does not start, or fails the hello exchange)."""


@dataclass
class Answer:
    """One answer: ``kind`` is ok, error, skipped, crash or timeout; ``value`` its payload."""

    kind: str
    value: Any = None
    stderr: str = ""


@dataclass
class Hello:
    """What the port said about itself in the hello exchange."""

    name: str
    version: str
    ops: list[str]
    features: list[str] = field(default_factory=list)


class Port:
    """The port subprocess: start it, say hello, answer batches of requests, restart it."""

    def __init__(
        self, command: list[str], *, timeout: float = 5.0, startup_timeout: float = 30.0
    ) -> None:
        self.command = command
        self.timeout = timeout
        self.startup_timeout = startup_timeout
        self.restarts = 0
        self.hello: Hello | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: collections.deque[bytes] = collections.deque()
        self._stderr_size = 0
        self._lock = threading.Lock()
        self._next_id = 1
        self._threads: list[threading.Thread] = []
        self._pending: list[tuple[int, list[tuple[str, Any]], bool]] = []
        self.protocol = PROTOCOL
        self._outbox: queue.Queue[bytes | None] = queue.Queue()
        self._current = bytearray()

    # -- life cycle --------------------------------------------------------------------------

    def start(self) -> Hello:
        """Start the process and perform the hello exchange; raise PortError on failure."""
        try:
            proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=-1,  # buffered: reading answer lines byte by byte is slow
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        except OSError as error:
            raise PortError(f"cannot start {self.command[0]!r}: {error.strerror}") from None
        self._proc = proc
        lines: queue.Queue[bytes | None] = queue.Queue()
        self._lines = lines
        assert proc.stdout is not None
        assert proc.stderr is not None
        outbox: queue.Queue[bytes | None] = queue.Queue()
        self._outbox = outbox
        current = bytearray()  # this process's stderr, for the tail shown with a failure
        self._current = current
        self._threads = [
            threading.Thread(target=_pump_lines, args=(proc.stdout, lines), daemon=True),
            threading.Thread(target=self._pump_stderr, args=(proc.stderr, current), daemon=True),
            threading.Thread(target=_write_all, args=(proc.stdin, outbox), daemon=True),
        ]
        for thread in self._threads:
            thread.start()
        # "protocol": 1 keeps a version-1 port that checks it working (CONF-15).
        request = {"id": 0, "op": "hello", "input": {"protocol": 1, "protocols": list(PROTOCOLS)}}
        self._write_async([dumps(request)])
        line = self._read(self.startup_timeout)
        if line is None or line == b"":
            self.stop()
            raise PortError(f"port gave no hello answer{self._tail_note()}")
        try:
            answer = json.loads(line)
            ok = answer["ok"]
            hello = Hello(
                name=str(ok["name"]),
                version=str(ok["version"]),
                ops=[str(op) for op in ok["ops"]],
                features=[str(f) for f in ok.get("features", [])],
            )
            protocol = ok["protocol"]
        except (ValueError, KeyError, TypeError):
            self.stop()
            raise PortError(f"malformed hello answer: {line[:200]!r}") from None
        if isinstance(protocol, bool) or protocol not in PROTOCOLS:
            self.stop()
            raise PortError(
                f"port speaks protocol {protocol!r}, this kit speaks "
                + " and ".join(str(p) for p in PROTOCOLS)
            )
        self.protocol = protocol
        self.hello = hello
        return hello

    def stop(self, *, kill: bool = False) -> None:
        """Close stdin and end the process (killed at once with ``kill``, else after 1 s)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        assert proc.stdin is not None
        assert proc.stdout is not None
        assert proc.stderr is not None
        if kill and proc.poll() is None:
            proc.kill()
        self._outbox.put(None)  # the writer closes stdin when it gets here
        try:
            proc.wait(1.0)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for thread in self._threads:
            thread.join(1.0)
        proc.stdout.close()
        proc.stderr.close()

    def restart(self) -> None:
        """Kill the process and start a fresh one (CONF-7)."""
        self.stop(kill=True)
        self.restarts += 1
        self.start()

    def stderr_text(self) -> str:
        """Everything the port wrote on stderr (the last megabyte), decoded leniently."""
        with self._lock:
            return b"".join(self._stderr).decode("utf-8", "replace")

    # -- requests ----------------------------------------------------------------------------

    def run(self, requests: list[tuple[str, Any]], window: int = 256) -> list[Answer]:
        """Send ``(op, input)`` requests, pipelined ``window`` at a time; one Answer each."""
        answers: list[Answer] = []
        for start in range(0, len(requests), window):
            self.submit(requests[start : start + window])
            answers += self.collect()
        return answers

    def submit(self, batch: list[tuple[str, Any]], texts: list[str] | None = None) -> None:
        """Send a batch without waiting; ``collect`` returns its answers (batches in order).

        Under protocol 2 a batch of two or more cases is one ``batch`` message (CONF-15);
        ``texts``, when given, are the inputs' wire texts already written.
        """
        self._send(batch, texts, framed=self.protocol >= 2 and len(batch) > 1)

    def _send(self, batch: list[tuple[str, Any]], texts: list[str] | None, *, framed: bool) -> None:
        """Write ``batch`` as one batch message or as one message a case."""
        if self._proc is None or self._proc.poll() is not None:
            self.restart()
            framed = framed and self.protocol >= 2
        first = self._next_id
        self._next_id += len(batch)
        self._pending.append((first, batch, framed))
        inputs = texts if texts is not None else [dumps(data) for _, data in batch]
        if framed:
            requests = ",".join(
                f'{{"op":{dumps(op)},"input":{text}}}'
                for (op, _), text in zip(batch, inputs, strict=True)
            )
            self._write_async(
                [f'{{"id":{first},"op":"batch","input":{{"requests":[{requests}]}}}}']
            )
            return
        self._write_async(
            [
                f'{{"id":{first + k},"op":{dumps(op)},"input":{text}}}'
                for k, ((op, _), text) in enumerate(zip(batch, inputs, strict=True))
            ]
        )

    def collect(self) -> list[Answer]:
        """Return the answers to the oldest submitted batch.

        After a crash or timeout the port is restarted, the rest of the batch is asked
        again, and later submitted batches are sent again to the new process (a loop, not
        recursion: a port may crash on every case).
        """
        base, batch, framed = self._pending.pop(0)  # the answer to batch[k] has id base + k
        if framed:
            got = self._collect_framed(base, len(batch))
            if got is not None:
                return got
            # No usable batch answer: a fresh port answers these cases one message each,
            # so a crash or a timeout is pinned on its case (CONF-15, CONF-7).
            later, self._pending = self._pending, []
            self.restart()
            self._send(batch, None, framed=False)
            for _, pending, was_framed in later:
                self._send(pending, None, framed=was_framed)
            return self.collect()
        answers: list[Answer] = []
        while len(answers) < len(batch):
            k = len(answers)
            line = self._read(self.timeout)
            if line is None:
                failed = Answer("timeout", f"no answer within {self.timeout:g} s", self._tail())
            elif line == b"":
                code = self._exit_code()
                failed = Answer("crash", f"port exited (status {code})", self._tail())
            else:
                failed = self._parse(line, base + k)
                if failed.kind != "crash":
                    answers.append(failed)
                    continue
            answers.append(failed)
            later, self._pending = self._pending, []
            self.restart()
            rest = batch[k + 1 :]
            if rest:
                self._send(rest, None, framed=False)
                base = self._pending.pop()[0] - (k + 1)
            for _, pending, was_framed in later:
                self._send(pending, None, framed=was_framed)
        return answers

    def _collect_framed(self, base: int, size: int) -> list[Answer] | None:
        """The answers of one batch message, or None when it has none usable in time."""
        line = self._read(self.timeout)
        if not line:
            return None
        try:
            answer = json.loads(line)
        except ValueError:
            return None
        items = answer.get("ok") if isinstance(answer, dict) and answer.get("id") == base else None
        if not isinstance(items, list) or len(items) != size:
            if isinstance(answer, dict) and answer.get("id") == base:
                self.protocol = 1  # it answered, but not a batch: one case a message from now
            return None
        out: list[Answer] = []
        for item in items:
            kind = next(
                (k for k in ("ok", "error", "skipped") if isinstance(item, dict) and k in item),
                None,
            )
            if kind is None:
                return None
            out.append(Answer(kind, item[kind]))
        return out

    def drain(self) -> None:
        """Collect and drop the answers to every submitted batch."""
        while self._pending:
            self.collect()

    def _parse(self, line: bytes, expected_id: int) -> Answer:
        """Turn one answer line into an Answer; a protocol violation counts as a crash."""
        try:
            answer = json.loads(line)
        except ValueError:
            return Answer(
                "crash", f"protocol violation: not JSON: {line[:200]!r}", self._tail(settle=False)
            )
        if not isinstance(answer, dict) or answer.get("id") != expected_id:
            got = answer.get("id") if isinstance(answer, dict) else None
            return Answer("crash", f"protocol violation: answer id {got!r}, expected {expected_id}")
        for kind in ("ok", "error", "skipped"):
            if kind in answer:
                return Answer(kind, answer[kind])
        return Answer("crash", f"protocol violation: no ok/error/skipped: {line[:200]!r}")

    # -- plumbing ----------------------------------------------------------------------------

    def _write_async(self, lines: list[str]) -> None:
        """Queue lines for the writer thread, so a port that stops reading cannot block us.

        One writer per process keeps the batches in order (a thread per batch would not).
        """
        self._outbox.put(("\n".join(lines) + "\n").encode("ascii"))

    def _read(self, timeout: float) -> bytes | None:
        """Return the next answer line, ``b""`` at end of output, None after ``timeout``."""
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            return None
        return b"" if line is None else line

    def _exit_code(self) -> int | None:
        """Return the exit status of the process, waiting briefly for it."""
        proc = self._proc
        if proc is None:
            return None
        try:
            return proc.wait(1.0)
        except subprocess.TimeoutExpired:
            return None

    def _pump_stderr(self, stream: Any, current: bytearray) -> None:
        """Keep the last megabyte of the port's stderr, and this process's own."""
        for chunk in iter(lambda: _read_some(stream), b""):
            with self._lock:
                current += chunk
                del current[: max(0, len(current) - _STDERR_KEEP)]
                self._stderr.append(chunk)
                self._stderr_size += len(chunk)
                while self._stderr_size > _STDERR_KEEP and len(self._stderr) > 1:
                    self._stderr_size -= len(self._stderr.popleft())

    def _tail(self, size: int = 4000, *, settle: bool = True) -> str:
        """The last ``size`` characters of stderr (after giving the pump a moment)."""
        if settle:
            time.sleep(0.05)
        with self._lock:
            return bytes(self._current).decode("utf-8", "replace")[-size:]

    def _tail_note(self) -> str:
        """``": <stderr tail>"`` or nothing."""
        tail = self._tail(1000).strip()
        return f"; its stderr ends: {tail}" if tail else ""


def _read_some(stream: Any) -> bytes:
    """Read what is available (``b""`` at end of stream or when the stream was closed)."""
    try:
        return bytes(stream.read1(65536))
    except (OSError, ValueError):
        return b""


def _write_all(stream: Any, outbox: queue.Queue[bytes | None]) -> None:
    """Write each queued chunk to ``stream`` in order; close it at None."""
    while (data := outbox.get()) is not None:
        try:
            stream.write(data)
            stream.flush()
        except (OSError, ValueError):
            break  # the port closed its stdin or exited; its answers will say so
    with contextlib.suppress(OSError, ValueError):
        stream.close()


def _pump_lines(stream: Any, lines: queue.Queue[bytes | None]) -> None:
    """Put each line of ``stream`` on ``lines``, then None at end of stream."""
    try:
        for line in stream:
            lines.put(line)
    except (OSError, ValueError):
        pass
    lines.put(None)
