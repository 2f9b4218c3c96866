"""The blame of the Markdown ops (CONF-9): each model of a mistake names its rule, the first
differing record's region decides otherwise, and a vector's declared rules win."""

from __future__ import annotations

import copy
import hashlib
from typing import Any

from chunkspec._conformance._blame import blame
from chunkspec._conformance._oracle import expect


def _blame(op: str, data: dict[str, Any], actual: Any, declared: tuple[str, ...] = ()) -> Any:
    """Blame ``actual`` as the port's answer to ``data``."""
    return blame(op, data, expect(op, data), "wrong", "$", actual, declared)


def _region(record: dict[str, Any], source: str, **fields: Any) -> None:
    """Set ``fields`` of ``record`` and make it consistent as a port would: its text is its
    region of ``source``, with that text's hash and count (RECORD-2, RECORD-3, RECORD-14)."""
    record.update(fields)
    text = record["prefix"] + source[record["start"] : record["end"]]
    record.update(
        text=text,
        content_hash=hashlib.sha256(text.encode()).hexdigest(),
        tokens=len(text.split()),
    )


def _data(text: str, **more: Any) -> dict[str, Any]:
    return {"doc_id": "d", "title": "T", "text": text, "max_tokens": 512, **more}


def test_utf16_offsets_are_record_3() -> None:
    """HAZ-16: code-unit offsets after an astral character are RECORD-3, named as UTF-16."""
    data = _data("# \U0001f600\n\nx y")
    answer = copy.deepcopy(expect("split_markdown", data)["ok"])
    for record in answer:
        record["start"] += 1
        record["end"] += 1
    rules, why = _blame("split_markdown", data, answer)
    assert rules == ["RECORD-3"]
    assert "UTF-16" in why


def test_crlf_read_as_lf_is_md_2() -> None:
    """HAZ-13: the answer for the text with LF line breaks is MD-2."""
    data = _data("# A\r\n\r\nx\r\ny", overlap_tokens=0)
    lf = expect("heading_aware", {**data, "text": "# A\n\nx\ny"})["ok"]
    rules, why = _blame("heading_aware", data, lf)
    assert rules == ["MD-2"]
    assert "CRLF" in why


def test_positional_heading_path_is_md_7() -> None:
    """A heading path cut by list position (heading_path[: level - 1]) after ### is MD-7."""
    data = _data("### C\n\n## B\n\nx")
    answer = copy.deepcopy(expect("split_markdown", data)["ok"])
    answer[0]["heading_path"] = ["C", "B"]
    answer[0]["section"] = "B"
    rules, why = _blame("split_markdown", data, answer)
    assert rules == ["MD-7"]
    assert "list position" in why


def test_a_cut_table_is_md_9_and_a_split_fence_md_1() -> None:
    """The first differing record inside an expected table is MD-9; inside a code block
    with a '#' line, MD-1."""
    data = _data("| a |\n|---|\n| 1 |\n| 2 |")
    answer = copy.deepcopy(expect("split_markdown", data)["ok"])
    _region(answer[0], data["text"], end=17)
    assert _blame("split_markdown", data, answer)[0] == ["MD-9"]
    data = _data("```\n# x\ny\n```")
    answer = copy.deepcopy(expect("split_markdown", data)["ok"])
    _region(answer[0], data["text"], end=3)
    assert _blame("split_markdown", data, answer)[0] == ["MD-1"]


def test_heading_aware_regions() -> None:
    """A body chunk that starts elsewhere is HEAD-6; one that ends elsewhere HEAD-5; a wrong
    parent HEAD-4; a whitespace-only chunk HEAD-10."""
    data = _data("# A\n\na b c\n\nd e f", max_tokens=3, overlap_tokens=1)
    want = expect("heading_aware", data)["ok"]
    moved = copy.deepcopy(want)
    _region(moved[2], data["text"], start=moved[2]["start"] - 2)
    assert _blame("heading_aware", data, moved)[0] == ["HEAD-6"]
    short = copy.deepcopy(want)
    _region(short[1], data["text"], end=short[1]["end"] - 2)
    assert _blame("heading_aware", data, short)[0] == ["HEAD-5"]
    # A start moved without its text breaks the equation itself (a rule check, RECORD-3).
    unmoved = copy.deepcopy(want)
    unmoved[2]["start"] -= 2
    rules, why = _blame("heading_aware", data, unmoved)
    assert rules == ["RECORD-3"]
    assert "rules' own checks" in why
    parent = copy.deepcopy(want)
    parent[2]["parent_id"] = "d:1"
    assert _blame("heading_aware", data, parent)[0] == ["HEAD-4"]
    assert _blame("heading_aware", data, [*want, {**want[1], "text": "\x1c"}])[0] == ["HEAD-10"]


def test_declared_rules_win_and_errors_name_arguments() -> None:
    """A vector's declared rules are reported when the diagnosis names none of them; a
    missed error is blamed on the op's argument rule and PORT-2 for strings."""
    data = _data("x\n\ny", max_tokens=1)
    answer = copy.deepcopy(expect("split_markdown", data)["ok"])
    answer[0]["strategy"] = "structural"
    assert _blame("split_markdown", data, answer)[0] == ["RECORD-6"]
    assert _blame("split_markdown", data, answer, ("MD-10",))[0] == ["MD-10"]
    bad = _data("\ud800")
    rules, _ = blame("split_markdown", bad, expect("split_markdown", bad), "wrong", "error", [])
    assert rules == ["MD-8", "PORT-2"]


def test_javascript_trim_is_md_4() -> None:
    """HAZ-17: a port whose markdown-it trims with JavaScript's trim() (U+FEFF stripped)
    gives an empty heading and ends the table at a U+FEFF line; the model says so, MD-4.
    The shared parser keeps markdown-it-py's mdTrim afterwards."""
    data = _data("# \ufeff\n\nbody text\n\n| a |\n|---|\n\ufeff\n", max_tokens=50)
    want = expect("split_markdown", data)["ok"]
    assert [r["heading_path"] for r in want] == [["\ufeff"], ["\ufeff"]]
    from chunkspec._conformance.markdown._markdown_blame import _js_trim_model

    model = _js_trim_model("split_markdown", data)
    assert model is not None
    assert [(r["text"], r["heading_path"]) for r in model[:2]] == [
        ("body text", [""]),
        ("| a |\n|---|", [""]),
    ]
    rules, why = _blame("split_markdown", data, model)
    assert rules == ["MD-4"]
    assert "HAZ-17" in why
    assert expect("split_markdown", data)["ok"] == want
