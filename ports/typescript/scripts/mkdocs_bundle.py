"""mkdocs hook: put the npm package's browser build beside the playground (docs/playground.md).

The site's ``assets/chunkspec.iife.js`` is ``dist/browser/chunkspec.iife.js`` when it has
been built (``npm run build`` here; ``nox -s conformance`` runs it before ``nox -s docs``);
otherwise a one-line script that leaves ``chunkspec`` undefined, so the page says how to
build it instead of failing.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

BUNDLE = Path(__file__).resolve().parents[1] / "dist" / "browser" / "chunkspec.iife.js"


def on_post_build(config: Any, **_: Any) -> None:
    """Copy the bundle (or the placeholder) to ``site/assets/chunkspec.iife.js``."""
    target = Path(config["site_dir"]) / "assets" / "chunkspec.iife.js"
    target.parent.mkdir(parents=True, exist_ok=True)
    if BUNDLE.is_file():
        shutil.copyfile(BUNDLE, target)
    else:
        target.write_text(
            "/* no browser build: cd ports/typescript && npm ci && npm run build */\n", "utf-8"
        )
