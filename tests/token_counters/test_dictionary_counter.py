"""The dict counter's extra, names, errors and threads (SCRIPT-22, SCRIPT-24, SCRIPT-26)."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from chunkspec._cli import main
from chunkspec._counters._registry import counter_from_name
from chunkspec.counters import DictionaryCounter, resolve_counter
from tests.counters import without_module

EXCERPTS = Path(__file__).resolve().parents[1] / "data" / "scripts"


def test_missing_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """SCRIPT-22: without icu4py, building the counter is an ImportError naming the extra."""
    without_module(monkeypatch, "icu4py")
    counter_from_name.cache_clear()
    try:
        with pytest.raises(ImportError, match=r"pip install 'chunkspec\[segment\]'"):
            counter_from_name("dict")
        with pytest.raises(ImportError, match="segment"):
            DictionaryCounter()
    finally:
        counter_from_name.cache_clear()


def test_missing_extra_is_one_cli_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """SCRIPT-22, CLI-1: --counter dict without the extra: one line, exit 2."""
    path = tmp_path / "a.md"
    path.write_text("中文分词\n", "utf-8")
    without_module(monkeypatch, "icu4py")
    counter_from_name.cache_clear()
    try:
        status = main(["chunk", str(path), "--strategy", "heading", "--counter", "dict"])
    finally:
        counter_from_name.cache_clear()
    _, err = capsys.readouterr()
    assert status == 2
    assert err.count("\n") == 1
    assert "pip install 'chunkspec[segment]'" in err


def _icu() -> str:
    """The installed ICU version; skip without the extra."""
    icu4py = pytest.importorskip(
        "icu4py",
        reason="the extra segment (icu4py) is not installed: pip install 'chunkspec[segment]'",
    )
    return str(icu4py.icu_version)


def test_cli_records_name_the_icu_version(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """SCRIPT-22: --counter dict writes records named dict:icu-VERSION, which build again."""
    path = tmp_path / "a.md"
    path.write_text("# 标题\n\n我爱北京天安门和中文分词\n", "utf-8")
    status = main(
        ["chunk", str(path), "--strategy", "heading", "--max-tokens", "3", "--counter", "dict"]
    )
    out, _ = capsys.readouterr()
    assert status == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert {r["counter"] for r in rows} == {f"dict:icu-{_icu()}"}
    for r in rows:  # RECORD-5: the record's name counts its text
        assert counter_from_name(r["counter"]).count(r["text"]) == r["tokens"]


def test_cli_other_version_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """SCRIPT-22: another ICU's name on the command line: one line naming both, exit 2."""
    _icu()
    path = tmp_path / "a.md"
    path.write_text("中文\n", "utf-8")
    status = main(["chunk", str(path), "--counter", "dict:icu-1.0"])
    _, err = capsys.readouterr()
    assert status == 2
    assert err.count("\n") == 1
    assert "ICU 1.0" in err
    assert f"ICU {_icu()}" in err


def test_resolve_counter_takes_the_object() -> None:
    """RECORD-5: a DictionaryCounter object is taken as given and keeps its name."""
    version = _icu()
    counter = DictionaryCounter()
    assert resolve_counter(counter) is counter
    assert counter.name == f"dict:icu-{version}"
    assert repr(counter) == f"DictionaryCounter({version!r})"


def test_threads_count_as_one() -> None:
    """SCRIPT-26: one counter in eight threads gives the answer of one thread."""
    _icu()
    counter = counter_from_name("dict")
    texts = [
        (EXCERPTS / name).read_text("utf-8")
        for name in ("debian-faq.zh-cn.txt", "debian-faq.ja.txt", "pythainlp-test-text.th.txt")
    ] * 8
    alone = [counter.token_spans(t) for t in texts]
    with ThreadPoolExecutor(max_workers=8) as pool:
        together = list(pool.map(counter.token_spans, texts))
    assert together == alone
    assert [DictionaryCounter().token_spans(t) for t in texts] == alone
