"""Real source code for the code benchmarks: pinned packages from PyPI, npm and Debian,
downloaded once into a cache folder and read from there (offline) on every later run.

Nothing here is written by this project: every file is a released package's own source.
The archives are pinned by name and SHA-256 (npm checks its own integrity field); a run
without network uses the cache, and a source neither cached nor downloadable is said (with
the command that fetches it) and left out, never faked.

The cache is ``$CHUNKSPEC_BENCH_CACHE/code`` (default ``~/.cache/chunkspec-bench/code``):
``archives/`` holds the downloads, ``trees/NAME/`` each one unpacked.

Clients: PyPI through its simple index (PEP 691 JSON, the protocol pip uses; ``pip download
--no-binary :all:`` is not used: it builds each sdist's metadata, and here it failed
installing the build dependencies), npm through ``npm pack``, Debian through ``apt-get
download`` (run ``apt-get update`` once first).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "SOURCES",
    "CodeSet",
    "Source",
    "cache_root",
    "code_sets",
    "ensure",
    "ready_trees",
]


@dataclass(frozen=True)
class Source:
    """One pinned archive: where it comes from, its file and SHA-256, and its licence."""

    name: str  # the tree's folder name
    registry: str  # "pypi", "npm" or "debian"
    package: str
    version: str
    filename: str
    sha256: str
    licence: str


SOURCES: tuple[Source, ...] = (
    Source(
        "requests",
        "pypi",
        "requests",
        "2.34.2",
        "requests-2.34.2.tar.gz",
        "f288924cae4e29463698d6d60bc6a4da69c89185ad1e0bcc4104f584e960b9ed",
        "Apache-2.0",
    ),
    Source(
        "pydantic-core",
        "pypi",
        "pydantic-core",
        "2.50.5",
        "pydantic_core-2.50.5.tar.gz",
        "1e740886083ff95530d694e6a3f09ed914bcf92a496d16acd307c6c3484fc36d",
        "MIT",
    ),
    Source(
        "orjson",
        "pypi",
        "orjson",
        "3.13.0",
        "orjson-3.13.0.tar.gz",
        "d1de5eb04485110c5da4c657e49168995d55e076b1ce60f1a042e254f4186c4f",
        "MPL-2.0 AND (Apache-2.0 OR MIT); vendored crates: their own",
    ),
    Source(
        "numpy",
        "pypi",
        "numpy",
        "2.5.5",
        "numpy-2.5.5.tar.gz",
        "5cddc243c75114ba845f01b1f87aca1572dbf7b6c2d88636ed3e1d2bccd7f1bf",
        "BSD-3-Clause AND 0BSD AND MIT AND Zlib AND CC0-1.0",
    ),
    Source(
        "yargy",
        "pypi",
        "yargy",
        "0.16.0",
        "yargy-0.16.0.tar.gz",
        "c917eefb32a40c23c46b6ca88d68927072dd00ab94e90fd5dc6ab0a62b59b593",
        "MIT",
    ),
    # Sources whose identifiers, strings and comments are largely Chinese or Cyrillic.
    Source(
        "pypinyin",
        "pypi",
        "pypinyin",
        "0.55.0",
        "pypinyin-0.55.0.tar.gz",
        "b5711b3a0c6f76e67408ec6b2e3c4987a3a806b7c528076e7c7b86fcf0eaa66b",
        "MIT",
    ),
    Source(
        "pypinyin-0.30",
        "pypi",
        "pypinyin",
        "0.30.0",
        "pypinyin-0.30.0.tar.gz",
        "fc7473c1782fffeeb8c3fd67bea704fbf8e8edd1a7d468bd209d07546c6a4eb9",
        "MIT",
    ),
    Source(
        "hanziconv",
        "pypi",
        "hanziconv",
        "0.3",
        "hanziconv-0.3.tar.gz",
        "c4998094a4194db0355b395d94edf53908bcabcd374d7bbf7c7bdec242e5679c",
        "Apache-2.0",
    ),
    Source(
        "zhon",
        "pypi",
        "zhon",
        "2.1.1",
        "zhon-2.1.1.tar.gz",
        "c8da424fad4aa698ddd3e1735515b49ff522c84dd1091e8fafd986ac7c6898f0",
        "MIT",
    ),
    Source(
        "pymorphy3",
        "pypi",
        "pymorphy3",
        "2.0.6",
        "pymorphy3-2.0.6.tar.gz",
        "1603df3bc9e116967c990607f5b97d42fb1c572d6839b851af3501e51d7f5493",
        "MIT",
    ),
    Source(
        "razdel",
        "pypi",
        "razdel",
        "0.5.0",
        "razdel-0.5.0.tar.gz",
        "4334c0fdfe34d4e888cf0ed854968c9df14f0a547df909a77f4634f9ffe626e6",
        "MIT",
    ),
    Source(
        "lodash",
        "npm",
        "lodash",
        "4.17.21",
        "lodash-4.17.21.tgz",
        "6a087ac9e5702a0c9d60fbcd48696012646ec8df1491dea472b150e79fcaf804",
        "MIT",
    ),
    Source(
        "rxjs",
        "npm",
        "rxjs",
        "7.8.1",
        "rxjs-7.8.1.tgz",
        "c532167725ab7d085123209156c93cef22f2479cb9c8527060f1cd903aa9d149",
        "Apache-2.0",
    ),
    Source(
        "x-text",
        "debian",
        "golang-golang-x-text-dev",
        "0.7.0-1",
        "golang-golang-x-text-dev_0.7.0-1_all.deb",
        "0d4e17e9caa2656bdc633b723645d4adafeda93189bd1d55fedf64ec38439f63",
        "BSD-3-Clause",
    ),
)


def cache_root() -> Path:
    """``$CHUNKSPEC_BENCH_CACHE/code``, default ``~/.cache/chunkspec-bench/code``."""
    base = os.environ.get("CHUNKSPEC_BENCH_CACHE") or str(Path.home() / ".cache/chunkspec-bench")
    return Path(base) / "code"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as data:
        for block in iter(lambda: data.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _download(source: Source, target: Path) -> None:
    """Fetch ``source``'s archive to ``target`` with its registry's client (raises on failure)."""
    with tempfile.TemporaryDirectory(dir=target.parent) as folder:
        scratch = Path(folder)
        if source.registry == "pypi":
            request = urllib.request.Request(
                f"https://pypi.org/simple/{source.package}/",
                headers={"Accept": "application/vnd.pypi.simple.v1+json"},
            )
            with urllib.request.urlopen(request, timeout=60) as answer:
                files = {f["filename"]: f for f in json.load(answer)["files"]}
            url = files[source.filename]["url"]
            urllib.request.urlretrieve(url, scratch / source.filename)
        elif source.registry == "npm":
            subprocess.run(
                ["npm", "pack", "--silent", f"{source.package}@{source.version}"],
                cwd=scratch,
                check=True,
                capture_output=True,
                timeout=300,
            )
        elif source.registry == "debian":
            subprocess.run(
                ["apt-get", "download", f"{source.package}={source.version}"],
                cwd=scratch,
                check=True,
                capture_output=True,
                timeout=300,
            )
        else:
            raise ValueError(f"unknown registry {source.registry!r}")
        got = scratch / source.filename
        found = _sha256(got)
        if found != source.sha256:
            raise ValueError(f"{source.filename}: SHA-256 {found}, pinned {source.sha256}")
        got.replace(target)


def _unpack(archive: Path, tree: Path) -> None:
    """Unpack a .tar.gz/.tgz or a .deb into ``tree`` (through a scratch folder)."""
    scratch = Path(tempfile.mkdtemp(dir=tree.parent, prefix=f".{tree.name}-"))
    try:
        if archive.suffix == ".deb":
            subprocess.run(["dpkg-deb", "-x", str(archive), str(scratch)], check=True)
        else:
            with tarfile.open(archive) as tar:
                tar.extractall(scratch, filter="data")
        scratch.replace(tree)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def ensure(offline: bool = False) -> tuple[dict[str, Path], list[str]]:
    """Each source's unpacked tree (downloaded and unpacked when missing, unless
    ``offline``), and a sentence for each source that could not be had."""
    root = cache_root()
    (root / "archives").mkdir(parents=True, exist_ok=True)
    (root / "trees").mkdir(parents=True, exist_ok=True)
    trees: dict[str, Path] = {}
    missing: list[str] = []
    for source in SOURCES:
        tree = root / "trees" / source.name
        if tree.is_dir():
            trees[source.name] = tree
            continue
        archive = root / "archives" / source.filename
        if not archive.is_file():
            if offline:
                missing.append(f"{source.name}: not cached ({archive}) and --offline")
                continue
            try:
                _download(source, archive)
            except Exception as error:  # no network, registry down, pin changed: said
                missing.append(
                    f"{source.name}: not cached ({archive}) and the download from "
                    f"{source.registry} failed ({type(error).__name__}: {str(error)[:120]})"
                )
                continue
        elif _sha256(archive) != source.sha256:
            missing.append(f"{source.name}: {archive} does not match its pinned SHA-256")
            continue
        _unpack(archive, tree)
        trees[source.name] = tree
    return trees, missing


def ready_trees() -> dict[str, Path]:
    """The sources already unpacked in the cache (no download)."""
    root = cache_root() / "trees"
    return {s.name: root / s.name for s in SOURCES if (root / s.name).is_dir()}


@dataclass(frozen=True)
class CodeSet:
    """A named list of real source files of one language (``language`` as chunkspec names
    it), with the sources they come from."""

    name: str
    language: str
    files: tuple[Path, ...]
    sources: tuple[str, ...]


def _text(path: Path) -> str | None:
    """The file's text if it is UTF-8, else None."""
    try:
        return path.read_bytes().decode("utf-8")
    except (UnicodeDecodeError, OSError):
        return None


