"""Golden cases for the dict counter (tests/golden/dictionary_words.json, SCRIPT-20..SCRIPT-26).

``spans`` cases run everywhere (a table stands in for ICU); ``icu``, ``name`` and ``chunk``
cases need the extra ``segment`` (icu4py) with the ICU version they were written for, and
skip with the reason otherwise.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from chunkspec._conformance._vectors import load_vectors
from chunkspec._counters._dictionary import dictionary_spans
from chunkspec.counters import resolve_counter
from chunkspec.records import SourceDocument, chunk_document
from tests import goldens

ROOT = Path(__file__).resolve().parents[2]


def _installed_icu() -> str | None:
    """The ICU version icu4py bundles, or None without the extra."""
    if importlib.util.find_spec("icu4py") is None:
        return None
    import icu4py

    return str(icu4py.icu_version)


def _need_icu(case: dict[str, Any]) -> str:
    """Skip unless the extra is installed with the case's ICU version; return that version."""
    installed = _installed_icu()
    if installed is None:
        pytest.skip("the extra segment (icu4py) is not installed: pip install 'chunkspec[segment]'")
    wanted = case["input"].get("icu", installed)
    if wanted != installed:
        pytest.skip(f"written for ICU {wanted}; icu4py here bundles ICU {installed} (SCRIPT-22)")
    return installed


@pytest.mark.parametrize("case", goldens.cases("dictionary_words"))
def test_dictionary_words(case: dict[str, Any]) -> None:
    """The dict counter's units, names and chunks give the hand-checked values."""
    given = case["input"]
    if given["op"] == "spans":
        table: dict[str, list[int]] = given["word_ends"]
        # A run not in the table (a run that must not reach the segmenter) is a KeyError.
        spans = dictionary_spans(given["text"], lambda runs: [table[r] for r in runs])
        assert [list(s) for s in spans] == case["output"]["spans"]
        assert len(spans) == case["output"]["count"]
        return
    if given["op"] == "name" and "error" in case and "counter must be" in case["error"]["message"]:
        with pytest.raises(ValueError, match="counter must be") as caught:
            resolve_counter(given["counter"])
        assert str(caught.value) == case["error"]["message"]
        return
    if given["op"] == "import":
        code = (
            "import json, sys; "
            + "; ".join(f"import {m}" for m in given["modules"])
            + "; print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'icu4py')))"
        )
        done = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONPATH": str(ROOT / "src")},
        )
        assert json.loads(done.stdout) == case["output"]["loaded"]
        return
    if given["op"] == "vectors":
        named = [
            v
            for cases in load_vectors().values()
            for v in cases
            if '"counter": "dict' in json.dumps(v.get("input", {}))
        ]
        assert len(named) == case["output"]["dict_counters"]
        return
    installed = _need_icu(case)
    if given["op"] == "icu":
        counter = resolve_counter(f"dict:icu-{installed}")
        spans = counter.token_spans(given["text"])
        assert [list(s) for s in spans] == case["output"]["spans"]
        assert [given["text"][a:b] for a, b in spans] == case["output"]["words"]
        assert counter.count(given["text"]) == case["output"]["count"]
    elif given["op"] == "name":
        if "error" in case:
            with pytest.raises(ValueError, match="counts with ICU") as caught:
                resolve_counter(given["counter"])
            assert str(caught.value) == case["error"]["message"].format(installed=installed)
        else:
            counter = resolve_counter(given["counter"])
            assert getattr(counter, "name", None) == case["output"]["name"]
    else:
        document = SourceDocument(doc_id="d", text=given["text"], format=given["format"], title="T")
        records = chunk_document(
            document, given["strategy"], max_tokens=given["max_tokens"], counter="dict"
        )
        got = [
            {
                "text": r.text,
                "start": r.start,
                "end": r.end,
                "tokens": r.tokens,
                "counter": r.counter,
            }
            for r in records
        ]
        assert got == case["output"]["chunks"]
