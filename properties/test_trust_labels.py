"""Properties of labels on the way to the check (TRUST-1 to TRUST-5, docs/spec/trust.md).

Over random record lines (labels, nulls, keys named twice at any depth) every reader
either refuses naming the place or returns exactly the metadata the line states once; over
random front-matter spellings of the access keys, ``chunk_document`` either refuses or
every record carries the intended labels (the caller's where it sets them): a label key is
never dropped or read as another value.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from tests.typescript_port import built, call_api

from chunkspec import InputError, chunk_document, document_from_text
from chunkspec._cli import _pack_command, _view_command
from chunkspec._cli._io import CliError
from chunkspec._core._metadata import Metadata, thaw
from chunkspec._core._strict_json import strict_json_object
from chunkspec._corpus import _part_files as _results
from chunkspec._records._record_files import json_object
from chunkspec.records import ChunkRecord

#: The text the record lines are chunked from (view checks spans against it).
SOURCE = "# Pay\n\nSalaries are paid monthly.\n"
NULL = "record.metadata must be a mapping of str keys to JSON values, got NoneType None"


@cache
def _record() -> dict[str, Any]:
    return chunk_document(document_from_text(SOURCE, doc_id="pay"), "heading")[0].to_dict()


# A JSON object as a list of (key, value) pairs, so a key may be named twice.
_KEYS = st.sampled_from(["acl_labels", "tenant_id", "a", "b", "metadata"])
_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.sampled_from(["hr", "t1"]))


def _pairs(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.lists(st.tuples(_KEYS, children), max_size=4).map(lambda pairs: ("obj", pairs))


_VALUES = st.recursive(
    _SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3), _pairs(inner)), max_leaves=8
)


def _text(value: Any) -> str:
    """JSON text of a drawn value; an object's pairs written as drawn, repeats included."""
    if isinstance(value, tuple) and value[:1] == ("obj",):
        return "{" + ", ".join(f"{json.dumps(k)}: {_text(v)}" for k, v in value[1]) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_text(v) for v in value) + "]"
    return json.dumps(value)


def _repeats(value: Any) -> set[str]:
    """Every key named twice in one object anywhere in ``value``."""
    found: set[str] = set()
    if isinstance(value, tuple) and value[:1] == ("obj",):
        keys = [k for k, _ in value[1]]
        found |= {k for k in keys if keys.count(k) > 1}
        for _, v in value[1]:
            found |= _repeats(v)
    elif isinstance(value, list):
        for v in value:
            found |= _repeats(v)
    return found


def _plain(value: Any) -> Any:
    if isinstance(value, tuple) and value[:1] == ("obj",):
        return {k: _plain(v) for k, v in value[1]}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


_METADATA = st.one_of(
    st.just("absent"),
    st.just(None),
    _pairs(_VALUES),
    st.fixed_dictionaries(
        {}, optional={"tenant_id": st.sampled_from(["t1", "t2"]), "acl_labels": st.just(["hr"])}
    ).map(lambda d: ("obj", list(d.items()))),
)


def _line(metadata: Any, again: bool) -> str:
    """A record line: the record's fields, then ``metadata`` as drawn (absent: none), then
    (``again``) a second ``"metadata": {}``."""
    fields = [(k, v) for k, v in _record().items() if k != "metadata"]
    parts = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in fields]
    if metadata != "absent":
        parts.insert(len(parts) - 1, f'"metadata": {_text(metadata)}')
    if again:
        parts.append('"metadata": {}')
    return "{" + ", ".join(parts) + "}"


def _pack_read(where: str, line: str) -> Any:
    """``pack``'s own reading of one line: its JSON object, then its record (RECORD-9)."""
    data = json_object(where, line)
    _pack_command._from_record(where, data)
    return ChunkRecord.from_dict({k: v for k, v in data.items() if k != "score"}).metadata


