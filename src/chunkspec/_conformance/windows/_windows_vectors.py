"""The ``token_windows`` and ``chunk_pages`` goldens as record vectors (CONF-2, RECORD-1).

Their goldens hold ``TokenWindow`` and ``PageChunk`` objects; on the wire the answers are
chunk records, so each golden window is expanded to its record here, from the golden's own
fields (the hash with hashlib), independently of the code under test. Only what the wire
carries is kept: the whitespace counter (no custom counters), pages as strings (no ``Page``
objects) and no ``sections`` (a record's section comes from headings, RECORD-12).
"""

from __future__ import annotations

import hashlib
from typing import Any

from ..._records._key import keyed_rows

__all__ = ["page_case", "token_window_case"]

#: The record rules every expanded window vector checks beside its own rules.
_RECORD_RULES = ["RECORD-2", "RECORD-3", "RECORD-5", "RECORD-6", "RECORD-14"]
#: token_windows' argument names and the record API's.
_NAMES = {"size": "max_tokens", "overlap": "overlap_tokens"}


def _record(
    data: dict[str, Any],
    strategy: str,
    k: int,
    window: dict[str, Any],
    pages: tuple[Any, Any] = (None, None),
) -> dict[str, Any]:
    """The chunk record of golden window ``k`` (RECORD-1)."""
    text = window["text"]
    tokens = len(text.split())  # the whitespace counter (COUNT-4)
    return {
        "id": f"{data['doc_id']}:{k}",
        "doc_id": data["doc_id"],
        "index": k,
        "text": text,
        "start": window.get("start", window.get("char_start")),
        "end": window.get("end", window.get("char_end")),
        "tokens": tokens,
        "counter": "whitespace",
        "content_hash": hashlib.sha256(text.encode("utf-8")).hexdigest(),
        "kind": "window",
        "heading_path": [],
        "parent_id": None,
        "page_start": pages[0],
        "page_end": pages[1],
        "section": None,
        "prefix": "",
        "oversized": tokens > data.get("max_tokens", 400),
        "title": data["title"],
        "source": "",
        "strategy": strategy,
        "metadata": {},
    }


def _error(raw: dict[str, Any]) -> dict[str, Any]:
    """The golden's error with the record API's argument names."""
    error = dict(raw["error"])
    error["argument"] = _NAMES.get(str(error.get("argument")), error.get("argument"))
    return error


def token_window_case(raw: dict[str, Any]) -> dict[str, Any] | None:
    """A ``token_windows`` golden over the whitespace counter as a record vector, or None."""
    given = raw["input"]
    if given.get("counter", "whitespace") != "whitespace":
        return None
    data: dict[str, Any] = {"doc_id": "d", "title": "T"}
    data.update({_NAMES.get(k, k): v for k, v in given.items() if k != "counter"})
    out = {**raw, "input": data}
    if "error" in raw:
        out["error"] = _error(raw)
        return out
    strategy = f"window:max_tokens={data['max_tokens']},overlap_tokens={data['overlap_tokens']}"
    out["output"] = keyed_rows([_record(data, strategy, k, w) for k, w in enumerate(raw["output"])])
    out["rules"] = [*raw["rules"], *_extra_rules(out["output"])]
    return out


def _extra_rules(output: list[dict[str, Any]]) -> list[str]:
    """The record rules a vector checks: SOURCE-7 when a blank document has no record."""
    return _RECORD_RULES if output else ["SOURCE-7"]


def page_case(raw: dict[str, Any]) -> dict[str, Any] | None:
    """A ``chunk_pages`` golden with string pages and the whitespace counter, or None."""
    given = raw["input"]
    pages = given.get("pages")
    if "counter" in given or "sections" in given:
        return None
    if isinstance(pages, list) and not all(isinstance(p, str) for p in pages):
        return None  # Page objects: the wire's pages are strings
    data: dict[str, Any] = {"doc_id": "d", "title": "T", **given}
    out = {**raw, "input": data}
    if "error" in raw:
        out["error"] = _error(raw)
        return out
    size = data.get("max_tokens", 400)
    overlap = data.get("overlap_tokens", size // 4)
    strategy = f"pages:max_tokens={size},overlap_tokens={overlap}"
    out["output"] = keyed_rows(
        [
            _record(data, strategy, k, c, (c["page_start"], c["page_end"]))
            for k, c in enumerate(raw["output"])
        ]
    )
    out["rules"] = [*raw["rules"], *_extra_rules(out["output"])]
    return out
