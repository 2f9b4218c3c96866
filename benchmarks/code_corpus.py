"""Build the offline code-search set: span-labelled corpora of real code (EVAL-20, EVAL-39).

Each question is a function's documentation and its gold span is the function: the query is
the first paragraph of a Python docstring or of the doc comment just above a function or
method (comment markers, Javadoc/JSDoc tags and Markdown ticks cleaned off), and that
docstring or comment is *deleted* from the file that is indexed, so a retriever cannot find
the function by its own words. The gold span runs from the definition's first character
(decorators, attributes and annotations included) to its last, in code points of the edited
file; every question on a file removes its doc from the same edited copy.

The code comes from packages nobody here wrote, fetched with the ordinary clients: Python
sdists with ``pip download --no-binary :all: --no-deps`` (Python, and C in ``lz4``'s bundled
library), npm tarballs with ``npm pack`` (JavaScript: lodash; TypeScript: rxjs's ``src``),
Debian packages with ``apt-get download`` (Go: ``golang-*-dev``; Rust: ``librust-*-dev``
crate sources; Java: ``openjdk-17-source``'s ``src.zip``, a few ``java.util`` classes).
Names, versions and licences are in ``benchmarks/data/code-search/SOURCES.md``; the SHA-256
of every download in ``benchmarks/data/code-search/MANIFEST.json`` (checked on every run,
written by ``--update-manifest``).

Output, one corpus per language in chunkspec's corpus format (``chunkspec eval --corpus
DIR`` reads it): ``OUT/LANG/pages/DOC.txt`` (the edited files), ``OUT/LANG/queries.jsonl``
(``{"id", "class": LANG, "question", "gold": [{"doc", "start", "end"}], "symbol"}``) and
``OUT/LANG/files.jsonl`` (each page's source package and path). Re-running rebuilds the set
from the cached downloads, byte for byte.

    python -m benchmarks.code_corpus                  # into .cache/code-search/
    python -m benchmarks.code_corpus --out DIR --per-language 80
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import inspect
import io
import json
import random
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "code-search"
MANIFEST = DATA / "MANIFEST.json"
DEFAULT_OUT = HERE.parent / ".cache" / "code-search"


@dataclass(frozen=True)
class Source:
    """One package: where it comes from, which files of it are read, and its licence."""

    language: str
    kind: str  # "pypi", "npm" or "deb"
    name: str
    version: str
    licence: str
    include: tuple[str, ...]  # fnmatch patterns on the member's path inside the archive
    exclude: tuple[str, ...] = ()
    inner_zip: str = ""  # a zip inside the archive whose members are read (src.zip)


SOURCES = (
    Source("python", "pypi", "click", "8.5.1", "BSD-3-Clause", ("*/src/click/*.py",)),
    Source("python", "pypi", "more-itertools", "11.2.1", "MIT", ("*/more_itertools/*.py",)),
    Source(
        "c",
        "pypi",
        "lz4",
        "4.4.5",
        "BSD-3-Clause (python-lz4); BSD-2-Clause (bundled LZ4 library, lz4libs/)",
        ("*/lz4libs/*.c", "*/lz4/*/*.c"),
    ),
    Source("c", "pypi", "brotli", "1.2.1", "MIT", ("*/c/common/*.c", "*/c/dec/*.c", "*/c/enc/*.c")),
    Source("javascript", "npm", "axios", "1.21.1", "MIT", ("package/lib/*.js",)),
    Source("javascript", "npm", "express", "5.3.0", "MIT", ("package/lib/*.js",)),
    Source("javascript", "npm", "commander", "15.1.0", "MIT", ("package/lib/*.js",)),
    Source(
        "typescript",
        "npm",
        "rxjs",
        "7.8.2",
        "Apache-2.0",
        ("package/src/internal/*.ts",),
        ("*.d.ts", "*/umd.ts"),
    ),
    Source(
        "go",
        "deb",
        "golang-github-spf13-cobra-dev",
        "1.6.1-1",
        "Apache-2.0",
        ("./usr/share/gocode/src/*.go",),
        ("*_test.go",),
    ),
    Source(
        "go",
        "deb",
        "golang-github-google-uuid-dev",
        "1.3.0-1",
        "BSD-3-Clause",
        ("./usr/share/gocode/src/*.go",),
        ("*_test.go",),
    ),
    Source(
        "go",
        "deb",
        "golang-github-pkg-errors-dev",
        "0.9.1-2",
        "BSD-2-Clause",
        ("./usr/share/gocode/src/*.go",),
        ("*_test.go",),
    ),
    Source(
        "rust",
        "deb",
        "librust-smallvec-dev",
        "1.9.0-1",
        "MIT OR Apache-2.0",
        ("./usr/share/cargo/registry/*/src/*.rs",),
        ("*/tests.rs", "*/tests/*", "*/benches/*"),
    ),
    Source(
        "rust",
        "deb",
        "librust-bytes-dev",
        "1.2.1-1",
        "MIT",
        ("./usr/share/cargo/registry/*/src/*.rs",),
    ),
    Source(
        "rust",
        "deb",
        "librust-hashbrown-dev",
        "0.12.3-1",
        "MIT OR Apache-2.0",
        ("./usr/share/cargo/registry/*/src/*.rs",),
    ),
    Source(
        "rust",
        "deb",
        "librust-semver-dev",
        "1.0.14-1",
        "MIT OR Apache-2.0",
        ("./usr/share/cargo/registry/*/src/*.rs",),
        ("*/tests/*",),
    ),
    Source(
        "rust",
        "deb",
        "librust-either-dev",
        "1.6.1-1",
        "MIT OR Apache-2.0",
        ("./usr/share/cargo/registry/*/src/*.rs",),
    ),
    Source(
        "rust",
        "deb",
        "librust-itoa-dev",
        "1.0.1-2",
        "MIT OR Apache-2.0",
        ("./usr/share/cargo/registry/*/src/*.rs",),
    ),
    Source(
        "java",
        "deb",
        "openjdk-17-source",
        "17.0.21.1+2-1~deb12u1",
        "GPL-2.0-only WITH Classpath-exception-2.0",
        tuple(
            f"java.base/java/util/{name}.java"
            for name in (
                "AbstractCollection",
                "AbstractList",
                "AbstractMap",
                "ArrayDeque",
                "ArrayList",
                "Base64",
                "BitSet",
                "HashMap",
                "Objects",
                "Optional",
                "OptionalInt",
                "PriorityQueue",
                "Random",
                "StringJoiner",
                "StringTokenizer",
                "Timer",
                "UUID",
                "Vector",
            )
        ),
        inner_zip="./usr/lib/jvm/openjdk-17/lib/src.zip",
    ),
)

#: Per language: the grammar (module, function), the function node types and the comment
#: node types, as the official grammar wheels name them.
GRAMMARS: dict[str, tuple[str, str, frozenset[str], frozenset[str]]] = {
    "python": ("tree_sitter_python", "language", frozenset({"function_definition"}), frozenset()),
    "javascript": (
        "tree_sitter_javascript",
        "language",
        frozenset({"function_declaration", "generator_function_declaration", "method_definition"}),
        frozenset({"comment"}),
    ),
    "typescript": (
        "tree_sitter_typescript",
        "language_typescript",
        frozenset(
            {
                "function_declaration",
                "generator_function_declaration",
                "method_definition",
            }
        ),
        frozenset({"comment"}),
    ),
    "go": (
        "tree_sitter_go",
        "language",
        frozenset({"function_declaration", "method_declaration"}),
        frozenset({"comment"}),
    ),
    "rust": (
        "tree_sitter_rust",
        "language",
        frozenset({"function_item"}),
        frozenset({"line_comment", "block_comment"}),
    ),
    "java": (
        "tree_sitter_java",
        "language",
        frozenset({"method_declaration", "constructor_declaration"}),
        frozenset({"block_comment", "line_comment"}),
    ),
    "c": (
        "tree_sitter_c",
        "language",
        frozenset({"function_definition"}),
        frozenset({"comment"}),
    ),
}

#: What may stand between a doc comment and its function: Rust attributes, TypeScript
#: overload signatures are not skipped (their own docs are separate).
_BETWEEN = frozenset({"attribute_item"})

#: Wrappers whose doc comment stands above them rather than above the function.
_WRAPPERS = frozenset({"export_statement"})

SUFFIX = {".py": "python", ".js": "javascript", ".ts": "typescript", ".go": "go", ".rs": "rust"}
SUFFIX |= {".java": "java", ".c": "c"}

MIN_WORDS = 8
MAX_FILE_CHARS = 120_000

#: A file smaller than this is one chunk under every strategy at 256 tokens: not a test of
#: chunking, so it is left out.
MIN_FILE_BYTES = 4_000

#: Each language's corpus stops growing past this many bytes of edited files.
MAX_LANGUAGE_BYTES = 120_000


# --------------------------------------------------------------------------- downloads


def download(source: Source, cache: Path) -> Path:
    """The package's archive in ``cache`` (fetched with its ordinary client if missing)."""
    cache.mkdir(parents=True, exist_ok=True)
    found = _cached(source, cache)
    if found is not None:
        return found
    if source.kind == "pypi":
        pip = [sys.executable, "-m", "pip"]
        if subprocess.run([*pip, "--version"], capture_output=True).returncode != 0:
            pip = [shutil.which("pip") or "pip"]
        command = [*pip, "download", "--no-binary", ":all:", "--no-deps", "-q"]
        command += ["-d", str(cache), f"{source.name}=={source.version}"]
        subprocess.run(command, check=True)
    elif source.kind == "npm":
        command = ["npm", "pack", f"{source.name}@{source.version}", "--silent"]
        subprocess.run([*command, "--pack-destination", str(cache)], check=True)
    else:
        command = ["apt-get", "download", f"{source.name}={source.version}"]
        subprocess.run(command, check=True, cwd=cache, capture_output=True)
    found = _cached(source, cache)
    if found is None:
        raise SystemExit(f"{source.name} {source.version}: downloaded, but not found in {cache}")
    return found


