"""Argument errors carry the argument and the value, and stay TypeError / ValueError; every
error chunkspec raises on purpose is a ChunkspecError."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from chunkspec import (
    ArgumentTypeError,
    ArgumentValueError,
    ChunkspecError,
    InputError,
    assemble,
    count_tokens,
    hash_text,
    split_section,
)
from chunkspec._cli._io import CliError
from chunkspec._conformance._port import PortError
from chunkspec._core._strict_json import JsonTextError, RepeatedKeyError
from chunkspec._corpus._part_files import DamagedRow
from chunkspec._records._record_files import RecordFileError
from chunkspec._text._regular_files import NotRegularFile, OverCap
from chunkspec.contract import ContractViolation
from chunkspec.core import render
from chunkspec.evaluation import CorpusError, RetrieverUnavailable, StrategyUnavailable
from chunkspec.pages import PdfError


def test_type_error_carries_argument_and_value() -> None:
    with pytest.raises(ArgumentTypeError) as info:
        split_section("d", "T", "a", "3")  # type: ignore[arg-type]
    assert isinstance(info.value, TypeError)
    assert (info.value.argument, info.value.value) == ("max_tokens", "3")
    assert str(info.value) == "max_tokens must be an int, got str '3'"


def test_value_error_carries_argument_and_value() -> None:
    with pytest.raises(ArgumentValueError) as info:
        assemble([], -5)
    assert isinstance(info.value, ValueError)
    assert (info.value.argument, info.value.value) == ("budget", -5)
    assert str(info.value) == "budget must be >= 0, got -5"


def test_long_values_are_shortened_in_the_message() -> None:
    with pytest.raises(ArgumentTypeError) as info:
        split_section("d", "T", ["x" * 500], 1)  # type: ignore[arg-type]
    assert len(str(info.value)) < 140
    assert str(info.value).endswith("...")


def test_values_up_to_80_characters_are_shown_whole() -> None:
    """A value's repr of exactly 80 characters is shown whole; 81 become 77 + '...'."""
    fits = "x" * 78  # repr adds two quotes: 80 characters
    with pytest.raises(ArgumentTypeError) as info:
        split_section("d", "T", "a", fits)  # type: ignore[arg-type]
    assert str(info.value).endswith(f"got str {fits!r}")
    longer = "x" * 79  # 81 characters: cut to 77 and marked
    with pytest.raises(ArgumentTypeError) as info:
        split_section("d", "T", "a", longer)  # type: ignore[arg-type]
    assert str(info.value).endswith("got str " + repr(longer)[:77] + "...")
    assert len(str(info.value).rsplit("got str ", 1)[1]) == 80


def test_non_chunk_items_are_named_with_their_value() -> None:
    """PACK-10, RENDER-1: a non-Chunk is reported as such, with the object itself."""
    item = ("not", "a chunk")
    with pytest.raises(ArgumentTypeError) as info:
        assemble([item], 1)  # type: ignore[list-item]
    assert (info.value.argument, info.value.value) == ("chunks[0]", item)
    assert str(info.value) == "chunks[0] must be a Chunk, got tuple ('not', 'a chunk')"
    with pytest.raises(ArgumentTypeError) as info:
        render(item)  # type: ignore[arg-type]
    assert (info.value.argument, info.value.value) == ("c", item)
    assert str(info.value) == "c must be a Chunk, got tuple ('not', 'a chunk')"


@pytest.mark.parametrize(
    ("call", "argument", "value", "message"),
    [
        (
            lambda: count_tokens(5),  # type: ignore[arg-type]
            "text",
            5,
            "text must be a str, got int 5",
        ),
        (
            lambda: hash_text("a\ud800"),
            "text",
            "a\ud800",
            "text must not contain a lone surrogate (U+D800 at index 1), got 'a\\ud800'",
        ),
        (
            lambda: split_section("d", "T", "a", 2**53),
            "max_tokens",
            2**53,
            "max_tokens must be <= 2**53 - 1, got 9007199254740992",
        ),
        (
            lambda: assemble([], 1, "x"),  # type: ignore[arg-type]
            "min_score",
            "x",
            "min_score must be an int or float, got str 'x'",
        ),
        (
            lambda: assemble([], 1, 2**53),
            "min_score",
            2**53,
            "min_score as an int must be within +-(2**53 - 1), got 9007199254740992",
        ),
        (
            lambda: assemble(5, 1),  # type: ignore[arg-type]
            "chunks",
            5,
            "chunks must be an iterable of Chunk, got int 5",
        ),
    ],
    ids=["str-type", "lone-surrogate", "int-too-big", "real-type", "real-int-range", "chunks"],
)
def test_every_check_names_argument_value_and_problem(
    call: Callable[[], object], argument: str, value: object, message: str
) -> None:
    """PORT-1, PORT-2: each check's exact message, and the rejected object in ``.value``."""
    with pytest.raises((ArgumentTypeError, ArgumentValueError)) as info:
        call()
    error = info.value
    assert isinstance(error, (ArgumentTypeError, ArgumentValueError))
    assert (error.argument, error.value, str(error)) == (argument, value, message)


