"""Check that the port parses source code into the same trees as the Python package (CODE-1).

The Python side parses with `tree_sitter` and the grammar wheels (the ``code`` extra); the
Node side with web-tree-sitter and the npm ``.wasm`` files of the port's package.json
(scripts/trees.mjs, run from the built port). For every file, both list every node in
preorder as (type, start, end, has_error, is_missing), offsets in code points, and the lists
must be equal. A mismatch is printed with the first node that differs.

Usage (from the repository root, after ``npm run build`` in ports/typescript)::

    PYTHONPATH=src python ports/typescript/scripts/compare-trees.py [--per-language N]
        [--max-bytes B] FOLDER...

Files are taken by suffix (CODE-1's table), sorted by path, at most N a language; a file that
is not UTF-8 or is larger than B bytes is left out and counted. Prints one line a language
and a summary as JSON; the exit status is 1 on any mismatch.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import tree_sitter

from chunkspec._code._languages import LANGUAGES, language_for

HERE = Path(__file__).resolve().parent
SKIP = {".git", "node_modules", ".venv", ".nox", "__pycache__"}


def parsers() -> dict[str, tree_sitter.Parser]:
    out = {}
    for name, entry in LANGUAGES.items():
        module = importlib.import_module(entry.module)
        language = tree_sitter.Language(getattr(module, entry.function)())
        out[name] = tree_sitter.Parser(language)
    return out


def nodes_of(tree: tree_sitter.Tree, data: bytes, encoding: str = "utf8") -> list[list[Any]]:
    """Every node in preorder, offsets in code points: the count of UTF-8 lead bytes (of
    UTF-16 units other than low surrogates) before the node's byte offset."""
    if encoding == "utf8":
        lead = np.frombuffer(data, dtype=np.uint8) & 0xC0 != 0x80
    else:
        units = np.frombuffer(data, dtype="<u2")
        lead = np.zeros(len(data), dtype=bool)
        lead[0::2] = (units & 0xFC00) != 0xDC00
    cum = np.concatenate(([0], np.cumsum(lead))).tolist()
    out: list[list[Any]] = []
    cursor = tree.walk()
    while True:
        node = cursor.node
        assert node is not None
        out.append(
            [node.type, cum[node.start_byte], cum[node.end_byte], node.has_error, node.is_missing]
        )
        if cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return out


def collect(
    folders: list[str], per_language: int, max_bytes: int
) -> tuple[dict[str, list[Path]], Counter[str]]:
    files: dict[str, list[Path]] = {name: [] for name in LANGUAGES}
    skipped: Counter[str] = Counter()
    for folder in folders:
        for path in sorted(Path(folder).rglob("*")):
            if not path.is_file() or SKIP & set(path.parts):
                continue
            language = language_for(path.name)
            if language is None:
                continue
            if path.stat().st_size > max_bytes:
                skipped["too large"] += 1
                continue
            try:
                path.read_bytes().decode("utf-8")
            except UnicodeDecodeError:
                skipped["not UTF-8"] += 1
                continue
            files[language].append(path)
    for language, paths in files.items():
        if len(paths) > per_language:
            # An even spread over the sorted list: every repository has its share.
            step = len(paths) / per_language
            files[language] = [paths[int(i * step)] for i in range(per_language)]
    return files, skipped


def first_difference(ours: list[list[Any]], theirs: list[list[Any]]) -> dict[str, Any]:
    for index, (a, b) in enumerate(zip(ours, theirs, strict=False)):
        if a != b:
            return {"index": index, "python": a, "node": b}
    return {
        "index": min(len(ours), len(theirs)),
        "python_count": len(ours),
        "node_count": len(theirs),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="+")
    parser.add_argument("--per-language", type=int, default=400)
    parser.add_argument("--max-bytes", type=int, default=400_000)
    parser.add_argument(
        "--python-encoding",
        choices=["utf8", "utf16le"],
        default="utf8",
        help="what the Python side hands tree-sitter (web-tree-sitter always reads UTF-16)",
    )
    parser.add_argument(
        "--languages", default=",".join(LANGUAGES), help="comma-separated (default: all)"
    )
    args = parser.parse_args()
    files, skipped = collect(args.folders, args.per_language, args.max_bytes)
    files = {language: files[language] for language in args.languages.split(",")}
    python = parsers()
    node = subprocess.Popen(
        ["node", str(HERE / "trees.mjs")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    assert node.stdin is not None
    assert node.stdout is not None

    def ask(request: dict[str, Any]) -> dict[str, Any]:
        assert node.stdin is not None
        assert node.stdout is not None
        node.stdin.write(json.dumps(request) + "\n")
        node.stdin.flush()
        answer: dict[str, Any] = json.loads(node.stdout.readline())
        return answer

    summary: dict[str, Any] = {"skipped": dict(skipped), "languages": {}}
    failed = False
    for language, paths in files.items():
        started = time.perf_counter()
        row = Counter[str]()
        for path in paths:
            data = path.read_bytes()
            if args.python_encoding == "utf16le":
                data = data.decode("utf-8").encode("utf-16-le")
            ours = nodes_of(
                python[language].parse(data, encoding=args.python_encoding),
                data,
                args.python_encoding,
            )
            digest = hashlib.sha256(
                json.dumps(ours, separators=(",", ":"), ensure_ascii=False).encode()
            ).hexdigest()
            answer = ask({"language": language, "path": str(path)})
            row["files"] += 1
            row["nodes"] += len(ours)
            row["non_ascii"] += not path.read_bytes().isascii()
            row["has_error"] += bool(ours[0][3])
            if answer.get("digest") == digest:
                continue
            failed = True
            row["mismatch"] += 1
            theirs = ask({"language": language, "path": str(path), "nodes": True}).get("nodes", [])
            print(
                json.dumps(
                    {"mismatch": str(path), **first_difference(ours, theirs)}, ensure_ascii=False
                )
            )
        summary["languages"][language] = {**row, "seconds": round(time.perf_counter() - started, 1)}
        print(json.dumps({"language": language, **summary["languages"][language]}))
    node.stdin.close()
    node.wait()
    print(json.dumps(summary))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
