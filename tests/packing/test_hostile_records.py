"""Hostile records against the packers (docs/spec/trust.md, TRUST-10 to TRUST-14).

Each test is one attack a record's author (or a careless one) can make on ``pack_records``,
``pack --merge`` or plain ``pack``, and what the packer does instead of failing open, failing
the whole request, opening a file or hanging.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from chunkspec import ArgumentValueError, ChunkRecord, pack_records
from chunkspec._cli import main
from chunkspec.records import Principal
from tests import tiny_tiktoken
from tests.pack_records import labelled, pack_record

SOURCE = "one two three four five six"


def _rows(records: list[ChunkRecord], scores: list[float]) -> bytes:
    """The records as JSON Lines, each with its score."""
    return "".join(
        json.dumps({**r.to_dict(), "score": s}) + "\n" for r, s in zip(records, scores, strict=True)
    ).encode()


def _pack(argv: list[str], data: bytes, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run ``chunkspec pack - ARGV`` in this process; (status, stdout, stderr)."""
    old = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        status = main(["pack", "-", *argv])
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else 1
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return status, out, err


def _public_and(metadata: dict[str, Any]) -> list[ChunkRecord]:
    """A public record of d, and a record of h carrying ``metadata``."""
    return [
        pack_record("d", 0, SOURCE, start=0, end=7),
        labelled(pack_record("h", 0, "pay grades for staff"), metadata),
    ]


