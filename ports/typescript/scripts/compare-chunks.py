"""Check the port's ``chunk_code`` against Python's on real source files (CODE-1..CODE-11).

Each file is sent to the built port's adapter (``dist/src/adapter.js``) as a ``chunk_code``
request, with a budget, counter and ``scope_prefix`` drawn from the file's index, and the
answer is compared with the kit's oracle (``chunkspec._conformance.code._code_ops``). A
mismatch prints the file, the options and the first differing span.

Usage (from the repository root, after ``npm run build`` in ports/typescript)::

    PYTHONPATH=src python ports/typescript/scripts/compare-chunks.py [--per-language N]
        [--max-bytes B] FOLDER...
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from chunkspec._conformance.code._code_ops import chunk_code

HERE = Path(__file__).resolve().parent
BUDGETS = (16, 64, 200, 1000)
COUNTERS = ("whitespace", "whitespace", "unicode", "chars40")


def _trees() -> Any:
    spec = importlib.util.spec_from_file_location("compare_trees", HERE / "compare-trees.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="+")
    parser.add_argument("--per-language", type=int, default=100)
    parser.add_argument("--max-bytes", type=int, default=100_000)
    args = parser.parse_args()
    files, skipped = _trees().collect(args.folders, args.per_language, args.max_bytes)
    port = subprocess.Popen(
        ["node", str(HERE.parent / "dist" / "src" / "adapter.js")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    assert port.stdin is not None
    assert port.stdout is not None
    summary: dict[str, Any] = {"skipped": dict(skipped), "languages": {}}
    failed = False
    serial = 0
    for language, paths in files.items():
        started = time.perf_counter()
        row = Counter[str]()
        for index, path in enumerate(paths):
            text = path.read_bytes().decode("utf-8")
            data = {
                "text": text,
                "language": language,
                "max_tokens": BUDGETS[index % len(BUDGETS)],
                "counter": COUNTERS[index // len(BUDGETS) % len(COUNTERS)],
                "scope_prefix": index % 3 == 1,
            }
            serial += 1
            port.stdin.write(json.dumps({"id": serial, "op": "chunk_code", "input": data}) + "\n")
            port.stdin.flush()
            answer = json.loads(port.stdout.readline())
            expected = chunk_code(**data)
            row["files"] += 1
            row["spans"] += len(expected["spans"])
            row[expected["parser"].split(":")[0]] += 1
            if answer.get("ok") == expected:
                continue
            failed = True
            row["mismatch"] += 1
            got = answer.get("ok") or answer
            first = None
            if isinstance(got, dict) and isinstance(got.get("spans"), list):
                for k, (a, b) in enumerate(zip(expected["spans"], got["spans"], strict=False)):
                    if a != b:
                        first = {"index": k, "python": a, "port": b}
                        break
            options = {k: v for k, v in data.items() if k != "text"}
            print(
                json.dumps(
                    {
                        "mismatch": str(path),
                        **options,
                        "parser": [
                            expected["parser"],
                            got.get("parser") if isinstance(got, dict) else None,
                        ],
                        "count": [
                            len(expected["spans"]),
                            len(got.get("spans", [])) if isinstance(got, dict) else None,
                        ],
                        "first": first if first is not None else str(got)[:300],
                    },
                    ensure_ascii=False,
                )
            )
        summary["languages"][language] = {**row, "seconds": round(time.perf_counter() - started, 1)}
        print(json.dumps({"language": language, **summary["languages"][language]}))
    port.stdin.close()
    port.wait()
    print(json.dumps(summary))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