def _read_each(path: Path) -> dict[str, Any]:
    """What each reader makes of the one-line file ``path``: its metadata, or its error."""
    line = path.read_text("utf-8").rstrip("\n")
    where = f"{path}:1"
    readers: dict[str, Callable[[], Any]] = {
        "from_dict": lambda: ChunkRecord.from_dict(strict_json_object(line, where)).metadata,
        "pack": lambda: _pack_read(where, line),
        "view": lambda: _view_command._read_records(str(path))[0][1].metadata,
        "results": lambda: next(_results.iter_part(path))[2].get("metadata", {}),
    }
    out: dict[str, Any] = {}
    for name, read in readers.items():
        try:
            out[name] = ("ok", read())
        except (TypeError, ValueError, CliError) as error:
            out[name] = ("error", str(error))
    return out


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(metadata=_METADATA, again=st.booleans())
@example(metadata=None, again=False)
@example(metadata=("obj", [("acl_labels", ["hr"])]), again=True)
@example(metadata=("obj", [("acl_labels", ["hr"]), ("acl_labels", [])]), again=False)
def test_record_lines_read_exactly_or_refuse(tmp_path: Path, metadata: Any, again: bool) -> None:
    """TRUST-1, TRUST-2, META-5: every reader of a record line (from_dict through the strict
    loader, pack, view, an ingest result) refuses a line with a key named twice at any depth
    (naming it and the line) or a null metadata (naming record.metadata), and otherwise
    returns exactly the metadata stated once ({} when the key is absent)."""
    path = tmp_path / "r.jsonl"
    path.write_text(_line(metadata, again) + "\n", "utf-8")
    repeated = _repeats(metadata) | ({"metadata"} if again and metadata != "absent" else set())
    for name, (kind, value) in _read_each(path).items():
        if repeated:
            assert kind == "error", (name, value)
            found = re.search(r":1: repeated key '(.*)'$", value)
            assert found is not None, (name, value)
            assert found.group(1) in repeated, (name, value)
        elif metadata is None:
            assert kind == "error", (name, value)
            assert value.endswith(NULL), (name, value)
            assert name == "from_dict" or ":1: " in value, (name, value)  # names the line
        else:
            want = {} if metadata == "absent" or again else _plain(metadata)
            if again:  # absent, then appended once: stated once
                want = {}
            assert kind == "ok", (name, value)
            assert value == want, (name, value)


@given(st.one_of(st.none(), st.integers(), st.text(max_size=3), st.lists(st.none(), max_size=2)))
def test_metadata_none_is_no_mapping(value: Any) -> None:
    """TRUST-5: Metadata(None) (and any non-mapping) is a TypeError naming the argument, and so
    is a record built with it; Metadata() is the empty object."""
    with pytest.raises(TypeError, match=r"^record\.metadata must be a mapping"):
        Metadata(value, argument="record.metadata")
    with pytest.raises(TypeError, match=r"^record\.metadata must be a mapping"):
        ChunkRecord.from_dict({**_record(), "metadata": value})
    assert Metadata() == {}


# Front matter: random spellings of the access keys, each with what it means.

_SAFE_TENANTS = ["acme", "acme-corp", "org/team", "t_1", "Acme Corp"]
_TRICKY_TENANTS = ["no", "On", "y", "null", "~", "2024-01-01", "0x1f", "12", ".inf", "a: b"]


