"""The mkdocs hook that adds the npm package's browser build and TypeDoc pages to the site."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

HOOK = Path(__file__).resolve().parents[2] / "ports" / "typescript" / "scripts"


def _hook() -> ModuleType:
    """Load ports/typescript/scripts/mkdocs_site_assets.py as mkdocs does (by path)."""
    spec = importlib.util.spec_from_file_location("site_assets", HOOK / "mkdocs_site_assets.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_built_assets_are_copied(tmp_path: Path) -> None:
    """With both built, the site gets the bundle and the whole API folder."""
    bundle = tmp_path / "chunkspec.iife.js"
    bundle.write_text("var chunkspec = {};", "utf-8")
    api = tmp_path / "api"
    (api / "functions").mkdir(parents=True)
    (api / "index.html").write_text("<p>api</p>", "utf-8")
    (api / "functions" / "chunkDocument.html").write_text("<p>f</p>", "utf-8")
    site = tmp_path / "site"
    _hook().copy_assets(site, bundle, api)
    assert (site / "assets" / "chunkspec.iife.js").read_text("utf-8") == "var chunkspec = {};"
    assert (site / "typescript-api" / "functions" / "chunkDocument.html").is_file()


def test_placeholders_say_how_to_build(tmp_path: Path) -> None:
    """Without a build the links still resolve, to text saying what to run."""
    site = tmp_path / "site"
    _hook().copy_assets(site, tmp_path / "missing.js", tmp_path / "missing")
    assert "npm run build" in (site / "assets" / "chunkspec.iife.js").read_text("utf-8")
    assert "npm run docs" in (site / "typescript-api" / "index.html").read_text("utf-8")