def _non_ascii(text: str) -> float:
    return sum(not c.isascii() for c in text) / max(len(text), 1)


#: name -> (language, [(source, glob under the tree)], non-ASCII share a file must have)
SET_RULES: dict[str, tuple[str, list[tuple[str, str]], float]] = {
    "python": (
        "python",
        [
            ("requests", "*/src/requests/*.py"),
            ("pydantic-core", "*/python/**/*.py"),
            ("yargy", "*/yargy/**/*.py"),
            ("numpy", "*/numpy/**/*.py"),
        ],
        0.0,
    ),
    "python-non-ascii": (
        "python",
        [
            ("hanziconv", "**/*.py"),
            ("zhon", "**/*.py"),
            ("pypinyin", "**/*.py"),
            ("pypinyin-0.30", "*/pypinyin/*.py"),
            ("pymorphy3", "**/*.py"),
            ("razdel", "**/*.py"),
            ("yargy", "**/*.py"),
        ],
        0.03,
    ),
    "c": ("c", [("numpy", "*/numpy/_core/src/**/*.c")], 0.0),
    "cpp": ("cpp", [("numpy", "*/numpy/**/*.cpp")], 0.0),
    "rust": (
        "rust",
        [("orjson", "*/src/**/*.rs"), ("pydantic-core", "*/src/**/*.rs")],
        0.0,
    ),
    "go": ("go", [("x-text", "usr/share/gocode/src/golang.org/x/text/**/*.go")], 0.0),
    "javascript": ("javascript", [("lodash", "package/*.js")], 0.0),
    "typescript": ("typescript", [("rxjs", "package/src/**/*.ts")], 0.0),
}

