"""benchmarks/code_corpus.py's questions: the doc is the query, it leaves the indexed file,
and the gold span is the whole definition in the edited file (EVAL-20, EVAL-39)."""

from __future__ import annotations

import pytest

pytest.importorskip("tree_sitter_python")
pytest.importorskip("tree_sitter_go")
pytest.importorskip("tree_sitter_rust")
pytest.importorskip("tree_sitter_java")
pytest.importorskip("tree_sitter_javascript")
pytest.importorskip("tree_sitter_typescript")
pytest.importorskip("tree_sitter_c")

from benchmarks.code_corpus import candidates, clean, comment_lines, edit

SOURCES = {
    "python": (
        "import os\n\n\nclass Ünïcode:\n    @staticmethod\n    def größe(x):\n"
        '        """Return the size of the thing in bytes, rounded up to pages.\n\n'
        '        More words that are not the first paragraph.\n        """\n'
        "        return os.path.getsize(x)\n",
        "größe",
        "@staticmethod\n    def größe(x):\n        return os.path.getsize(x)",
        "Return the size of the thing in bytes, rounded up to pages.",
    ),
    "go": (
        "package x\n\n// Größe returns the size of the named file in bytes, or an error.\n"
        "// It follows links.\nfunc Größe(name string) (int64, error) {\n\treturn 0, nil\n}\n",
        "Größe",
        "func Größe(name string) (int64, error) {\n\treturn 0, nil\n}",
        "Größe returns the size of the named file in bytes, or an error. It follows links.",
    ),
    "rust": (
        "/// Writes an unsigned 16 bit integer to `self` in big-endian byte order.\n"
        "///\n/// # Examples\n/// ```\n/// let x = 1;\n/// ```\n#[inline]\n"
        "pub fn put_u16(&mut self, n: u16) {\n    self.put_slice(&n.to_be_bytes())\n}\n",
        "put_u16",
        "#[inline]\npub fn put_u16(&mut self, n: u16) {\n    self.put_slice(&n.to_be_bytes())\n}",
        "Writes an unsigned 16 bit integer to self in big-endian byte order.",
    ),
    "java": (
        "class A {\n    /**\n"
        "     * Returns {@code true} if the argument is {@code null} and false\n"
        "     * otherwise.\n     *\n     * @param obj a reference\n     */\n"
        "    public static boolean isNull(Object obj) {\n        return obj == null;\n    }\n}\n",
        "isNull",
        "public static boolean isNull(Object obj) {\n        return obj == null;\n    }",
        "Returns true if the argument is null and false otherwise.",
    ),
    "javascript": (
        "/**\n * Helper function for creating a getter on an object by its name.\n *\n"
        " * @param {Object} obj\n */\nfunction defineGetter(obj, name) {\n  return obj[name];\n}\n"
        "\n/**\n * Return the value of the setting named by the caller, if any.\n */\n"
        "app.get = function get(setting) {\n  return this.settings[setting];\n};\n",
        "defineGetter",
        "function defineGetter(obj, name) {\n  return obj[name];\n}",
        "Helper function for creating a getter on an object by its name.",
    ),
    "typescript": (
        "/**\n * Emits the values emitted by the source Observable until a notifier emits.\n"
        " */\nexport function takeUntil<T>(notifier: unknown): T {\n  return notifier as T;\n}\n",
        "takeUntil",
        "export function takeUntil<T>(notifier: unknown): T {\n  return notifier as T;\n}",
        "Emits the values emitted by the source Observable until a notifier emits.",
    ),
    "c": (
        "/* Copyright 2013 Google Inc. All Rights Reserved. */\n\n#include <x.h>\n\n"
        "/* Decodes a number in the range [9..24], by reading 1 - 7 bits.\n"
        "   Precondition: bit-reader accumulator has at least 8 bits. */\n"
        "static int DecodeVarLenUint8(int x) {\n  return x + 1;\n}\n",
        "DecodeVarLenUint8",
        "static int DecodeVarLenUint8(int x) {\n  return x + 1;\n}",
        "Decodes a number in the range [9..24], by reading 1 - 7 bits. Precondition: "
        "bit-reader accumulator has at least 8 bits.",
    ),
}


@pytest.mark.parametrize("language", sorted(SOURCES))
def test_the_doc_is_the_question_and_leaves_the_file(language: str) -> None:
    source, symbol, gold, query = SOURCES[language]
    found = [c for c in candidates(language, source.encode()) if c.symbol == symbol]
    assert [c.query for c in found] == [query]
    text, spans = edit(source.encode(), found)
    ((start, end),) = spans
    assert text[start:end] == gold  # code points of the edited file, non-ASCII included
    assert query.split()[2] not in text.replace(gold, "")  # the doc's words are gone
    assert len(text) < len(source)


def test_every_question_on_a_file_removes_its_doc_from_one_copy() -> None:
    source = SOURCES["javascript"][0]
    found = candidates("javascript", source.encode())
    assert [c.symbol for c in found] == ["defineGetter", "app.get"]
    text, spans = edit(source.encode(), found)
    assert "/**" not in text
    assert [text[s:e].split("(")[0] for s, e in spans] == [
        "function defineGetter",
        "app.get = function get",
    ]


def test_a_licence_header_or_a_short_doc_is_no_question() -> None:
    short = "package x\n\n// Size of it.\nfunc Size() int {\n\treturn 0\n}\n"
    assert candidates("go", short.encode()) == []
    header = (
        "/* Copyright 2020 someone, distributed under the MIT license terms. */\n"
        "int f(void) {\n  return 0;\n}\n"
    )
    assert candidates("c", header.encode()) == []


def test_comment_markers_and_tags_are_cleaned() -> None:
    lines = comment_lines(
        "/**\n * Returns the {@link Foo} for [`Bar`](x) and `baz`.\n * @return x\n */"
    )
    assert clean(lines) == "Returns the Foo for Bar and baz."
    assert clean(comment_lines("/// Sphinx :func:`role` in a doc comment.")) == (
        "Sphinx role in a doc comment."
    )