def _cached(source: Source, cache: Path) -> Path | None:
    """The archive of ``source`` already in ``cache``, if any."""
    stem = {
        "pypi": f"{source.name.replace('-', '_')}-{source.version}.tar.gz",
        "npm": f"{source.name}-{source.version}.tgz",
        "deb": f"{source.name}_{source.version.replace(':', '%3a')}_",
    }[source.kind]
    for path in sorted(cache.iterdir()):
        name = path.name.replace("-", "_") if source.kind == "pypi" else path.name
        if source.kind == "pypi":
            stem = stem.replace("-", "_").lower()
            name = name.lower()
        if name == stem or (source.kind == "deb" and name.startswith(stem)):
            return path
    return None


def sha256(path: Path) -> str:
    """The SHA-256 of a file, hex."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def members(source: Source, archive: Path, cache: Path) -> Iterator[tuple[str, bytes]]:
    """``(path, bytes)`` of the archive's files that ``source`` includes, in path order."""

    def wanted(name: str) -> bool:
        return any(fnmatch.fnmatch(name, p) for p in source.include) and not any(
            fnmatch.fnmatch(name, p) for p in source.exclude
        )

    if source.kind == "deb":
        data = subprocess.run(
            ["dpkg-deb", "--fsys-tarfile", str(archive)], check=True, capture_output=True
        ).stdout
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            if source.inner_zip:
                inner = tar.extractfile(source.inner_zip)
                assert inner is not None, source.inner_zip
                with zipfile.ZipFile(io.BytesIO(inner.read())) as zipped:
                    for name in sorted(zipped.namelist()):
                        if wanted(name):
                            yield name, zipped.read(name)
                return
            yield from _tar_members(tar, wanted)
        return
    with tarfile.open(archive) as tar:
        yield from _tar_members(tar, wanted)


