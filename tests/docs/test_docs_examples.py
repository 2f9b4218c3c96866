"""Every Python example in README.md and docs/*.md runs as written (docs that run).

Each file's ```python blocks run in order in one namespace, from the repository root, so
they may read the bundled files in ``examples/`` and use names an earlier block of the same
file defined; nothing else is given to them. ``print`` writes to a discarded buffer.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)


def _blocks(path: Path) -> list[str]:
    """Return the Python blocks of ``path`` in order."""
    return BLOCK.findall(path.read_text("utf-8"))


@pytest.mark.parametrize(
    "path", [p for p in FILES if _blocks(p)], ids=lambda p: str(p.relative_to(ROOT))
)
def test_python_examples_run(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each block runs without error (its own asserts included), with only bundled files."""
    monkeypatch.chdir(ROOT)
    namespace: dict[str, object] = {"__name__": f"docs_example_{path.stem}"}
    for number, block in enumerate(_blocks(path), start=1):
        name = f"{path.name} block {number}"
        if block.lstrip().startswith(">>>"):  # an interactive example: its output is checked
            test = doctest.DocTestParser().get_doctest(block, namespace, name, name, 0)
            runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
            with contextlib.redirect_stdout(io.StringIO()) as report:
                runner.run(test, out=lambda text: print(text, end=""), clear_globs=False)
            assert runner.failures == 0, report.getvalue()
            namespace.update(test.globs)  # DocTest ran on a copy; later blocks see its names
            continue
        code = compile(block, name, "exec")
        with contextlib.redirect_stdout(io.StringIO()):
            exec(code, namespace)


def test_examples_are_found() -> None:
    """The README and the docs hold examples: an empty match would check nothing."""
    assert sum(len(_blocks(p)) for p in FILES) >= 15
    assert os.path.isfile(ROOT / "examples" / "report.pdf")
