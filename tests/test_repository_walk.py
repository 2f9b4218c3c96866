"""A folder walk in a repository (REPO-1 to REPO-9, docs/spec/repository.md), on real trees.

Every case builds a real folder in ``tmp_path``; the ``.gitignore`` cases are compared with
real git (``git ls-files --others --exclude-standard``), and the command line is run
in-process (``chunkspec chunk``) and as a subprocess (``chunkspec ingest``).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from chunkspec._corpus._file_io import IngestError
from chunkspec._corpus._gitignore import parse_ignore_file, parse_pattern
from chunkspec._corpus._repository import CACHEDIR_SIGNATURE, WalkRules, skip_summary
from chunkspec._corpus._walk import find_inputs
from tests import goldens
from tests.cli.test_cli import run_cli
from tests.cli.test_trust_inputs import run_case
from tests.git_ignored import GIT, git_kept, walk_kept
from tests.processes import environment

_POSIX = pytest.mark.skipif(sys.platform == "win32", reason="symbolic links are POSIX here")
_GIT = pytest.mark.skipif(GIT is None, reason="git is not installed")


@_POSIX
@pytest.mark.parametrize("case", goldens.cases("repository"))
def test_repository_golden(case: dict[str, Any], tmp_path: Path) -> None:
    """Every case gives its status, documents and lines (tests/golden/repository.json)."""
    given, expected = case["input"], case["output"]
    done = run_case(tmp_path, given)
    assert done.returncode == expected["status"], done.stderr
    assert re.fullmatch(expected["stderr_match"], done.stderr), done.stderr
    if "stdout_match" in expected:
        assert re.fullmatch(expected["stdout_match"], done.stdout), done.stdout
    if given["argv"][0] == "ingest":
        rows: list[dict[str, Any]] = []
        for part in sorted((tmp_path / "out").glob("part-*.jsonl")):
            rows += [json.loads(line) for line in part.read_text("utf-8").splitlines()]
        doc_ids = list(dict.fromkeys(row["doc_id"] for row in rows))
        manifest = json.loads((tmp_path / "out" / "_chunkspec.json").read_text("utf-8"))
        assert manifest["walk"] == expected["walk"]
    else:
        records = [json.loads(line) for line in done.stdout.splitlines()]
        doc_ids = list(dict.fromkeys(record["doc_id"] for record in records))
    assert doc_ids == expected["doc_ids"]


def _tree(root: Path, files: Mapping[str, bytes | str]) -> Path:
    """Write ``files`` (relative path -> content) under ``root``; return ``root``."""
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            path.write_text(content, "utf-8")
        else:
            path.write_bytes(content)
    return root


def _walk(
    root: Path, rules: WalkRules | None = None, glob: str | None = None
) -> tuple[list[str], Counter[str], list[str]]:
    """The walk's doc ids, its REPO-9 counts and its TRUST-33 lines."""
    counts: Counter[str] = Counter()
    skipped: list[str] = []
    found = find_inputs([str(root)], glob, None, rules=rules, counts=counts, skipped=skipped)
    return [item.doc_id for item in found], counts, skipped


def test_code_files_are_inputs_and_keep_their_suffix(tmp_path: Path) -> None:
    """REPO-1, REPO-2: code files are taken; ``foo.c`` and ``foo.h`` keep distinct ids;
    Markdown and text ids lose their suffix as before (CLI-8)."""
    _tree(
        tmp_path,
        {
            "README.md": "# Read me\n",
            "notes.txt": "notes\n",
            "src/foo.c": "int foo(void) { return 1; }\n",
            "src/foo.h": "int foo(void);\n",
            "src/app.PY": "print(1)\n",
            "src/lib.rs": "fn main() {}\n",
            "src/Main.java": "class Main {}\n",
            "web/app.tsx": "export const A = 1;\n",
            "setup.cfg": "[x]\n",
            "Makefile": "all:\n",
        },
    )
    ids, counts, skipped = _walk(tmp_path)
    assert ids == [
        "README",
        "notes",
        "src/Main.java",
        "src/app.PY",
        "src/foo.c",
        "src/foo.h",
        "src/lib.rs",
        "web/app.tsx",
    ]
    assert not counts
    assert not skipped


