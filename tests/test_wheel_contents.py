"""The wheel ships no module that only tests import: every module in it runs for a user.

The wheel is what hatch packs (pyproject.toml, ``[tool.hatch.build.targets.wheel]``): the
package folder ``src/chunkspec`` less what git ignores, plus the force-included golden files
(JSON data, no modules). The build backend is not in the test environment and the test runs
offline, so the test lists the wheel's modules from that configuration, checks that the
configuration still says what it assumes, and builds the wheel with hatchling (in the test
dependency group) to check that the list is the wheel's.

A module runs for a user when the import graph reaches it from an entry: the façade
(``chunkspec``), ``chunkspec.__main__``, every public module (no part of its name starts
with ``_``) and every module an entry point in pyproject.toml names (the command line). The
graph takes every import that runs, at module level or inside a function; an import under
``if TYPE_CHECKING:`` never runs and does not count. A module that only tests reach belongs
in the tests (tests/conformance holds the kit's).
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

from tests.import_graph import imported, modules_under

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
WHEEL = PYPROJECT["tool"]["hatch"]["build"]["targets"]["wheel"]
#: Build the checkout's wheel with the installed backend's PEP 517 hook, offline (the test
#: environment, made by uv, has no pip); the wheel's name is printed.
BUILD_WHEEL = "import sys; from hatchling.build import build_wheel; print(build_wheel(sys.argv[1]))"


def _package_dirs() -> list[Path]:
    """The folders hatch packs as packages; the test knows one layout, ``src/chunkspec``."""
    assert WHEEL["packages"] == ["src/chunkspec"]
    return [ROOT / "src" / "chunkspec"]


def _shipped_modules() -> dict[str, Path]:
    """Every module the wheel holds, by dotted name (``__pycache__`` is git-ignored)."""
    modules: dict[str, Path] = {}
    for package in _package_dirs():
        modules.update(modules_under(package))
    return modules


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
            todo.extend(imported(name, modules[name], modules) - seen)
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
    """The modules listed from the configuration are the wheel's, as hatchling builds it."""
    built = subprocess.run(
        [sys.executable, "-c", BUILD_WHEEL, str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    wheel = tmp_path / built.stdout.strip().splitlines()[-1]
    with zipfile.ZipFile(wheel) as archive:
        names = {name for name in archive.namelist() if name.endswith(".py")}
    listed = {path.relative_to(ROOT / "src").as_posix() for path in _shipped_modules().values()}
    assert names == listed
