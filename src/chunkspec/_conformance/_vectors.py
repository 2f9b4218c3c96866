"""Vectors: the core's golden cases (and the hazard cases) as versioned files for ports.

A vector file holds the cases of one function (CONF-1); each case has a stable slug ``id``,
the spec ``rules`` it exercises, the wire ``input``, and the expected ``output`` or
``error`` kind. ``split_section`` goldens list only ``{"text", "tokens"}`` per chunk: the
other fields follow by rule SPLIT-9, so they are filled in here (the hash with hashlib,
independently of the code under test) and ports compare whole chunks.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from .._core._validate import MAX_SAFE_INTEGER
from .._records._key import keyed_rows
from .._version import __version__
from ._oracle import OPS, expect
from .code._code_ops import code_vectors
from .documents._documents_ops import document_vectors
from .html._html_ops import html_vectors
from .markdown._markdown_vectors import MARKDOWN_OPS, markdown_case
from .packing._packing_ops import pack_case
from .records._record_object import record_object
from .records._schema_cases import schema_vectors
from .windows._windows_vectors import page_case, token_window_case

__all__ = [
    "FORMAT",
    "SCHEMAS",
    "Vector",
    "export",
    "golden_dir",
    "load_vectors",
    "manifest",
    "vector_files",
]

#: Version of the vector file format and of the wire protocol (CONF-1, CONF-4).
FORMAT = 1

_DATA = Path(__file__).parent / "data"
#: The JSON Schemas shipped beside the vectors.
SCHEMAS = (
    "vectors.schema.json",
    "chunk.schema.json",
    "protocol.schema.json",
    "markdown-inputs.schema.json",
    "inputs.schema.json",
)
#: The chunk record's JSON Schema, shipped as is (src/chunkspec/schemas/).
RECORD_SCHEMA = "chunk-record.schema.json"

#: Features a case may need that not every port's wire can carry (CONF-5).
_INT_FIELDS = ("max_tokens", "budget", "tokens", "n", "start", "overlap_tokens")
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

Vector = dict[str, Any]


def golden_dir() -> Path:
    """Return the golden files: shipped in the wheel, else the source tree's tests/golden."""
    shipped = _DATA / "golden"
    if shipped.is_dir():
        return shipped
    source = Path(__file__).resolve().parents[3] / "tests" / "golden"
    if source.is_dir():
        return source
    raise FileNotFoundError("golden files are missing from this installation of chunkspec")


def _needs(data: Any) -> list[str]:
    """Features of the input that a JSON-only wire loses: ``2.0`` where an int is due, or
    an int score beyond 2**53 - 1 (PORT-1 bounds int scores only; floats are unbounded)."""

    def lost(obj: Any, key: str = "") -> bool:
        if isinstance(obj, dict):
            return any(lost(v, k) for k, v in obj.items())
        if isinstance(obj, list):
            return any(lost(v, key) for v in obj)
        if key in _INT_FIELDS:
            return isinstance(obj, float) and obj.is_integer() and str(obj) != "-0.0"
        if key in ("score", "min_score"):
            return type(obj) is int and abs(obj) > MAX_SAFE_INTEGER
        return False

    return ["int-float-distinction"] if lost(data) else []


