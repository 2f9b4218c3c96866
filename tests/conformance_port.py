"""A Python port for the conformance kit's own tests: chunkspec itself behind the protocol.

``python tests/conformance_port.py [MODE...]`` answers every request with chunkspec (so it
passes), unless a MODE makes it misbehave: ``crash-on=OP`` exits on the first OP request,
``hang-on=OP`` stops answering, ``garbage-on=OP`` writes a line that is not JSON,
``wrong-id-on=OP`` answers with another id, ``skip=OP`` skips OP, ``stderr`` writes to
stderr first, ``wrong-words`` appends a space to every words() answer (``wrong-words=N``:
only when ``n >= N``), ``protocol=N``
announces protocol N (``protocol=2`` also answers ``batch`` messages, CONF-15; a crash,
hang or garbage inside a batch happens there), ``no-hello`` exits at once, ``features=F``
declares features.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from chunkspec._conformance._oracle import OPS, expect
from chunkspec._conformance._wire import dumps


def main(modes: list[str]) -> int:
    """Serve requests from stdin until it closes."""
    opts: dict[str, str] = {}
    for mode in modes:
        name, _, value = mode.partition("=")
        opts[name] = value
    if "no-hello" in opts:
        print("going away", file=sys.stderr, flush=True)
        return 3
    if "stderr" in opts:
        print("port: starting up", file=sys.stderr, flush=True)
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        request: dict[str, Any] = __import__("json").loads(line)
        op, rid = request["op"], request["id"]
        if op == "hello":
            hello = {
                "protocol": int(opts.get("protocol", "1")),
                "name": "python-test-port",
                "version": "1.0",
                "ops": [o for o in OPS if o != opts.get("skip-op")],
                "features": [f for f in opts.get("features", "").split(",") if f],
            }
            out.write(dumps({"id": rid, "ok": hello}) + "\n")
            out.flush()
            continue
        if op == "batch" and opts.get("protocol") == "2":
            replies = []
            for inner in request["input"]["requests"]:
                reply = _one(opts, inner["op"], inner["input"], out)
                if reply is None:
                    return 7
                replies.append(reply)
            out.write(dumps({"id": rid, "ok": replies}) + "\n")
            out.flush()
            continue
        reply = _one(opts, op, request["input"], out)
        if reply is None:
            return 7
        if opts.get("wrong-id-on") == op:
            rid = rid + 1000
        if reply.get("garbage"):
            out.write("this is not json\n")
        else:
            out.write(dumps({"id": rid, **reply}) + "\n")
        out.flush()
    return 0


def _one(opts: dict[str, str], op: str, data: Any, out: Any) -> dict[str, Any] | None:
    """One request's answer without its id (None: the port crashes now)."""
    if opts.get("crash-on") == op:
        print(f"port: crashing on {op}", file=sys.stderr, flush=True)
        return None
    if opts.get("hang-on") == op:
        out.flush()
        time.sleep(3600)
    if opts.get("garbage-on") == op:
        return {"garbage": True}
    if opts.get("skip") == op:
        return {"skipped": f"{op} not implemented"}
    answer = expect(op, data)
    if "error" in answer:
        error = {"kind": answer["error"]["kind"], "message": "rejected"}
        if answer["error"]["argument"] is not None:
            error["argument"] = answer["error"]["argument"]
        return {"error": error}
    value = answer["ok"]
    least = int(opts.get("wrong-words") or 0)
    if "wrong-words" in opts and op == "words" and data["n"] >= least:
        value = value + " "
    return {"ok": value}


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