def test_a_named_code_file_keeps_its_suffix(tmp_path: Path) -> None:
    """REPO-2: ``chunkspec chunk foo.c foo.h`` gives two ids, not one refused twice."""
    _tree(tmp_path, {"foo.c": "int x;\n", "foo.h": "int x;\n", "a.md": "# A\n"})
    paths = [str(tmp_path / name) for name in ("foo.c", "foo.h", "a.md")]
    found = find_inputs(paths, None, None)
    assert [item.doc_id for item in found] == ["foo.c", "foo.h", "a"]


def test_tool_folders_are_skipped_and_counted(tmp_path: Path) -> None:
    """REPO-3: by name, a PEP 405 virtual environment by its ``pyvenv.cfg``, a cache by a
    ``CACHEDIR.TAG`` holding the signature; a wrong signature or a link marks nothing."""
    _tree(
        tmp_path,
        {
            "a.py": "x = 1\n",
            "node_modules/left-pad/index.js": "module.exports = 1;\n",
            "pkg/__pycache__/a.py": "x = 1\n",
            "lib/site-packages/six.py": "x = 1\n",
            "lib/dist-packages/six.py": "x = 1\n",
            "env/pyvenv.cfg": "home = /usr/bin\n",
            "env/lib/x.py": "x = 1\n",
            "target/CACHEDIR.TAG": CACHEDIR_SIGNATURE + b"\n# cargo\n",
            "target/debug/build.rs": "fn main() {}\n",
            "fake/CACHEDIR.TAG": b"Signature: not the one\n",
            "fake/kept.py": "x = 1\n",
            "elsewhere/CACHEDIR.TAG": CACHEDIR_SIGNATURE,
            "linked/kept.py": "x = 1\n",
        },
    )
    os.symlink(tmp_path / "elsewhere" / "CACHEDIR.TAG", tmp_path / "linked" / "CACHEDIR.TAG")
    ids, counts, _ = _walk(tmp_path)
    assert ids == ["a.py", "fake/kept.py", "linked/kept.py"]
    assert counts == Counter(tool=7)


def test_vendored_folders_are_skipped_by_name_only(tmp_path: Path) -> None:
    """REPO-4: ``vendor``, ``_vendor``, ``vendored``, ``third_party``, ``third-party``;
    ``external`` and ``deps`` are read (documentation uses those names too)."""
    files = {
        f"{folder}/x.go": "package x\n"
        for folder in (
            "vendor",
            "src/pip/_vendor",
            "vendored",
            "third_party",
            "third-party",
            "external",
            "deps",
        )
    }
    ids, counts, _ = _walk(_tree(tmp_path, files))
    assert ids == ["deps/x.go", "external/x.go"]
    assert counts == Counter(vendored=5)


GO_GENERATED = "// Code generated by stringer -type=Pill; DO NOT EDIT.\n\npackage x\n"


def test_generated_files_are_skipped(tmp_path: Path) -> None:
    """REPO-5: Go's marker (its exact regex), the same line after ``#`` or ``/*``,
    ``@generated``, protoc's and Cython's first lines, a comment line saying generated and
    do not edit, lock files and minified files; a marker past 2 KiB, in a string, without
    "do not edit", or in a Markdown file does not count."""
    late = "x = 1\n" * 400 + "# Code generated by hand. DO NOT EDIT.\n"
    assert len(late.encode()) > 2048
    _tree(
        tmp_path,
        {
            "gen/pill_string.go": GO_GENERATED,
            "gen/api.py": "# Code generated by openapi-generator. DO NOT EDIT.\nx = 1\n",
            "gen/api.c": "/* Code generated by hand-rolled tool. DO NOT EDIT. */\nint x;\n",
            "gen/schema.rs": "// @generated by build.rs\nfn f() {}\n",
            "gen/msg_pb2.py": "# -*- coding: utf-8 -*-\n"
            "# Generated by the protocol buffer compiler.  DO NOT EDIT!\n",
            "gen/fast.c": "/* Generated by Cython 3.0.11 */\nint x;\n",
            "gen/app.min.js": "var a=1;\n",
            "package-lock.json": "{}\n",
            "Cargo.lock": "# This file is automatically @generated by Cargo.\n",
            "kept/late.py": late,
            "gen/tables.go": "// generated by go run maketables.go; DO NOT EDIT\n\npackage x\n",
            "gen/self_schema.py": "# this file is auto-generated by gen.py, DO NOT edit manually\n",
            "kept/maketables.go": 'package main\n\nfunc main() {\n\tfmt.Println("// generated by '
            'go run maketables.go; DO NOT EDIT")\n}\n',
            "kept/pb.go": "// Code generated by protoc-gen-go.\npackage x\n",  # no DO NOT EDIT
            "kept/generated_words.py": "# Generated with care by hand.\n",
            "kept/doc.md": "<!-- @generated -->\n# Reference\n",
        },
    )
    ids, counts, _ = _walk(tmp_path, glob="*")
    assert ids == [
        "kept/doc",
        "kept/generated_words.py",
        "kept/late.py",
        "kept/maketables.go",
        "kept/pb.go",
    ]
    assert counts == Counter(generated=11)


