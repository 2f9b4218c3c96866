"""The output folder is ingest's alone: over random folder contents, a run refuses naming an
unknown entry or replaces the folder, and never deletes a file it did not write (TRUST-22)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import resource
import signal
import stat
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from chunkspec._cli import main
from chunkspec._cli._ingest_command import Terminal
from chunkspec._cli._io import CliError
from chunkspec._cli._output import atomic_file
from chunkspec._corpus._out_folder import STAGING_MARK, check_out, remove_leftovers
from chunkspec._corpus._worker_pool import worker_count

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


#: Where ``--out`` may be, relative to the one input folder ``root/corpus/docs``.
PLACES = ["sibling", "input", "parent", "grandparent", "child", "grandchild"]

#: How ``--out`` may be spelled: plainly, through a link to a folder above it, with a
#: trailing slash, or as ``.`` from inside the folder.
SPELLINGS = ["plain", "via-link", "slash", "dot"]


@given(
    st.sampled_from(PLACES),
    st.sampled_from(SPELLINGS),
    st.sampled_from(["none", "folder", "dangling"]),
    st.booleans(),
)
def test_out_is_refused_exactly_when_it_meets_an_input_or_is_a_link(
    place: str, spelling: str, link: str, input_via_link: bool
) -> None:
    """TRUST-20, TRUST-21: ``check_out`` refuses ``--out`` exactly when its real folder is an
    input, holds one or lies inside one, or when ``--out`` itself is a symbolic link
    (to a folder or dangling); however it is spelled, an accepted ``--out`` is returned as
    its real path, and a refusal changes no file."""

    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary).resolve()
        docs = root / "corpus" / "docs"
        docs.mkdir(parents=True)
        (docs / "a.md").write_text("# A\n\nwords\n")
        (root / "alias").symlink_to(root / "corpus")
        target = {
            "sibling": root / "corpus" / "out",
            "input": docs,
            "parent": root / "corpus",
            "grandparent": root,
            "child": docs / "out",
            "grandchild": docs / "sub" / "out",
        }[place]
        target.parent.mkdir(parents=True, exist_ok=True)
        given_input = str(root / "alias" / "docs") if input_via_link else str(docs)
        if link != "none":  # --out is a link beside the target's place
            named = root / "corpus" / "link"
            named.symlink_to(target if link == "folder" else root / "nowhere")
            spelled, cwd = str(named), None
        elif spelling == "via-link" and target.is_relative_to(root / "corpus"):
            # "alias/." when the target is the linked folder itself: a link, then "."
            spelled = os.path.join(root / "alias", str(target.relative_to(root / "corpus")))
            cwd = None
        elif spelling == "slash":
            spelled, cwd = str(target) + "/", None
        elif spelling == "dot" and target.is_dir():
            spelled, cwd = ".", target
        else:
            spelled, cwd = str(target), None
        before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
        meets = target == docs or docs.is_relative_to(target) or target.is_relative_to(docs)
        previous = os.getcwd()
        try:
            if cwd is not None:
                os.chdir(cwd)
            try:
                real = check_out(spelled, "jsonl", [given_input])
                refused = None
            except CliError as error:
                real, refused = None, str(error)
        finally:
            os.chdir(previous)
        if link != "none":
            assert refused is not None
            assert "is a symbolic link" in refused
        elif meets:
            assert refused is not None
            assert "input" in refused, refused
        elif refused is None:
            assert real == str(target)
        else:  # only TRUST-22 may refuse a folder that exists and is not empty
            assert target.is_dir()
            assert any(target.iterdir()), refused
        assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before


#: What a staging folder's marker may say: a dead run (another boot, or a pid with another
#: start time), a live one (this process's parent), garbage, or nothing.
MARKERS = ["other-boot", "reused-pid", "live", "garbage", "absent"]

#: What a staging folder may hold besides its marker.
STAGED = ["part", "manifest", "changes", "user-file", "user-folder", "link", "changes-extra"]


@given(
    st.lists(
        st.tuples(st.sampled_from(MARKERS), st.sets(st.sampled_from(STAGED), max_size=3)),
        max_size=4,
    ),
    st.booleans(),
)
def test_only_dead_runs_staging_folders_of_ingests_files_are_removed(
    folders: list[tuple[str, set[str]]], link_folder: bool
) -> None:
    """TRUST-24: ``remove_leftovers`` removes a staging folder beside ``--out`` exactly when
    it is a real folder whose marker names a run that is provably over and that holds
    nothing but what ingest writes; every other folder keeps every file."""

    boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    parent = os.getppid()
    start = Path(f"/proc/{parent}/stat").read_text().rsplit(")", 1)[1].split()[19]
    marks = {
        "other-boot": {"pid": parent, "boot_id": f"not-{boot}", "start": start},
        "reused-pid": {"pid": parent, "boot_id": boot, "start": f"{start}0"},
        "live": {"pid": parent, "boot_id": boot, "start": start},
    }
    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary)
        (root / "elsewhere").mkdir()
        (root / "elsewhere" / "kept.txt").write_text("kept\n")
        expected = set()
        for n, (marker, contents) in enumerate(folders):
            folder = root / f".out.chunkspec-{n}"
            if link_folder and n == 0:  # a link named like a staging folder
                folder.symlink_to(root / "elsewhere")
                continue
            folder.mkdir()
            if marker == "garbage":
                (folder / STAGING_MARK).write_text("{not json")
            elif marker != "absent":
                (folder / STAGING_MARK).write_text(json.dumps(marks[marker]))
            for thing in contents:
                if thing == "part":
                    (folder / "part-00000.jsonl").write_text("{}\n")
                elif thing == "manifest":
                    (folder / "_chunkspec.json").write_text("{}")
                elif thing in ("changes", "changes-extra"):
                    (folder / "_changes").mkdir(exist_ok=True)
                    name = "changes.jsonl" if thing == "changes" else "mine.txt"
                    (folder / "_changes" / name).write_text("x\n")
                elif thing == "user-file":
                    (folder / "notes.txt").write_text("mine\n")
                elif thing == "user-folder":
                    (folder / "drafts").mkdir()
                    (folder / "drafts" / "d.md").write_text("draft\n")
                else:
                    (folder / "part-00001.jsonl").symlink_to(root / "elsewhere" / "kept.txt")
            ours = not contents & {"user-file", "user-folder", "link", "changes-extra"}
            if marker in ("other-boot", "reused-pid") and ours:
                expected.add(folder.name)
        before = {
            p: p.read_bytes()
            for p in root.rglob("*")
            if p.is_file() and not any(part in expected for part in p.parts)
        }
        with contextlib.redirect_stderr(io.StringIO()) as err:
            remove_leftovers(root / "out", Terminal(progress=False).note)
        gone = {f".out.chunkspec-{n}" for n in range(len(folders))} - set(os.listdir(root))
        assert gone == expected
        assert err.getvalue().count("\n") == len(expected)
        assert {p: p.read_bytes() for p in before} == before


@given(
    st.sampled_from([0o600, 0o640, 0o644, 0o664, 0o700, 0o755, None]),
    st.booleans(),
    st.text(max_size=200),
)
def test_output_files_keep_their_mode_and_links(mode: int | None, link: bool, text: str) -> None:
    """TRUST-25: ``atomic_file`` writes the text whole; an existing file keeps its
    permission bits, a new one gets 0666 less the umask; through a link the target is
    written and the link stays; no temporary file is left."""

    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary)
        (root / "store").mkdir()
        target = root / "store" / "out.jsonl"
        if mode is not None:
            target.write_text("old\n")
            target.chmod(mode)
        named = root / "link.jsonl" if link else target
        if link:
            named.symlink_to(target)
        with atomic_file(str(named), "w") as out:
            out.write(text)
        assert target.read_bytes() == text.encode("utf-8")
        umask = os.umask(0)
        os.umask(umask)
        wanted = mode if mode is not None else 0o666 & ~umask
        assert stat.S_IMODE(target.stat().st_mode) == wanted
        assert named.is_symlink() == link
        assert not [p for p in root.rglob("*") if ".chunkspec-" in p.name]


@given(st.integers(0, 6000), st.integers(1, 400))
def test_a_write_past_the_limit_is_one_line_and_leaves_the_old_file(limit: int, words: int) -> None:
    """TRUST-26: ``chunk -o`` under a file size limit (writes past it fail with EFBIG, as
    a full disk's fail with ENOSPC) exits 0 with the whole output when it fits, else 2 with
    one line, the old file as it was and no temporary file."""

    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary)
        source = root / "a.md"
        source.write_text("# A\n\n" + " ".join(f"w{n}" for n in range(words)) + "\n")
        whole = root / "whole.jsonl"
        with contextlib.redirect_stderr(io.StringIO()):
            assert main(["chunk", str(source), "-o", str(whole)]) == 0
        out = root / "out.jsonl"
        out.write_text("old\n")
        soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
        ignored = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        err = io.StringIO()
        try:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
            with contextlib.redirect_stderr(err):
                status = main(["chunk", str(source), "-o", str(out)])
        finally:
            resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
            signal.signal(signal.SIGXFSZ, ignored)
        if whole.stat().st_size <= limit:
            assert (status, err.getvalue()) == (0, "")
            assert out.read_bytes() == whole.read_bytes()
        else:
            assert status == 2
            assert err.getvalue() == (
                f"chunkspec chunk: error: {out}: cannot write: File too large\n"
            )
            assert out.read_text() == "old\n"
        assert not [p for p in root.iterdir() if ".chunkspec-" in p.name]


@given(st.one_of(st.none(), st.integers(1, 10_000)), st.booleans())
def test_the_worker_count_is_capped_at_the_usable_cores(
    asked: int | None, oversubscribe: bool
) -> None:
    """TRUST-27: the local engine runs the usable cores when not asked, ``asked`` capped at
    the usable cores with exactly one line when it is more (none with ``--oversubscribe``,
    which runs ``asked``)."""

    cores = len(os.sched_getaffinity(0))
    with contextlib.redirect_stderr(io.StringIO()) as err:
        count = worker_count(asked, oversubscribe, Terminal(progress=False).note)
    if asked is None:
        assert (count, err.getvalue()) == (cores, "")
    elif asked > cores and not oversubscribe:
        assert count == cores
        assert err.getvalue() == (
            f"chunkspec ingest: --workers {asked} capped at {cores}, the usable cores "
            f"(--oversubscribe runs {asked})\n"
        )
    else:
        assert (count, err.getvalue()) == (asked, "")
