"""The wheel ships no module that only tests import: every module in it runs for a user.

The wheel is what hatch packs (pyproject.toml, ``[tool.hatch.build.targets.wheel]``): the
package folder ``src/chunkspec`` less what git ignores, plus the force-included golden files
(JSON data, no modules). The build backend is not in the test environment and the test runs
offline, so the test lists the wheel's modules from that configuration, checks that the
configuration still says what it assumes, and, when hatchling is installed, builds the wheel
and checks that the list is the wheel's.

A module runs for a user when the import graph reaches it from an entry: the façade
(``chunkspec``), ``chunkspec.__main__``, every public module (no part of its name starts
with ``_``) and every module an entry point in pyproject.toml names (the command line). The
graph takes every import that runs, at module level or inside a function; an import under
``if TYPE_CHECKING:`` never runs and does not count. A module that only tests reach belongs
in the tests (tests/conformance holds the kit's).
"""

from __future__ import annotations

import ast
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import tomllib

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
WHEEL = PYPROJECT["tool"]["hatch"]["build"]["targets"]["wheel"]
#: Build the checkout's wheel with the installed backend, offline.
PIP_WHEEL = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation"]
PIP_WHEEL += ["--no-index"]


def _package_dirs() -> list[Path]:
    """The folders hatch packs as packages; the test knows one layout, ``src/chunkspec``."""
    assert WHEEL["packages"] == ["src/chunkspec"]
    return [ROOT / "src" / "chunkspec"]


def _shipped_modules() -> dict[str, Path]:
    """Every module the wheel holds, by dotted name (``__pycache__`` is git-ignored)."""
    modules: dict[str, Path] = {}
    for package in _package_dirs():
        for path in sorted(package.rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            parts = list(path.relative_to(package.parent).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _is_type_checking(node: ast.If) -> bool:
    """``if TYPE_CHECKING:`` or ``if typing.TYPE_CHECKING:``."""
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(nodes: list[ast.AST]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements that run among ``nodes`` and inside them, skipping the bodies
    of ``if TYPE_CHECKING:`` (their ``else`` runs)."""
    for node in nodes:
        if isinstance(node, ast.If) and _is_type_checking(node):
            yield from _imports(list(node.orelse))
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        yield from _imports(list(ast.iter_child_nodes(node)))


def _imported(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The shipped modules that the module ``name`` imports (and the packages above them)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _imports([ast.parse(path.read_text(encoding="utf-8"))]):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            # ``from package import name``: name is a module or an attribute of the package.
            targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        for target in targets:
            parts = target.split(".")
            found.update(
                ".".join(parts[:k])
                for k in range(1, len(parts) + 1)
                if ".".join(parts[:k]) in modules
            )
    return found


def _entries(modules: dict[str, Path]) -> set[str]:
    """The façade, ``__main__``, the public modules and the entry points' modules."""
    entries = {"chunkspec", "chunkspec.__main__"}
    entries |= {name for name in modules if not any(p.startswith("_") for p in name.split("."))}
    project = PYPROJECT["project"]
    points = dict(project.get("scripts", {}))
    for group in project.get("entry-points", {}).values():
        points.update(group)
    for target in points.values():
        module = target.split(":")[0]
        assert module in modules, f"entry point {target} names no shipped module"
        entries.add(module)
    return entries


def _reachable(modules: dict[str, Path]) -> set[str]:
    """Every shipped module an entry's imports reach."""
    seen: set[str] = set()
    todo = sorted(_entries(modules))
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(_imported(name, modules[name], modules) - seen)
    return seen


def test_the_force_included_files_hold_no_module() -> None:
    """What hatch adds beside the package is data: the golden files, no Python."""
    for source in WHEEL.get("force-include", {}):
        assert not list((ROOT / source).rglob("*.py")), source


def test_every_shipped_module_runs_for_a_user() -> None:
    """No module in the wheel is imported only by tests."""
    modules = _shipped_modules()
    assert "chunkspec._cli" in modules  # the layout this test reads
    only_tests = sorted(set(modules) - _reachable(modules))
    assert not only_tests, f"shipped but reached from no entry (move them to tests/): {only_tests}"


def test_the_wheel_holds_the_listed_modules(tmp_path: Path) -> None:
    """The modules listed from the configuration are the wheel's (needs hatchling)."""
    pytest.importorskip("hatchling")
    built = subprocess.run(
        [*PIP_WHEEL, "-w", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("chunkspec-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = {name for name in archive.namelist() if name.endswith(".py")}
    listed = {path.relative_to(ROOT / "src").as_posix() for path in _shipped_modules().values()}
    assert names == listed
