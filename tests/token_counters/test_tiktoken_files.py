"""Offline tiktoken: encodings from a local rank file (COUNT-9), one-line errors (COUNT-10).

Every test runs with an empty TIKTOKEN_CACHE_DIR, a fresh encoding cache and the network
blocked (tests/frameworks.no_network), so nothing here can download.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from chunkspec import ArgumentTypeError, ArgumentValueError, ChunkRecord, pack_records
from chunkspec._cli import main
from chunkspec._counters._registry import counter_from_name
from chunkspec.counters import TiktokenCounter, WhitespaceCounter, counter_name
from tests import tiny_tiktoken
from tests.counters import SMALL_MERGES, byte_encoding
from tests.frameworks import no_network
from tests.pack_records import pack_record

TEXT = "hello the world, hell is in the thin theatre \U0001f600 é"


@pytest.fixture
def rank_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """The tiny encoding registered, its rank file on disk, the network blocked."""
    no_network(monkeypatch)
    counter_from_name.cache_clear()
    yield tiny_tiktoken.register(monkeypatch, tmp_path)
    counter_from_name.cache_clear()


def test_file_gives_the_same_counts(rank_file: Path) -> None:
    """COUNT-9: built from the file, the encoding counts like the same ranks in memory."""
    counter = TiktokenCounter(tiny_tiktoken.NAME, encoding_file=rank_file)
    reference = TiktokenCounter(byte_encoding(SMALL_MERGES))
    assert counter.count(TEXT) == reference.count(TEXT) < len(TEXT.encode())
    assert counter.token_spans(TEXT) == reference.token_spans(TEXT)
    assert counter_name(counter) == f"tiktoken:{tiny_tiktoken.NAME}"


def test_file_serves_the_name_afterwards(rank_file: Path) -> None:
    """COUNT-9: once loaded, tiktoken:NAME resolves in this process without network."""
    TiktokenCounter(tiny_tiktoken.NAME, encoding_file=str(rank_file))
    named = counter_from_name(f"tiktoken:{tiny_tiktoken.NAME}")
    assert named.count(TEXT) == TiktokenCounter(byte_encoding(SMALL_MERGES)).count(TEXT)


def test_wrong_file_is_refused(rank_file: Path, tmp_path: Path) -> None:
    """COUNT-9: a file whose SHA-256 is not the pinned one is refused, naming the file."""
    other = tmp_path / "other.tiktoken"
    other.write_bytes(tiny_tiktoken.rank_file() + b"aGk= 266\n")
    with pytest.raises(ArgumentValueError, match="is not the chunkspec-tiny rank file") as info:
        TiktokenCounter(tiny_tiktoken.NAME, encoding_file=other)
    assert info.value.argument == "encoding_file"
    with pytest.raises(ArgumentValueError, match="is not the cl100k_base rank file"):
        TiktokenCounter("cl100k_base", encoding_file=rank_file)


@pytest.mark.parametrize(
    ("content", "match"),
    [
        (b"", "is empty"),
        (b"aGk= 1\nnot-base64! 2\n", "line 2"),
        (b"aGk=\n", "line 1"),
    ],
)
def test_malformed_file(rank_file: Path, tmp_path: Path, content: bytes, match: str) -> None:
    """COUNT-9: a file that is not a rank file is a ValueError naming encoding_file."""
    bad = tmp_path / "bad.tiktoken"
    bad.write_bytes(content)
    with pytest.raises(ArgumentValueError, match=match) as info:
        TiktokenCounter(tiny_tiktoken.NAME, encoding_file=bad)
    assert info.value.argument == "encoding_file"


def test_names_and_paths_checked(rank_file: Path, tmp_path: Path) -> None:
    """COUNT-9: unknown names, two-file encodings, missing files: one-line errors."""
    with pytest.raises(ArgumentValueError, match="is not a tiktoken encoding") as info:
        TiktokenCounter("no-such-encoding", encoding_file=rank_file)
    assert info.value.argument == "encoding"
    with pytest.raises(ArgumentValueError, match=r"no single \.tiktoken file"):
        TiktokenCounter("gpt2", encoding_file=rank_file)
    with pytest.raises(ArgumentValueError, match="cannot be read") as info:
        TiktokenCounter(tiny_tiktoken.NAME, encoding_file=tmp_path / "missing.tiktoken")
    assert info.value.argument == "encoding_file"
    with pytest.raises(TypeError, match="encoding"):
        TiktokenCounter(byte_encoding(), encoding_file=rank_file)


def test_offline_without_file_is_one_line(rank_file: Path) -> None:
    """COUNT-10: neither cached nor downloadable: one short line naming encoding."""
    with pytest.raises(ArgumentValueError) as info:
        TiktokenCounter("cl100k_base")
    message = str(info.value)
    assert info.value.argument == "encoding"
    assert "\n" not in message
    assert len(message) < 300
    assert "not available offline" in message
    # COUNT-10: a library error names the Python argument; the command line names its flag.
    assert "encoding_file" in message
    assert "--encoding-file" not in message
    assert info.value.__cause__ is None
    assert info.value.__suppress_context__
    with pytest.raises(ArgumentValueError, match="not available offline"):
        counter_from_name("tiktoken:o200k_base")


def test_unknown_name_without_file(rank_file: Path) -> None:
    """COUNT-10: an unknown encoding name lists the known ones."""
    with pytest.raises(ArgumentValueError, match=r"known: .*cl100k_base"):
        TiktokenCounter("cl100k")


def test_cli_encoding_file(
    rank_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--encoding-file: token windows from the local file; a bad file is one line, exit 2."""
    text = tmp_path / "a.txt"
    text.write_text(TEXT, "utf-8")
    common = ["window", str(text), "--counter", f"tiktoken:{tiny_tiktoken.NAME}"]
    assert main([*common, "--encoding-file", str(rank_file), "--max-tokens", "4"]) == 0
    out, err = capsys.readouterr()
    # SCRIPT-11: windows of at most 4 tokens, re-counted alone; cuts out of clusters.
    assert out.count("\n") >= -(-TiktokenCounter(byte_encoding(SMALL_MERGES)).count(TEXT) // 4)
    assert max(int(line.split('"tokens": ')[1].split(",")[0]) for line in out.splitlines()) <= 4
    assert err == ""
    assert main([*common, "--encoding-file", str(text), "--max-tokens", "4"]) == 2
    _, err = capsys.readouterr()
    assert err.count("\n") == 1
    assert "--encoding-file" in err
    assert "Traceback" not in err


def test_cli_offline_message(
    rank_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """COUNT-10 on the command line: one line on stderr, exit 2, no network error text."""
    text = tmp_path / "a.txt"
    text.write_text("a b c", "utf-8")
    argv = ["pages", str(text), "--counter", "tiktoken:cl100k_base", "--max-tokens", "4"]
    assert main(argv) == 2
    _, err = capsys.readouterr()
    assert err.count("\n") == 1
    assert len(err) < 350
    assert "not available offline" in err
    assert "--encoding-file" in err


def test_cli_encoding_file_needs_tiktoken(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--encoding-file without --counter tiktoken could not take effect: an error."""
    text = tmp_path / "a.txt"
    text.write_text("a b c", "utf-8")
    assert main(["window", str(text), "--encoding-file", "x.tiktoken", "--max-tokens", "3"]) == 2
    _, err = capsys.readouterr()
    assert "--encoding-file needs --counter tiktoken" in err


def _tiny_record() -> ChunkRecord:
    """A record counted by the tiny tiktoken encoding (its name, as a record carries it)."""
    return pack_record("d", 0, TEXT, counter=f"tiktoken:{tiny_tiktoken.NAME}")


def test_pack_records_takes_the_encoding_file(rank_file: Path) -> None:
    """COUNT-9, CTX-8: records counted by a tiktoken encoding are packed offline with
    encoding_file=, by the records' own counter (the offline error said to pass it)."""
    record = _tiny_record()
    with pytest.raises(ArgumentValueError, match="not available offline") as info:
        pack_records([record], [0.9], 500)
    assert "encoding_file" in str(info.value)
    counter_from_name.cache_clear()
    packed = pack_records([record], [0.9], 500, encoding_file=str(rank_file))
    assert packed.counter == record.counter
    assert [p.record_ids for p in packed.passages] == [(record.id,)]


def test_pack_records_encoding_file_errors_name_it(rank_file: Path) -> None:
    """COUNT-9: encoding_file applies to a tiktoken counter name only; each error names
    ``encoding_file``, pack_records' own argument."""
    record = _tiny_record()
    for counter in ("whitespace", WhitespaceCounter()):
        with pytest.raises(ArgumentValueError) as info:
            pack_records([record], [0.9], 500, counter=counter, encoding_file=str(rank_file))
        assert info.value.argument == "encoding_file"
    with pytest.raises(ArgumentTypeError) as typed:
        pack_records([record], [0.9], 500, encoding_file=3)  # type: ignore[arg-type]
    assert typed.value.argument == "encoding_file"


def test_cli_pack_offline_names_the_flag(
    rank_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """COUNT-10 on pack --merge: the offline error names --encoding-file, pack's own flag,
    which then packs the records."""
    record = _tiny_record()
    chunks = tmp_path / "chunks.jsonl"
    chunks.write_text(json.dumps({**record.to_dict(), "score": 0.9}) + "\n", "utf-8")
    assert main(["pack", str(chunks), "--merge", "--budget", "500"]) == 2
    _, err = capsys.readouterr()
    assert err.startswith("chunkspec pack: error: ")
    assert err.count("\n") == 1
    assert "--encoding-file" in err
    assert " encoding_file" not in err
    argv = ["pack", str(chunks), "--merge", "--budget", "500", "--encoding-file", str(rank_file)]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.startswith("[1]")
