"""Real git as the reference of REPO-7: which files of a folder git leaves unignored.

``git_kept(root)`` runs ``git init`` in ``root`` and ``git ls-files --others
--exclude-standard`` (untracked files that no ignore rule excludes), with no user or system
configuration read (no global excludes file), and returns the relative paths without a
part starting with ``.`` (the walk skips those by CLI-17). ``walk_kept(root)`` is the same
set as the walk's ``--gitignore`` with every other repository rule off.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from chunkspec._corpus._file_io import IngestError
from chunkspec._corpus._repository import WalkRules
from chunkspec._corpus._walk import find_inputs

#: git itself, or None where it is not installed (the tests that need it skip).
GIT = shutil.which("git")


def _environment(home: Path) -> dict[str, str]:
    """An environment where git reads no configuration but the repository's."""
    keep = {name: value for name, value in os.environ.items() if not name.startswith("GIT_")}
    return {
        **keep,
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
    }


def git_kept(root: Path) -> set[str]:
    """The files under ``root`` git does not ignore, as ``/``-separated relative paths."""
    assert GIT is not None
    env = _environment(root)
    if not (root / ".git").exists():
        subprocess.run([GIT, "init", "-q", str(root)], check=True, env=env)
    listed = subprocess.run(
        [GIT, "-C", str(root), "ls-files", "-z", "--others", "--exclude-standard"],
        check=True,
        capture_output=True,
        env=env,
    ).stdout
    kept = set()
    for raw in listed.split(b"\0"):
        if not raw:
            continue
        path = os.fsdecode(raw)
        if any(part.startswith(".") for part in path.split("/")):
            continue
        kept.add(path)
    return kept


def walk_kept(root: Path) -> set[str]:
    """The files the walk takes from ``root`` with ``--gitignore --no-skip --glob '*'
    --input-format text`` (every file a document: REPO-13 skips none)."""
    rules = WalkRules(skip=False, gitignore=True, input_format="text")
    try:
        found = find_inputs([str(root)], "*", None, rules=rules, skipped=[])
    except IngestError as error:  # no input at all: the walk says so
        if "no input files" in str(error):
            return set()
        raise
    prefix = str(root) + os.sep
    return {item.path[len(prefix) :].replace(os.sep, "/") for item in found}
