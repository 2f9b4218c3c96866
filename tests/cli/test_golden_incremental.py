"""Golden scenarios of incremental ingest and ``chunkspec diff``, tests/golden/incremental.json.

Each scenario writes ``before`` into a folder, ingests it, makes the folder hold ``after``
and ingests again (optionally with other options, a failing write or ``--engine ray``),
then checks the second run's summary, stderr, manifest and change set; ``diff`` scenarios
run ``chunkspec diff`` on the two results. Ray scenarios run in tests/arrow_ray.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from chunkspec._cli import main
from chunkspec._cli._io import json_line
from chunkspec._corpus._out_folder import PartWriter
from chunkspec._corpus._part_files import result_rows
from chunkspec._records._changes import apply_changes
from tests import goldens


def _write(folder: Path, files: dict[str, str]) -> None:
    """Make ``folder`` hold exactly ``files``."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text, "utf-8")


def _snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by relative path."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def run_scenario(
    case: dict[str, Any],
    tmp: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Run one scenario and check its output."""
    data, expected = case["input"], case["output"]
    corpus, out, kept = tmp / "in", tmp / "out", tmp / "kept"
    engine = ["--engine", data["engine"]] if "engine" in data else ["--workers", "1"]
    argv = ["ingest", str(corpus), "--out", str(out), *engine]
    _write(corpus, data["before"])
    assert main([*argv, *data["options"]]) == 0
    shutil.copytree(out, kept)
    before = _snapshot(out)
    _write(corpus, data["after"])
    capsys.readouterr()
    if "fail_at_write" in data:
        original, calls = PartWriter.write, []

        def failing(self: PartWriter, rows: list[dict[str, Any]]) -> None:
            calls.append(1)
            if len(calls) == data["fail_at_write"]:
                raise OSError(28, "No space left on device")
            original(self, rows)

        monkeypatch.setattr(PartWriter, "write", failing)
        # TRUST-26: a failed write is one line and exit 2 (it was an OSError traceback)
        assert main([*argv, *data.get("after_options", data["options"])]) == 2
        assert capsys.readouterr().err.endswith(": cannot write: No space left on device\n")
        assert _snapshot(out) == before
        assert sorted(p.name for p in tmp.iterdir()) == ["in", "kept", "out"]
        return
    if "diff" in data:
        paths = {"OLD": str(kept), "NEW": str(out), "MISSING": str(tmp / "missing")}
        assert main([*argv, *data.get("after_options", data["options"])]) == 0
        capsys.readouterr()
        status = main(["diff", *(paths[name] for name in data["diff"])])
        captured = capsys.readouterr()
        assert status == expected["status"]
        assert re.fullmatch(expected["stderr_match"], captured.err), captured.err
        if status == 0:
            # TRUST-44: the run's change set, less the reasons only ingest knows
            lines = (out / "_changes" / "changes.jsonl").read_text("utf-8").splitlines()
            assert captured.out == "".join(
                json_line({**json.loads(line), "reason": None}) for line in lines
            )
        return
    assert main([*argv, *data.get("after_options", data["options"])]) == 0
    captured = capsys.readouterr()
    assert captured.err == expected["stderr"]
    assert re.fullmatch(expected["summary_match"], captured.out), captured.out
    manifest = json.loads((out / "_chunkspec.json").read_text("utf-8"))
    assert manifest["reused"] == expected["reused"]
    assert [[e["doc_id"], e["records"]] for e in manifest["inputs"]] == expected["inputs"]
    assert all(len(e["content_hash"]) == 64 for e in manifest["inputs"])
    changes = [
        json.loads(line)
        for line in (out / "_changes" / "changes.jsonl").read_text("utf-8").splitlines()
    ]
    documents = {c["doc_id"]: c["change"] for c in changes if c["scope"] == "document"}
    assert documents == expected["documents"]
    assert manifest["changes"]["chunks"] == expected["chunks"]
    # INCR-8: the change set applied to the old result gives the new one
    old, new = result_rows(kept, "kept"), result_rows(out, "out")
    by_key = {row["key"]: row for rows in new.values() for row in rows if row["key"]}
    assert apply_changes(old, changes, by_key) == by_key
    # INCR-3: the rows of a full run
    full = tmp / "full"
    assert (
        main(
            [
                "ingest",
                str(corpus),
                "--out",
                str(full),
                *engine,
                *data.get("after_options", data["options"]),
            ]
        )
        == 0
    )
    assert new == result_rows(full, "full")


@pytest.mark.parametrize("case", goldens.cases("incremental"))
def test_incremental(
    case: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each scenario of tests/golden/incremental.json on the local engine."""
    if case["input"].get("engine") == "ray":
        pytest.skip("Ray scenarios run in tests/arrow_ray (CHUNKSPEC_RAY_TESTS=1)")
    run_scenario(case, tmp_path, capsys, monkeypatch)
