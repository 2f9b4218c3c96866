"""mkdocs hook: put the npm package's browser build and its TypeDoc pages into the site.

- ``assets/chunkspec.iife.js``, which the playground (docs/playground.md) loads, is
  ``dist/browser/chunkspec.iife.js`` when it has been built (``npm run build``), else a
  one-line script that leaves ``chunkspec`` undefined, so the page says how to build it.
- ``typescript-api/`` is the TypeDoc reference generated from the package's types
  (``npm run docs`` writes ``dist-api``; ``nox -s conformance`` runs it before ``nox -s
  docs``), else one page saying how to generate it.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parents[1]
BUNDLE = PACKAGE / "dist" / "browser" / "chunkspec.iife.js"
API = PACKAGE / "dist-api"


def copy_assets(site: Path, bundle: Path = BUNDLE, api: Path = API) -> None:
    """Copy the bundle and the API pages (or their placeholders) into ``site``."""
    target = site / "assets" / "chunkspec.iife.js"
    target.parent.mkdir(parents=True, exist_ok=True)
    if bundle.is_file():
        shutil.copyfile(bundle, target)
    else:
        target.write_text(
            "/* no browser build: cd ports/typescript && npm ci && npm run build */\n", "utf-8"
        )
    reference = site / "typescript-api"
    shutil.rmtree(reference, ignore_errors=True)
    if (api / "index.html").is_file():
        shutil.copytree(api, reference)
    else:
        reference.mkdir(parents=True)
        (reference / "index.html").write_text(
            "<!DOCTYPE html><title>TypeScript API</title><p>The TypeScript API reference is "
            "generated from the package's types: <code>cd ports/typescript &amp;&amp; npm ci "
            "&amp;&amp; npm run docs</code>, then build the docs again.</p>\n",
            "utf-8",
        )


def on_post_build(config: Any, **_: Any) -> None:
    """After mkdocs has written the site, add the package's assets to it."""
    copy_assets(Path(config["site_dir"]))
