"""The languages the ``code`` strategy parses, and how a file's language is known (CODE-1).

One row a language: its name (what ``language=`` and ``--language`` take), the file name
suffixes and shebang interpreters that select it, the tree-sitter grammar wheel that parses
it (the ``code`` extra installs every one; no grammar is ever downloaded), and the node
types that are *definitions*: the scopes of CODE-7's ``heading_path``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "LANGUAGES",
    "SUFFIX_LANGUAGE",
    "Language",
    "language_for",
    "shebang_language",
]


@dataclass(frozen=True, slots=True)
class Language:
    """One language (CODE-1): ``module`` and ``function`` name the grammar wheel's module and
    the function returning its grammar; ``definitions`` are the node types that open a scope
    (CODE-7); ``wrappers`` are node types that hold one definition and what documents it
    (a Python decorated definition, a TypeScript export), so the scope is the inner one with
    the wrapper's span."""

    name: str
    suffixes: tuple[str, ...]
    interpreters: tuple[str, ...]
    module: str
    function: str
    definitions: frozenset[str]
    wrappers: frozenset[str] = frozenset()


_JS_DEFINITIONS = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "class_declaration",
        "method_definition",
    }
)
_TS_DEFINITIONS = _JS_DEFINITIONS | {
    "abstract_class_declaration",
    "interface_declaration",
    "enum_declaration",
    "internal_module",
    "module",
}
_C_DEFINITIONS = frozenset({"function_definition", "struct_specifier", "enum_specifier"})

#: CODE-1: the languages, in the order the docs list them.
LANGUAGES: dict[str, Language] = {
    entry.name: entry
    for entry in (
        Language(
            "python",
            (".py", ".pyi", ".pyw"),
            ("python", "python2", "python3", "pypy", "pypy3"),
            "tree_sitter_python",
            "language",
            frozenset({"function_definition", "class_definition"}),
            frozenset({"decorated_definition"}),
        ),
        Language(
            "javascript",
            (".js", ".mjs", ".cjs", ".jsx"),
            ("node", "nodejs", "deno", "bun"),
            "tree_sitter_javascript",
            "language",
            _JS_DEFINITIONS,
            frozenset({"export_statement"}),
        ),
        Language(
            "typescript",
            (".ts", ".mts", ".cts"),
            ("ts-node", "tsx"),
            "tree_sitter_typescript",
            "language_typescript",
            _TS_DEFINITIONS,
            frozenset({"export_statement"}),
        ),
        Language(
            "tsx",
            (".tsx",),
            (),
            "tree_sitter_typescript",
            "language_tsx",
            _TS_DEFINITIONS,
            frozenset({"export_statement"}),
        ),
        Language(
            "go",
            (".go",),
            (),
            "tree_sitter_go",
            "language",
            frozenset({"function_declaration", "method_declaration", "type_declaration"}),
        ),
        Language(
            "rust",
            (".rs",),
            (),
            "tree_sitter_rust",
            "language",
            frozenset(
                {
                    "function_item",
                    "impl_item",
                    "struct_item",
                    "enum_item",
                    "trait_item",
                    "mod_item",
                    "union_item",
                }
            ),
        ),
        Language(
            "java",
            (".java",),
            (),
            "tree_sitter_java",
            "language",
            frozenset(
                {
                    "class_declaration",
                    "interface_declaration",
                    "enum_declaration",
                    "record_declaration",
                    "annotation_type_declaration",
                    "method_declaration",
                    "constructor_declaration",
                }
            ),
        ),
        Language("c", (".c", ".h"), (), "tree_sitter_c", "language", _C_DEFINITIONS),
        Language(
            "cpp",
            (".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++", ".ipp"),
            (),
            "tree_sitter_cpp",
            "language",
            _C_DEFINITIONS | {"class_specifier", "namespace_definition"},
            frozenset({"template_declaration"}),
        ),
    )
}

#: CODE-1: a file name's suffix (lower case) -> its language.
SUFFIX_LANGUAGE: dict[str, str] = {
    suffix: entry.name for entry in LANGUAGES.values() for suffix in entry.suffixes
}

_INTERPRETER_LANGUAGE: dict[str, str] = {
    name: entry.name for entry in LANGUAGES.values() for name in entry.interpreters
}

#: CODE-1: ``#!/path/to/interp`` or ``#!/usr/bin/env [-S] interp``, the interpreter's
#: file name taken with any version digits after it (``python3.12``).
_SHEBANG = re.compile(rb"#![ \t]*(\S+)(?:[ \t]+(?:-\S+[ \t]+)*(\S+))?")
_VERSION = re.compile(r"[\d.]+$")


def shebang_language(head: bytes) -> str | None:
    """CODE-1: the language of a file whose first line is a shebang naming a known
    interpreter (``#!/usr/bin/env python3``, ``#!/usr/bin/node``), else None."""
    match = _SHEBANG.match(head)
    if match is None:
        return None
    program = match.group(1).rsplit(b"/", 1)[-1]
    if program == b"env" and match.group(2) is not None:
        program = match.group(2).rsplit(b"/", 1)[-1]
    name = program.decode("ascii", "replace")
    return _INTERPRETER_LANGUAGE.get(name) or _INTERPRETER_LANGUAGE.get(_VERSION.sub("", name))


def language_for(name: str) -> str | None:
    """CODE-1: the language of a file called ``name`` by its suffix (any case), else None."""
    dot = name.rfind(".")
    if dot <= max(name.rfind("/"), name.rfind("\\")):
        return None
    return SUFFIX_LANGUAGE.get(name[dot:].lower())