@pytest.mark.parametrize(
    "metadata",
    [
        {"acl_labels": "[hr]"},  # front matter's acl_labels: [hr] read as a string
        {"acl_labels": ["hr", 7]},
        {"acl_labels": [["hr"]]},
        {"acl_labels": {"hr": True}},
        {"tenant_id": 7},
        {"tenant_id": ["acme"]},
    ],
    ids=["string", "list-with-number", "nested", "object", "tenant-number", "tenant-list"],
)
def test_malformed_label_withholds_its_record_not_the_request(
    metadata: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """TRUST-10: one author's malformed label withholds their record from every reader
    (none, a reader holding every label) and names it; the rest still packs (was: TypeError,
    exit 2, for every query that retrieved the page)."""
    records, scores = _public_and(metadata), [0.9, 0.8]
    for principal in (None, Principal(["hr"], "acme"), Principal([], "7")):
        packed = pack_records(records, scores, 50, principal=principal)
        assert packed.text == "[1]\none two"
        assert packed.withheld == 1
        assert packed.unreadable_labels == ("h:0",)
        assert packed.to_dict()["unreadable_labels"] == ["h:0"]
    for merge in (["--merge"], []):
        status, out, err = _pack(
            [*merge, "--budget", "50", "--tenant", "acme", "--label", "hr"],
            _rows(records, scores),
            capsys,
        )
        assert status == 0
        assert "pay grades" not in out
        assert "one two" in out
        assert err == "chunkspec pack: withheld 1 record with unreadable labels: h:0\n"


def test_unreadable_notice_is_one_line_whatever_the_ids(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """TRUST-10, CLI-1: ids with line breaks are escaped and at most ten are named."""
    records = [pack_record("d", 0, SOURCE, start=0, end=7)]
    for n in range(12):
        bad = pack_record(f"h\n{n}", 0, "secret text")
        records.append(labelled(bad, {"acl_labels": "hr"}))
    status, out, err = _pack(
        ["--merge", "--budget", "50"], _rows(records, [0.9] + [0.8] * 12), capsys
    )
    assert status == 0
    assert "secret" not in out
    assert err.count("\n") == 1
    assert err.startswith("chunkspec pack: withheld 12 records with unreadable labels: h\\n0:0, ")
    assert err.endswith(" and 2 more\n")


def test_plain_pack_withholds_labelled_records(capsys: pytest.CaptureFixture[str]) -> None:
    """TRUST-11: plain pack no longer packs labelled lines with nothing said, and accepts
    --tenant/--label (it refused them) with --merge's rule."""
    records, scores = _public_and({"acl_labels": ["hr"], "tenant_id": "acme"}), [0.9, 0.8]
    status, out, err = _pack(["--budget", "50"], _rows(records, scores), capsys)
    assert (status, out) == (0, "[d:0] D\none two\n")
    assert err == "chunkspec pack: withheld 1 record the reader may not read\n"
    status, out, err = _pack(
        ["--budget", "50", "--tenant", "acme", "--label", "hr"], _rows(records, scores), capsys
    )
    assert (status, out, err) == (0, "[d:0] D\none two\n[h:0] H\npay grades for staff\n", "")
    status, out, err = _pack(
        ["--budget", "50", "--tenant", "globex", "--label", "hr"], _rows(records, scores), capsys
    )
    assert (status, out) == (0, "[d:0] D\none two\n")
    assert err == "chunkspec pack: withheld 1 record the reader may not read\n"


def test_plain_pack_withholds_seed_chunks_with_labels(capsys: pytest.CaptureFixture[str]) -> None:
    """TRUST-11: a seed-000 chunk object's metadata is read too; one that is not an object
    withholds the line from every reader (TRUST-10)."""
    lines = [
        {"id": "a", "title": "A", "text": "open text", "score": 0.9},
        {
            "id": "b",
            "title": "B",
            "text": "hr text",
            "score": 0.8,
            "metadata": {"acl_labels": ["hr"]},
        },
        {"id": "c", "title": "C", "text": "odd text", "score": 0.7, "metadata": ["hr"]},
    ]
    data = "".join(json.dumps(x) + "\n" for x in lines).encode()
    status, out, err = _pack(["--budget", "50", "--label", "hr"], data, capsys)
    assert (status, out) == (0, "[a] A\nopen text\n[b] B\nhr text\n")
    assert err == "chunkspec pack: withheld 1 record with unreadable labels: c\n"


def _two_readmes() -> list[ChunkRecord]:
    """Two tenants' README files: ids are relative paths, so both are doc id README."""
    a = pack_record("README", 0, "tenant a text tenant b secret", start=0, end=13)
    b = pack_record("README", 1, "tenant a text tenant b secret", start=13, end=29)
    return [
        ChunkRecord(**{**a.to_dict(), "source": "a/README", "heading_path": ()}),
        ChunkRecord(**{**b.to_dict(), "source": "b/README", "heading_path": ()}),
    ]


def test_two_sources_one_doc_id_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """TRUST-12: records of one doc id from two sources are refused, naming both records and
    both sources (was: one passage of both texts, cited as a/README)."""
    records = _two_readmes()
    with pytest.raises(ArgumentValueError) as caught:
        pack_records(records, [0.9, 0.8], 50)
    assert caught.value.argument == "records[1].source"
    for part in ("'README:0'", "'README:1'", "'a/README'", "'b/README'"):
        assert part in str(caught.value)
    status, out, err = _pack(["--merge", "--budget", "50"], _rows(records, [0.9, 0.8]), capsys)
    assert (status, out) == (2, "")
    assert err.startswith("chunkspec pack: error: -:2: source (record 'README:1') differs")
    assert err.count("\n") == 1


def test_overlapping_spans_with_different_text_refused() -> None:
    """TRUST-12, CTX-4: overlapping spans of one document with different text name both
    records and their sources."""
    first = pack_record("d", 0, SOURCE, start=0, end=13)
    second = pack_record("d", 1, SOURCE, start=8, end=18, text="XXXXX four")
    with pytest.raises(ArgumentValueError) as caught:
        pack_records([first, second], [0.9, 0.8], 50)
    assert caught.value.argument == "records[1].text"
    message = str(caught.value)
    assert "'d:0'" in message
    assert "'d:1'" in message
    assert "'d.md'" in message


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_record_counter_never_opens_a_fifo(tmp_path: Path) -> None:
    """TRUST-13: a record naming huggingface:FIFO is refused without opening the FIFO (was:
    pack hung there, SIGINT and SIGTERM ignored)."""
    fifo = tmp_path / "tokenizer.json"
    os.mkfifo(fifo)
    record = pack_record("d", 0, SOURCE, counter=f"huggingface:{fifo}")
    with pytest.raises(ArgumentValueError) as caught:
        pack_records([record], [0.9], 50)
    assert caught.value.argument == "records[0].counter"
    chunks = tmp_path / "chunks.jsonl"
    chunks.write_bytes(_rows([record], [0.9]))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-m", "chunkspec", "pack", str(chunks), "--merge", "--budget", "50"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.count("\n") == 1
    assert "pass the counter" in done.stderr
    assert "--counter NAME" in done.stderr
    # The caller's counter measures instead: the record's name is never built.
    assert pack_records([record], [0.9], 50, counter="whitespace").text == "[1]\n" + SOURCE


@pytest.mark.parametrize("content", [None, b"{}"], ids=["missing", "not-a-tokenizer"])
def test_command_line_counter_that_cannot_be_built(
    content: bytes | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """TRUST-14: --counter naming a missing or malformed tokenizer file is one line, exit 2
    (was: a traceback)."""
    path = tmp_path / "tokenizer.json"
    if content is not None:
        path.write_bytes(content)
    records = [pack_record("d", 0, SOURCE)]
    status, out, err = _pack(
        ["--merge", "--budget", "50", "--counter", f"huggingface:{path}"],
        _rows(records, [0.9]),
        capsys,
    )
    assert (status, out) == (2, "")
    assert err.startswith("chunkspec pack: error: ")
    assert err.count("\n") == 1
    assert "Traceback" not in err


def test_encoding_file_reaches_pack(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """TRUST-14, COUNT-9: pack --merge takes --encoding-file (the offline error told users to
    pass it, and pack refused it), with --counter or from the records' tiktoken name."""
    rank_file = tiny_tiktoken.register(monkeypatch, tmp_path)
    name = f"tiktoken:{tiny_tiktoken.NAME}"
    record = pack_record("d", 0, SOURCE, counter=name)
    for flags in (["--counter", name], []):
        status, out, err = _pack(
            ["--merge", "--cite", "--budget", "50", "--encoding-file", str(rank_file), *flags],
            _rows([record], [0.9]),
            capsys,
        )
        assert (status, err) == (0, "")
        assert json.loads(out)["counter"] == name
    status, out, err = _pack(
        ["--budget", "50", "--encoding-file", str(rank_file)], _rows([record], [0.9]), capsys
    )
    assert (status, err) == (2, "chunkspec pack: error: --encoding-file needs --merge\n")
