"""The kit's floors (``_conformance/__init__.py``): the wire at the bottom, the op families
over it, the framework on top; a module imports only its own floor and those below it.

import-linter's acyclic contract keeps the kit free of cycles; this test keeps the order the
package docstring states, which no contract of pyproject.toml names: a family never
imports the framework (the oracle, the runner...) nor another family but ``records``, and
the wire imports no family.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.import_graph import imported, modules_under

KIT = "chunkspec._conformance"
SRC = Path(__file__).resolve().parents[2] / "src" / "chunkspec"
MODULES = modules_under(SRC)
#: The bottom floor: what the families may import of the kit.
WIRE = {f"{KIT}.{name}" for name in ("_wire", "_compare", "_js_space", "_pools", "_draw")}
FAMILIES = ("markdown", "windows", "packing", "records", "documents")
#: The family every other family may build on (the record object).
BASE_FAMILY = "records"


def _floor(module: str) -> str:
    """``wire``, ``family:NAME`` or ``framework``."""
    if module in WIRE:
        return "wire"
    parts = module.split(".")
    if len(parts) > 2 and parts[2] in FAMILIES:
        return f"family:{parts[2]}"
    return "framework"


KIT_MODULES = sorted(m for m in MODULES if m.startswith(f"{KIT}.") and m != KIT)


def test_the_floors_cover_the_kit() -> None:
    """Every wire module named here exists, and each family is a subpackage of the kit."""
    assert set(MODULES) >= WIRE
    assert all(f"{KIT}.{family}" in MODULES for family in FAMILIES)


@pytest.mark.parametrize("module", KIT_MODULES)
def test_a_module_imports_only_its_floor_and_below(module: str) -> None:
    """The wire imports only the wire; a family the wire, itself and ``records``."""
    floor = _floor(module)
    kit = {m for m in imported(module, MODULES[module], MODULES) if m.startswith(f"{KIT}.")}
    if floor == "wire":
        allowed = {m for m in kit if _floor(m) == "wire"}
    elif floor.startswith("family:"):
        own = {floor, f"family:{BASE_FAMILY}", "wire"}
        allowed = {m for m in kit if _floor(m) in own}
    else:
        allowed = kit
    assert kit - allowed == set(), f"{module} ({floor}) imports {sorted(kit - allowed)}"