def _expand_split(data: dict[str, Any], output: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Fill in the SPLIT-9 fields of each ``{"text", "tokens"}`` golden chunk."""
    return [
        {
            "id": f"{data['doc_id']}:{n}",
            "doc_id": data["doc_id"],
            "title": data["title"],
            "text": part["text"],
            "tokens": part["tokens"],
            "content_hash": hashlib.sha256(part["text"].encode("utf-8")).hexdigest(),
            "score": 0.0,
        }
        for n, part in enumerate(output)
    ]


#: ``chunk``'s argument names and the record API's (``chunk`` vectors speak the latter).
_WINDOW_NAMES = {"size": "max_tokens", "overlap": "overlap_tokens"}


#: The record rules every expanded window vector checks beside its WIN rules.
_RECORD_RULES = ["RECORD-2", "RECORD-3", "RECORD-6", "RECORD-14"]


def _window_record(data: dict[str, Any], k: int, piece: str) -> dict[str, Any]:
    """The record of window ``k`` of a ``chunk`` golden (RECORD-1, WIN-5, WIN-9)."""
    start = k * (data["max_tokens"] - data["overlap_tokens"])
    return record_object(
        data["doc_id"],
        k,
        piece,
        (start, start + len(piece)),
        title=data["title"],
        strategy=(
            f"window:max_tokens={data['max_tokens']},overlap_tokens={data['overlap_tokens']}"
        ),
    )


def _window_case(raw: dict[str, Any]) -> dict[str, Any]:
    """A ``chunk`` golden (WIN rules) as a record vector: ``doc_id "d"``, ``title "T"``, the
    record API's argument names, and each window string expanded to its record. A blank
    text has no record (SOURCE-7)."""
    given = raw["input"]
    data = {"doc_id": "d", "title": "T"}
    data.update({_WINDOW_NAMES.get(k, k): v for k, v in given.items()})
    out = {**raw, "input": data}
    if "error" in raw:
        error = dict(raw["error"])
        argument = str(error.get("argument"))
        error["argument"] = _WINDOW_NAMES.get(argument, error.get("argument"))
        out["error"] = error
    elif isinstance(data.get("text"), str) and not data["text"].strip():
        out["output"] = []
        out["rules"] = [*raw["rules"], "SOURCE-7"]
    else:
        out["output"] = keyed_rows(
            [_window_record(data, k, p) for k, p in enumerate(raw["output"])]
        )
        out["rules"] = [*raw["rules"], *_RECORD_RULES]
    return out


#: Goldens whose answers become chunk records on the wire; None drops a case the wire
#: cannot carry (a custom counter, Page objects, sections).
_RECORD_GOLDENS = {
    "chunk": _window_case,
    "token_windows": token_window_case,
    "chunk_pages": page_case,
    "pack_records": pack_case,
}


def _case(function: str, raw: dict[str, Any], source: str) -> Vector | None:
    """Return the vector for one golden or hazard case (None: not for the wire)."""
    if function in _RECORD_GOLDENS and source == "golden":
        converted = _RECORD_GOLDENS[function](raw)
        if converted is None:
            return None
        raw = converted
    case: Vector = {"id": raw["id"], "rules": list(raw["rules"])}
    if "hazard" in raw:
        case["hazard"] = raw["hazard"]
    if raw.get("note"):
        case["note"] = raw["note"]
    case["input"] = raw["input"]
    if "error" in raw:
        error = raw["error"]
        case["error"] = {
            "kind": error.get("kind", error.get("type")),
            "argument": error.get("argument"),
        }
    elif function == "split_section":
        case["output"] = _expand_split(raw["input"], raw["output"])
    else:
        case["output"] = raw["output"]
    needs = _needs(raw["input"])
    if needs:
        case["needs"] = needs
    case["source"] = source
    return case


def _sample_records() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The oracle's window, heading body and page records that the schema vectors start
    from (CONF-17)."""
    window = expect(
        "chunk",
        {"doc_id": "d", "title": "T", "text": "abc def", "max_tokens": 4, "overlap_tokens": 1},
    )["ok"][0]
    heading = expect(
        "heading_aware",
        {"doc_id": "d", "title": "T", "text": "# A\n\nb c\n", "max_tokens": 8, "overlap_tokens": 0},
    )["ok"][1]
    page = expect(
        "chunk_pages", {"doc_id": "d", "title": "T", "pages": ["a b.", "c"], "max_tokens": 8}
    )["ok"][0]
    return window, heading, page


def load_vectors() -> dict[str, list[Vector]]:
    """Return every vector, by function: the core's goldens, the hazard cases, then the
    record schema's cases."""
    out: dict[str, list[Vector]] = {name: [] for name in OPS}
    root = golden_dir()
    for name in OPS:
        path = root / f"{name}.json"
        if path.is_file():
            data = json.loads(path.read_text("utf-8"))
            raws = data["cases"]
            if name in MARKDOWN_OPS:
                raws = [c for c in (markdown_case(name, raw) for raw in raws) if c is not None]
            converted = [_case(name, raw, "golden") for raw in raws]
            out[name] += [case for case in converted if case is not None]
    hazards = json.loads((_DATA / "hazards.json").read_text("utf-8"))
    for raw in hazards["cases"]:
        hazard = _case(raw["function"], raw, "hazard")
        assert hazard is not None  # hazard cases are written for the wire
        out[raw["function"]].append(hazard)
    # read_html's pinned pages (HTML-1..HTML-21): the kit's own file, not a core golden.
    out["read_html"] += html_vectors()
    # chunk_code's pinned programs (CODE-1..CODE-11): the kit's own file, like read_html's.
    out["chunk_code"] += code_vectors()
    # chunk_document's pinned raw files (NPM-1, NPM-5): the kit's own file, like chunk_code's.
    out["chunk_document"] += document_vectors()
    # The record schema's own cases (CONF-17): valid records, and one per constraint broken.
    samples = _sample_records()
    out["validate_record"] += [{**case, "source": "schema"} for case in schema_vectors(*samples)]
    for name, cases in out.items():
        seen: set[str] = set()
        for case in cases:
            if not _SLUG.match(case["id"]) or case["id"] in seen:
                raise ValueError(f"{name}: bad or duplicate case id {case['id']!r}")
            seen.add(case["id"])
    return out


def _file_text(function: str, cases: list[Vector]) -> str:
    """Return the text of one vector file (stable: sorted keys, ASCII, one trailing newline)."""
    body = {
        "$schema": "vectors.schema.json",
        "format": FORMAT,
        "suite_version": __version__,
        "function": function,
        "cases": cases,
    }
    return json.dumps(body, ensure_ascii=True, indent=1, sort_keys=True) + "\n"


def vector_files() -> dict[str, str]:
    """Return ``{file name: text}`` for every vector file, the schemas and the manifest."""
    files = {f"{name}.json": _file_text(name, cases) for name, cases in load_vectors().items()}
    for schema in SCHEMAS:
        files[schema] = (_DATA / schema).read_text("utf-8")
    # The chunkers' answers are chunk records: the record's own JSON Schema (RECORD-7).
    files[RECORD_SCHEMA] = (_DATA.parent.parent / "schemas" / RECORD_SCHEMA).read_text("utf-8")
    files["README.md"] = readme(
        {name: json.loads(text)["cases"] for name, text in files.items() if _has_cases(name)}
    )
    files["manifest.json"] = manifest(files)
    return files


def _has_cases(name: str) -> bool:
    """True for a vector file (JSON with cases): any file but a schema, the README (or
    other Markdown) and the manifest, so every file with cases is counted (CONF-1)."""
    return not name.endswith((".schema.json", ".md")) and name != "manifest.json"


def rules_index(cases: dict[str, list[Any]]) -> dict[str, list[str]]:
    """The rules each vector file's cases cite, sorted by family and number (CONF-18)."""
    return {
        name: sorted(
            {rule for case in cases[name] if isinstance(case, dict) for rule in case["rules"]},
            key=_rule_key,
        )
        for name in sorted(cases)
    }


def _rule_key(rule: str) -> tuple[str, int]:
    """``("SPLIT", 4)`` for ``SPLIT-4``: families in order, numbers by value."""
    family, _, number = rule.rpartition("-")
    return (family, int(number) if number.isdigit() else 0)


def readme(cases: dict[str, list[Vector]]) -> str:
    """README.md of a vector directory: per file its cases and the rules they cover, then
    per rule the files that cover it (CONF-18)."""
    index = rules_index(cases)
    lines = [
        f"# chunkspec conformance vectors, suite {__version__}",
        "",
        "Written by `chunkspec vectors` (do not edit; `manifest.json` pins every file).",
        "Each file holds the cases of one protocol operation; docs/conformance.md says how",
        "to run them. The rules are chunkspec's (docs/spec.md, docs/spec/*.md).",
        "",
        "| file | cases | rules covered |",
        "|---|---:|---|",
    ]
    lines += [
        f"| `{name}` | {len(cases[name])} | {', '.join(rules)} |" for name, rules in index.items()
    ]
    by_rule: dict[str, list[str]] = {}
    for name, rules in index.items():
        for rule in rules:
            count = sum(rule in case["rules"] for case in cases[name])
            by_rule.setdefault(rule, []).append(f"`{name}` ({count})")
    lines += ["", "| rule | files (cases) |", "|---|---|"]
    lines += [f"| {rule} | {', '.join(by_rule[rule])} |" for rule in sorted(by_rule, key=_rule_key)]
    return "\n".join(lines) + "\n"


def manifest(files: dict[str, str]) -> str:
    """Return the manifest: suite version, per-file SHA-256 and case counts, a content hash."""
    entries = {}
    for name in sorted(files):
        text = files[name]
        entry: dict[str, Any] = {"sha256": hashlib.sha256(text.encode("utf-8")).hexdigest()}
        if _has_cases(name):
            cases = json.loads(text)["cases"]
            entry["cases"] = len(cases)
            rules = rules_index({name: cases})[name]
            if rules:
                entry["rules"] = rules
        entries[name] = entry
    content = hashlib.sha256(
        "".join(f"{n}\0{e['sha256']}\n" for n, e in entries.items()).encode("ascii")
    ).hexdigest()
    body = {
        "suite": "chunkspec-conformance",
        "suite_version": __version__,
        "format": FORMAT,
        "protocol": FORMAT,
        "content_hash": content,
        "cases": sum(e.get("cases", 0) for e in entries.values()),
        "files": entries,
    }
    return json.dumps(body, indent=1, sort_keys=True) + "\n"


def export(directory: Path) -> dict[str, str]:
    """Write every vector file, schema and the manifest into ``directory``; return them."""
    files = vector_files()
    directory.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (directory / name).write_text(text, encoding="utf-8", newline="\n")
    return files
