"""The one CI gate: plain ``nox`` runs tests, properties, typecheck, lint, conformance,
docs (the site built with --strict, about 30 s) and ray (about 2 min).

tests, properties and typecheck run in ONE environment, built (or brought up to date) once a
run by the ``env`` session they require. Properties run under the Hypothesis ``ci`` profile
(1,000 examples a property) when the environment variable CI is set, as CI services and
.ci/run set it, and under ``dev`` (100) otherwise; HYPOTHESIS_PROFILE, when set, wins.

Dependency groups and the package's extras are read from pyproject.toml, so the versions
live in one place. ``nox -s bench`` runs the benchmarks on demand (never in the gate);
so do ``nox -s mutation`` and ``nox -s fuzz`` (slow: docs/verification.md).
"""

from __future__ import annotations

import os
import shlex
import shutil
from pathlib import Path

import nox

nox.needs_version = ">=2025.2.9"
nox.options.default_venv_backend = "uv|virtualenv"
nox.options.sessions = ["tests", "properties", "typecheck", "lint", "conformance", "docs", "ray"]
nox.options.reuse_venv = "yes"

PYPROJECT = nox.project.load_toml("pyproject.toml")

#: The optional extras the tests exercise (each builds its data in process, no downloads).
#: The framework adapters' extras add about 5 s to a warm install (7 s cold) and run offline.
EXTRAS = (
    "tiktoken,tokenizers,pdf,arrow,bm25,plot,langchain,llama-index,haystack,fast,segment,docx,code,"
    "stores"
)


def _install(session: nox.Session, *groups: str, extras: str = "") -> None:
    """Install the package (with ``extras``) and the named dependency groups."""
    target = f".[{extras}]" if extras else "."
    session.install(target, *nox.project.dependency_groups(PYPROJECT, *groups))


#: What ``env`` puts in the shared environment: the package with EXTRAS and these groups
#: (typecheck includes test).
SHARED_GROUPS = ("typecheck",)
#: The decorator of the sessions that run in ``env``'s environment instead of their own.
shared_session = nox.session(venv_backend="none", requires=["env"])


#: Where ``env`` built the shared environment, once it has run in this nox process.
_shared_location: list[Path] = []


@nox.session(default=False)
def env(session: nox.Session) -> None:
    """The one environment of tests, properties and typecheck (created by nox, reused)."""
    _install(session, *SHARED_GROUPS, extras=EXTRAS)
    _shared_location[:] = [session.env_dir]


def _shared(session: nox.Session, extra: dict[str, str]) -> dict[str, str]:
    """Environment variables that put ``env``'s environment first, plus ``extra``."""
    # with --no-dependencies env has not run: its environment is beside this session's
    location = (_shared_location or [session.env_dir.with_name("env")])[0].resolve()
    scripts = location / ("Scripts" if os.name == "nt" else "bin")
    if not scripts.is_dir():
        session.error(f"no shared environment at {location}: run with the env session")
    path = os.pathsep.join([str(scripts), os.environ.get("PATH", "")])
    return {"PATH": path, "VIRTUAL_ENV": str(location), **extra}


def _run_shared(session: nox.Session, program: str, *args: str, **extra: str) -> None:
    """Run ``program`` from ``env``'s environment, ``extra`` added to the environment."""
    variables = _shared(session, extra)
    program_path = shutil.which(program, path=variables["PATH"]) or program
    session.run(program_path, *args, env=variables, external=True)


def hypothesis_profile() -> str:
    """HYPOTHESIS_PROFILE if set; else ``ci`` when CI is set (not empty, 0 or false), else dev."""
    chosen = os.environ.get("HYPOTHESIS_PROFILE")
    if chosen:
        return chosen
    ci = os.environ.get("CI", "").strip().lower()
    return "dev" if ci in ("", "0", "false", "no") else "ci"


@shared_session
def tests(session: nox.Session) -> None:
    """Golden cases, unit tests and CLI tests."""
    # one worker per core: the conformance kit's broken-port runs and the CLI tests are
    # CPU-bound and independent
    _run_shared(session, "pytest", "tests", "--numprocesses=auto", *session.posargs)


@shared_session
def properties(session: nox.Session) -> None:
    """Hypothesis suites: the ``ci`` profile (1,000 examples a property) under CI, else dev."""
    profile = hypothesis_profile()
    session.log(f"Hypothesis profile {profile}")
    _run_shared(
        session,
        "pytest",
        "properties",
        "--numprocesses=auto",  # one worker per core: the CI profile is CPU-bound
        *session.posargs,
        HYPOTHESIS_PROFILE=profile,
    )


