"""Shared pieces of the fuzz targets (``properties/test_fuzz_*.py``, docs/verification.md).

A fuzz target draws *anything* for every argument (wrong types, NaN, huge ints, lone
surrogates, control characters, degenerate sizes) and allows exactly two outcomes:

* the result is correct (checked against ``properties/models.py`` or the contract), or
* an ``ArgumentTypeError``/``ArgumentValueError`` whose ``.argument`` names an argument that
  the independent oracle below also finds bad, of the matching kind.

The oracle is written from the spec (PORT-1, PORT-2, PACK-5...), not from ``_validate.py``.
``EXAMPLES`` counts the examples each target ran, for ``python -m properties.fuzz``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from hypothesis import event
from hypothesis import strategies as st

from chunkspec import ArgumentTypeError, ArgumentValueError, Chunk

from .strategies import SPLIT_ALPHABET

#: Examples run per fuzz target (the driver reports them).
EXAMPLES: Counter[str] = Counter()

MAX_SAFE = 2**53 - 1

#: Kind of problem the oracle expects for an argument.
TYPE, VALUE = "type", "value"

# --- generators ---------------------------------------------------------------------------

#: Any code point, lone surrogates (category Cs) and C0/C1 controls included.
any_char = st.one_of(
    st.characters(exclude_categories=()),
    st.characters(max_codepoint=0x9F),
    st.sampled_from(SPLIT_ALPHABET),
)
_surrogate = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)


@st.composite
def huge_texts(draw: st.DrawFn) -> str:
    """Degenerate sizes: one long word, only spaces, many one-letter words, many blank lines."""
    unit = draw(st.sampled_from(["a", " ", "a ", "\n", "a\n\n", "\n\n", "é\u3000", "a\r\n"]))
    return unit * draw(st.integers(1_000, 60_000))


#: Any str: arbitrary Unicode, splitter soup, or a degenerate huge text.
fuzz_texts = st.one_of(
    st.text(any_char, max_size=200),
    st.text(any_char, max_size=200),
    st.text(st.one_of(any_char, _surrogate), max_size=50),
    st.text(st.sampled_from(SPLIT_ALPHABET), max_size=400),
    huge_texts(),
)

_ints = st.one_of(
    st.integers(),
    st.integers(-2, 10),
    st.sampled_from([MAX_SAFE, MAX_SAFE + 1, -MAX_SAFE, -MAX_SAFE - 1, 2**63, 2**64 + 1]),
)
_floats = st.one_of(
    st.floats(), st.sampled_from([math.nan, math.inf, -math.inf, -0.0, 0.35, 1e308, 5e-324])
)

#: A scalar of any common type, wrong or right.
scalars = st.one_of(
    st.none(),
    st.booleans(),
    _ints,
    _floats,
    st.complex_numbers(max_magnitude=10),
    st.text(st.one_of(any_char, _surrogate), max_size=8),
    st.binary(max_size=8),
    st.fractions(max_denominator=7),
    st.decimals(allow_nan=True, places=2),
)

#: Anything: scalars, and lists / tuples / dicts / sets of them.
anything: st.SearchStrategy[Any] = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.tuples(inner),
        st.dictionaries(st.text(max_size=3), inner, max_size=3),
        st.frozensets(st.integers(), max_size=3),
    ),
    max_leaves=6,
)


def either(valid: st.SearchStrategy[Any], odds: int = 10) -> st.SearchStrategy[Any]:
    """``valid`` values (to reach the result check), but ``anything`` one time in ``odds``."""
    return st.integers(1, odds).flatmap(lambda roll: anything if roll == 2 else valid)


# --- the oracle ---------------------------------------------------------------------------


def text_problem(value: object) -> str | None:
    """PORT-2: a str without a code point in U+D800..U+DFFF, else TYPE / VALUE."""
    if not isinstance(value, str):
        return TYPE
    return VALUE if any(0xD800 <= ord(c) <= 0xDFFF for c in value) else None


def str_problem(value: object) -> str | None:
    """Any str."""
    return None if isinstance(value, str) else TYPE


def int_problem(value: object, minimum: int) -> str | None:
    """PORT-1: an int that is not a bool, in ``[minimum, 2**53 - 1]``."""
    if isinstance(value, bool) or not isinstance(value, int):
        return TYPE
    return None if minimum <= value <= MAX_SAFE else VALUE


def real_problem(value: object) -> str | None:
    """PACK-5, PORT-1: a float that is not NaN, or an int (not bool) within +-(2**53 - 1)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return TYPE
    if isinstance(value, float):
        return VALUE if value != value else None
    return None if -MAX_SAFE <= value <= MAX_SAFE else VALUE


