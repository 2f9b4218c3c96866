"""Compare two source trees of chunkspec on real text: the same records, and the speed.

``python benchmarks/compare_trees.py OLD/src NEW/src [FOLDER...]`` chunks every Markdown and
text file under the folders (default: the bundled examples, the MegaMart pages, Debian's
Node.js API docs and Chroma's corpora when present) with each tree, by
``chunk_document(read_document(path), ...)`` under seven option sets (every strategy, the
structural flags, the SIZE options), and prints whether every (file, options) digest of the
records is the same; then it alternates the trees five times and prints each one's least CPU
seconds and their ratio. A refactor that must not change records (docs/performance.md) runs
it against the commit before.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = [
    ROOT / "examples",
    ROOT / "src" / "chunkspec" / "_evaluation" / "megamart" / "pages",
    Path("/usr/share/doc/nodejs/api"),
    ROOT.parent / "shared" / "data" / "chroma-chunking-evaluation" / "corpora",
]

#: What each tree runs: digests of every file's records under every option set, and CPU time.
WORKER = r"""
import hashlib, json, sys, time
from chunkspec import chunk_document, read_document
CASES = [("heading", {}), ("structural", {"split_tables": True, "count_headings": True}),
         ("recursive", {}), ("window", {"counter": "chars1", "max_tokens": 400}), ("pages", {}),
         ("heading", {"min_tokens": 0, "budget_includes_headings": True}),
         ("structural", {"max_tokens": 128})]
digests, records, spent = {}, 0, 0.0
for path in json.loads(sys.argv[1]):
    start = time.process_time()
    try:
        document = read_document(path)
    except ValueError as error:
        digests[path] = "refused " + type(error).__name__
        continue
    for strategy, options in CASES:
        try:
            found = chunk_document(document, strategy, **options)
            text = "".join(json.dumps(r.to_dict()) + "\n" for r in found)
            digests[f"{path} {strategy} {options}"] = hashlib.sha256(text.encode()).hexdigest()
            records += len(found)
        except ValueError as error:
            digests[f"{path} {strategy} {options}"] = "error " + str(error)
    spent += time.process_time() - start
print(json.dumps({"digests": digests, "records": records, "cpu": spent}))
"""


def _run(src: str, files: list[str]) -> dict[str, object]:
    """One tree's digests, record count and CPU seconds, in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", WORKER, json.dumps(files)],
        env={"PYTHONPATH": src, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main(argv: list[str]) -> int:
    """Compare the trees ``argv[0]`` and ``argv[1]`` on the files under ``argv[2:]``."""
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    old, new, *given = argv
    folders = [Path(name) for name in given] or [f for f in FOLDERS if f.is_dir()]
    files = sorted(
        str(path)
        for folder in folders
        for path in folder.rglob("*")
        if path.is_file() and path.suffix in (".md", ".markdown", ".txt")
    )
    first, second = _run(old, files), _run(new, files)
    same = first["digests"] == second["digests"]
    print(f"{len(files)} files, {first['records']} records: {'identical' if same else 'DIFFER'}")
    times: dict[str, list[float]] = {old: [], new: []}
    for _ in range(5):
        for src in (old, new):
            cpu = _run(src, files)["cpu"]
            assert isinstance(cpu, float)
            times[src].append(cpu)
    least = {src: min(spent) for src, spent in times.items()}
    ratio = least[new] / least[old]
    print(f"CPU s, least of 5: old {least[old]:.3f}, new {least[new]:.3f}, new/old {ratio:.2f}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
