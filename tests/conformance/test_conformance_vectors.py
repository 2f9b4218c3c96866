"""The conformance vectors: they agree with chunkspec, validate, and export reproducibly."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from chunkspec._cli import main
from chunkspec._conformance import export, load_vectors
from chunkspec._conformance._oracle import expect
from chunkspec._conformance._vectors import RECORD_SCHEMA, SCHEMAS, vector_files

ROOT = Path(__file__).resolve().parents[2]
#: The ops whose answers are chunk records.
RECORD_OPS = ("chunk", "token_windows", "chunk_pages", "split_markdown", "heading_aware")
VECTORS = load_vectors()
ALL = [
    pytest.param(op, case, id=f"{op}/{case['id']}")
    for op, cases in VECTORS.items()
    for case in cases
]


def _spec_rules() -> set[str]:
    """Every rule ID defined (in bold) in docs/spec.md and docs/spec/*.md."""
    texts = [ROOT.joinpath("docs", "spec.md").read_text("utf-8")]
    texts += [p.read_text("utf-8") for p in sorted(ROOT.joinpath("docs", "spec").glob("*.md"))]
    return set(re.findall(r"\*\*([A-Z]+-[0-9]+)\b", "\n".join(texts)))


@pytest.mark.parametrize(("op", "case"), ALL)
def test_vector_agrees_with_chunkspec(op: str, case: dict[str, Any]) -> None:
    """CONF-2: every vector's expectation is what chunkspec itself answers."""
    got = expect(op, case["input"])
    if "output" in case:
        assert got == {"ok": case["output"]}
    else:
        assert "error" in got, got
        assert got["error"]["kind"] == case["error"]["kind"]
        assert got["error"]["argument"] == case["error"]["argument"]


def test_vectors_cover_every_function_and_cite_defined_rules() -> None:
    """CONF-1: one non-empty file per function; every rule a case cites is defined."""
    defined = _spec_rules()
    assert set(VECTORS) == {
        "split_section",
        "assemble",
        "count_tokens",
        "hash_text",
        "render",
        "words",
        "chunk",
        "split_markdown",
        "heading_aware",
        "token_windows",
        "chunk_pages",
        "split_sentences",
        "validate_record",
        "pack_records",
        "read_html",
        "chunk_code",
        "chunk_document",
    }
    for op, cases in VECTORS.items():
        assert cases, op
        for case in cases:
            missing = set(case["rules"]) - defined
            assert not missing, f"{op}/{case['id']} cites undefined rules {missing}"


def test_every_hazard_has_vectors() -> None:
    """Every hazard of docs/spec/conformance.md has at least one vector and is in
    docs/portability.md, and each hazard vector is written up there."""
    spec = ROOT.joinpath("docs", "spec", "conformance.md").read_text("utf-8")
    defined = set(re.findall(r"^\| (HAZ-[0-9]+) \|", spec, re.MULTILINE))
    portability = ROOT.joinpath("docs", "portability.md").read_text("utf-8")
    hazards = {c["hazard"] for cases in VECTORS.values() for c in cases if "hazard" in c}
    assert defined, "docs/spec/conformance.md defines no hazard"
    assert hazards == defined
    assert set(re.findall(r"HAZ-[0-9]+", portability)) == defined
    for cases in VECTORS.values():
        for case in cases:
            if "hazard" in case:
                assert case["id"] in portability, f"{case['id']} is not in docs/portability.md"


def test_split_section_vectors_are_whole_chunks() -> None:
    """CONF-2: split_section goldens are expanded to complete chunks (SPLIT-9)."""
    for case in VECTORS["split_section"]:
        for n, chunk in enumerate(case.get("output", [])):
            assert chunk["id"] == f"{case['input']['doc_id']}:{n}"
            assert set(chunk) == {
                "id",
                "doc_id",
                "title",
                "text",
                "tokens",
                "content_hash",
                "score",
            }


def test_integral_floats_are_marked() -> None:
    """CONF-5: a case whose int argument is a float like 2.0 needs int-float-distinction."""
    marked = {c["id"] for cases in VECTORS.values() for c in cases if c.get("needs")}
    assert {"max-tokens-integral-float", "hazard-integral-float-budget"} <= marked
    assert "hazard-negative-zero-budget" not in marked


def test_files_validate_against_the_schemas() -> None:
    """CONF-1: vector files, chunks and the manifest match the shipped JSON Schemas."""
    files = vector_files()
    schemas = {name: json.loads(files[name]) for name in SCHEMAS}
    for schema in schemas.values():
        jsonschema.Draft202012Validator.check_schema(schema)
    record = json.loads(files[RECORD_SCHEMA])
    jsonschema.Draft202012Validator.check_schema(record)
    for name, text in files.items():
        if name in SCHEMAS or name in ("manifest.json", "README.md", RECORD_SCHEMA):
            continue
        data = json.loads(text)
        jsonschema.validate(data, schemas["vectors.schema.json"])
        for case in data["cases"]:
            if data["function"] == "split_section" and "output" in case:
                for chunk in case["output"]:
                    jsonschema.validate(chunk, schemas["chunk.schema.json"])
            if data["function"] in RECORD_OPS and "output" in case:
                for chunk in case["output"]:  # the chunkers answer with records (RECORD-7)
                    jsonschema.validate(chunk, record)
            if data["function"] in schemas["inputs.schema.json"]["$defs"] and "output" in case:
                inputs = {**schemas["inputs.schema.json"], "$ref": f"#/$defs/{data['function']}"}
                jsonschema.validate(case["input"], inputs)


#: The ops whose answers are chunk records (RECORD-7).


def test_markdown_vector_inputs_match_their_schema() -> None:
    """CONF-1: every valid split_markdown/heading_aware vector input matches its schema."""
    files = vector_files()
    schema = json.loads(files["markdown-inputs.schema.json"])
    for op in ("split_markdown", "heading_aware"):
        cases = [c for c in VECTORS[op] if "output" in c]
        assert cases, op
        for case in cases:
            jsonschema.validate(case["input"], {**schema, "$ref": f"#/$defs/{op}"})


def test_manifest_hashes_every_file(tmp_path: Path) -> None:
    """CONF-1: the manifest has the suite version, each file's SHA-256 and a content hash."""
    import hashlib

    files = export(tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text("utf-8"))
    assert manifest["suite"] == "chunkspec-conformance"
    assert manifest["cases"] == sum(len(c) for c in VECTORS.values())
    for name, entry in manifest["files"].items():
        data = (tmp_path / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"]
        assert data.decode("utf-8") == files[name]
    again = export(tmp_path / "again")
    assert again == files  # deterministic: same suite, same bytes, same content hash


def test_cli_vectors_writes_the_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI: ``chunkspec vectors DIR`` writes every file and says how many cases."""
    assert main(["vectors", str(tmp_path / "v")]) == 0
    names = {p.name for p in (tmp_path / "v").iterdir()}
    assert {"manifest.json", "split_section.json", "assemble.json", *SCHEMAS} <= names
    assert "cases" in capsys.readouterr().out


def test_cli_vectors_refuses_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CLI-1: a DIR that is a file is a one-line error, exit 2."""
    target = tmp_path / "f"
    target.write_text("x")
    assert main(["vectors", str(target)]) == 2
    assert "not a directory" in capsys.readouterr().err


def test_docs_show_the_shipped_protocol_schema() -> None:
    """CONF-4: docs/conformance.md embeds exactly the shipped protocol.schema.json."""
    doc = ROOT.joinpath("docs", "conformance.md").read_text("utf-8")
    section = doc.split("### The protocol's JSON Schema", 1)[1]
    embedded = json.loads(section.split("```json\n", 1)[1].split("```", 1)[0])
    assert embedded == json.loads(vector_files()["protocol.schema.json"])


def test_vector_files_are_canonical_json() -> None:
    """CONF-1: each vector file names its schema and format, and is sorted-key, indented,
    ASCII JSON with one trailing newline (the same data always gives the same bytes)."""
    files = vector_files()
    for name in VECTORS:
        text = files[f"{name}.json"]
        data = json.loads(text)
        assert (data["$schema"], data["format"], data["function"]) == (
            "vectors.schema.json",
            1,
            name,
        )
        assert text == json.dumps(data, ensure_ascii=True, indent=1, sort_keys=True) + "\n"
    manifest = json.loads(files["manifest.json"])
    assert (manifest["format"], manifest["protocol"]) == (1, 1)


def test_cli_vectors_prints_what_it_wrote(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI (docs/cli.md): one line with the file and case counts, the suite version and
    the first 16 hex digits of the content hash."""
    target = tmp_path / "v"
    assert main(["vectors", str(target)]) == 0
    manifest = json.loads((target / "manifest.json").read_text("utf-8"))
    count = len(vector_files())
    assert capsys.readouterr().out == (
        f"wrote {count} files ({manifest['cases']} cases, suite {manifest['suite_version']}, "
        f"content hash {manifest['content_hash'][:16]}) to {target}\n"
    )


def test_cli_doc_figures_match_the_vectors() -> None:
    """docs/cli.md: the file and case counts of ``chunkspec vectors`` and the vector count
    of ``chunkspec conformance`` are what the kit has now."""
    doc = ROOT.joinpath("docs", "cli.md").read_text("utf-8")
    files = vector_files()
    cases = json.loads(files["manifest.json"])["cases"]
    assert f"wrote {len(files)} files ({cases} cases," in doc
    assert f": {cases} vectors, " in doc


def test_docs_index_the_rules_each_vector_file_covers() -> None:
    """CONF-18: docs/conformance.md shows the README's table of the rules each vector file
    covers (after a vector change: ``python -m tests.vector_index --write``)."""
    from tests.vector_index import DOC, embedded, table

    assert embedded(DOC.read_text("utf-8")) == table()