def _tar_members(tar: tarfile.TarFile, wanted: Any) -> Iterator[tuple[str, bytes]]:
    """The regular files of ``tar`` that ``wanted`` accepts, in path order."""
    for info in sorted(tar.getmembers(), key=lambda i: i.name):
        if info.isfile() and wanted(info.name):
            handle = tar.extractfile(info)
            assert handle is not None
            yield info.name, handle.read()


# --------------------------------------------------------------------------- questions


@dataclass(frozen=True)
class Candidate:
    """A documented function: the byte range of its doc's lines (deleted), the function's
    byte range (the gold), its name and the cleaned query."""

    remove: tuple[int, int]
    gold: tuple[int, int]
    symbol: str
    query: str


def parser(language: str) -> Any:
    """A tree-sitter parser from the official grammar wheel of ``language``."""
    import tree_sitter

    module, function, _, _ = GRAMMARS[language]
    grammar = tree_sitter.Language(getattr(import_module(module), function)())
    return tree_sitter.Parser(grammar)


def walk(node: Any) -> Iterator[Any]:
    """Every node under ``node``, in document order."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


def _line_start(data: bytes, at: int) -> int:
    return data.rfind(b"\n", 0, at) + 1


def _line_end(data: bytes, at: int) -> int:
    """The start of the line after the one holding byte ``at - 1`` (past its newline)."""
    if at > 0 and data[at - 1 : at] == b"\n":
        return at
    end = data.find(b"\n", at)
    return len(data) if end < 0 else end + 1


def _alone(data: bytes, start: int, end: int) -> bool:
    """True if bytes ``[start, end)`` have only blanks before them on their first line and
    after them on their last."""
    before = data[_line_start(data, start) : start]
    after = data[end : _line_end(data, end)]
    return not before.strip() and not after.strip()


_TAG = re.compile(r"\{@(?:code|link|linkplain|literal|value)\s+([^}]*)\}")
_MARKDOWN_LINK = re.compile(r"\[`?([^\]`]+)`?\]\([^)]*\)|\[`([^\]`]+)`\]")
_STOP = re.compile(r"^\s*(@|#\s|```|Example|Examples:|Args:|Arguments:|Returns?:|Raises:|>>>)")


def clean(lines: list[str]) -> str:
    """The first paragraph of cleaned doc lines, on one line."""
    paragraph: list[str] = []
    for line in lines:
        if not line.strip():
            if paragraph:
                break
            continue
        if _STOP.match(line):
            break
        paragraph.append(line.strip())
    text = " ".join(paragraph)
    text = _TAG.sub(r"\1", text)
    text = _MARKDOWN_LINK.sub(lambda m: m.group(1) or m.group(2), text)
    text = re.sub(r"<[^>]+>", "", text)  # HTML in Javadoc
    text = re.sub(r":[a-z]+(?::[a-z]+)?:(?=`)", "", text)  # Sphinx roles
    text = text.replace("`", "")
    return " ".join(text.split())


def comment_lines(text: str) -> list[str]:
    """The lines of one comment without its markers (``//``, ``///``, ``/** */``, ``*``)."""
    if text.startswith("/*"):
        body = text[2:]
        body = body[:-2] if body.endswith("*/") else body
        body = body.lstrip("*!")
        lines = body.split("\n")
        return [re.sub(r"^\s*\*+ ?", "", line) for line in lines]
    return [re.sub(r"^\s*//[/!]? ?", "", line) for line in text.rstrip("\n").split("\n")]


def _is_doc(language: str, text: str) -> bool:
    """True for a comment that documents (Rust: ``///`` or ``/**``; Java, JavaScript and
    TypeScript: ``/**``; Go and C: any comment); never a licence header."""
    lowered = text.lower()
    if "copyright" in lowered or "license" in lowered or "licence" in lowered:
        return False
    if language == "rust":
        return text.startswith(("///", "/**")) and not text.startswith(("////", "/***"))
    if language in ("java", "javascript", "typescript"):
        return text.startswith("/**")
    return True


def _name(node: Any, data: bytes) -> str:
    """The function's name, or ``?``."""
    if node.type in _BINDINGS:  # the bound name: ``app.set`` or ``f``
        inner = node.named_children[0]
        named = inner.child_by_field_name("left") or inner.child_by_field_name("name")
        return "?" if named is None else data[named.start_byte : named.end_byte].decode()
    named = node.child_by_field_name("name")
    if named is None:  # C: declarator chain down to the identifier
        declarator = node.child_by_field_name("declarator")
        while declarator is not None and declarator.type not in ("identifier", "field_identifier"):
            declarator = declarator.child_by_field_name("declarator")
        named = declarator
    return "?" if named is None else data[named.start_byte : named.end_byte].decode()


def python_candidates(root: Any, data: bytes) -> Iterator[Candidate]:
    """Functions whose body opens with a docstring and holds more than it."""
    for node in walk(root):
        if node.type != "function_definition":
            continue
        body = node.child_by_field_name("body")
        statements = [] if body is None else body.named_children
        statements = [s for s in statements if s.type != "comment"]
        if len(statements) < 2 or statements[0].type != "expression_statement":
            continue
        strings = statements[0].named_children
        if len(strings) != 1 or strings[0].type != "string":
            continue
        doc = statements[0]
        if not _alone(data, doc.start_byte, doc.end_byte):
            continue
        literal = data[doc.start_byte : doc.end_byte].decode()
        literal = re.sub(r"^[rRuUbBfF]*", "", literal)
        quote = literal[:3] if literal[:3] in ('"""', "'''") else literal[:1]
        inner = literal[len(quote) : len(literal) - len(quote)]
        query = clean(inspect.cleandoc(inner).split("\n"))
        outer = (
            node.parent
            if node.parent is not None and node.parent.type == "decorated_definition"
            else node
        )
        remove = (_line_start(data, doc.start_byte), _line_end(data, doc.end_byte))
        yield Candidate(remove, (outer.start_byte, node.end_byte), _name(node, data), query)


#: JavaScript and TypeScript statements that bind a function to a name
#: (``app.set = function set() {}``, ``const f = (x) => x``) and what they may bind.
_BINDINGS = frozenset({"expression_statement", "lexical_declaration", "variable_declaration"})
_FUNCTION_VALUES = frozenset({"function_expression", "arrow_function", "function"})


def _bound_function(language: str, node: Any) -> bool:
    """True for a JavaScript or TypeScript statement that binds one function to a name."""
    if language not in ("javascript", "typescript") or node.type not in _BINDINGS:
        return False
    if len(node.named_children) != 1:
        return False
    inner = node.named_children[0]  # assignment_expression or variable_declarator
    value = inner.child_by_field_name("right") or inner.child_by_field_name("value")
    return value is not None and value.type in _FUNCTION_VALUES


def comment_candidates(language: str, root: Any, data: bytes) -> Iterator[Candidate]:
    """Functions with a doc comment on the lines just above them (or above their export)."""
    _, _, functions, comments = GRAMMARS[language]
    for node in walk(root):
        if node.type not in functions and not _bound_function(language, node):
            continue
        anchor = node.parent if node.parent is not None and node.parent.type in _WRAPPERS else node
        first = anchor
        previous = anchor.prev_sibling
        while previous is not None and previous.type in _BETWEEN:
            first = previous
            previous = previous.prev_sibling
        docs: list[Any] = []
        below = first
        while previous is not None and previous.type in comments:
            gap = data[previous.end_byte : below.start_byte]
            breaks = gap.count(b"\n") + (data[previous.end_byte - 1 : previous.end_byte] == b"\n")
            if gap.strip() or breaks > 1:  # a blank line parts a comment from the code
                break
            docs.insert(0, previous)
            below = previous
            previous = previous.prev_sibling
        if not docs:
            continue
        texts = [data[d.start_byte : d.end_byte].decode() for d in docs]
        if not all(_is_doc(language, t) for t in texts):
            continue
        if not _alone(data, docs[0].start_byte, docs[-1].end_byte):
            continue
        lines = [line for t in texts for line in comment_lines(t)]
        query = clean(lines)
        remove = (_line_start(data, docs[0].start_byte), _line_end(data, docs[-1].end_byte))
        yield Candidate(remove, (first.start_byte, anchor.end_byte), _name(node, data), query)


def candidates(language: str, data: bytes) -> list[Candidate]:
    """Every documented function of a file whose doc has at least :data:`MIN_WORDS` words."""
    root = parser(language).parse(data).root_node
    found = (
        python_candidates(root, data)
        if language == "python"
        else (comment_candidates(language, root, data))
    )
    out = []
    for c in found:
        # the doc lies above the definition (comments) or inside it (docstrings)
        if len(c.query.split()) >= MIN_WORDS and (
            c.gold[0] >= c.remove[1] or c.remove[0] > c.gold[0]
        ):
            out.append(c)
    return out


def edit(data: bytes, chosen: list[Candidate]) -> tuple[str, list[tuple[int, int]]]:
    """The file with every chosen doc deleted, and each gold span in code points of it."""
    cuts = sorted({c.remove for c in chosen})
    kept: list[bytes] = []
    at = 0
    for start, end in cuts:
        kept.append(data[at:start])
        at = end
    kept.append(data[at:])
    edited = b"".join(kept)

    def moved(offset: int) -> int:
        return offset - sum(min(end, offset) - start for start, end in cuts if start < offset)

    spans = []
    for c in chosen:
        start, end = moved(c.gold[0]), moved(c.gold[1])
        spans.append((len(edited[:start].decode()), len(edited[:end].decode())))
    return edited.decode(), spans


# --------------------------------------------------------------------------- the set


def doc_id(source: Source, path: str) -> str:
    """A slug naming the page: package, then its path inside the archive."""
    tail = re.sub(r"^(\./)?(package/|[^/]+-[0-9][^/]*/)?", "", path)
    tail = tail.replace("usr/share/gocode/src/", "").replace("usr/share/cargo/registry/", "")
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", f"{source.name}--{tail}")


def build(out: Path, cache: Path, per_language: int, per_file: int, seed: int) -> dict[str, Any]:
    """Fetch, pick questions, write the corpora; return the manifest of the downloads."""
    manifest: dict[str, Any] = {}
    files: dict[str, list[tuple[Source, str, bytes, list[Candidate]]]] = {}
    for source in SOURCES:
        archive = download(source, cache)
        manifest[f"{source.kind}:{source.name}=={source.version}"] = {
            "file": archive.name,
            "sha256": sha256(archive),
            "bytes": archive.stat().st_size,
        }
        for path, data in members(source, archive, cache):
            language = SUFFIX.get(Path(path).suffix)
            if language != source.language or not MIN_FILE_BYTES <= len(data) <= MAX_FILE_CHARS:
                continue
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                continue
            found = candidates(language, data)
            if found:
                files.setdefault(language, []).append((source, path, data, found))
    if out.exists():
        shutil.rmtree(out)
    for language, entries in files.items():
        rng = random.Random(f"{seed}:{language}")
        seen_queries: dict[str, int] = {}
        for _, _, _, found in entries:
            for c in found:
                seen_queries[c.query] = seen_queries.get(c.query, 0) + 1
        # the files with the most documented functions per byte first (the dense retriever
        # embeds every chunk of every strategy: questions per byte is what a run costs),
        # in a seeded order among equals
        order = list(entries)
        rng.shuffle(order)
        order.sort(
            key=lambda e: -min(per_file, sum(seen_queries[c.query] == 1 for c in e[3])) / len(e[2])
        )
        pages = out / language / "pages"
        pages.mkdir(parents=True)
        queries: list[dict[str, Any]] = []
        listing: list[dict[str, Any]] = []
        written = 0
        for source, path, data, found in order:
            if len(queries) >= per_language or written >= MAX_LANGUAGE_BYTES:
                break
            unique = [c for c in found if seen_queries[c.query] == 1]
            rng.shuffle(unique)
            chosen = sorted(
                unique[: min(per_file, per_language - len(queries))], key=lambda c: c.gold
            )
            if not chosen:
                continue
            text, spans = edit(data, chosen)
            if written and written + len(text.encode()) > MAX_LANGUAGE_BYTES:
                continue  # a smaller file may still fit
            name = doc_id(source, path)
            (pages / f"{name}.txt").write_text(text, encoding="utf-8", newline="")
            written += len(text.encode())
            listing.append(
                {
                    "doc": name,
                    "language": language,
                    "suffix": Path(path).suffix,
                    "package": f"{source.name} {source.version}",
                    "path": path,
                    "questions": len(chosen),
                }
            )
            for c, (start, end) in zip(chosen, spans, strict=True):
                queries.append(
                    {
                        "id": f"{language}-{len(queries):04d}",
                        "class": language,
                        "question": c.query,
                        "gold": [{"doc": name, "start": start, "end": end}],
                        "symbol": c.symbol,
                    }
                )
        with (out / language / "queries.jsonl").open("w", encoding="utf-8") as handle:
            for q in queries:
                handle.write(json.dumps(q, ensure_ascii=False) + "\n")
        with (out / language / "files.jsonl").open("w", encoding="utf-8") as handle:
            for f in sorted(listing, key=lambda f: f["doc"]):
                handle.write(json.dumps(f, ensure_ascii=False) + "\n")
    return manifest


def main() -> int:
    parser_ = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser_.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser_.add_argument(
        "--cache", type=Path, help="downloads (default OUT/../code-search-downloads)"
    )
    parser_.add_argument("--per-language", type=int, default=70)
    parser_.add_argument("--per-file", type=int, default=20)
    parser_.add_argument("--seed", type=int, default=0)
    parser_.add_argument("--update-manifest", action="store_true")
    args = parser_.parse_args()
    cache = args.cache or args.out.parent / "code-search-downloads"
    manifest = build(args.out, cache, args.per_language, args.per_file, args.seed)
    if args.update_manifest or not MANIFEST.exists():
        MANIFEST.parent.mkdir(parents=True, exist_ok=True)
        MANIFEST.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    else:
        recorded = json.loads(MANIFEST.read_text())
        for key, entry in manifest.items():
            if key in recorded and recorded[key]["sha256"] != entry["sha256"]:
                raise SystemExit(f"{key}: SHA-256 differs from {MANIFEST} (--update-manifest)")
    for language in sorted(p.name for p in args.out.iterdir() if p.is_dir()):
        lines = (args.out / language / "queries.jsonl").read_text().splitlines()
        pages = list((args.out / language / "pages").iterdir())
        size = sum(p.stat().st_size for p in pages)
        print(f"{language:<11} {len(lines):>4} questions {len(pages):>4} files {size:>9,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
