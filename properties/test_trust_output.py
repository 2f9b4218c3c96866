"""The output folder is ingest's alone: over random folder contents, a run refuses naming an
unknown entry or replaces the folder, and never deletes a file it did not write (TRUST-22)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from chunkspec._cli import main

#: What a manifest may be: absent, not an ingest manifest, one listing its files
#: (TRUST-23), one written before manifests listed them.
MANIFESTS = ["absent", "empty", "object", "not-json", "listing", "old"]

#: Names of files a user may leave in the folder (some look like ingest's).
USER_NAMES = [
    "notes.txt",
    "mine.jsonl",
    "data.parquet",
    ".hidden",
    "_private",
    "part-9.jsonl",
    "part-00009.parquet",
    "README",
]

#: A user's entry: a file, a folder holding a file, a link to a file outside the folder, a
#: file inside ``_changes``, a link the manifest lists as a part, a listed non-part name.
USER_KINDS = ["file", "folder", "link", "in-changes", "listed-link", "listed-file"]

#: The options of every run: JSON Lines, one process.
JSONL_ONE_WORKER = ["--format", "jsonl", "--workers", "1"]

#: The result a run writes into an empty folder (JSON Lines, one document).
RESULT = ["_changes", "_chunkspec.json", "part-00000.jsonl"]


@st.composite
def folders(draw: st.DrawFn) -> dict[str, Any]:
    """A plan of an output folder: its manifest, ingest's own entries, the user's."""
    manifest = draw(st.sampled_from(MANIFESTS))
    parts = draw(st.sets(st.integers(0, 3), max_size=3))
    ours = [f"part-{n:05d}.jsonl" for n in sorted(parts)]
    if draw(st.booleans()):
        ours.append("_ray.log")
    changes = draw(st.booleans())
    users = draw(
        st.lists(
            st.tuples(st.sampled_from(USER_KINDS), st.sampled_from(USER_NAMES), st.binary()),
            max_size=3,
            unique_by=lambda user: user[1],
        )
    )
    return {"manifest": manifest, "ours": ours, "changes": changes, "users": users}


def _make(out: Path, outside: Path, plan: dict[str, Any]) -> tuple[dict[Path, bytes], set[str]]:
    """Make the folder; return the user's files (path -> bytes, link targets included) and
    the top-level names of the entries ingest did not write."""
    out.mkdir()
    kept: dict[Path, bytes] = {}
    unknown: set[str] = set()
    listed = list(plan["ours"])
    for name in plan["ours"]:
        (out / name).write_bytes(b"")  # an empty part: no rows
    if plan["changes"]:
        (out / "_changes").mkdir()
        (out / "_changes" / "changes.jsonl").write_bytes(b"")
        listed.append("_changes")
    for kind, drawn, data in plan["users"]:
        # A listed name ingest gives its parts would be ingest's by the manifest's word
        # (TRUST-23): a listed user file here has a name ingest never gives a part.
        name = f"{drawn}.docx" if kind == "listed-file" else drawn
        if kind == "in-changes":
            (out / "_changes").mkdir(exist_ok=True)
            path = out / "_changes" / name
            unknown.add("_changes")
        elif kind == "folder":
            (out / name).mkdir()
            path = out / name / "inside.md"
            unknown.add(name)
        else:
            path = out / name
            unknown.add(name)
        if kind in ("link", "listed-link"):
            target = outside / f"target-{len(kept)}"
            target.write_bytes(data)
            kept[target] = data
            path.symlink_to(target)
        else:
            path.write_bytes(data)
            kept[path] = data
        if kind.startswith("listed"):
            listed.append(name)
    manifest: Any = {"chunkspec": "0.9.0", "format": "jsonl", "documents": 0, "chunks": 0}
    if plan["manifest"] == "listing":
        manifest["files"] = sorted(listed)
    texts = {"empty": "", "object": "{}", "not-json": "{", "listing": None, "old": None}
    if plan["manifest"] != "absent":
        text = texts[plan["manifest"]]
        (out / "_chunkspec.json").write_text(text if text is not None else json.dumps(manifest))
    if plan["manifest"] not in ("listing", "old") and any(out.iterdir()):
        # Without an ingest manifest nothing in the folder is ingest's.
        for path in out.rglob("*"):
            if path.is_file() and not path.is_symlink():
                kept.setdefault(path, path.read_bytes())
        unknown = {path.name for path in out.iterdir()}
    return kept, unknown


@given(folders())
def test_ingest_refuses_or_replaces_and_never_deletes_a_users_file(plan: dict[str, Any]) -> None:
    """TRUST-22, TRUST-23: a run into a folder of random contents (manifest variants, part
    files, user files, subfolders, links) exits 0 and replaces it exactly when everything in
    it is ingest's, else exits 2 with one line naming the first unknown entry; every file
    the user made (and every file a link points to) keeps its bytes either way."""
    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary)
        (root / "in").mkdir()
        (root / "in" / "a.md").write_text("# Alpha\n\nFirst words here.\n")
        (root / "outside").mkdir()
        kept, unknown = _make(root / "out", root / "outside", plan)
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            status = main(
                ["ingest", str(root / "in"), "--out", str(root / "out"), *JSONL_ONE_WORKER]
            )
        line = err.getvalue()
        if unknown:
            assert status == 2, line
            assert line.count("\n") == 1, line
            assert repr(min(unknown)) in line, (line, unknown)
        else:
            assert status == 0, line
            assert sorted(os.listdir(root / "out")) == RESULT
        for path, data in kept.items():
            assert path.read_bytes() == data, path
        assert not [name for name in os.listdir(root) if ".chunkspec-" in name]
