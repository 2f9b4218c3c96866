"""The planted faults of the TypeScript port have one catalogue, ports/typescript/faults.json.

src/faults.ts imports it, scripts/build.mjs validates every ``fault("NAME")`` call against
it, and the broken-port tests take their faults, ops and blamed rules from it. These checks
need no Node.js: the catalogue is well formed, its rules are defined, every call site plants
a catalogued fault and every catalogued fault is planted, and nothing keeps a second list.
"""

from __future__ import annotations

import re

from chunkspec._conformance._oracle import OPS
from tests.conformance import test_conformance_broken_code as code
from tests.conformance import test_conformance_broken_documents as documents
from tests.conformance import test_conformance_broken_html as html
from tests.conformance import test_conformance_broken_markdown as markdown
from tests.conformance import test_conformance_broken_ports as core
from tests.conformance import test_conformance_broken_ports_windows as windows
from tests.traceability import ROOT, spec_rules
from tests.typescript_port import (
    FAULTS_FILE,
    HTML_OPS,
    MARKDOWN_OPS,
    PORT_DIR,
    WINDOW_OPS,
    faults,
)

_CALL = re.compile(r'\bfault\(\s*"([^"\\]*)"\s*\)')


def _hazards() -> set[str]:
    """The hazards the spec's HAZ table defines (docs/spec/conformance.md)."""
    spec = ROOT.joinpath("docs", "spec", "conformance.md").read_text("utf-8")
    return set(re.findall(r"^\| (HAZ-[0-9]+) \|", spec, re.MULTILINE))


def test_the_catalogue_is_well_formed() -> None:
    """Names are unique and kebab-case; each fault changes known ops, blames a defined rule
    and cites only defined rules and hazards."""
    entries = faults()
    names = [f["name"] for f in entries]
    assert len(names) == len(set(names))
    defined = set(spec_rules()) | _hazards()
    for entry in entries:
        assert set(entry) == {"name", "ops", "rule", "related", "description"}, entry
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", entry["name"]), entry
        assert entry["ops"], entry
        assert set(entry["ops"]) <= set(OPS), entry
        assert entry["rule"] in spec_rules(), entry
        assert entry["rule"] not in entry["related"], entry
        assert set(entry["related"]) <= defined, entry
        assert entry["description"], entry
        assert not re.search(r"\bseed\b|\bissue\b", entry["description"]), entry


def test_every_call_site_plants_a_catalogued_fault_and_back() -> None:
    """The ``fault("NAME")`` calls of ports/typescript/src are exactly the catalogue."""
    planted: set[str] = set()
    for path in sorted(PORT_DIR.joinpath("src").glob("*.ts")):
        if path.name != "faults.ts":
            planted.update(_CALL.findall(path.read_text("utf-8")))
    assert planted == {f["name"] for f in faults()}


def test_nothing_keeps_a_second_list() -> None:
    """faults.ts and build.mjs read faults.json and name no fault themselves."""
    names = [f["name"] for f in faults()]
    module = PORT_DIR.joinpath("src", "faults.ts").read_text("utf-8")
    build = PORT_DIR.joinpath("scripts", "build.mjs").read_text("utf-8")
    assert 'from "../faults.json" with { type: "json" }' in module
    assert '"faults.json"' in build
    for text in (module, build):
        assert not [n for n in names if f'"{n}"' in text]


def test_the_broken_port_tests_cover_the_catalogue_once() -> None:
    """The broken-port files split the catalogue between them by op, each fault once,
    with its catalogue rule; their own tables name only their faults."""
    core_faults, md_faults, win_faults = core.FAULTS, markdown.FAULTS, windows.FAULTS
    html_faults, code_faults = html.FAULTS, code.FAULTS
    document_faults = documents.FAULTS
    assert not set(core_faults) & set(md_faults) | set(core_faults) & set(win_faults)
    assert not set(md_faults) & set(win_faults)
    assert not set(html_faults) & (set(core_faults) | set(md_faults) | set(win_faults))
    assert not set(code_faults) & (set(core_faults) | set(md_faults) | set(win_faults))
    assert not set(document_faults) & (
        set(core_faults) | set(md_faults) | set(win_faults) | set(html_faults) | set(code_faults)
    )
    everything = {f["name"]: f for f in faults()}
    assert set(core_faults) | set(md_faults) | set(win_faults) | set(html_faults) | set(
        code_faults
    ) | set(document_faults) == set(everything)
    for name, rule in code_faults.items():
        assert everything[name]["ops"] == ["chunk_code"]
        assert rule == everything[name]["rule"]
    for name, rule in document_faults.items():
        assert everything[name]["ops"] == ["chunk_document"]
        assert rule == everything[name]["rule"]
    for name, rule in html_faults.items():
        assert everything[name]["ops"] == ["read_html"]
        assert rule == everything[name]["rule"]
    assert all(set(everything[n]["ops"]) <= HTML_OPS for n in html_faults)
    for name, (op, rule) in {**md_faults, **win_faults}.items():
        assert everything[name]["ops"] == [op]
        assert rule == everything[name]["rule"]
    assert all(set(everything[n]["ops"]) <= MARKDOWN_OPS for n in md_faults)
    assert all(set(everything[n]["ops"]) <= WINDOW_OPS for n in win_faults)
    assert set(core.WHY) | set(core.FEWEST_CHUNKS) <= set(core_faults)
    assert set(md_faults) >= markdown.GENERATED
    assert set(windows.WHY) <= set(win_faults)


def test_the_catalogue_is_not_shipped() -> None:
    """faults.json is outside the package's ``files``: ``npm pack`` leaves it out."""
    package = PORT_DIR.joinpath("package.json").read_text("utf-8")
    assert FAULTS_FILE.name not in package
    assert '"dist/src/*.js"' in package