def test_binary_files_are_skipped_but_documents_are_read(tmp_path: Path) -> None:
    """REPO-6: a NUL in a code file's first 8 KiB, in a ``--glob`` file of no known
    format, or in a ``.txt`` or ``.md`` (SOURCE-11: text holds no NUL) skips it; a NUL
    past 8 KiB and a UTF-16 file with its mark are text; ``--input-format pdf`` reads all;
    a ``--glob`` file of no known format without a NUL is REPO-13's."""
    _tree(
        tmp_path,
        {
            "blob.c": b"int x;\x00\x01\x02",
            "late.c": b"x" * 8192 + b"\x00",
            "wide.py": "x = 1\n".encode("utf-16"),
            "nul.txt": b"text \x00 with a NUL\n",
            "image.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
            "data.bin": b"plain text after all\n",
        },
    )
    ids, counts, _ = _walk(tmp_path, glob="*")
    assert ids == ["late.c", "wide.py"]
    assert counts == Counter(binary=3, unknown=1)
    ids, counts, _ = _walk(tmp_path, WalkRules(skip=False), glob="*")
    assert counts == Counter(binary=3, unknown=1)  # --no-skip keeps REPO-6 and REPO-13
    ids, counts, _ = _walk(tmp_path, WalkRules(input_format="text"), glob="*")
    assert ids == ["data", "late.c", "wide.py"]
    ids, counts, _ = _walk(tmp_path, WalkRules(input_format="pdf"), glob="*")
    assert "image" in ids
    assert not counts


def test_no_skip_turns_the_skip_rules_off(tmp_path: Path) -> None:
    """REPO-3..REPO-5: ``--no-skip`` reads tool and vendored folders and generated files."""
    _tree(
        tmp_path,
        {
            "node_modules/a/i.js": "x\n",
            "vendor/v.go": "package v\n",
            "gen.go": GO_GENERATED,
            "yarn.lock": "x\n",
        },
    )
    ids, counts, _ = _walk(tmp_path, WalkRules(skip=False))
    assert ids == ["gen.go", "node_modules/a/i.js", "vendor/v.go"]
    assert not counts


def test_paths_named_are_never_skipped(tmp_path: Path) -> None:
    """REPO-3..REPO-6 apply inside a folder walked: a folder or file named is the caller's."""
    _tree(tmp_path, {"vendor/x.go": "package x\n", "vendor/blob.c": b"\x00", "k/y.lock": "y"})
    found = find_inputs([str(tmp_path / "vendor"), str(tmp_path / "vendor" / "blob.c")], None, None)
    assert [item.doc_id for item in found] == ["x.go", "blob.c"]


def test_everything_skipped_is_an_error_that_counts(tmp_path: Path) -> None:
    """CLI-7, REPO-9: a folder whose every file is skipped has no input; the error says why."""
    _tree(tmp_path, {"vendor/x.go": "package x\n", "gen.go": GO_GENERATED})
    with pytest.raises(IngestError) as caught:
        find_inputs([str(tmp_path)], None, None)
    assert str(caught.value).endswith(
        "; skipped 2 paths: 1 vendored folder, 1 generated file "
        "(--no-skip keeps the tool, vendored and generated ones)"
    )


def test_the_summary_line() -> None:
    """REPO-9: categories in a fixed order, singular and plural, the hint only when
    ``--no-skip`` would change something."""
    assert skip_summary(Counter()) is None
    assert skip_summary(Counter(binary=1)) == "skipped 1 path: 1 binary file"
    assert skip_summary(Counter(gitignore=3, tool=1, generated=2)) == (
        "skipped 6 paths: 1 tool folder, 2 generated files, 3 paths ignored by .gitignore "
        "(--no-skip keeps the tool, vendored and generated ones)"
    )


# REPO-7: .gitignore patterns against real git.

