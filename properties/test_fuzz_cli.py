"""Fuzz targets for the command line (docs/verification.md, docs/reliability.md).

Arbitrary bytes as files, arbitrary JSON Lines records, arbitrary option values and file
names (line breaks, lone surrogates from undecodable ``argv`` bytes). Allowed outcomes:
status 0 with exactly the library's output, status 1 (``pack`` abstains) with one line, or
status 2 with nothing on stdout and exactly one line on stderr (CLI-1). No fixtures, so the
driver ``python -m properties.fuzz`` can call these directly.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from chunkspec import chunk_document, document_from_text, split_section
from chunkspec._cli import main
from chunkspec._cli._io import json_line

from .fuzzing import EXAMPLES, any_char, anything, check_success_stderr, fuzz_texts, json_values
from .models import ModelChunk, model_assemble, model_count, model_hash

pytestmark = pytest.mark.fuzz

MAX_SAFE = 2**53 - 1


@contextlib.contextmanager
def _cwd(path: str) -> Iterator[None]:
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


def _run(argv: list[str], stdin: bytes) -> tuple[int, str, str]:
    """Run ``main(argv)`` in-process; stdout strict UTF-8, stderr as Python's own."""
    out_bytes, err_bytes = io.BytesIO(), io.BytesIO()
    out = io.TextIOWrapper(out_bytes, encoding="utf-8", errors="strict", newline="")
    err = io.TextIOWrapper(err_bytes, encoding="utf-8", errors="backslashreplace", newline="")
    old_in = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as exit_:
                code = exit_.code  # as the interpreter maps it
                status = 0 if code is None else code if isinstance(code, int) else 1
            out.flush()
            err.flush()
    finally:
        sys.stdin = old_in
    return status, out_bytes.getvalue().decode("utf-8"), err_bytes.getvalue().decode("utf-8")


def _check_error(status: int, out: str, err: str, command: str) -> None:
    """CLI-1: status 2, nothing on stdout, exactly one line on stderr naming the program."""
    assert status == 2, (status, err)
    assert out == ""
    assert err.endswith("\n")
    assert err.count("\n") == 1, err
    assert err.startswith((f"chunkspec {command}: error: ", "chunkspec: error: ")), err
    event("outcome", "exit 2")


