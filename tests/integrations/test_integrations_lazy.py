"""The framework adapters are imported lazily: ``import chunkspec`` imports no framework."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.counters import without_module

ROOT = Path(__file__).resolve().parents[2]

#: Top-level modules of the frameworks (and of the heavy optional extras).
FRAMEWORKS = (
    "langchain_core",
    "langchain_text_splitters",
    "llama_index",
    "haystack",
    "tiktoken",
    "tokenizers",
    "pyarrow",
    "icu4py",
)


def test_import_chunkspec_imports_no_framework() -> None:
    """In a fresh interpreter, chunkspec and chunkspec.integrations load no framework."""
    code = (
        "import json, sys; import chunkspec, chunkspec.integrations; "
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {FRAMEWORKS!r})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT / "src")},
    )
    assert json.loads(done.stdout) == []


@pytest.mark.parametrize(
    ("adapter", "module", "extra"),
    [
        ("langchain", "langchain_text_splitters", "langchain"),
        ("llama_index", "llama_index", "llama-index"),
        ("haystack", "haystack", "haystack"),
    ],
)
def test_missing_framework_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, adapter: str, module: str, extra: str
) -> None:
    """Without the framework, importing its adapter says which extra installs it."""
    name = f"chunkspec.integrations.{adapter}"
    monkeypatch.delitem(sys.modules, name, raising=False)
    without_module(monkeypatch, module)
    with pytest.raises(ImportError, match=rf"pip install 'chunkspec\[{extra}\]'"):
        importlib.import_module(name)