GITIGNORE_TREE: dict[str, str] = {
    ".gitignore": "\n".join(
        [
            "# a comment",
            r"\#literal",
            "*.log",
            "!keep.log",
            "build/",
            "/rooted.txt",
            "docs/**/draft-*",
            "**/tmp",
            "a/**",
            "!a/kept",
            "sp\\ ace\\ ",
            "trailing   ",
            "[abc]x",
            "[!d]y",
            "q?",
            "deep/*/leaf",
            "cl[[:digit:]]ss",
            "lit\\*",
            "",
        ]
    ),
    "#literal": "x",
    "x.log": "x",
    "keep.log": "x",
    "sub/y.log": "x",
    "sub/keep.log": "x",
    "build/out.md": "x",
    "sub/build/out.md": "x",
    "build.md": "x",
    "rooted.txt": "x",
    "sub/rooted.txt": "x",
    "docs/draft-1": "x",
    "docs/one/two/draft-2": "x",
    "docs/final": "x",
    "tmp/a": "x",
    "x/y/tmp/b": "x",
    "tmpfile": "x",
    "a/kept": "x",
    "a/other": "x",
    "sp ace ": "x",
    "sp ace": "x",
    "trailing": "x",
    "ax": "x",
    "dx": "x",
    "ay": "x",
    "dy": "x",
    "q1": "x",
    "q12": "x",
    "deep/m/leaf": "x",
    "deep/m/n/leaf": "x",
    "cl1ss": "x",
    "clxss": "x",
    "lit*": "x",
    "litx": "x",
    "nested/.gitignore": "*.md\n!important.md\n/only-here\n",
    "nested/a.md": "x",
    "nested/important.md": "x",
    "nested/only-here": "x",
    "nested/deeper/only-here": "x",
    "nested/deeper/b.md": "x",
    "crlf/.gitignore": "one\r\ntwo \r\n",
    "crlf/one": "x",
    "crlf/two": "x",
    "crlf/three": "x",
    "caf\u00e9/.gitignore": "caf?\ncaf??\n",
    "caf\u00e9/caf\u00e9": "x",
}


@_GIT
def test_gitignore_agrees_with_git(tmp_path: Path) -> None:
    """REPO-7: the walk keeps exactly the files git leaves unignored (negation, folders
    only, anchoring, ``**``, escapes, trailing spaces, brackets and classes, nested files,
    CRLF lines, ``?`` as one byte of a UTF-8 name)."""
    root = _tree(tmp_path / "repo", dict(GITIGNORE_TREE))
    kept = walk_kept(root)
    assert kept == git_kept(root)
    assert {"keep.log", "a/kept", "nested/important.md"} <= kept
    assert "a/other" not in kept


@_GIT
@_POSIX
def test_a_linked_gitignore_is_not_read(tmp_path: Path) -> None:
    """REPO-8: a ``.gitignore`` that is a symbolic link is not read (as git since 2.32),
    with one line saying so."""
    _tree(tmp_path, {"patterns": "*.md\n", "repo/a.md": "x", "repo/b.py": "x"})
    os.symlink(tmp_path / "patterns", tmp_path / "repo" / ".gitignore")
    ids, counts, skipped = _walk(tmp_path / "repo", WalkRules(gitignore=True))
    assert ids == ["a", "b.py"]
    assert not counts
    assert skipped == [f"{tmp_path}/repo/.gitignore: a symbolic link, not read (as git)"]


def test_no_gitignore_outside_the_folder_is_read(tmp_path: Path) -> None:
    """REPO-8: the walked folder's parents' ``.gitignore`` files are never read (fail
    closed: nothing outside the inputs is read), though git would apply them."""
    _tree(tmp_path, {".gitignore": "*\n", "repo/a.md": "# A\n", "repo/.gitignore": "b.md\n"})
    _tree(tmp_path, {"repo/b.md": "# B\n"})
    ids, counts, _ = _walk(tmp_path / "repo", WalkRules(gitignore=True))
    assert ids == ["a"]
    assert counts == Counter(gitignore=1)


def test_gitignore_patterns_parse_as_git_says() -> None:
    """REPO-7: blank lines and comments are no patterns; a malformed one matches nothing."""
    assert parse_pattern(b"") is None
    assert parse_pattern(b"   ") is None
    assert parse_pattern(b"# x") is None
    escaped = parse_pattern(b"\\#x")
    assert escaped is not None
    assert escaped.matches(b"#x", False)
    for malformed in (b"x\\", b"[ab", b"[[:nope:]]"):
        pattern = parse_pattern(malformed)
        assert pattern is not None
        assert not pattern.matches(malformed, False)
    only = parse_ignore_file(b"\xef\xbb\xbfa\n", b"")
    assert only.patterns[0].matches(b"a", False)


