"""The import graph of the package's modules, read from their source (no import runs).

An edge is an import statement that runs, at module level or inside a function; one under
``if TYPE_CHECKING:`` never runs and is no edge. tests/test_wheel_contents.py walks it from
the entries, tests/conformance/test_conformance_floors.py checks the kit's floors on it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

__all__ = ["imported", "modules_under"]


def modules_under(package: Path) -> dict[str, Path]:
    """Every module of the package folder ``package``, by dotted name (no ``__pycache__``)."""
    modules: dict[str, Path] = {}
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


def imported(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
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
