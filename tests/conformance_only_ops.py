"""A port wrapper for the kit's own tests: ``python tests/conformance_only_ops.py OPS -- CMD...``.

Starts ``CMD`` and passes the protocol through unchanged, except that the hello answer
announces only the comma-separated ``OPS``: the kit then generates cases for those ops
alone, so a broken-port test spends its cases on the op its fault breaks.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from typing import IO


def _copy(source: IO[bytes], target: IO[bytes]) -> None:
    """Copy ``source`` to ``target`` line by line, then close ``target``."""
    for line in source:
        target.write(line)
        target.flush()
    target.close()


def main(argv: list[str]) -> int:
    """Run the wrapped port until its output ends; return its exit status."""
    ops, command = argv[0].split(","), argv[argv.index("--") + 1 :]
    port = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert port.stdin is not None
    assert port.stdout is not None
    threading.Thread(target=_copy, args=(sys.stdin.buffer, port.stdin), daemon=True).start()
    out = sys.stdout.buffer
    for line in port.stdout:
        answer = json.loads(line)
        if answer.get("id") == 0 and "ok" in answer:
            answer["ok"]["ops"] = [op for op in answer["ok"]["ops"] if op in ops]
            line = (json.dumps(answer) + "\n").encode("ascii")
        out.write(line)
        out.flush()
    return port.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
