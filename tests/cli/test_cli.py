"""The command line: golden cases from tests/golden/cli.json plus process-level checks."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from chunkspec import chunk_document, read_document, split_section
from chunkspec._cli import main
from chunkspec.records import RECORD_FIELDS

from .. import goldens


def run_cli(
    argv: list[str],
    stdin: bytes,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> tuple[int, str, str]:
    """Run ``main(argv)`` in-process with ``stdin``; return (status, stdout, stderr)."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    try:
        status = main(argv)
    except SystemExit as exit_:
        # As the interpreter does: None is status 0, an int is itself, anything else 1.
        code = exit_.code
        status = 0 if code is None else code if isinstance(code, int) else 1
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("case", goldens.cases("cli"))
def test_cli_golden(
    case: dict[str, Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = case["input"]
    for name, content in args.get("files", {}).items():
        data = bytes.fromhex(content["hex"]) if isinstance(content, dict) else content.encode()
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    monkeypatch.chdir(tmp_path)
    if "interrupt_after" in args:  # CLI-13: Ctrl-C once that many documents were read
        _interrupt_after(monkeypatch, args["interrupt_after"])
    stdin = args.get("stdin", "").encode()
    if args["argv"][:1] == ["-m"]:  # CLI-6: the same program as python -m chunkspec
        proc = subprocess.run(
            [sys.executable, "-m", "chunkspec", *args["argv"][1:]],
            input=stdin,
            capture_output=True,
            check=False,
        )
        status, out, err = proc.returncode, proc.stdout.decode(), proc.stderr.decode()
    else:
        status, out, err = run_cli(args["argv"], stdin, monkeypatch, capsys)
    expected = case["output"]
    assert status == expected["status"], err
    if "stdout" in expected:
        assert out == expected["stdout"]
    if "stderr_match" in expected:
        assert re.fullmatch(expected["stderr_match"], err), err
    else:
        assert err == ""
    for name, content in expected.get("files", {}).items():
        if content is None:  # CLI-11: no such file (not even a half one)
            assert not (tmp_path / name).exists(), name
        else:
            assert (tmp_path / name).read_text("utf-8") == content, name
    leftovers = [p.name for p in tmp_path.rglob(".chunkspec-*")]
    assert leftovers == []  # CLI-11: no temporary file is left behind


def _interrupt_after(monkeypatch: pytest.MonkeyPatch, count: int) -> None:
    """Make reading the document after ``count`` raise KeyboardInterrupt (a Ctrl-C)."""
    from chunkspec._cli import _inputs

    real = _inputs.read_input
    seen = [0]

    def read(item: Any, options: Any, metadata: Any = None) -> Any:
        if seen[0] == count:
            raise KeyboardInterrupt
        seen[0] += 1
        return real(item, options, metadata)

    monkeypatch.setattr(_inputs, "read_input", read)


def test_split_output_matches_library(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI-2: every line is the library's record (RECORD-1), texts are split_section's."""
    path = Path(__file__).parents[2].joinpath("examples", "returns-policy.md")
    monkeypatch.chdir(Path(__file__).parents[2])
    status, out, err = run_cli(
        ["split", "examples/returns-policy.md", "--max-tokens", "64"], b"", monkeypatch, capsys
    )
    assert status == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    document = read_document("examples/returns-policy.md")
    records = chunk_document(document, "recursive", max_tokens=64, counter="whitespace")
    chunks = split_section("returns-policy", document.title, path.read_text("utf-8"), 64)
    assert len(lines) == len(records) == len(chunks) > 1
    for line, record, chunk in zip(lines, records, chunks, strict=True):
        assert list(line) == list(RECORD_FIELDS)
        assert line == record.to_dict()
        assert (line["id"], line["text"], line["tokens"], line["content_hash"]) == (
            chunk.id,
            chunk.text,
            chunk.tokens,
            chunk.content_hash,
        )


def test_python_dash_m(tmp_path: Path) -> None:
    """CLI-6: ``python -m chunkspec`` is the same program (status, output, one-line errors)."""
    ok = subprocess.run(
        [sys.executable, "-m", "chunkspec", "split", "-", "--max-tokens", "1"],
        input=b"a b",
        capture_output=True,
        check=False,
    )
    assert ok.returncode == 0
    assert [json.loads(line)["text"] for line in ok.stdout.decode().splitlines()] == ["a", "b"]
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "chunkspec",
            "split",
            str(tmp_path / "missing"),
            "--max-tokens",
            "1",
        ],
        capture_output=True,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stderr.decode().count("\n") == 1
    assert "Traceback" not in bad.stderr.decode()


def test_broken_pipe_is_quiet(tmp_path: Path) -> None:
    """CLI-1: a reader that goes away early (``| head -1``) gets status 0 and no noise."""
    big = tmp_path / "big.txt"
    big.write_text("\n\n".join(f"w{i}" for i in range(300_000)))
    with subprocess.Popen(
        [sys.executable, "-m", "chunkspec", "split", str(big), "--max-tokens", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as proc:
        assert proc.stdout is not None
        assert proc.stderr is not None
        assert proc.stdout.readline().startswith(b'{"id": "big:0"')
        proc.stdout.close()
        assert proc.wait(timeout=60) == 0
        assert proc.stderr.read() == b""
