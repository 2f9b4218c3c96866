"""The generated cases (CONF-10): wire shape and the hazards they are meant to reach."""

from __future__ import annotations

import hashlib
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from chunkspec._conformance._draw import draws
from chunkspec._conformance._generate import PROFILES, by_op, cases
from chunkspec._conformance._oracle import expect
from chunkspec._conformance._runner import case_id
from chunkspec._conformance._wire import _encode, encode

SEARCH = settings(
    max_examples=3000,
    database=None,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
CHUNK_FIELDS = {"id", "doc_id", "title", "text", "tokens", "content_hash", "score"}


@given(st.sampled_from(["portable", "hazards"]).flatmap(lambda p: by_op(p)["split_section"]))
def test_split_section_cases_have_its_arguments(case: tuple[str, dict[str, Any]]) -> None:
    """CONF-3: a split_section request carries exactly its four arguments."""
    assert case[0] == "split_section"
    assert set(case[1]) == {"doc_id", "title", "text", "max_tokens"}


@given(st.sampled_from(["portable", "hazards"]).flatmap(lambda p: by_op(p)["assemble"]))
def test_assemble_cases_have_its_arguments(case: tuple[str, dict[str, Any]]) -> None:
    """CONF-3, CONF-10: an assemble request has chunks (at most 8, whole chunk objects,
    but for one item or the list itself drawn out of range), a budget and maybe min_score."""
    op, data = case
    assert op == "assemble"
    assert {"chunks", "budget"} <= set(data) <= {"chunks", "budget", "min_score"}
    if isinstance(data["chunks"], list):
        assert len(data["chunks"]) <= 8
        odd = [c for c in data["chunks"] if not isinstance(c, dict) or set(c) != CHUNK_FIELDS]
        assert len(odd) <= 1


def _found(strategy: Any, condition: Any) -> Any:
    return find(strategy, condition, settings=SEARCH)


@pytest.mark.parametrize("profile", ["portable", "hazards"])
def test_assemble_cases_reach_bad_tokens_and_nan_scores(profile: str) -> None:
    """CONF-10, PACK-5, PACK-10: assemble cases include a bad chunk ``tokens`` and a NaN
    score (a ValueError naming the score)."""

    def error(argument_end: str, kind: str) -> Any:
        def check(case: tuple[str, dict[str, Any]]) -> bool:
            got = expect(*case).get("error") or {}
            return got.get("kind") == kind and str(got.get("argument")).endswith(argument_end)

        return check

    strategy = by_op(profile)["assemble"]
    assert _found(strategy, error(".tokens", "TypeError"))
    assert _found(strategy, error(".score", "ValueError"))


def test_hazard_hash_text_reaches_lone_surrogates() -> None:
    """HAZ-4: the hazards profile sends hash_text texts with lone surrogates."""
    _, data = _found(
        by_op("hazards")["hash_text"],
        lambda c: (
            isinstance(c[1]["text"], str) and any(0xD800 <= ord(x) <= 0xDFFF for x in c[1]["text"])
        ),
    )
    assert expect("hash_text", data)["error"]["argument"] == "text"


def test_hazard_cases_are_the_hazard_profile() -> None:
    """CONF-10: ``cases("hazards")`` draws hazard inputs (an astral chunk id), and
    ``cases("portable")`` never does."""

    def astral(case: tuple[str, dict[str, Any]]) -> bool:
        chunks = case[1].get("chunks") if case[0] == "assemble" else None
        return isinstance(chunks, list) and any(
            isinstance(c, dict) and c.get("id") == "\U0001f600" for c in chunks
        )

    assert _found(cases("hazards"), astral)
    with pytest.raises(Exception, match="No examples"):
        find(cases("portable"), astral, settings=settings(SEARCH, max_examples=300))


def test_hazard_text_puts_a_surrogate_inside_one_copy_of_the_text() -> None:
    """HAZ-4: the smallest hazard text with a lone surrogate and a word is the two of them
    (the surrogate goes into the text, which is not repeated)."""
    found = _found(
        by_op("hazards")["count_tokens"],
        lambda c: (
            isinstance(c[1]["text"], str) and "\ud800" in c[1]["text"] and "a" in c[1]["text"]
        ),
    )
    assert found[1]["text"] in ("\ud800a", "a\ud800")


def test_hazard_words_reach_starts_near_max_safe() -> None:
    """HAZ-9: the hazards profile asks words() for starts near 2**53 - 1."""

    def near(case: tuple[str, dict[str, Any]]) -> bool:
        start = case[1].get("start", 0)  # out-of-range starts of other types come up too
        return type(start) is int and start > 2**52

    assert _found(by_op("hazards")["words"], near)


def test_case_ids_name_profile_op_and_input_hash() -> None:
    """CONF-10: a generated case id is ``gen-PROFILE-OP-HASH`` (op with dashes, the first
    12 hex digits of the SHA-256 of the ASCII wire input)."""
    digest = hashlib.sha256(b'{"n":1}').hexdigest()[:12]
    assert case_id("hazards", "split_section", {"n": 1}) == f"gen-hazards-split-section-{digest}"


def test_encode_spells_non_finite_numbers() -> None:
    """CONF-3: the oracle's answers spell infinities and NaN as strings, in lists and
    dicts too."""
    assert encode([math.inf, {"s": -math.inf}, (math.nan, 1.5)]) == [
        "Infinity",
        {"s": "-Infinity"},
        ["NaN", 1.5],
    ]


@pytest.mark.parametrize("profile", PROFILES)
def test_cases_drawn_without_records_are_the_seeds_cases(profile: str) -> None:
    """CONF-19: for every op, the first 150 cases drawn without recording choices are
    those plain ConjectureData draws from the same seeded source (the same cases)."""
    for op, strategy in by_op(profile).items():
        bare, plain = (
            draws(strategy, f"0:{profile}:{op}"),
            draws(strategy, f"0:{profile}:{op}", bare=False),
        )
        assert bare is not None
        assert plain is not None
        assert [next(bare) for _ in range(150)] == [next(plain) for _ in range(150)], op


class _Text(str):
    """A str subclass (the oracle never answers one; encode must still keep it)."""


def test_encode_fast_path_answers_as_the_long_way() -> None:
    """CONF-3: plain dicts and lists of plain values are encoded as by the general walk,
    non-finite floats and tuples inside them included."""
    value: Any = [
        {"a": 1, "b": None, "c": "x", "d": True, "e": (1, math.inf), "f": [math.nan, -0.0]},
        _Text("t"),
        (2.5, {"g": -math.inf}),
    ]
    assert encode(value) == _encode(value)
    assert encode(value)[0] == {
        "a": 1,
        "b": None,
        "c": "x",
        "d": True,
        "e": [1, "Infinity"],
        "f": ["NaN", -0.0],
    }


_DRAW_ALONE = """
import json, sys
from chunkspec._conformance._draw import draws
from chunkspec._conformance._generate import by_op
source = draws(by_op("portable")["split_section"], "0:portable:split_section")
print(json.dumps([next(source) for _ in range(300)]))
"""


def test_a_seed_draws_the_same_cases_whatever_the_process_imported() -> None:
    """CONF-19: a process that imported only the generator draws the cases this test
    process (the tests, the CLI, the runner all loaded) draws: no local module's constants."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    import chunkspec

    root = str(Path(chunkspec.__file__).resolve().parents[1])
    alone = subprocess.run(
        [sys.executable, "-c", _DRAW_ALONE],
        env={**os.environ, "PYTHONPATH": root},
        capture_output=True,
        text=True,
        check=True,
    )
    import chunkspec._cli
    import chunkspec._conformance._runner

    source = draws(by_op("portable")["split_section"], "0:portable:split_section")
    assert source is not None
    here = [next(source) for _ in range(300)]
    assert json.loads(alone.stdout) == json.loads(json.dumps(here))
