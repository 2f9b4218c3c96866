"""Golden scenarios of reuse that must be proved, tests/golden/trust_reuse.json (TRUST-40..46).

Each scenario ingests ``before`` (with a sidecar and files beside the corpus, if given),
edits the output folder as ``tamper`` says (tests/tamper.py), makes the corpus hold
``after`` and ingests again; it checks the second run's exit status, stderr, manifest,
change set (each document's change and reason) and labels, and that its part files are
byte for byte a full run's (a status 2 run leaves --out as it was).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from chunkspec._cli import main
from chunkspec._corpus._part_files import result_rows
from tests import goldens
from tests.tamper import tamper


def _write(folder: Path, files: dict[str, str]) -> None:
    """Make ``folder`` hold exactly ``files``."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text, "utf-8")


def _sidecar(path: Path, entries: dict[str, Any]) -> list[str]:
    """Write the --metadata file; return its flag."""
    path.write_text(
        "".join(json.dumps({"doc_id": k, "metadata": v}) + "\n" for k, v in entries.items()),
        "utf-8",
    )
    return ["--metadata", str(path)]


def _files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by relative path."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def _parts(folder: Path) -> dict[str, bytes]:
    """The part files of a result, by name."""
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.name.startswith("part-")}


def run_scenario(case: dict[str, Any], tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Run one scenario and check its output."""
    data, expected = case["input"], case["output"]
    corpus, out, beside = tmp / "in", tmp / "out", tmp / "beside"
    _write(beside, data.get("files", {}))
    options = [option.replace("{root}", str(beside)) for option in data["options"]]
    after_options = [
        option.replace("{root}", str(beside)) for option in data.get("after_options", options)
    ]
    first = _sidecar(tmp / "side.jsonl", data["sidecar"]) if "sidecar" in data else []
    argv = ["ingest", str(corpus), "--out", str(out), "--workers", "1"]
    _write(corpus, data["before"])
    assert main([*argv, *options, *first]) == 0
    for edit in data.get("tamper", []):
        assert tamper(out, edit["edit"], edit.get("doc_id"), edit.get("index", 0)), edit
    second = first
    if "after_sidecar" in data:
        after = data["after_sidecar"]
        second = [] if after is None else _sidecar(tmp / "side2.jsonl", after)
    _write(corpus, data.get("after", data["before"]))
    _write(beside, data.get("after_files", data.get("files", {})))
    kept = _files(out)
    capsys.readouterr()
    status = main([*argv, *after_options, *second])
    captured = capsys.readouterr()
    assert status == expected["status"]
    assert re.fullmatch(expected["stderr_match"], captured.err), captured.err
    if status != 0:
        assert _files(out) == kept
        return
    manifest = json.loads((out / "_chunkspec.json").read_text("utf-8"))
    assert manifest["reused"] == expected["reused"]
    changes = [
        json.loads(line)
        for line in (out / "_changes" / "changes.jsonl").read_text("utf-8").splitlines()
    ]
    documents = {
        c["doc_id"]: [c["change"], c["reason"]] for c in changes if c["scope"] == "document"
    }
    assert documents == expected["documents"]
    if "order" in expected:
        assert list(documents) == expected["order"]
    assert all(c["reason"] is None for c in changes if c["scope"] == "chunk")
    rows = result_rows(out, "out")
    if "labels" in expected:
        assert {doc: [row["metadata"] for row in found] for doc, found in rows.items()} == {
            doc: [labels] * len(rows[doc]) for doc, labels in expected["labels"].items()
        }
    # TRUST-40: the rows of a full run, byte for byte
    full = tmp / "full"
    assert (
        main(["ingest", str(corpus), "--out", str(full), "--workers", "1", *after_options, *second])
        == 0
    )
    assert _parts(out) == _parts(full)


@pytest.mark.parametrize("case", goldens.cases("trust_reuse"))
def test_trust_reuse(
    case: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each scenario of tests/golden/trust_reuse.json (local engine)."""
    run_scenario(case, tmp_path, capsys)
