"""Golden scenarios of the output folder and output files, tests/golden/trust_output.json.

Each case makes files, folders, links and modes in a fresh folder, optionally runs a first
``ingest`` and adds files after it, then runs the command through the real command line
(``python -m chunkspec``, in ``cwd``; standard output optionally ``/dev/full``; the file size
limit optionally capped with SIGXFSZ ignored, so a write past it fails with EFBIG as a full
disk's fails with ENOSPC) and checks the exit status, standard error (a full match) and
what must be kept, absent, listed, linked or left hidden (TRUST-20..TRUST-27).
"""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests import goldens
from tests.processes import environment

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="Linux /dev/full and rlimits")


def _make(tmp: Path, files: dict[str, str]) -> None:
    """Write ``files`` (relative path -> text) under ``tmp``."""
    for name, text in files.items():
        path = tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")


def _run(tmp: Path, argv: list[str], data: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    """Run ``python -m chunkspec ARGV`` as the case says."""
    fsize = data.get("fsize")

    def limited() -> None:
        if fsize is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    with open(data.get("stdout", os.devnull), "w") as full:
        return subprocess.run(
            [sys.executable, "-m", "chunkspec", *argv],
            cwd=tmp / data.get("cwd", "."),
            env={**environment(), "PYTHONDONTWRITEBYTECODE": "1"},
            stdout=full if "stdout" in data else subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=limited,
            timeout=120,
            check=False,
        )


@pytest.mark.parametrize("case", goldens.cases("trust_output"))
def test_trust_output(case: dict[str, Any], tmp_path: Path) -> None:
    """Each case of tests/golden/trust_output.json through the real command line."""
    data, expected = case["input"], case["output"]
    _make(tmp_path, data["files"])
    for name in data.get("dirs", []):
        (tmp_path / name).mkdir(parents=True, exist_ok=True)
    for name, target in data.get("links", {}).items():
        (tmp_path / name).symlink_to(target)
    for name, mode in data.get("modes", {}).items():
        (tmp_path / name).chmod(int(mode, 8))
    if "before" in data:
        first = _run(tmp_path, data["before"], {})
        assert first.returncode == 0, first.stderr
        _make(tmp_path, data.get("then", {}))
    run = _run(tmp_path, data["argv"], data)
    assert run.returncode == expected["status"], run.stderr
    assert re.fullmatch(expected["stderr_match"], run.stderr), run.stderr
    assert "Traceback" not in run.stderr
    if "stdout_match" in expected:
        assert re.fullmatch(expected["stdout_match"], run.stdout), run.stdout
    for name, text in expected.get("kept", {}).items():
        assert (tmp_path / name).read_text("utf-8") == text, name
    for name in expected.get("absent", []):
        assert not os.path.lexists(tmp_path / name), name
    for name, names in expected.get("listing", {}).items():
        assert sorted(p.name for p in (tmp_path / name).iterdir()) == names
    for name, target in expected.get("links", {}).items():
        assert os.readlink(tmp_path / name) == target
    for name, text in expected.get("contains", {}).items():
        assert text in (tmp_path / name).read_text("utf-8"), name
    for name, mode in expected.get("modes", {}).items():
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == int(mode, 8), name
    if "manifest_files" in expected:
        manifest = json.loads((tmp_path / "out" / "_chunkspec.json").read_text("utf-8"))
        assert manifest["files"] == expected["manifest_files"]
    if "hidden" in expected:  # temporary files and staging folders, anywhere
        hidden = [p.relative_to(tmp_path) for p in tmp_path.rglob("*") if ".chunkspec-" in p.name]
        assert sorted(p.as_posix() for p in hidden) == expected["hidden"]
