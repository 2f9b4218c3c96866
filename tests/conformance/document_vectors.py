"""The pinned files of the kit's ``chunk_document`` op (NPM-1, NPM-5): raw Markdown files and
the oracle's records of each, ``src/chunkspec/_conformance/data/chunk_document.json``.

``python -m tests.conformance.document_vectors --write`` writes the file; the test of the op
(tests/conformance/test_conformance_broken_documents.py) checks that it is current.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from chunkspec._conformance._oracle import expect

FILE = Path(__file__).resolve().parents[2] / "src/chunkspec/_conformance/data/chunk_document.json"

GUIDE = (
    "---\ntitle: Install guide\nowner: docs\ntags: setup\n---\n"
    "# Install\n\nDownload the package and unpack it.\n\n"
    "## Requirements\n\n- Python 3.10 or later\n- 2 GB of disk\n\n"
    "```sh\n# not a heading: a shell comment\npip install chunkspec\n```\n\n"
    "## Run\n\nRun the command with a file.\n\n| flag | meaning |\n|---|---|\n| -q | quiet |\n"
)
SETEXT = (
    "Overview\n========\n\nText under the title.\n\nDetails\n-------\n\nMore text here, and more.\n"
)
NBSP = "# Top\n\nA paragraph.\n\u00a0\nSetext title\n===\n\nafter it\n"
TOML = '+++\ntitle = "Notes"\nauthor = "kim"\n+++\n\n# Ignored title\n\nBody words one two three.\n'
PAGED_FM = "---\nowner: ops\n\f\n---\n# Report\n\nPage one text.\fPage two text. More.\fThree.\n"
CRLF = (
    "---\r\ntitle: Windows\r\n---\r\n# A\r\n\r\nline one\r\n\r\n"
    "## B\r\n\r\nline two \U0001f600 end\r\n"
)
REFUSED = "---\ntitle: Secret\nacl_labels:\n  - hr\n---\n# Pay\n\nSalaries.\n"
UNCLOSED = "---\ntitle: not front matter\n# Heading\n\ntext\n"
ONLY_FM = "---\ntenant_id: t1\n---\n"
CJK = (
    "---\ntitle: \u4e2d\u6587\n---\n# \u6807\u9898\n\n"
    "\u4e2d\u6587\u6587\u672c\u3002\u7b2c\u4e8c\u53e5\u3002\n"
)


def _case(
    slug: str,
    rules: list[str],
    note: str,
    text: str,
    strategy: str,
    max_tokens: int,
    fmt: str | None = None,
) -> dict[str, Any]:
    """One vector: the input and the oracle's records (or its error)."""
    data: dict[str, Any] = {
        "doc_id": "d",
        "text": text,
        "strategy": strategy,
        "max_tokens": max_tokens,
    }
    if fmt is not None:
        data["input_format"] = fmt
    got = expect("chunk_document", data)
    case: dict[str, Any] = {"id": slug, "rules": rules, "note": note, "input": data}
    if "error" in got:
        case["error"] = got["error"]
    else:
        case["output"] = got["ok"]
    return case


def vector_text() -> str:
    """The file's text: every case, the oracle's answers."""
    cases: list[dict[str, Any]] = []

    def add(*args: Any) -> None:
        cases.append(_case(*args))

    for strategy, size in (("window", 8), ("pages", 10), ("heading", 12), ("structural", 12)):
        add(
            f"guide-{strategy}",
            ["NPM-5", "FM-2", "SOURCE-5", "META-3", "RECORD-12"],
            f"a .md file with front matter, headings, a fence and a table under {strategy}",
            GUIDE,
            strategy,
            size,
        )
    add(
        "guide-window-as-text",
        ["NPM-5"],
        "the same file read as plain text",
        GUIDE,
        "window",
        8,
        "text",
    )
    add(
        "guide-pages-markdown-given",
        ["NPM-5", "FM-2"],
        "input_format markdown given",
        GUIDE,
        "pages",
        10,
        "markdown",
    )
    add(
        "setext-window",
        ["RECORD-12", "NPM-5"],
        "setext headings: a window starting at the title line is in its section",
        SETEXT,
        "window",
        5,
    )
    add(
        "nbsp-setext-window",
        ["RECORD-12"],
        "a setext title opened by a line of NBSP starts at that line (markdown-it's map)",
        NBSP,
        "window",
        3,
    )
    add("nbsp-setext-pages", ["RECORD-12"], "the same under pages", NBSP, "pages", 4)
    add(
        "toml-front-matter-window",
        ["FM-2", "SOURCE-5", "META-3"],
        "TOML front matter: its title wins over the heading",
        TOML,
        "window",
        4,
    )
    add(
        "front-matter-page-break-pages",
        ["FM-2", "NPM-5"],
        "a page break inside the front matter is kept: page numbers stay the text's",
        PAGED_FM,
        "pages",
        4,
    )
    add(
        "front-matter-page-break-window",
        ["FM-2", "SOURCE-4"],
        "the same under window",
        PAGED_FM,
        "window",
        4,
    )
    add(
        "crlf-astral-window",
        ["FM-2", "RECORD-12", "NPM-5"],
        "CRLF line breaks and an astral character after the front matter",
        CRLF,
        "window",
        3,
    )
    add(
        "trust-3-refused-window",
        ["TRUST-3", "NPM-5"],
        "an access key in a form FM-3 cannot read refuses the file under window too",
        REFUSED,
        "window",
        8,
    )
    add("trust-3-refused-pages", ["TRUST-3", "NPM-5"], "and under pages", REFUSED, "pages", 8)
    add(
        "trust-3-text-not-refused",
        ["TRUST-3", "NPM-5"],
        "read as text, the file has no front matter",
        REFUSED,
        "window",
        8,
        "text",
    )
    add(
        "unclosed-front-matter-window",
        ["FM-2", "NPM-5"],
        "an unclosed front matter is text (FM-5)",
        UNCLOSED,
        "window",
        4,
    )
    add(
        "only-front-matter-pages",
        ["FM-2", "PAGE-5"],
        "a file of front matter alone: no record",
        ONLY_FM,
        "pages",
        4,
    )
    add(
        "only-front-matter-window", ["FM-2", "NPM-5"], "the same under window", ONLY_FM, "window", 4
    )
    add(
        "cjk-front-matter-window",
        ["SCRIPT-6", "FM-2", "NPM-5"],
        "a script without spaces: unicode units, the front matter left out",
        CJK,
        "window",
        4,
    )

    out = {
        "function": "chunk_document",
        "description": (
            "Fixed raw files for chunk_document (NPM-1, NPM-5): the records "
            "chunk_document(document_from_text(text, doc_id, input_format), strategy, "
            "max_tokens) writes for Markdown files with front matter, headings, fences and "
            "page breaks under every strategy, and the TRUST-3 refusals; written by "
            "tests/conformance/document_vectors.py (the kit's oracle) and read back by every "
            "port's adapter."
        ),
        "cases": cases,
    }
    return json.dumps(out, indent=1, ensure_ascii=True) + "\n"


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        FILE.write_text(vector_text(), "utf-8")
    else:
        sys.exit(0 if FILE.read_text("utf-8") == vector_text() else 1)
