"""The cost of ``chunkspec ingest``'s machinery beside a plain loop over the library.

Run with ``nox -s bench -- ingest`` or ``python benchmarks/bench_ingest.py [--documents N]
[--ray]``. On one generated corpus (Markdown, text and PDF by turns, tests/corpus_files.py)
it measures:

- a plain loop in this process (read, ``document_from_bytes``, ``chunk_document``): CPU
  seconds per document, the floor;
- ``chunkspec ingest`` as a command with 1 and 2 local workers, on 4 documents (one of
  each kind, a PDF among them, so the fixed cost holds every import: interpreter, pypdf,
  pyarrow, pool start) and on N (the per-document cost is the difference over N - 4), in
  CPU seconds of the command and its workers (``RUSAGE_CHILDREN``) and in wall seconds;
  the ratio per document against the loop is the overhead of the machinery;
- with ``--ray``, the same for ``--engine ray`` (a fresh Ray on 127.0.0.1 per run; wall
  time, since Ray's processes are not this process's children);
- peak memory of one worker process reading and chunking one document of 1, 4 and 16 MiB
  (``ru_maxrss`` of a fresh process, minus that process's baseline), as a multiple of the
  document's size: what ``chunkspec.ray.BIG_MEMORY_PER_BYTE`` reserves for.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests/corpus_files.py builds the corpus

from tests.corpus_files import write_corpus  # noqa: E402

from benchmarks.ingest_run import ENV, ingest_command  # noqa: E402
from chunkspec import chunk_document, document_from_bytes  # noqa: E402

OPTIONS = ["--strategy", "heading", "--max-tokens", "64"]

#: The documents of the fixed-cost run: Markdown, text, Markdown, PDF.
FIXED_DOCS = 4


def plain_loop(files: list[Path]) -> float:
    """CPU seconds per document of the library alone, best of 3."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for path in files:
            try:
                document = document_from_bytes(
                    path.read_bytes(), doc_id=path.stem, source=str(path)
                )
            except ValueError:
                continue
            chunk_document(document, "heading", max_tokens=64)
        best = min(best, time.process_time() - start)
    return best / len(files)


def engine_costs(
    one: Path, many: Path, n: int, out: Path, extra: list[str], repeat: int
) -> tuple[float, float, float, float]:
    """Return (fixed CPU, per-document CPU, fixed wall, per-document wall), best of runs."""
    fixed_cpu = fixed_wall = full_cpu = full_wall = float("inf")
    for _ in range(repeat):
        cpu, wall = ingest_command(one, out, [*OPTIONS, *extra])
        fixed_cpu, fixed_wall = min(fixed_cpu, cpu), min(fixed_wall, wall)
        cpu, wall = ingest_command(many, out, [*OPTIONS, *extra])
        full_cpu, full_wall = min(full_cpu, cpu), min(full_wall, wall)
    return (
        fixed_cpu,
        (full_cpu - fixed_cpu) / (n - 1),
        fixed_wall,
        (full_wall - fixed_wall) / (n - 1),
    )


_PEAK = """
import resource, sys
from pathlib import Path
from chunkspec import chunk_document, document_from_bytes
path, strategy = sys.argv[1], sys.argv[2]
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
data = Path(path).read_bytes()
records = chunk_document(document_from_bytes(data, doc_id="d", source=path), strategy,
                         max_tokens=512)
print(base, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, len(records))
"""


def peak_memory(folder: Path) -> list[tuple[str, int, float, float]]:
    """Return (strategy, size in MiB, peak MiB above baseline, peak / size) per document."""
    line = " ".join(f"word{k}" for k in range(12)) + "\n\n"
    rows = []
    for mib in (1, 4, 16):
        for suffix, strategy in ((".txt", "window"), (".md", "heading")):
            if suffix == ".md" and mib == 16:
                continue  # Markdown parsing of 16 MiB takes minutes on this machine
            path = folder / f"doc{mib}{suffix}"
            size = mib << 20
            text = ("# Title\n\n" if suffix == ".md" else "") + line * (size // len(line) + 1)
            path.write_bytes(text.encode()[:size])
            result = subprocess.run(
                [sys.executable, "-c", _PEAK, str(path), strategy],
                check=True,
                env=ENV,
                capture_output=True,
                text=True,
            )
            base, peak, _ = map(int, result.stdout.split())
            grown = (peak - base) / 1024
            rows.append((strategy, mib, grown, grown / mib))
    return rows


def main() -> None:
    """Print the tables of docs/performance.md, "Ingest"."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--documents", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--ray", action="store_true", help="also time --engine ray (slow)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        files = write_corpus(root / "many", args.documents, corrupt_pdf=False)
        write_corpus(root / "one", FIXED_DOCS, corrupt_pdf=False)
        floor = plain_loop(files)
        print(f"corpus: {args.documents} documents (Markdown, text, PDF), heading, 64 tokens")
        print(f"plain loop over the library: {floor * 1e3:.2f} ms CPU per document\n")
        print(
            "| engine | fixed CPU s | CPU ms / doc | / loop | fixed wall s | wall ms / doc "
            "| docs / s (wall) |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|")
        engines = [
            ("ingest --workers 1", ["--workers", "1"]),
            ("ingest --workers 2", ["--workers", "2"]),
        ]
        if args.ray:
            engines.append(("ingest --engine ray", ["--engine", "ray", "--workers", "2"]))
        for name, extra in engines:
            fixed_cpu, per_cpu, fixed_wall, per_wall = engine_costs(
                root / "one", root / "many", args.documents, root / "out", extra, args.repeat
            )
            print(
                f"| {name} | {fixed_cpu:.2f} | {per_cpu * 1e3:.2f} | {per_cpu / floor:.2f}x "
                f"| {fixed_wall:.2f} | {per_wall * 1e3:.2f} | {1 / per_wall:.0f} |"
            )
        print("\n| strategy | document MiB | peak MiB above baseline | peak / size |")
        print("|---|---:|---:|---:|")
        for strategy, mib, grown, ratio in peak_memory(root):
            print(f"| {strategy} | {mib} | {grown:.0f} | {ratio:.1f}x |")


if __name__ == "__main__":
    main()
