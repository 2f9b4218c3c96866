"""docs/reliability.md: every test a catalogue row names exists (file, function, golden case)."""

from __future__ import annotations

import re
from pathlib import Path

from .. import goldens

ROOT = Path(__file__).parents[2]
DOC = ROOT / "docs" / "reliability.md"

#: Data-driven tests and the golden file whose case ids they take in ``[...]``.
_GOLDEN_OF = {
    "test_split_section": "split_section",
    "test_assemble": "assemble",
    "test_cli_golden": "cli",
    "test_split_markdown": "split_markdown",
    "test_heading_aware": "heading_aware",
    "test_chunk_cli": "chunk_cli",
    "test_retrieve": "retrieve",
    "test_evaluate": "evaluate",
    "test_eval_cli": "eval_cli",
    "test_cli_inputs_golden": "cli_inputs",
    "test_signals_golden": "signals",
    "test_trust_inputs_golden": "trust_inputs",
}

_REF = re.compile(
    r"^(?P<path>[\w/]+\.py)?(?:(?:::)?(?P<func>test_\w+))?(?:\[(?P<case>[a-z0-9-]+)\])?$"
)


def _rows() -> list[str]:
    """The body rows of the catalogue tables (those headed ``| bad input |`` or ``| input |``)."""
    rows: list[str] = []
    in_catalogue = False
    for line in DOC.read_text("utf-8").splitlines():
        if not line.startswith("|"):
            in_catalogue = False
        elif line.startswith(("| bad input |", "| input |")):
            in_catalogue = True
        elif in_catalogue and not line.startswith("|---"):
            rows.append(line)
    return rows


def _references() -> list[tuple[str, str | None, str | None]]:
    """``(path, function, case)`` for every test reference in the catalogue's table rows."""
    found: list[tuple[str, str | None, str | None]] = []
    path = func = None
    for line in _rows():
        for token in re.findall(r"`([^`]+)`", line.rsplit(" | ", 1)[-1]):
            match = _REF.match(token)
            if match is None or not (match["path"] or match["func"] or match["case"]):
                continue
            if match["path"]:
                path, func = match["path"], None
            if match["func"]:
                func = match["func"]
            assert path is not None, token
            found.append((path, func, match["case"]))
    return found


def test_catalogue_names_tests() -> None:
    assert len(_references()) > 80


def test_every_row_names_a_test() -> None:
    """Each catalogue row's last column holds at least one ``file.py`` or ``test_...``."""
    rows = _rows()
    assert len(rows) > 40
    bare = [
        row for row in rows if not re.search(r"`[^`]*(\.py|test_\w+)", row.rsplit(" | ", 1)[-1])
    ]
    assert bare == []


def test_every_named_test_exists() -> None:
    missing = []
    for path, func, case in _references():
        source = ROOT / path
        if not source.is_file():
            missing.append(path)
            continue
        if func is not None and not re.search(
            rf"^def {func}\(", source.read_text("utf-8"), re.MULTILINE
        ):
            missing.append(f"{path}::{func}")
        if case is not None:
            assert func in _GOLDEN_OF, (path, func, case)
            ids = {c["id"] for c in goldens.load_file(_GOLDEN_OF[func])["cases"]}
            if case not in ids:
                missing.append(f"{path}::{func}[{case}]")
    assert missing == []
