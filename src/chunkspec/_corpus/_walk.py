"""The inputs of a corpus run: files and folders walked into documents (CLI-7, CLI-8).

Folders are walked sorted, links out of a folder and entries that are not regular files
skipped with a line saying so (TRUST-30, TRUST-31), and two inputs with one doc id refused
(TRUST-34). A walk takes code files too (REPO-1, REPO-2) and skips what a user would skip in
a repository, each skip counted (REPO-3..REPO-11, ``_repository`` and ``_gitignore``).
Imports the standard library, ``chunkspec._text`` and ``chunkspec._code``'s language table.
"""

from __future__ import annotations

import errno
import fnmatch
import os
import stat
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .._code._languages import shebang_language
from .._text._documents import SUFFIXES, sniff
from .._text._file_names import name_as_text
from .._text._regular_files import OverCap, file_kind, read_regular
from ._file_io import IngestError
from ._gitignore import IgnoreFile, ignored, parse_ignore_file
from ._repository import (
    BINARY_HEAD,
    GENERATED_HEAD,
    WalkRules,
    binary,
    code_file,
    empty,
    folder_kind,
    generated_head,
    generated_name,
    json_blocks,
    read_head,
    skip_summary,
    submodule_paths,
)

#: REPO-7: git reads no pattern file over 100 MiB; neither does the walk.
_IGNORE_CAP = 100 * 1024 * 1024

__all__ = [
    "Input",
    "WalkRules",
    "cannot_read",
    "find_inputs",
    "matches",
    "named_doc_ids",
    "named_input",
    "shown",
]


@dataclass(frozen=True, slots=True)
class Input:
    """One input: its OS path (``-`` for stdin), doc id, shown name and any problem (CLI-8).

    ``source`` is ``path`` as valid text (CLI-16); ``problem`` is why a path found in a
    folder cannot be read (CLI-17), reported instead of read. ``stream`` marks a FIFO
    named on the command line, read as standard input is (TRUST-31); nothing else that is
    not a regular file is ever read.
    """

    path: str
    doc_id: str
    source: str = ""
    problem: str | None = None
    stream: bool = False

    @property
    def message(self) -> str:
        """The one-line report of a problem input: its name and the reason (CLI-17)."""
        return f"{self.source}: {self.problem}"


def shown(path: str) -> str:
    """CLI-16: ``path`` as valid text, each byte of a name that is not UTF-8 as ``\\xNN``."""
    return name_as_text(path)


def cannot_read(error: OSError) -> str:
    """Why a path cannot be read, as SOURCE-6 says it of a file (``cannot read: ...``)."""
    return f"cannot read: {error.strerror or type(error).__name__}"


def find_inputs(
    paths: list[str],
    pattern: str | None,
    doc_id: str | None,
    skip: str | None = None,
    *,
    follow_links: bool = False,
    skipped: list[str] | None = None,
    rules: WalkRules | None = None,
    counts: Counter[str] | None = None,
) -> list[Input]:
    """Expand ``paths`` into inputs, in the order given, folders sorted (CLI-7, CLI-8).

    A folder contributes its files, recursively, sorted by relative path, skipping names
    that start with ``.`` and the folder ``skip`` (CLI-17); without ``--glob`` only files
    with a known suffix. Doc ids are relative paths without suffix (``/``-separated); two
    inputs with one id are an error (TRUST-34). A folder that cannot be listed, a dangling
    link and a link cycle inside a folder are inputs with a ``problem`` (CLI-17). A link
    out of its input folder (unless ``follow_links``) and a document name that is not a
    regular file are skipped, each as one line ``PATH: reason`` appended to ``skipped``
    (TRUST-30, TRUST-31). A path named here is the caller's: a link is followed wherever
    it points, a FIFO is read as a stream, a device or a socket is a CLI-1 error.

    ``rules`` (default :class:`WalkRules`: skip on, no ``.gitignore``) say what a folder
    walk skips in a repository (REPO-3..REPO-8); each skip is counted by category in
    ``counts`` (REPO-9). A path named here is never skipped by them.
    """
    rules = WalkRules() if rules is None else rules
    tally: Counter[str] = Counter()
    if paths.count("-") > 1:
        raise IngestError("- (standard input) can be given once")
    found: list[Input] = []
    lines: list[str] = []
    named: list[int] = []  # CLI-8: the positions of the files named directly
    for path in paths:
        if path == "-":
            found.append(Input("-", "stdin"))
        elif os.path.isdir(path):
            try:
                os.scandir(path).close()
            except OSError as error:
                raise IngestError(f"{shown(path)}: {cannot_read(error)}") from None
            found.extend(_walk(path, pattern, skip, follow_links, lines, rules, tally))
        else:
            named.append(len(found))
            found.append(named_input(path))
    if len(named) > 1:  # CLI-8: files named directly that share a name get longer ids
        ids = named_doc_ids([found[i].path for i in named])
        for position, longer in zip(named, ids, strict=True):
            item = found[position]
            found[position] = Input(item.path, longer, item.source, item.problem, item.stream)
    if skipped is not None:
        skipped.extend(lines)
    if counts is not None:
        counts.update(tally)
    if not found:
        where = ", ".join(map(shown, paths))
        more = f", and {len(lines) - 1} more" if len(lines) > 1 else ""
        raise IngestError(
            f"no input files in {where}"
            + (
                f" matching --glob {pattern!r}"
                if pattern
                else " (.md, .markdown, .txt, .pdf, .json)"
            )
            + (f"; skipped: {lines[0]}{more}" if lines else "")  # TRUST-33
            + (f"; {summary}" if (summary := skip_summary(tally)) else "")  # REPO-9
        )
    if doc_id is not None:
        if len(found) != 1:
            raise IngestError(f"--doc-id needs exactly one input document, got {len(found)}")
        only = found[0]
        found = [Input(only.path, doc_id, only.source, only.problem, only.stream)]
    found = _suffixed(found)  # CLI-8: x.md beside x.html are x.md and x.html
    seen: dict[str, str] = {}
    for item in found:  # TRUST-34: one doc id, one source, refused before any work
        if item.doc_id in seen:
            raise IngestError(
                f"{item.source or item.path}: doc id {item.doc_id!r} is also the id of "
                f"{seen[item.doc_id]}"
            )
        seen[item.doc_id] = item.source or item.path
    return found


