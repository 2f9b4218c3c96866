"""Repository hygiene: nothing a run leaves behind is tracked by git."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: An ingest staging folder (``.OUT.chunkspec-XXXX``, made beside ``--out``) or its parts.
STAGING = re.compile(r"(?:^|/)\.[^/]*\.chunkspec-[^/]+/")


def test_git_tracks_no_staging_folder() -> None:
    """No path git tracks lies inside an ingest staging folder (a run's leftover)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode("utf-8", "surrogateescape")
    leftovers = [path for path in tracked.split("\0") if STAGING.search(path)]
    assert leftovers == [], f"staging leftovers tracked by git: {leftovers}"
    assert STAGING.search(".out.chunkspec-s7j_rrux/part-0.parquet")  # the pattern itself holds
