"""The port harness's own messages (CONF-7, CONF-12), with tiny Python programs as ports."""

from __future__ import annotations

import sys
import time

import pytest

from chunkspec._conformance._port import Port, PortError


def test_no_hello_without_stderr_says_only_that() -> None:
    """CONF-12: a port that exits silently before hello: the error says so, nothing more."""
    with pytest.raises(PortError) as caught:
        Port([sys.executable, "-c", "pass"]).start()
    assert str(caught.value) == "port gave no hello answer"


def test_no_hello_quotes_the_last_1000_characters_of_stderr() -> None:
    """CONF-7, CONF-12: the error quotes the tail of the port's stderr, stripped."""
    noise = "import sys; sys.stderr.write('A' + 'B' * 2000 + '\\ngoing away\\n')"
    with pytest.raises(PortError) as caught:
        Port([sys.executable, "-c", noise]).start()
    tail = "B" * 988 + "\ngoing away"  # the last 1000 characters, then strip()
    assert str(caught.value) == f"port gave no hello answer; its stderr ends: {tail}"


def test_port_that_closes_stdout_but_lives_on_is_a_crash_without_waiting() -> None:
    """CONF-7: a port that closes its output but does not exit is a crash at once; the kit
    waits 1 s for an exit status, not for the process."""
    hello = '{"id":0,"ok":{"protocol":1,"name":"p","version":"1","ops":["words"]}}'
    program = (
        f"import os, sys, time; sys.stdout.write({hello!r} + '\\n'); sys.stdout.flush(); "
        "os.close(1); time.sleep(20)"
    )
    port = Port([sys.executable, "-c", program], timeout=10.0)
    port.start()
    started = time.monotonic()
    try:
        (answer,) = port.run([("words", {"n": 1})])
    finally:
        port.stop(kill=True)
    assert (answer.kind, answer.value) == ("crash", "port exited (status None)")
    assert time.monotonic() - started < 10