@st.composite
def _yaml_tenant(draw: st.DrawFn) -> tuple[list[str], str | None]:
    """YAML lines setting tenant_id, and the string FM-3 must read (None: not readable)."""
    bare = st.sampled_from(["tenant_id", "tenant_id "])
    other = st.sampled_from(["'tenant_id'", '"tenant_id"', "&t tenant_id", "!!str tenant_id",
                             '"tenant\\x5fid"'])  # fmt: skip
    key = draw(st.one_of(bare, other))
    shape = draw(st.sampled_from(["plain", "tricky", "tricky", "single", "double", "escape",
                                  "block", "continued", "flow", "empty"]))  # fmt: skip
    word = draw(st.sampled_from(_SAFE_TENANTS))
    value, lines, readable = f" {word}", [], True
    if shape == "tricky":
        value, readable = f" {draw(st.sampled_from(_TRICKY_TENANTS))}", False
    elif shape == "single":
        value = f" '{word}'"
    elif shape == "double":
        value = f' "{word}"'
    elif shape == "escape":
        value, readable = f' "{word}\\t"', False
    elif shape == "block":
        value, lines, readable = "", ["  name: " + word], False
    elif shape == "continued":
        lines, readable = ["  more"], False
    elif shape == "flow":
        value, readable = f" [{word}]", False
    elif shape == "empty":
        value, readable = "", False
    exact = key in ("tenant_id", "tenant_id ")
    return [f"{key}:{value}", *lines], word if readable and exact else None


@st.composite
def _yaml_labels(draw: st.DrawFn) -> list[str]:
    """YAML lines setting acl_labels, in any spelling (never readable by FM-3)."""
    key = draw(st.sampled_from(["acl_labels", "'acl_labels'", '"acl_labels"', "&l acl_labels",
                                '"acl\\u005flabels"', "? acl_labels"]))  # fmt: skip
    value = draw(st.sampled_from(["block", "flow", "plain", "scalar", "empty", "quoted"]))
    head = key if key.startswith("?") else f"{key}:"
    tail = {
        "block": ["  - hr", "  - eng"],
        "flow": [" [hr, eng]"],
        "plain": [" hr"],
        "scalar": [" |", "  hr"],
        "empty": [""],
        "quoted": [' ["hr"]'],
    }[value]
    if key.startswith("?"):
        return [head, ":" + (tail[0] or " hr"), *tail[1:]]
    return [head + tail[0], *tail[1:]]


@st.composite
def _toml(draw: st.DrawFn) -> tuple[list[str], dict[str, str | None]]:
    """TOML lines setting access keys; the tenant FM-3 must read (None: not readable)."""
    lines, meant = ['title = "Pay"'], {}
    if draw(st.booleans()):
        word = draw(st.sampled_from(_SAFE_TENANTS))
        shape = draw(
            st.sampled_from(["double", "single", "bare", "number", "quoted-key", "indent"])
        )
        text = {
            "double": f'tenant_id = "{word}"',
            "single": f"tenant_id = '{word}'",
            "bare": f"tenant_id = {word}",
            "number": "tenant_id = 42",
            "quoted-key": f'"tenant_id" = "{word}"',
            "indent": f'  tenant_id = "{word}"',
        }[shape]
        lines.append(text)
        meant["tenant_id"] = word if shape in ("double", "single") else None
    if draw(st.booleans()):
        lines += draw(st.sampled_from([
            ['acl_labels = ["hr"]'], ["'acl_labels' = ['hr']"], ['acl_labels.read = ["hr"]'],
            ["[acl_labels]", 'read = ["hr"]'], ["[[acl_labels]]", 'name = "hr"'],
        ]))  # fmt: skip
        meant["acl_labels"] = None
    return lines, meant


@st.composite
def _front_matter_documents(draw: st.DrawFn) -> tuple[str, dict[str, str | None]]:
    """A Markdown text whose front matter sets access keys, and what each key must read as
    (a str: FM-3 reads it as that; None: FM-3 cannot read it)."""
    if draw(st.booleans()):
        lines, toml = draw(_toml())
        return "+++\n" + "\n".join(lines) + "\n+++\n# Pay\n\nSalaries.\n", toml
    parts: list[list[str]] = [["title: Pay"]]
    meant: dict[str, str | None] = {}
    if draw(st.booleans()):
        tenant, value = draw(_yaml_tenant())
        parts.append(tenant)
        meant["tenant_id"] = value
    if draw(st.booleans()) or not meant:
        parts.append(draw(_yaml_labels()))
        meant["acl_labels"] = None
    parts = draw(st.permutations(parts))
    parts.insert(draw(st.integers(0, len(parts))), ["owner: docs  # a comment"])
    return "---\n" + "\n".join(
        line for part in parts for line in part
    ) + "\n---\n# Pay\n\nS.\n", meant