def _suffixed(found: list[Input]) -> list[Input]:
    """CLI-8: inputs that would share a doc id but whose files have other suffixes keep
    their suffix in the id (``api/addons.md``, ``api/addons.html``); inputs whose suffixed
    ids still meet (one name from two folders, one path twice) keep the shared id, and
    TRUST-34 refuses them."""
    groups: dict[str, list[int]] = {}
    for position, item in enumerate(found):
        groups.setdefault(item.doc_id, []).append(position)
    result = list(found)
    for doc_id, positions in groups.items():
        if len(positions) < 2:
            continue
        longer = {p: doc_id + shown(Path(found[p].path).suffix) for p in positions}
        for position in positions:
            mine = longer[position]
            if mine != doc_id and list(longer.values()).count(mine) == 1:
                item = found[position]
                result[position] = Input(item.path, mine, item.source, item.problem, item.stream)
    return result


def _named_id(parts: tuple[str, ...]) -> str:
    """CLI-8, REPO-2: the id of the trailing path ``parts``: ``/``-joined, the last name
    without its suffix unless it is a code file's."""
    name = parts[-1]
    if not code_file(name):
        name = Path(name).stem
    return shown("/".join((*parts[:-1], name)))


def named_doc_ids(paths: list[str]) -> list[str]:
    """CLI-8: the doc ids of the files ``paths`` named directly, in order.

    Each is its name without suffix (CLI-8; a code file's keeps it, REPO-2), unless another
    of ``paths`` has the same: then it is the shortest trailing part of its path (names
    ``/``-joined, ``.`` dropped) that no other of them shares, the last name without its
    suffix as before; a path whose every trailing part another shares (the same path
    twice, ``x.md`` beside ``x.txt``) keeps its name, and TRUST-34 refuses the pair.
    """
    parts = []
    for path in paths:
        pure = Path(path)
        names = pure.parts[1:] if pure.anchor else pure.parts
        parts.append(tuple(names) or (path,))
    ids = []
    longest = max(map(len, parts), default=1)
    for index, own in enumerate(parts):
        others = [other for place, other in enumerate(parts) if place != index]
        chosen = 1  # no part tells it apart (the same path twice): TRUST-34 refuses its name
        for size in range(1, longest + 1):
            mine = _named_id(own[-size:])
            if all(_named_id(other[-size:]) != mine for other in others):
                chosen = size
                break
        ids.append(_named_id(own[-chosen:]))
    return ids


def named_input(path: str, doc_id: str | None = None) -> Input:
    """A file named on the command line (TRUST-31): a FIFO is a stream, a device or a
    socket a CLI-1 error; a missing or unreadable one is reported when it is read."""
    if doc_id is None:  # REPO-2: a code file's id keeps its suffix
        name = Path(path).name
        doc_id = shown(name if code_file(name) else Path(path).stem)
    item = Input(path, doc_id, shown(path))
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return item
    if stat.S_ISFIFO(mode):
        return Input(item.path, item.doc_id, item.source, stream=True)
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        raise IngestError(f"{shown(path)}: not a regular file ({file_kind(mode)})")
    return item


def matches(relative: str, name: str, pattern: str) -> bool:
    """CLI-7: the relative path or the name matches ``pattern``, ignoring case (as SOURCE-1)."""
    folded = pattern.lower()
    return fnmatch.fnmatchcase(relative.lower(), folded) or fnmatch.fnmatchcase(
        name.lower(), folded
    )