# The command line: the summary line, the flags, ingest's manifest.


def _repository(root: Path) -> Path:
    """A small repository: two documents, a code file, and one skip of each kind."""
    return _tree(
        root,
        {
            "README.md": "# Project\n\nWhat it does.\n",
            "docs/guide.md": "# Guide\n\nHow to use it.\n",
            "node_modules/dep/README.md": "# Dependency\n\nNot ours.\n",
            "vendor/lib/notes.md": "# Vendored\n\nNot ours.\n",
            "package-lock.json": "{}\n",
            "blob.c": b"\x7fELF\x00\x00",
            "build/out.md": "# Built\n\nIgnored.\n",
            ".gitignore": "build/\n",
        },
    )


def test_chunk_prints_one_summary_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """REPO-9: ``chunk`` says what it skipped in one line on standard error, exit 0."""
    root = _repository(tmp_path / "repo")
    status, out, err = run_cli(["chunk", str(root), "--gitignore"], b"", monkeypatch, capsys)
    assert status == 0, err
    sources = {json.loads(line)["source"] for line in out.splitlines()}
    assert sources == {str(root / "README.md"), str(root / "docs" / "guide.md")}
    assert err == (
        "chunkspec chunk: skipped 5 paths: 1 tool folder, 1 vendored folder, 1 generated "
        "file, 1 binary file, 1 path ignored by .gitignore (--no-skip keeps the tool, "
        "vendored and generated ones)\n"
    )
    status, out, err = run_cli(
        ["chunk", str(root), "--no-skip", "--glob", "*.md"], b"", monkeypatch, capsys
    )
    assert status == 0
    assert err == ""
    assert len({json.loads(line)["doc_id"] for line in out.splitlines()}) == 5


def test_chunk_flags_are_in_the_help(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """REPO-3..REPO-8: every command that walks folders offers both flags."""
    for command in ("chunk", "split", "window", "pages", "ingest"):
        status, out, _ = run_cli([command, "--help"], b"", monkeypatch, capsys)
        assert status == 0, command
        assert "--no-skip" in out, command
        assert "--gitignore" in out, command


def test_ingest_counts_in_its_summary_and_manifest(tmp_path: Path) -> None:
    """REPO-9: ``ingest`` prints the summary line, counts the skips in ``N skipped`` and
    records the rules and counts in ``_chunkspec.json``'s ``walk``."""
    root = _repository(tmp_path / "repo")
    out = tmp_path / "out"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "chunkspec",
            "ingest",
            str(root),
            "--out",
            str(out),
            "--format",
            "jsonl",
            "--workers",
            "1",
            "--gitignore",
        ],
        capture_output=True,
        text=True,
        env=environment(),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert lines[0] == (
        "chunkspec ingest: skipped 5 paths: 1 tool folder, 1 vendored folder, 1 generated "
        "file, 1 binary file, 1 path ignored by .gitignore (--no-skip keeps the tool, "
        "vendored and generated ones)"
    )
    assert ", 5 skipped, " in done.stdout
    manifest = json.loads((out / "_chunkspec.json").read_text("utf-8"))
    assert manifest["walk"] == {
        "no_skip": False,
        "gitignore": True,
        "skipped": {"tool": 1, "vendored": 1, "generated": 1, "binary": 1, "gitignore": 1},
    }
    assert manifest["documents"] == 2


@_POSIX
def test_a_gitignore_fifo_is_never_opened(tmp_path: Path) -> None:
    """REPO-8, TRUST-31: a ``.gitignore`` that is a FIFO is not waited on; one line."""
    from tests.hostile_corpus import no_wait

    _tree(tmp_path, {"repo/a.py": "x = 1\n"})
    os.mkfifo(tmp_path / "repo" / ".gitignore")
    with no_wait(30):
        ids, counts, skipped = _walk(tmp_path / "repo", WalkRules(gitignore=True))
    assert ids == ["a.py"]
    assert not counts
    assert skipped == [f"{tmp_path}/repo/.gitignore: not read: not a regular file (a FIFO)"]