@shared_session
def typecheck(session: nox.Session) -> None:
    """mypy --strict (plus warn_unreachable) over src, tests, properties and this file."""
    _run_shared(session, "mypy", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff check, ruff format --check, and lint-imports: the layers of docs/design.md."""
    session.install(*nox.project.dependency_groups(PYPROJECT, "lint"))
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    # The contracts are in pyproject's [tool.importlinter]; grimp finds chunkspec on the path.
    session.run("lint-imports", env={"PYTHONPATH": "src"})


#: The pages ``nox -s docs -- --screenshot`` photographs: (site page, image under docs/images).
SCREENSHOTS = (
    ("index.html", "site-home.png"),
    ("reference/integrations.html", "site-api-integrations.png"),
)


@nox.session
def docs(session: nox.Session) -> None:
    """Build the documentation site (mkdocs.yml) with --strict: a broken link fails.

    ``nox -s docs -- --screenshot`` then photographs the home page and an API page with
    headless Chromium (when it is installed) into docs/images/.
    """
    session.install(*nox.project.dependency_groups(PYPROJECT, "docs"))
    session.run("mkdocs", "build", "--strict", env={"NO_MKDOCS_2_WARNING": "1"})
    if "--screenshot" in session.posargs:
        _screenshots(session)


def _screenshots(session: nox.Session) -> None:
    """Photograph SCREENSHOTS with headless Chromium, offline, at 1280x900."""
    import shutil
    import tempfile
    from pathlib import Path

    browser = next(
        (
            found
            for name in ("chromium", "chromium-browser", "google-chrome")
            if (found := shutil.which(name))
        ),
        None,
    )
    if browser is None:
        session.warn("no chromium on PATH: screenshots skipped")
        return
    for page, image in SCREENSHOTS:
        with tempfile.TemporaryDirectory() as profile:
            session.run(
                browser,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                f"--user-data-dir={profile}",
                "--hide-scrollbars",
                "--window-size=1280,900",
                f"--screenshot={Path('docs/images', image).resolve()}",
                Path("site", page).resolve().as_uri(),
                external=True,
            )


@nox.session
def conformance(session: nox.Session) -> None:
    """The TypeScript port: npm ci, both builds (dist/ shipped, dist-test/ with the faults)
    and the browser build, its node:test suite, its TypeDoc reference (dist-api, which
    ``docs`` copies into the site), then the kit against the shipped build (every vector
    and 5,000 distinct generated cases of every operation in each profile;
    docs/conformance.md)."""
    _install(session, "test", extras="conformance,code")
    with session.chdir("ports/typescript"):
        session.run("npm", "ci", "--no-audit", "--no-fund", external=True)
        session.run("npm", "run", "build", external=True)
        session.run("npm", "test", external=True)
        session.run("npm", "run", "docs", external=True)  # TypeDoc: dist-api, for nox -s docs
    session.run(
        "chunkspec",
        "conformance",
        "--cases",
        "5000",
        "--junit",
        f"{session.create_tmp()}/conformance-junit.xml",
        *session.posargs,
        "--",
        "node",
        "ports/typescript/dist/src/adapter.js",
    )


#: The benchmark scripts, by the name ``nox -s bench -- NAME ...`` selects them with.
BENCHMARKS = (
    "split",
    "markdown",
    "windows",
    "floors",
    "conformance",
    "eval",
    "pathological",
    "ingest",
    "scaling",
    "sizes",
    "scripts",
    "records",
    "incremental",
    "tables",
    "html",
    "code",
    "stores",
    "subword",
)


@nox.session
def ray(session: nox.Session) -> None:
    """The Ray engine (tests/arrow_ray/test_ray_engine.py, docs/scale.md): one Ray on 127.0.0.1, no
    dashboard, no usage stats; ~200 generated documents against the local engine, a worker
    killed mid-task, a 16 MiB document, a corrupt PDF. In the gate: 1 min 55 s here with a
    fresh venv (warm uv cache); then the stores applied on Ray (tests/arrow_ray/test_ray_stores.py,
    STORE-5, STORE-11)."""
    _install(session, "test", extras=EXTRAS + ",ray")
    session.run(
        "pytest",
        "tests/arrow_ray/test_ray_engine.py",
        "tests/arrow_ray/test_ray_stores.py",
        "-p",
        "no:unraisableexception",  # Ray's processes outlive the Popen objects that began them
        *session.posargs,
        # PYTHONDONTWRITEBYTECODE off: every Ray process would compile Ray from source, and
        # on a loaded 2-core machine the raylet's agents then miss its 30 s startup limit.
        env={
            "CHUNKSPEC_RAY_TESTS": "1",
            "RAY_USAGE_STATS_ENABLED": "0",
            "PYTHONDONTWRITEBYTECODE": "",
        },
    )


@nox.session
def spark(session: nox.Session) -> None:
    """docs/scale.md's Spark recipe (tests/arrow_ray/test_spark_recipe.py): mapInArrow over
    chunk_table on a local[2] Spark. Opt-in: pyspark is ~400 MB and needs Java 17+."""
    _install(session, "spark", extras=EXTRAS)
    session.run(
        "pytest",
        "tests/arrow_ray/test_spark_recipe.py",
        "-W",
        "ignore::FutureWarning",  # pyspark's own notices about pandas
        "-W",
        "ignore::DeprecationWarning",
        "-W",
        "ignore::ResourceWarning",
        *session.posargs,
        env={
            "CHUNKSPEC_SPARK_TESTS": "1",
            "SPARK_LOCAL_IP": "127.0.0.1",
            "PYSPARK_PYTHON": session.bin + "/python",  # workers use this venv
            "PYTHONPATH": ".",  # workers unpickle the recipe's function from tests/
            "PYTHONDONTWRITEBYTECODE": "",
        },
    )


@nox.session
def bench(session: nox.Session) -> None:
    """Throughput and scaling benchmarks beside the peers (prints ratios; never gates).

    ``nox -s bench`` runs every script; ``nox -s bench -- split windows`` runs those only;
    options go to each chosen script (``nox -s bench -- markdown --big``).
    """
    _install(
        session,
        "bench",
        # stores, langchain: bench_stores.py's four stores and LangChain's index() beside them
        extras="conformance,bm25,arrow,pdf,fast,segment,tiktoken,tokenizers,docx,code,stores,"
        "langchain",
    )
    options = [arg for arg in session.posargs if arg.startswith("-")]
    names = [arg for arg in session.posargs if not arg.startswith("-")]
    chosen = names or [name for name in BENCHMARKS if _exists(name)]
    for name in chosen:
        if name not in BENCHMARKS:
            session.error(f"unknown benchmark {name!r}; choose from {', '.join(BENCHMARKS)}")
        session.run("python", f"benchmarks/bench_{name}.py", *options)


def _exists(name: str) -> bool:
    """True if ``benchmarks/bench_{name}.py`` is in this checkout."""
    from pathlib import Path

    return Path(f"benchmarks/bench_{name}.py").is_file()


@nox.session
def mutation(session: nox.Session) -> None:
    """mutmut over every module ([tool.mutmut] in pyproject); prints killed/survived per module.

    ``nox -s mutation`` runs all of it (slow: see docs/verification.md for the time; run it
    under ``nice``); ``nox -s mutation -- "chunkspec._chunkers._window*"`` runs the mutants
    whose names match; ``-- --recheck`` first forgets every survivor's verdict
    (tests/mutation_recheck.py) so new tests get their chance, keeping killed verdicts;
    ``MUTMUT_CHILDREN=2`` runs two workers. Tests: tests/ and properties/ under the derandomized
    ``mutation`` Hypothesis profile (40 examples per property); the TypeScript port is built
    first because the conformance kit's tests drive it. The address space is capped at 6 GiB so
    a mutant that loops while allocating dies with a MemoryError (a kill) instead of eating the
    machine.
    """
    _install(session, "mutation", extras=EXTRAS + ",conformance")
    with session.chdir("ports/typescript"):
        session.run("npm", "ci", "--no-audit", "--no-fund", external=True)
        session.run("npm", "run", "build", external=True)
    args = list(session.posargs)
    if "--recheck" in args:  # re-test every survivor against the current suite
        args.remove("--recheck")
        session.run("python", "tests/mutation_recheck.py")
    children = os.environ.get("MUTMUT_CHILDREN", "1")
    names = " ".join(shlex.quote(arg) for arg in args)
    session.run(
        "sh",
        "-c",
        f"ulimit -v 6000000 && mutmut run --max-children {children} {names}",
        env={"HYPOTHESIS_PROFILE": "mutation"},
        external=True,
    )
    session.run("python", "tests/mutation_report.py")


@nox.session
def fuzz(session: nox.Session) -> None:
    """The fuzz targets (properties/test_fuzz_*.py) for a time budget: ``-- --minutes 60``."""
    _install(session, "test", extras=EXTRAS)
    session.run("python", "-m", "properties.fuzz", *(session.posargs or ["--minutes", "15"]))


@nox.session(default=False)
def store_trials(session: nox.Session) -> None:
    """Kill-and-rerun trials on every store (STORE-5, docs/stores.md): each trial kills an
    apply (SIGKILL, with its children) at a random moment, runs it again and compares the
    store with a fresh full load. ``-- 100`` trials per store (default 25; the gate runs 2)."""
    _install(session, "test", extras="stores")
    trials = session.posargs[0] if session.posargs else "25"
    session.run(
        "pytest",
        "tests/stores/test_apply.py",
        "-k",
        "killed",
        "-s",
        "-p",
        "no:cacheprovider",
        env={"CHUNKSPEC_STORE_TRIALS": trials},
    )


#: The strategies of every table in docs/evaluation.md (the baselines are added by eval).
EVAL_STRATEGIES = (
    "fixed-512",
    "recursive-512",
    "structural",
    "heading-aware",
    "fixed-128",
    "window-128-32",
    "heading-aware-128-32",
    # EVAL-44: chunk_document's default min_tokens beside the seed chunks
    "structural+merge",
    "heading-aware+merge",
    "heading-aware-128-32+merge",
)

#: Chroma's evaluation set, where CI puts a copy beside the clone (docs/evaluation.md).
CHROMA = "../shared/data/chroma-chunking-evaluation"


@nox.session
def code_eval(session: nox.Session) -> None:
    """docs/evaluation.md's code-search tables (opt-in: downloads the set's packages once).

    ``nox -s code_eval`` builds the set into .cache/code-search/ (benchmarks/code_corpus.py:
    pip, npm and apt-get downloads, checked against benchmarks/data/code-search/MANIFEST.json)
    and writes docs/evaluation-code-{bm25,dense}.json; ``-- bm25`` runs one retriever.
    """
    _install(session, "bench", extras="bm25,embed,code")
    session.install("astchunk>=0.1")  # cAST's reference chunker, a peer row
    retrievers = session.posargs or ["bm25", "dense"]
    session.run("python", "-m", "benchmarks.code_corpus")
    cache = os.environ.get("CHUNKSPEC_EMBED_CACHE") or os.path.abspath(".nox/embeddings")
    for retriever in retrievers:
        session.run(
            "python",
            "-m",
            "benchmarks.code_eval",
            "--retriever",
            retriever,
            "--json",
            f"docs/evaluation-code-{retriever}.json",
            env={"CHUNKSPEC_EMBED_CACHE": cache, "PYTHONPATH": "."},
        )


@nox.session
def eval(session: nox.Session) -> None:
    """The tables of docs/evaluation.md (opt-in, slow: the whole corpora, both retrievers).

    ``nox -s eval`` writes docs/evaluation-{megamart,chroma}-{bm25,dense}.{json,png} and prints
    the tables; ``-- bm25`` runs one retriever. Chroma's set is skipped with a message when it
    is not at ../shared/data/ (see docs/evaluation.md for where to get it).
    """
    _install(session, extras="bm25,embed,plot")
    retrievers = session.posargs or ["bm25", "dense"]
    # EVAL-42: dense embeddings are kept between runs; a rerun embeds only new texts
    cache = os.environ.get("CHUNKSPEC_EMBED_CACHE") or os.path.abspath(".nox/embeddings")
    corpora: list[tuple[str, list[str]]] = [("megamart", [])]
    if os.path.isdir(CHROMA):
        corpora.append(("chroma", ["--chroma", CHROMA]))
    else:
        session.warn(f"skipping Chroma's set: {CHROMA} is not there (docs/evaluation.md)")
    for name, source in corpora:
        for retriever in retrievers:
            out = f"docs/evaluation-{name}-{retriever}"
            session.run(
                "chunkspec",
                "eval",
                *source,
                "--retriever",
                retriever,
                "--strategies",
                *EVAL_STRATEGIES,
                "--json",
                f"{out}.json",
                "--png",
                f"{out}.png",
                "--no-progress",
                env={"CHUNKSPEC_EMBED_CACHE": cache},
            )