def _decode(data: bytes) -> str | None:
    """CLI-3: strict UTF-8 with one leading BOM dropped; None when not UTF-8 or when the
    text holds a NUL (SOURCE-11: not text)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if "\x00" in text:
        return None
    return text[1:] if text.startswith("\ufeff") else text


_CANONICAL_INT = re.compile(r"0|[1-9][0-9]{0,20}")

#: Option values: canonical ints, boundary values, and junk argparse must reject in one line.
numbers = st.one_of(
    st.integers(-3, 12).map(str),
    st.sampled_from([str(MAX_SAFE), str(MAX_SAFE + 1), "99999999999999999999", "1e3", "nan"]),
    st.sampled_from(["inf", "-inf", "0.5", " 3", "3 ", "٣", "1_0", "", "-", "--", "0x10"]),
    st.text(st.sampled_from("-0123456789.exn_ "), max_size=5),
)


def _usable_name(name: str) -> bool:
    """A name the test can create: no NUL or ``/``, not ``.``/``..``/``-...``, encodable."""
    if "\x00" in name or "/" in name or name in (".", "..") or name.startswith("-"):
        return False
    try:
        os.fsencode(name)
    except UnicodeError:
        return False
    return True


#: File names: ordinary, with line breaks or controls, or with a lone surrogate.
names = st.one_of(
    st.sampled_from(["doc.txt", "a b.md", "é.txt", "noext"]),
    st.text(any_char, min_size=1, max_size=6).filter(_usable_name),
)


@st.composite
def file_bytes(draw: st.DrawFn) -> bytes:
    """Arbitrary bytes, or text in UTF-8 (with a BOM sometimes), or text with bad bytes."""
    kind = draw(st.sampled_from(["bytes", "text", "text", "bom", "broken"]))
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    text = draw(fuzz_texts.filter(lambda s: not any(0xD800 <= ord(c) <= 0xDFFF for c in s)))
    data = text.encode("utf-8")
    if kind == "bom":
        return b"\xef\xbb\xbf" + data
    if kind == "broken":
        cut = draw(st.integers(0, len(data)))
        return data[:cut] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80"])) + data[cut:]
    return data


def _plain(value: str) -> bool:
    """An option value argparse takes as given: no leading ``-``, no lone surrogate."""
    return not value.startswith("-") and not any(0xD800 <= ord(c) <= 0xDFFF for c in value)


@given(
    data=file_bytes(),
    where=st.sampled_from(["file", "stdin", "missing", "directory"]),
    name=names,
    limit=st.one_of(st.integers(1, 8).map(str), st.integers(1, 8).map(str), numbers),
    doc_id=st.none() | st.text(any_char, max_size=4),
    title=st.none() | st.text(any_char, max_size=4),
)
def test_fuzz_cli_split(
    data: bytes, where: str, name: str, limit: str, doc_id: str | None, title: str | None
) -> None:
    """CLI-1, CLI-2, CLI-3, SOURCE-1: split prints the library's records, or one error line
    with exit 2 (an unknown suffix, a folder with no document, bad UTF-8, a bad option)."""
    EXAMPLES["cli split"] += 1
    with tempfile.TemporaryDirectory() as tmp, _cwd(tmp):
        path = "-" if where == "stdin" else name
        if where == "file":
            Path(name).write_bytes(data)
        elif where == "directory":
            Path(name).mkdir()
        argv = ["split", path, "--max-tokens", limit]
        argv += ["--doc-id", doc_id] if doc_id is not None else []
        argv += ["--title", title] if title is not None else []
        status, out, err = _run(argv, data if where == "stdin" else b"")
    text = _decode(data) if where in ("file", "stdin") else None
    max_tokens = int(limit) if _CANONICAL_INT.fullmatch(limit) else None
    the_id = doc_id if doc_id is not None else ("stdin" if path == "-" else Path(name).stem)
    # SOURCE-1, CLI-9: stdin is Markdown unless it starts like a PDF; a file by its suffix.
    suffix = Path(name).suffix.lower()
    input_format = (
        ("pdf" if b"%PDF-" in data[:1024] else "markdown")
        if path == "-"
        else {".md": "markdown", ".markdown": "markdown", ".txt": "text"}.get(suffix)
    )
    surely_valid = (
        text is not None
        and input_format is not None
        and max_tokens is not None
        and 1 <= max_tokens <= MAX_SAFE
        and _plain(the_id)
        and (title is None or _plain(title))
        and (path == "-" or _plain(name))
    )
    if status != 0:
        _check_error(status, out, err, "split")
        assert not surely_valid, err
        return
    check_success_stderr(err, "split", out.count("\n"))
    assert text is not None, "a missing file, directory or bad UTF-8 was accepted"
    assert input_format in ("markdown", "text"), "an unknown input type was accepted"
    max_tokens = int(limit)  # argparse's int() also takes " 3" and "1_0"
    document = document_from_text(
        text,
        doc_id=the_id,
        input_format=input_format,
        source="" if path == "-" else name,
        title=title,
    )
    # CLI-2: the library's records; RECORD-11: split_section's texts, blank chunks left out.
    expected = chunk_document(document, "recursive", max_tokens=max_tokens)
    assert out == "".join(json_line(r.to_dict()) for r in expected)
    texts = [c.text for c in split_section(the_id, document.title, text, max_tokens)]
    assert [json.loads(line)["text"] for line in out.split("\n")[:-1]] == [
        t for t in texts if t.split()
    ]
    event("outcome", "exit 0")


@st.composite
def records(draw: st.DrawFn) -> object:
    """A pack record: mostly well-formed, each field sometimes missing or of any JSON type."""
    if draw(st.integers(0, 19)) == 3:
        return draw(json_values)
    record: dict[str, object] = {
        "id": draw(st.sampled_from(["d:0", "d:1", "d:2", "a", "B"])),
        "title": draw(st.sampled_from(["T", "", "Returns"])),
        "text": draw(st.sampled_from(["x", "", "a b", "é\n\U0001f600", "a\u2028b"])),
    }
    for key in ("doc_id", "tokens", "content_hash", "score"):
        if draw(st.booleans()):
            valid: st.SearchStrategy[Any] = {
                "doc_id": st.sampled_from(["d", ""]),
                "tokens": st.integers(0, 6),
                "content_hash": st.sampled_from(["h1", "h2", "h3"]),
                "score": st.one_of(st.floats(-1, 2), st.integers(0, 1)),
            }[key]
            record[key] = draw(json_values if draw(st.integers(1, 12)) == 2 else valid)
    for key in draw(st.lists(st.sampled_from(["id", "title", "text"]), max_size=1)):
        if draw(st.integers(0, 5)) == 2:
            del record[key]
    if draw(st.integers(0, 9)) == 2:
        record[draw(st.sampled_from(["id", "title", "text"]))] = draw(json_values)
    return record


def _model_chunk(record: object) -> ModelChunk | None:
    """CLI-4 read from the spec: the ModelChunk a record stands for, or None if it is bad."""
    if not isinstance(record, dict) or not all(k in record for k in ("id", "title", "text")):
        return None
    for key in ("id", "title", "text", "doc_id"):
        value = record.get(key, "")
        if not isinstance(value, str) or any(0xD800 <= ord(c) <= 0xDFFF for c in value):
            return None
    if not isinstance(record.get("content_hash", ""), str):
        return None
    text: str = record["text"]
    tokens = record.get("tokens", model_count(text))
    if isinstance(tokens, bool) or not isinstance(tokens, int) or not 0 <= tokens <= MAX_SAFE:
        return None
    score = record.get("score", 0.0)
    if isinstance(score, bool) or not isinstance(score, (int, float)):
        return None
    if isinstance(score, float) and math.isnan(score):
        return None
    if isinstance(score, int) and not -MAX_SAFE <= score <= MAX_SAFE:
        return None
    return ModelChunk(
        record["id"],
        record["title"],
        text,
        tokens,
        record.get("content_hash", model_hash(text)),
        score,
    )


@given(
    lines=st.lists(
        st.one_of(
            records().map(lambda r: json.dumps(r)),
            records().map(lambda r: json.dumps(r)),
            records().map(lambda r: json.dumps(r)),
            records().map(lambda r: json.dumps(r)),
            st.sampled_from(["", "  ", "{", "[1,", "nul", '{"id": "a"', "[" * 3000]),
            st.text(any_char, max_size=10),
        ),
        max_size=6,
    ),
    raw=st.one_of(st.none(), st.none(), st.none(), st.binary(max_size=100)),
    budget=st.one_of(st.integers(0, 12).map(str), st.integers(0, 12).map(str), numbers),
    min_score=st.one_of(
        st.none(),
        st.none(),
        st.floats(-1, 1).map(repr),
        st.floats().map(repr),
        numbers,
        anything.map(str),
    ),
    ids=st.booleans(),
)
def test_fuzz_cli_pack(
    lines: list[str], raw: bytes | None, budget: str, min_score: str | None, ids: bool
) -> None:
    """CLI-1, CLI-4, CLI-5: pack prints the model's context, abstains in one line, or exit 2."""
    EXAMPLES["cli pack"] += 1
    data = raw if raw is not None else "\n".join(lines).encode("utf-8", "surrogatepass")
    argv = ["pack", "-", "--budget", budget]
    argv += ["--min-score", min_score] if min_score is not None else []
    argv += ["--ids"] if ids else []
    status, out, err = _run(argv, data)
    text = _decode(data)
    parsed: list[ModelChunk | None] = []
    if text is not None:
        for line in text.split("\n"):
            if line.strip():
                try:
                    parsed.append(_model_chunk(json.loads(line)))
                except (ValueError, RecursionError):
                    parsed.append(None)
    the_budget = int(budget) if _CANONICAL_INT.fullmatch(budget) else None
    floor = 0.35 if min_score is None else _float(min_score)
    surely_valid = (
        text is not None
        and None not in parsed
        and the_budget is not None
        and the_budget <= MAX_SAFE
        and floor is not None
        and not math.isnan(floor)
        and (min_score is None or _plain(min_score))
    )
    if status == 2:
        _check_error(status, out, err, "pack")
        assert not surely_valid, err
        return
    assert text is not None, "bad UTF-8 was accepted"
    assert None not in parsed, f"a bad record was accepted: {err}"
    assert floor is not None
    result = model_assemble([c for c in parsed if c is not None], int(budget), floor)
    if result is None:
        assert (status, out) == (1, "")
        assert err.count("\n") == 1
        assert "abstain" in err
        event("outcome", "exit 1")
        return
    context, picked = result
    assert (status, out) == (0, context + "\n")
    assert err == (" ".join(picked) + "\n" if ids else "")
    event("outcome", "exit 0")


def _float(value: str) -> float | None:
    try:
        return float(value)
    except ValueError:
        return None