def chunk_problems(chunks: object) -> dict[str, str]:
    """Problems of assemble's ``chunks``: ``{argument: kind}`` (PACK-5, PACK-10)."""
    if isinstance(chunks, (str, bytes)) or not isinstance(chunks, Iterable):
        return {"chunks": TYPE}
    problems: dict[str, str] = {}
    for index, item in enumerate(list(chunks)):
        where = f"chunks[{index}]"
        if type(item) is not Chunk:
            problems[where] = TYPE
            continue
        found = {
            "id": text_problem(item.id),
            "doc_id": text_problem(item.doc_id),
            "title": text_problem(item.title),
            "text": text_problem(item.text),
            "content_hash": str_problem(item.content_hash),
            "tokens": int_problem(item.tokens, 0),
            "score": real_problem(item.score),
        }
        problems.update({f"{where}.{k}": v for k, v in found.items() if v is not None})
    return problems


def chunk_values(chunks: object) -> dict[str, object]:
    """The value behind every argument name assemble may report for ``chunks``."""
    values: dict[str, object] = {"chunks": chunks}
    if isinstance(chunks, (str, bytes)) or not isinstance(chunks, Iterable):
        return values
    for index, item in enumerate(list(chunks)):
        values[f"chunks[{index}]"] = item
        for field in ("id", "doc_id", "title", "text", "content_hash", "tokens", "score"):
            values[f"chunks[{index}].{field}"] = getattr(item, field, None)
    return values


def outcome(
    name: str,
    call: Callable[[], Any],
    problems: dict[str, str | None],
    values: dict[str, object],
) -> tuple[bool, Any]:
    """Run ``call``; return ``(True, result)`` or ``(False, None)`` after checking its error.

    An error must be an ArgumentTypeError/ArgumentValueError naming (in ``.argument`` and in
    its message) an argument the oracle finds bad, with the matching kind, and carrying the
    rejected object itself in ``.value``; a result is only allowed when the oracle finds
    nothing wrong.
    """
    EXAMPLES[name] += 1
    bad = {argument: kind for argument, kind in problems.items() if kind is not None}
    error: BaseException | None = None
    try:
        result = call()
    except (TypeError, ValueError) as caught:
        error = caught
    if error is None:
        assert not bad, f"accepted bad input {bad}: {result!r:.200}"
        event("outcome", "result")
        return True, result
    assert isinstance(error, (ArgumentTypeError, ArgumentValueError)), repr(error)
    assert error.argument in bad, (error, bad)
    expected = ArgumentTypeError if bad[error.argument] == TYPE else ArgumentValueError
    assert isinstance(error, expected), (error, bad)
    assert error.value is values[error.argument], (error, error.value)
    assert str(error).startswith(error.argument + " "), error
    event("outcome", f"{type(error).__name__} on {error.argument.split('[')[0]}")
    return False, None


#: JSON-ish values of any shape, for fields of records the fuzz targets break on purpose.
_json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 20),
    st.sampled_from([MAX_SAFE, MAX_SAFE + 1, 10**30, -1]),
    st.floats(),
    st.text(
        st.one_of(any_char, st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)), max_size=5
    ),
)
json_values = st.recursive(
    _json_scalars,
    lambda inner: (
        st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=2), inner, max_size=2)
    ),
    max_leaves=4,
)


def check_success_stderr(err: str, command: str, records: int | None) -> None:
    """SOURCE-7, CLI-17: a run that exits 0 on one document is silent on standard error,
    but for one line ``chunkspec CMD: NAME: no text to chunk`` when it wrote no record.

    ``records`` is how many records the run wrote (None when the output format does not
    say, as ``--format text``): then either outcome is allowed, the line only if exact.
    """
    if err == "":
        assert records != 0, "a document with no record was not named on standard error"
        return
    assert records in (0, None), err
    assert err.count("\n") == 1, err
    assert err.startswith(f"chunkspec {command}: "), err
    assert err.endswith(": no text to chunk\n"), err