_CALLERS = st.fixed_dictionaries(
    {}, optional={"tenant_id": st.just("t9"), "acl_labels": st.just(["payroll"])}
)


@given(_front_matter_documents(), _CALLERS, st.sampled_from(["heading", "structural", "window"]))
@example(("---\nacl_labels:\n  - hr\n---\n# Pay\n\nS.\n", {"acl_labels": None}), {}, "heading")
@example(("---\ntenant_id: acme\n---\n# Pay\n\nS.\n", {"tenant_id": "acme"}), {}, "heading")
@example(("---\ntenant_id: no\n---\n# Pay\n\nS.\n", {"tenant_id": None}), {}, "heading")
@example(("---\ntenant_id: acme\n  corp\n---\n# Pay\n\nS.\n", {"tenant_id": None}), {}, "window")
def test_front_matter_access_keys_are_never_dropped(
    drawn: tuple[str, dict[str, str | None]], caller: dict[str, Any], strategy: str
) -> None:
    """TRUST-3, TRUST-4, META-3: over random YAML and TOML spellings of tenant_id and
    acl_labels, chunk_document either refuses (InputError naming a drawn key the caller does
    not set) or every record carries, for each drawn key, the caller's value where it sets
    it and else exactly the string FM-3 reads; a key FM-3 can read and every key the caller
    sets never refuses. A label key is never silently dropped or read as another value."""
    text, meant = drawn
    unread = [key for key, value in meant.items() if value is None and key not in caller]
    refused: str | None = None
    try:
        records = chunk_document(document_from_text(text, doc_id="d", metadata=caller), strategy)
    except InputError as error:
        refused = str(error)
    if refused is not None:
        found = re.fullmatch(
            r"d: front matter sets access key '(\w+)' in a form chunkspec does not read "
            r"\(TRUST-3\); give access labels as caller metadata \(--metadata sidecar, "
            r"metadata=\)",
            refused,
        )
        assert found is not None, refused
        assert found.group(1) in meant, (found.group(1), meant)
        assert found.group(1) not in caller
        assert unread, f"refused though every key is readable or the caller's: {meant}"
        return
    assert not unread, f"not refused, yet {unread} cannot be read"
    assert records
    for record in records:
        metadata = thaw(record.metadata)
        for key, value in meant.items():
            assert metadata.get(key) == caller.get(key, value)
        for key, value in caller.items():
            assert metadata[key] == value


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(_front_matter_documents(), _CALLERS, st.sampled_from(["heading", "structural"])),
        min_size=1,
        max_size=8,
    )
)
def test_the_port_refuses_the_same_documents(
    batch: list[tuple[tuple[str, dict[str, str | None]], dict[str, Any], str]],
) -> None:
    """TRUST-3, TRUST-4, META-9: over random front-matter spellings of the access keys, the
    npm package's chunkDocument refuses exactly the documents Python refuses, with the same
    InputError message, and otherwise gives Python's records, labels included."""
    port = built()
    calls: list[tuple[str, list[Any]]] = []
    wanted: list[Any] = []
    for n, ((text, _), caller, strategy) in enumerate(batch):
        options = {"docId": f"d{n}", "strategy": strategy, "metadata": caller}
        calls.append(("chunkDocument", [text, options]))
        try:
            document = document_from_text(text, doc_id=f"d{n}", metadata=caller)
        except InputError as error:
            wanted.append({"error": "InputError", "message": str(error)})
            continue
        wanted.append([r.to_dict() for r in chunk_document(document, strategy)])
    assert call_api(port, calls) == wanted