@_POSIX
def test_submodules_and_vendored_crates_are_skipped(tmp_path: Path) -> None:
    """REPO-4: the folders a ``.gitmodules`` names (quoted or not, nested ones relative to
    their folder) and a crate holding ``.cargo-checksum.json`` are vendored; a linked
    marker, a ``..`` path and a path that is no folder change nothing."""
    _tree(
        tmp_path,
        {
            ".gitmodules": '[submodule "meson"]\n\tpath = vendored-meson/meson\n'
            '\turl = https://example.invalid/meson.git\n[submodule "q"]\n\tpath = "with space"\n'
            '[submodule "out"]\n\tpath = ../outside\n',
            "vendored-meson/meson/mesonbuild/x.py": "x = 1\n",
            "vendored-meson/build-backend.py": "x = 1\n",
            "with space/a.c": "int a;\n",
            "pkg/.gitmodules": '[submodule "h"]\n  path=highway\n',
            "pkg/highway/hwy.h": "int h;\n",
            "highway/kept.h": "int k;\n",
            "include/cargo/libc-0.2/.cargo-checksum.json": '{"files": {}}\n',
            "include/cargo/libc-0.2/src/lib.rs": "pub fn f() {}\n",
            "elsewhere/.cargo-checksum.json": "{}\n",
            "linked/kept.rs": "fn k() {}\n",
            "main.rs": "fn main() {}\n",
        },
    )
    os.symlink(
        tmp_path / "elsewhere" / ".cargo-checksum.json",
        tmp_path / "linked" / ".cargo-checksum.json",
    )
    ids, counts, _ = _walk(tmp_path)
    assert ids == ["highway/kept.h", "linked/kept.rs", "main.rs", "vendored-meson/build-backend.py"]
    assert counts == Counter(vendored=5)  # elsewhere/ holds a real marker itself


def test_glob_files_of_no_known_format_are_judged_by_their_head(tmp_path: Path) -> None:
    """REPO-5, REPO-6: a ``--glob`` file without a document suffix is skipped when its head
    says generated or binary, as a code file is; ``--no-skip`` keeps the generated one.
    REPO-13: without ``--input-format`` no reader knows ``.proto``: each is skipped."""
    _tree(
        tmp_path,
        {
            "api.proto": "syntax = 'proto3';\n",
            "gen.proto": "// Code generated by buf. DO NOT EDIT.\nsyntax = 'proto3';\n",
            "logo.ico": b"\x00\x00\x01\x00",
        },
    )
    as_text = WalkRules(input_format="text")
    ids, counts, _ = _walk(tmp_path, as_text, glob="*.*")
    assert ids == ["api"]
    assert counts == Counter(generated=1, binary=1)
    ids, counts, _ = _walk(tmp_path, WalkRules(skip=False, input_format="text"), glob="*.*")
    assert ids == ["api", "gen"]
    assert counts == Counter(binary=1)
    with pytest.raises(IngestError, match="2 files of unknown type"):
        _walk(tmp_path, glob="*.*")


def test_empty_code_files_and_json_that_is_not_blocks(tmp_path: Path) -> None:
    """REPO-10, REPO-11: an empty __init__.py and a package.json are counted skips, not
    errors; JSON blocks are read; --no-skip keeps the JSON (then its error), never the
    empty file; a named file is always read."""
    root = _tree(
        tmp_path / "repo",
        {
            "pkg/__init__.py": "",
            "pkg/blank.py": "  \n\n",
            "pkg/mod.py": "x = 1\n",
            "package.json": '{"name": "x", "version": "1.0.0"}\n',
            "blocks.json": '[{"kind": "paragraph", "text": "Hello there."}]\n',
            "object.json": '{"blocks": [{"kind": "paragraph", "text": "Hi."}]}\n',
        },
    )
    done = subprocess.run(
        [sys.executable, "-m", "chunkspec", "chunk", str(root), "--strategy", "code"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == (
        "chunkspec chunk: skipped 3 paths: 2 empty code files, 1 JSON file that is not "
        "blocks (--no-skip keeps the tool, vendored, generated and JSON ones)\n"
    )
    ids = {json.loads(line)["doc_id"] for line in done.stdout.splitlines()}
    assert ids == {"blocks", "object", "pkg/mod.py"}
    kept = subprocess.run(
        [sys.executable, "-m", "chunkspec", "chunk", str(root), "--no-skip", "--keep-going"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert kept.returncode == 2
    assert "package.json: expected a JSON list of blocks" in kept.stderr
    assert "skipped 2 paths: 2 empty code files\n" in kept.stderr
    named = subprocess.run(
        [sys.executable, "-m", "chunkspec", "chunk", str(root / "pkg" / "__init__.py")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert "no text to chunk" in named.stderr  # read, and said to be empty
