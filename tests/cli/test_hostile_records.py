"""The hostile records (tests/hostile_records.py) through the command line (TRUST-1..4).

A records file with one hostile line is refused whole, naming that line, by ``pack``
(plain and ``--merge``) and ``view``: nothing is packed from a file whose labels were
tampered with. A corpus of hostile front matters through ``ingest`` gives one error row per
refused document and the stated labels on every other; ``chunk --keep-going`` names each.
"""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest

from chunkspec._cli import main
from chunkspec._corpus._part_files import result_rows
from tests.hostile_records import LABELS, SOURCE, hostile_front_matter, hostile_lines

_HOSTILE = hostile_lines()
_CORPUS = hostile_front_matter()


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    sys.stdin = io.TextIOWrapper(io.BytesIO(b""), encoding="utf-8")
    try:
        status = main(argv)
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else 1
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("name", sorted(_HOSTILE))
def test_hostile_line_refuses_the_file(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """TRUST-1, TRUST-2: line 2 hostile, line 1 an unlabelled record: every reader refuses
    the whole file naming line 2, or (None) reads line 2 with exactly its labels."""
    line, pattern = _HOSTILE[name]
    monkeypatch.chdir(tmp_path)
    Path("pay.md").write_text(SOURCE, "utf-8")
    plain = json.loads(_HOSTILE["labelled"][0])
    plain["metadata"] = {}
    Path("r.jsonl").write_text(json.dumps(plain) + "\n" + line + "\n", "utf-8")
    runs = {
        "pack --merge": _cli(
            ["pack", "r.jsonl", "--merge", "--budget", "99", "--min-score", "0"], capsys
        ),
        "pack": _cli(["pack", "r.jsonl", "--budget", "99", "--min-score", "0"], capsys),
        "view": _cli(["view", "r.jsonl", "--source", "pay.md", "--output", "v.html"], capsys),
    }
    for command, (status, out, err) in runs.items():
        if pattern is None:
            assert status in (0, 1), (command, err)  # read: packed, or abstained
            continue
        assert status == 2, (command, err)
        assert out == ""
        assert re.fullmatch(rf"chunkspec \w+: error: r\.jsonl:2: {pattern}\n", err), (command, err)
    if pattern is None and name == "labelled":
        # Without a principal the labelled line is withheld; with it, it is packed.
        assert "withheld 1 record" in runs["pack --merge"][2]
        held = ["--tenant", "t1", "--label", "hr"]
        status, out, _ = _cli(
            ["pack", "r.jsonl", "--merge", "--budget", "99", "--min-score", "0", *held], capsys
        )
        assert status == 0
        assert out.count("Salaries are paid monthly.") == 1


def test_hostile_front_matter_corpus(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """TRUST-3, TRUST-4: ingest gives one error row naming the key for each refused document
    and goes on; no chunk row lacks a key its front matter set; chunk --keep-going names
    each refused document and exits 2."""
    monkeypatch.chdir(tmp_path)
    Path("corpus").mkdir()
    for name, (text, _) in _CORPUS.items():
        Path("corpus", name).write_bytes(text.encode("utf-8"))
    status, _, err = _cli(["ingest", "corpus", "--out", "out", "--format", "jsonl"], capsys)
    assert status == 0, err
    rows = result_rows(Path("out"), "out")
    for name, (_, refused) in _CORPUS.items():
        doc_rows = rows[name.removesuffix(".md")]
        if refused is None:
            assert all(row["error"] is None for row in doc_rows)
            expected = {"tenant_id": "acme"} if name == "tenant-plain.md" else {}
            assert all(row["metadata"] == expected for row in doc_rows)
            continue
        assert [row["error"] for row in doc_rows] == [
            f"corpus/{name}: front matter sets access key '{refused}' in a form chunkspec "
            "does not read (TRUST-3); give access labels as caller metadata "
            "(--metadata sidecar, metadata=)"
        ]
    status, _, err = _cli(["chunk", "corpus", "--keep-going"], capsys)
    assert status == 2
    skipped = sorted(
        re.findall(r"^chunkspec chunk: skipped: corpus/(\S+): front matter", err, re.M)
    )
    assert skipped == sorted(name for name, (_, key) in _CORPUS.items() if key is not None)


def test_caller_labels_lift_every_refusal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """TRUST-3, META-3: a sidecar setting both access keys for every document: nothing is
    refused and every record carries exactly the caller's labels."""
    monkeypatch.chdir(tmp_path)
    Path("corpus").mkdir()
    with Path("m.jsonl").open("w", encoding="utf-8") as sidecar:
        for name, (text, _) in _CORPUS.items():
            Path("corpus", name).write_bytes(text.encode("utf-8"))
            sidecar.write(
                json.dumps({"doc_id": name.removesuffix(".md"), "metadata": LABELS}) + "\n"
            )
    status, out, err = _cli(["chunk", "corpus", "--metadata", "m.jsonl"], capsys)
    assert status == 0, err
    records = [json.loads(line) for line in out.splitlines()]
    assert {record["doc_id"] for record in records} == {n.removesuffix(".md") for n in _CORPUS}
    for record in records:
        assert {k: record["metadata"][k] for k in LABELS} == LABELS
