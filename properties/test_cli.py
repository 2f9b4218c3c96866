"""Properties of the command line (docs/spec.md section 5)."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chunkspec import chunk_document, document_from_text, split_section
from chunkspec._cli import main
from chunkspec.records import RECORD_FIELDS

from .strategies import split_texts

_quiet = settings(suppress_health_check=[HealthCheck.function_scoped_fixture])


def _run(argv: list[str], data: bytes, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    old = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        status = main(argv)
    except SystemExit as exit_:
        # As the interpreter does: None is status 0, an int is itself, anything else 1.
        code = exit_.code
        status = 0 if code is None else code if isinstance(code, int) else 1
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return status, out, err


@_quiet
@given(text=split_texts, limit=st.integers(1, 8))
def test_split_prints_the_library_result(
    text: str, limit: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI-2, CLI-3, CLI-9, RECORD-11: split's JSON lines are the records of the library's
    chunks for the same text (stdin read as Markdown), in RECORD_FIELDS order; their texts
    are split_section's, blank chunks left out."""
    status, out, err = _run(["split", "-", "--max-tokens", str(limit)], text.encode(), capsys)
    assert status == 0
    assert err == ("" if out else "chunkspec split: stdin: no text to chunk\n")
    source = text.removeprefix("\ufeff")
    document = document_from_text(source, doc_id="stdin")
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines == [r.to_dict() for r in chunk_document(document, "recursive", max_tokens=limit)]
    expected = split_section("stdin", document.title, source, limit)
    assert [line["text"] for line in lines] == [c.text for c in expected if c.text.split()]
    assert all(list(line) == list(RECORD_FIELDS) for line in lines)


@_quiet
@given(data=st.binary(max_size=60), command=st.sampled_from(["split", "pack"]))
def test_any_bytes_give_result_or_one_line_error(
    data: bytes, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI-1, CLI-3, CLI-4, CLI-5, SOURCE-7: arbitrary bytes end in 0/1 with output (none
    for a blank document), or 2 with one line."""
    option = "--max-tokens" if command == "split" else "--budget"
    status, out, err = _run([command, "-", option, "3"], data, capsys)
    if status == 2:
        assert out == ""
        assert err.count("\n") == 1
        assert err.startswith(f"chunkspec {command}: error: ")
    elif status == 1:
        assert command == "pack"
        assert out == ""
        assert "abstain" in err
    else:
        assert status == 0
        assert out.endswith("\n") or (command == "split" and out == "" and not _blank(data))


def _blank(data: bytes) -> bool:
    """True unless ``data`` is text with a word in it, read as SOURCE-9 reads it: UTF-32 or
    UTF-16 by their byte-order marks, else UTF-8, one byte-order mark dropped."""
    codec = "utf-8"
    for mark, name in ((b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32")):
        if data.startswith(mark):
            codec = name
            break
    else:
        if data.startswith((b"\xff\xfe", b"\xfe\xff")):
            codec = "utf-16"
    return bool(data.decode(codec).removeprefix("\ufeff").split())


@_quiet
@given(value=st.text(alphabet="-0123456789xe.n", max_size=6))
def test_bad_numbers_are_one_line(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    """CLI-1: any --max-tokens value is accepted (an int >= 1) or rejected in one line."""
    status, _out, err = _run(["split", "-", "--max-tokens", value], b"a b", capsys)
    if status == 0:
        assert int(value) >= 1
    else:
        assert status == 2
        assert err.count("\n") == 1


def test_pack_reads_split_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CLI-4: pack accepts split's JSON lines as they are (scores 0.0 so min-score 0)."""
    status, out, _ = _run(["split", "-", "--max-tokens", "1"], b"a b c", capsys)
    assert status == 0
    status, context, err = _run(
        ["pack", "-", "--budget", "2", "--min-score", "0"], out.encode(), capsys
    )
    assert (status, err) == (0, "")
    assert context == "[stdin:0] stdin\na\n[stdin:1] stdin\nb\n"


@settings(_quiet, max_examples=5, deadline=None)
@given(texts=st.lists(split_texts, min_size=1, max_size=6), limit=st.integers(1, 5))
def test_python_dash_m_is_the_command(
    texts: list[str], limit: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI-6, SOURCE-7: ``python -m chunkspec split - 1.md ...`` (the first text on stdin, the
    others as files) exits and prints exactly what ``main`` does in-process, stdin's texts
    split_section's with blank chunks left out (a few examples of several documents each: the
    process start-up is the cost)."""
    import subprocess
    import tempfile

    names = [f"{n}.md" for n in range(1, len(texts))]
    argv = ["split", "-", *names, "--max-tokens", str(limit)]
    stdin = texts[0].encode()
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in zip(names, texts[1:], strict=True):
            Path(tmp, name).write_bytes(text.encode())
        proc = subprocess.run(
            [sys.executable, "-m", "chunkspec", *argv],
            input=stdin,
            capture_output=True,
            cwd=tmp,
            check=False,
        )
        here = os.getcwd()
        os.chdir(tmp)
        try:
            in_process = _run(argv, stdin, capsys)
        finally:
            os.chdir(here)
    assert (proc.returncode, proc.stdout.decode(), proc.stderr.decode()) == in_process
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.decode().split("\n") if line]
    expected = split_section("stdin", "stdin", texts[0].removeprefix("\ufeff"), limit)
    assert [line["text"] for line in lines if line["doc_id"] == "stdin"] == [
        c.text for c in expected if c.text.split()
    ]