#: The largest single files of the sources, one set (real files of 0.5 to 3.3 MB; the
#: Python ones are dicts of Chinese phrases and characters with their pinyin).
LARGE = (
    ("pypinyin-0.30", "*/pypinyin/phrases_dict.py", "python"),
    ("pypinyin-0.30", "*/pypinyin/pinyin_dict.py", "python"),
    ("x-text", "usr/share/gocode/src/golang.org/x/text/language/display/tables.go", "go"),
    ("lodash", "package/lodash.js", "javascript"),
)


def code_sets(trees: dict[str, Path], cap: int, largest: int = 400_000) -> list[CodeSet]:
    """The sets of :data:`SET_RULES` from the trees there are: each set's files in sorted
    order, round-robin over its sources, UTF-8 only, files over ``largest`` bytes left out
    (they are the ``large`` set's), until ``cap`` bytes; then the ``large`` set."""
    sets: list[CodeSet] = []
    for name, (language, rules, share) in SET_RULES.items():
        queues: list[list[Path]] = []
        used: list[str] = []
        for source, pattern in rules:
            if source not in trees:
                continue
            found = sorted(
                p
                for p in trees[source].glob(pattern)
                if p.is_file() and not p.name.endswith(".d.ts") and p.stat().st_size <= largest
            )
            queue = []
            for path in found:
                text = _text(path)
                if text is None or not text.strip():
                    continue
                if share and _non_ascii(text) < share:
                    continue
                queue.append(path)
            if queue:
                queues.append(queue)
                used.append(source)
        files: list[Path] = []
        total = 0
        while queues and total < cap:
            for queue in list(queues):
                if not queue:
                    queues.remove(queue)
                    continue
                path = queue.pop(0)
                if path in files:
                    continue
                files.append(path)
                total += path.stat().st_size
                if total >= cap:
                    break
        if files:
            sets.append(CodeSet(name, language, tuple(files), tuple(used)))
    large = []
    languages = []
    for source, pattern, language in LARGE:
        if source in trees:
            for path in sorted(trees[source].glob(pattern)):
                large.append(path)
                languages.append(language)
    if large:
        sets.append(CodeSet("large", "mixed", tuple(large), tuple(s for s, _, _ in LARGE)))
    return sets