def _inside(target: str, root: str) -> bool:
    """Whether the resolved path ``target`` is ``root`` or lies under it (TRUST-30)."""
    return target == root or target.startswith(root.rstrip(os.sep) + os.sep)


def _document_suffix(suffix: str) -> bool:
    """REPO-5, REPO-6: a suffix of a document format (not code): the user's word that the
    file is a document, read and judged by its reader (SOURCE-6), never skipped by its
    bytes."""
    return SUFFIXES.get(suffix.lower(), "code") != "code"


def _walk(
    folder: str,
    pattern: str | None,
    skip: str | None,
    follow_links: bool,
    skipped: list[str],
    rules: WalkRules,
    counts: Counter[str],
) -> Iterator[Input]:
    """Yield the inputs of ``folder`` sorted by relative path (CLI-7, CLI-17); append the
    lines of what it skips to ``skipped`` (TRUST-30, TRUST-31), in the same order, and
    count what the repository rules skip in ``counts`` (REPO-3..REPO-11)."""
    root = Path(folder)
    real_root = os.path.realpath(folder)
    chosen: list[tuple[str, Input]] = []
    lines: list[tuple[str, str]] = []
    skipped_out = os.path.realpath(skip) if skip is not None else None
    # Folders are listed with os.scandir, following links to folders inside the root (any
    # link with follow_links); a link to a folder already on the way down (a cycle) is
    # reported once, not followed (CLI-17).
    pending: list[tuple[Path, str, tuple[tuple[int, int], ...], tuple[IgnoreFile, ...]]] = []
    top = os.stat(root)
    pending.append((root, "", ((top.st_dev, top.st_ino),), ()))
    submodules: set[str] = set()  # REPO-4: the folders .gitmodules files name

    def outside(full: Path, relative: str) -> bool:
        """TRUST-30: a link whose target is out of the root is skipped (one line)."""
        if follow_links:
            return False
        target = os.path.realpath(full)
        if _inside(target, real_root):
            return False
        lines.append(
            (
                relative,
                f"{shown(str(full))}: a link out of {shown(folder)}, not followed "
                "(--follow-links follows it)",
            )
        )
        return True

    while pending:
        directory, prefix, ancestors, ignores = pending.pop()
        try:
            with os.scandir(directory) as listing:
                entries = list(listing)
        except OSError as error:
            chosen.append(_folder_problem(directory, prefix.rstrip("/"), cannot_read(error)))
            continue
        if prefix and rules.skip:  # REPO-3, REPO-4: a folder known by what it holds
            kind = folder_kind(directory.name, entries)
            if kind is not None:
                counts[kind] += 1
                continue
        if rules.skip:
            submodules |= submodule_paths(entries, prefix)
        if rules.gitignore:  # REPO-7, REPO-8: this folder's own .gitignore, if any
            ignores = _read_ignore(directory, prefix, entries, ignores, lines)
        for entry in entries:
            name = entry.name
            if name.startswith("."):
                continue
            full = Path(directory, name)
            relative = prefix + name
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if is_dir:
                if skipped_out is not None and os.path.realpath(full) == skipped_out:
                    continue
                if ignores and ignored(list(ignores), relative, True):
                    counts["gitignore"] += 1
                    continue
                if rules.skip and (kind := folder_kind(name, [])) is not None:
                    counts[kind] += 1  # REPO-3, REPO-4: by name, never listed
                    continue
                if relative in submodules:  # REPO-4: another repository, pinned
                    counts["vendored"] += 1
                    continue
                if entry.is_symlink() and outside(full, relative):
                    continue
                try:
                    info = os.stat(full)
                except OSError as error:
                    chosen.append(_folder_problem(full, relative, cannot_read(error)))
                    continue
                key = (info.st_dev, info.st_ino)
                if key in ancestors:  # REPO-12: a cycle, counted, never followed
                    counts["loop"] += 1
                    continue
                pending.append((full, relative + "/", (*ancestors, key), ignores))
                continue
            code = code_file(name)
            if pattern is not None:
                if not matches(relative, name, pattern):
                    continue
            elif full.suffix.lower() not in SUFFIXES and not code:  # REPO-1
                continue
            if ignores and ignored(list(ignores), relative, False):
                counts["gitignore"] += 1
                continue
            if rules.skip and generated_name(name):  # REPO-5: a lock or a minified file
                counts["generated"] += 1
                continue
            # REPO-2: a code file's id keeps its suffix
            stem = relative if code or not full.suffix else relative[: -len(full.suffix)]
            problem = None
            if entry.is_symlink() and (broken := _broken_link(full)) is not None:
                counts[broken] += 1  # REPO-12: a link that leads to no file
                continue
            if entry.is_symlink() and outside(full, relative):
                continue
            else:
                try:
                    mode = os.stat(full).st_mode
                except OSError as error:
                    problem = cannot_read(error)
                else:
                    if not stat.S_ISREG(mode):  # TRUST-31: never opened, so never waited on
                        what = file_kind(mode)
                        lines.append((relative, f"{shown(str(full))}: not a regular file ({what})"))
                        continue
                    if not _document_suffix(full.suffix):  # REPO-5, REPO-6: by its head
                        unknown = (
                            pattern is not None
                            and rules.input_format is None
                            and not code
                            and full.suffix.lower() not in SUFFIXES
                        )  # REPO-13: --glob took a file no reader is known for
                        reason = _head_reason(str(full), rules, code, unknown)
                        if reason is not None:
                            counts[reason] += 1
                            continue
                    elif _text_suffix(full.suffix) and rules.binary_check:  # REPO-6
                        head = read_head(str(full), BINARY_HEAD)
                        if head is not None and binary(head):
                            counts["binary"] += 1
                            continue
                    if rules.skip and pattern is None and full.suffix.lower() == ".json":
                        head = read_head(str(full), GENERATED_HEAD)  # REPO-11
                        if head is not None and not json_blocks(head):
                            counts["json"] += 1
                            continue
            chosen.append((relative, Input(str(full), shown(stem), shown(str(full)), problem)))
    skipped.extend(line for _, line in sorted(lines, key=lambda pair: pair[0]))
    for _, item in sorted(chosen, key=lambda pair: pair[0]):
        yield item