def test_int_scores_at_both_ends_of_the_safe_range_are_accepted() -> None:
    """PORT-1: +-(2**53 - 1) are valid int scores and floors; one beyond is not."""
    assert assemble([], 1, -(2**53 - 1)) is None
    assert assemble([], 1, 2**53 - 1) is None
    with pytest.raises(ArgumentValueError):
        assemble([], 1, -(2**53))


@pytest.mark.parametrize(
    ("error", "builtin"),
    [
        (ArgumentTypeError, TypeError),
        (ArgumentValueError, ValueError),
        (InputError, ValueError),
        (PdfError, ValueError),
        (CorpusError, ValueError),
        (StrategyUnavailable, ValueError),
        (RetrieverUnavailable, ValueError),
        (PortError, Exception),
        (JsonTextError, ValueError),
        (RepeatedKeyError, ValueError),
        (NotRegularFile, OSError),
        (OverCap, ValueError),
        (DamagedRow, ValueError),
        (RecordFileError, ValueError),
        (ContractViolation, AssertionError),
        (CliError, Exception),
    ],
)
def test_every_deliberate_error_is_a_chunkspec_error(
    error: type[Exception], builtin: type[Exception]
) -> None:
    """One ``except ChunkspecError`` catches them all; each keeps its built-in base."""
    assert issubclass(error, ChunkspecError)
    assert issubclass(error, builtin)


def _exception_classes() -> dict[str, str]:
    """Every exception class defined under src/chunkspec: name -> the file defining it (a
    class counts when one of its bases is a built-in exception or such a class)."""
    import builtins

    import chunkspec

    root = Path(chunkspec.__file__).parent
    bases: dict[str, tuple[str, list[str]]] = {}
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ClassDef):
                named = [ast.unparse(b).rpartition(".")[2] for b in node.bases]
                bases[node.name] = (path.relative_to(root).as_posix(), named)
    known = {
        name
        for name, value in vars(builtins).items()
        if isinstance(value, type) and issubclass(value, BaseException)
    }
    found: dict[str, str] = {}
    while True:
        more = {
            name: home
            for name, (home, named) in bases.items()
            if name not in found and known.intersection(named)
        }
        if not more:
            return found
        found.update(more)
        known.update(more)


def test_every_exception_class_is_in_the_tree() -> None:
    """_errors.py's docstring draws every exception class the package defines; one defined
    elsewhere is drawn with its home (the file it lives in)."""
    import chunkspec._errors

    tree = chunkspec._errors.__doc__ or ""
    found = _exception_classes()
    assert found, "no exception class found"
    for name, home in found.items():
        assert re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", tree), name
        if home != "_errors.py":
            line = next(line for line in tree.splitlines() if re.search(rf"\b{name}\b", line))
            assert home in line, (name, home, line)


def test_no_other_error_class_is_defined() -> None:
    """Every exception class the package defines is a ChunkspecError, but the private
    control-flow signals, which never leave their module (and are in the tree as such)."""
    found = set(_exception_classes())
    # _RepeatedKeyError: the strict JSON loader's hook signal, turned into RepeatedKeyError;
    # Interrupted: the command line's signal, a KeyboardInterrupt (CLI-13)
    signals = {
        "_Disagreement",
        "_Enough",
        "_Found",
        "_ProducerGone",
        "_RepeatedKeyError",
        "_Carried",
        "Interrupted",
    }
    assert found - signals == {
        "ArgumentTypeError",
        "ArgumentValueError",
        "ChunkspecError",
        "ContractViolation",
        "CorpusError",
        "DamagedRow",
        "IngestError",
        "InputError",
        "JsonTextError",
        "NotRegularFile",
        "OverCap",
        "PdfError",
        "PortError",
        "RecordFileError",
        "RepeatedKeyError",
        "RetrieverUnavailable",
        "StoreError",
        "StrategyUnavailable",
    }