def _broken_link(full: Path) -> str | None:
    """REPO-12: ``loop`` for a link in a cycle of links, ``dangling`` for one whose target
    does not exist; None when it leads to something (or cannot be followed for another
    reason, which the reader reports, CLI-17)."""
    try:
        os.stat(full)
    except OSError as error:
        if error.errno == errno.ELOOP:
            return "loop"
        if error.errno in (errno.ENOENT, errno.ENOTDIR):
            return "dangling"
    return None


def _text_suffix(suffix: str) -> bool:
    """REPO-6: a suffix of a document format that is text (Markdown, text, JSON, HTML):
    a NUL byte in its head says it is not (PDF and Word files are binary formats)."""
    return SUFFIXES.get(suffix.lower(), "pdf") in ("markdown", "text", "json", "html")


def _head_reason(path: str, rules: WalkRules, code: bool, unknown: bool = False) -> str | None:
    """For a file without a document suffix: REPO-6's ``binary`` for a NUL in the first
    8 KiB; REPO-13's ``unknown`` for a ``--glob`` file (``unknown``) whose head says no
    format either (SOURCE-1: a PDF, a web page, a script's shebang); REPO-10's ``empty``
    for a code file of white space only; REPO-5's ``generated`` when the first 2 KiB say
    so; else None (also when the head cannot be read: the reader reports that, CLI-17)."""
    if not rules.binary_check and not rules.skip and not code and not unknown:
        return None
    head = read_head(path, BINARY_HEAD)
    if head is None:
        return None
    if rules.binary_check and binary(head):
        return "binary"
    if unknown and sniff(head[:1024]) is None and shebang_language(head) is None:
        return "unknown"
    if code and empty(head):
        return "empty"
    if rules.skip and generated_head(head):
        return "generated"
    return None


def _read_ignore(
    directory: Path,
    prefix: str,
    entries: list[os.DirEntry[str]],
    ignores: tuple[IgnoreFile, ...],
    lines: list[tuple[str, str]],
) -> tuple[IgnoreFile, ...]:
    """REPO-7, REPO-8: ``ignores`` and the patterns of ``directory``'s own ``.gitignore``.

    Only a regular file is read: a ``.gitignore`` that is a symbolic link is not (as git
    since 2.32), nor one over 100 MiB, each with a line saying so (TRUST-33)."""
    for entry in entries:
        if entry.name != ".gitignore":
            continue
        relative = prefix + entry.name
        reason = None
        if entry.is_symlink():
            reason = "a symbolic link, not read (as git)"
        else:
            try:
                data = read_regular(entry.path, cap=_IGNORE_CAP)
            except OverCap:
                reason = "over 100 MiB, not read (as git)"
            except OSError as error:
                reason = f"not read: {error.strerror or error}"
            else:
                return (*ignores, parse_ignore_file(data, os.fsencode(prefix)))
        lines.append((relative, f"{shown(str(Path(directory, entry.name)))}: {reason}"))
    return ignores


def _folder_problem(folder: Path, relative: str, problem: str) -> tuple[str, Input]:
    """CLI-17: a folder that is reported, not read; its doc id is its relative path and ``/``."""
    return relative, Input(str(folder), shown(relative) + "/", shown(str(folder)), problem)
