"""Generated ``chunk_code`` cases (CONF-10): real-looking programs, one input class a case.

A program is ONE integer draw and ONE byte-string draw. The integer picks the case's class,
its language (the nine of CODE-1, in turn), the budget, the counter and ``scope_prefix``;
each byte of the string picks a fragment of a program in that language: from the class's
own table when its low bit is set, else from the language's ordinary table (imports,
constants, documented functions, classes with methods, decorators and attributes, nested
definitions, trailing comments), the first fragment always the class's own, fragments
joined by a blank line or a line break (a byte's second bit). The classes, each drawn for
``1 / len(classes)`` of the cases (the portable profile draws the first four, the hazards
profile all seven; the least shares are stated in docs/conformance.md, CONF-13):

* a well-formed program (CODE-5..CODE-8, CODE-10);
* a syntax error (CODE-3, CODE-4: the tree is used, an error node opens into its lines);
* deep nesting: brackets and blocks nested 40 to 320 levels (CODE-3's depth limit);
* no language (CODE-3, CODE-4);
* (hazards) non-ASCII identifiers, strings and comments, astral ones among them (CODE-2,
  PORT-2; a label of more than 100 characters, CODE-7);
* (hazards) CRLF and CR line ends (CODE-4, CODE-5, CODE-11);
* (hazards) a lone surrogate in the text (HAZ-4: a ValueError naming ``text``).

Budgets: one case in two a small one (2 to 9 tokens: definitions split at their children),
else 10 to 200. One case in four uses the ``unicode`` counter, one in eight ``chars8``; one
in three sets ``scope_prefix``. About one case in eight has one argument drawn out of its
range from the kit's pools (CONF-10: lone surrogates and edge white space in strings,
PORT-1's integer bounds, ``-0.0``, booleans, non-finite numbers, other types), and a few a
``scope_prefix`` that is no bool or an unknown language or counter.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from .._pools import FAULT, OUT_OF_RANGE, PORTABLE_OUT_OF_RANGE, Field, replace_field

__all__ = ["CLASSES", "LANGUAGE_ORDER", "code_cases"]

#: CODE-1's languages, in draw order.
LANGUAGE_ORDER = ("python", "javascript", "typescript", "tsx", "go", "rust", "java", "c", "cpp")

_ORDINARY: dict[str, list[str]] = {
    "python": [
        "import os\nimport sys\nfrom typing import Any",
        "LIMIT = 10  # the most we keep",
        "# Add two numbers.\n# Used by the tests.\ndef add(a, b):\n    return a + b",
        'class Point:\n    """A point in the plane."""\n\n    def __init__(self, x, y):\n'
        "        self.x = x\n        self.y = y\n\n    def norm(self):\n"
        "        return (self.x ** 2 + self.y ** 2) ** 0.5",
        "@staticmethod\n@cache\ndef cached(key):\n    value = compute(key)\n    return value",
        "def outer(xs):\n    def inner(x):\n        return x * 2\n\n"
        "    total = 0\n    for x in xs:\n        total += inner(x)\n    return total",
        "if __name__ == '__main__':\n    main(sys.argv[1:])",
        "def long_one(a, b, c):\n    first = a + b\n    second = b + c\n    third = a * c\n"
        "    fourth = first - second\n    fifth = third / 2\n"
        "    return first, second, third, fourth, fifth",
    ],
    "javascript": [
        'import { readFile } from "node:fs";\nconst path = require("path");',
        "const LIMIT = 10; // the most we keep",
        "// Add two numbers.\nfunction add(a, b) {\n  return a + b;\n}",
        "class Point {\n  constructor(x, y) {\n    this.x = x;\n    this.y = y;\n  }\n\n"
        "  norm() {\n    return Math.hypot(this.x, this.y);\n  }\n}",
        "export function exported(x) {\n  return x * 2;\n}",
        "export default class Store {\n  get(key) { return this.map.get(key); }\n}",
        "function* counter() {\n  let i = 0;\n  while (true) yield i++;\n}",
        "const handler = async (req, res) => {\n  const body = await read(req);\n"
        "  res.end(body);\n};",
    ],
    "typescript": [
        'import type { Options } from "./options";',
        "export interface Shape {\n  area(): number;\n  name: string;\n}",
        "enum Color {\n  Red,\n  Green,\n}",
        "// A circle.\nexport class Circle implements Shape {\n"
        "  constructor(private r: number) {}\n\n"
        "  area(): number {\n    return Math.PI * this.r ** 2;\n  }\n  name = 'circle';\n}",
        "namespace Geometry {\n  export function scale(s: Shape, k: number): number {\n"
        "    return s.area() * k;\n  }\n}",
        "export function total(xs: number[]): number {\n  let t = 0;\n"
        "  for (const x of xs) t += x;\n  return t;\n}",
        "abstract class Base {\n  abstract run(): void;\n}",
        "type Pair<T> = [T, T];",
    ],
    "tsx": [
        'import React from "react";',
        "export function Button(props: { label: string }) {\n"
        "  return <button>{props.label}</button>;\n}",
        "// The list.\nfunction List({ items }: { items: string[] }) {\n  return (\n    <ul>\n"
        "      {items.map((i) => (\n        <li key={i}>{i}</li>\n      ))}\n    </ul>\n  );\n}",
        "export default class App extends React.Component {\n  render() {\n"
        "    return <div>app</div>;\n  }\n}",
        "interface Props {\n  title: string;\n}",
        "const Title = ({ title }: Props) => <h1>{title}</h1>;",
    ],
    "go": [
        'package main\n\nimport (\n\t"fmt"\n\t"os"\n)',
        "const limit = 10 // the most we keep",
        "// Add adds two numbers.\nfunc Add(a, b int) int {\n\treturn a + b\n}",
        "type Point struct {\n\tX, Y float64\n}",
        "func (p Point) Norm() float64 {\n\treturn p.X*p.X + p.Y*p.Y\n}",
        "type Shape interface {\n\tArea() float64\n}",
        "func main() {\n\tfor i := 0; i < 3; i++ {\n\t\tfmt.Println(i)\n\t}\n\tos.Exit(0)\n}",
        'var (\n\tname = "x"\n\tsize = 3\n)',
    ],
    "rust": [
        "use std::collections::HashMap;\nuse std::fmt;",
        "const LIMIT: usize = 10; // the most we keep",
        "/// Adds two numbers.\npub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}",
        "#[derive(Debug, Clone)]\npub struct Point {\n    x: f64,\n    y: f64,\n}",
        "impl Point {\n    pub fn norm(&self) -> f64 {\n"
        "        (self.x * self.x + self.y * self.y).sqrt()\n    }\n}",
        "impl fmt::Display for Point {\n"
        "    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {\n"
        '        write!(f, "({}, {})", self.x, self.y)\n    }\n}',
        "enum Shape {\n    Circle(f64),\n    Square(f64),\n}",
        "mod tests {\n    #[test]\n    fn it_adds() {\n        assert_eq!(super::add(1, 2), 3);\n"
        "    }\n}",
    ],
    "java": [
        "package org.example;\n\nimport java.util.List;\nimport java.util.Map;",
        "/** A point. */\npublic class Point {\n    private final double x;\n"
        "    private final double y;\n\n"
        "    public Point(double x, double y) {\n        this.x = x;\n        this.y = y;\n    }\n"
        "\n"
        '    @Override\n    public String toString() {\n        return x + "," + y;\n    }\n}',
        "interface Shape {\n    double area();\n}",
        "enum Color { RED, GREEN }",
        "record Pair(int a, int b) {}",
        "class Util {\n    // Add two numbers.\n    static int add(int a, int b) {\n"
        "        return a + b;\n    }\n}",
    ],
    "c": [
        "#include <stdio.h>\n#include <stdlib.h>",
        "#define LIMIT 10 /* the most we keep */",
        "/* Add two numbers. */\nint add(int a, int b) {\n    return a + b;\n}",
        "struct point {\n    double x;\n    double y;\n};",
        "enum color { RED, GREEN };",
        'static void usage(const char *name) {\n    fprintf(stderr, "usage: %s\\n", name);\n'
        "    exit(1);\n}",
        "int main(int argc, char **argv) {\n    for (int i = 0; i < argc; i++) {\n"
        '        printf("%s\\n", argv[i]);\n    }\n    return 0;\n}',
        "typedef struct node {\n    int value;\n    struct node *next;\n} node_t;",
    ],
    "cpp": [
        "#include <string>\n#include <vector>",
        "namespace geo {\nstruct Point {\n    double x, y;\n};\n}  // namespace geo",
        "// Add two numbers.\nint add(int a, int b) {\n    return a + b;\n}",
        "class Shape {\n public:\n    virtual ~Shape() = default;\n"
        "    virtual double area() const = 0;\n};",
        "template <typename T>\nT biggest(const std::vector<T>& xs) {\n    T best = xs[0];\n"
        "    for (const T& x : xs) if (x > best) best = x;\n    return best;\n}",
        "class Circle : public Shape {\n public:\n    explicit Circle(double r) : r_(r) {}\n"
        "    double area() const override { return 3.14159 * r_ * r_; }\n\n private:\n"
        "    double r_;\n};",
        "enum class Color { Red, Green };",
    ],
}

_ERRORS: dict[str, list[str]] = {
    "python": ["def broken(:\n    pass", "class (A:\n    x = 1", "return = ]"],
    "javascript": ["function (a {\n  return a;", "const = 3;", "if (x { y(); }"],
    "typescript": ["function f(a: ): number {\n  return a;\n}", "interface {", "let x: = 1;"],
    "tsx": ["function F() {\n  return <div>;\n}", "const x = <a></b>;"],
    "go": ["func (a int {\n}", "package\nfunc", "type struct {"],
    "rust": ["fn broken( -> i32 {\n    1\n}", "impl for {", "let = 3;"],
    "java": ["public class {\n    void f( {}\n}", "int x = ;"],
    "c": ["int f(int a {\n    return a;\n}", "struct { int x; ;", "int x = ;"],
    "cpp": ["class A {\n public\n    int f( {}\n};", "template <typename> T f(;"],
}

#: CODE-7: a label over 100 characters of astral ones (a port cutting it at 100 UTF-16 units
#: keeps only 50 of them).
_LONG = "\U0001f600" * 90

_NON_ASCII: dict[str, list[str]] = {
    "python": [
        'def café(naïve):\n    # ça va — très bien 😀\n    return "日本語 😀" + naïve',
        'class Ünïcode:\n    ñ = "\U0001d400\U0001d401"\n\n    def 计算(self):\n'
        "        return self.ñ",
        "def " + "\U0001d465" * 60 + "(a):\n    return a + 1 + 2 + 3",
    ],
    "javascript": [
        '// café — 😀\nfunction café(naïve) {\n  return "日本語 😀" + naïve;\n}',
        'const 名前 = "\U0001f600\U0001f600"; // 😀',
    ],
    "typescript": [
        "// ✓ 😀\nexport function größe(x: number): string {\n  return `größe ${x} 😀`;\n}",
        'class Ünïcode {\n  ñ = "\U0001d400";\n}',
    ],
    "tsx": ["export function Grüße() {\n  return <p>Grüße 😀 日本語</p>;\n}"],
    "go": [
        '// Größe: 😀\nfunc Größe(x int) string {\n\treturn "日本語 😀"\n}',
        "type Ünïcode struct {\n\tÑ string // ñ\n}",
    ],
    "rust": [
        '/// Größe 😀\nfn größe() -> &\'static str {\n    "日本語 😀"\n}',
        "struct Ünïcode {\n    ñ: String, // ñ 😀\n}",
        "impl /* " + _LONG + " */ Clone for P {\n    fn f() {}\n}",
    ],
    "java": [
        'class Größe {\n    // 😀\n    String café() {\n        return "日本語 😀";\n    }\n}',
    ],
    "c": [
        '/* café — 😀 */\nconst char *greet(void) {\n    return "日本語 😀";\n}',
        "int f(const char *s /* " + _LONG + " */) {\n    return 0;\n}",
    ],
    "cpp": [
        '// 😀 ünïcode\nstd::string greet() {\n    return "日本語 😀";\n}',
        "int f(const char *s /* " + _LONG + " */) {\n    return 0;\n}",
    ],
}


def _nested(language: str, depth: int) -> str:
    """A value or block nested ``depth`` levels, spaced so each level is its own words."""
    if language == "python":
        return "x = " + "[ " * depth + "1" + " ]" * depth
    if language in ("go",):
        return "func f() {\n" + "{ " * depth + "}" * depth + "\n}"
    if language in ("c", "cpp", "java"):
        body = "{ " * depth + "}" * depth
        return ("class N { void f() " + body + " }") if language == "java" else f"void f() {body}"
    if language == "rust":
        return "fn f() {\n    let x = " + "( " * depth + "1" + " )" * depth + ";\n}"
    return "const x = " + "[ " * depth + "1" + " ]" * depth + ";"


#: The input classes of the generator, in draw order (the class's own fragment table).
CLASSES: tuple[str, ...] = (
    "well-formed",
    "syntax error",
    "deep nesting",
    "no language",
    "non-ASCII",
    "CRLF and CR",
    "lone surrogate",
)
#: The portable profile's classes: the first four.
_PORTABLE = 4

#: CONF-10: the arguments drawn out of range (about one case in four, one argument, from the
#: kit's pools); ``scope_prefix`` and an unknown language or counter name besides.
_FIELDS: list[Field] = [
    (("text",), "text"),
    (("language",), "str"),
    (("max_tokens",), "int"),
    (("counter",), "str"),
]
_BAD: list[tuple[str, Any]] = [
    ("language", "cobol"),
    ("max_tokens", 0),
    ("scope_prefix", 1),
    ("scope_prefix", None),
    ("counter", "bogus"),
]


def _own(name: str, language: str) -> list[str]:
    """The class's own fragments in ``language``."""
    if name == "syntax error":
        return _ERRORS[language]
    if name == "non-ASCII":
        return _NON_ASCII[language]
    if name == "deep nesting":
        return [_nested(language, depth) for depth in (40, 120, 260, 320)]
    return _ORDINARY[language]


def code_cases(hazards: bool) -> dict[str, st.SearchStrategy[tuple[str, dict[str, Any]]]]:
    """``chunk_code``'s generated cases in the profile."""
    count = len(CLASSES) if hazards else _PORTABLE

    def build(args: tuple[int, bytes, int]) -> tuple[str, dict[str, Any]]:
        pick, raw, fault = args
        name = CLASSES[pick % count]
        rest = pick // count
        language = LANGUAGE_ORDER[rest % len(LANGUAGE_ORDER)]
        rest //= len(LANGUAGE_ORDER)
        own = _own(name, language)
        ordinary = _ORDINARY[language]
        parts = [own[raw[0] % len(own)] if raw else own[0]]
        joins: list[str] = []
        for byte in raw[1:]:
            table = own if byte & 1 else ordinary
            parts.append(table[(byte >> 2) % len(table)])
            joins.append("\n" if byte & 2 else "\n\n")
        text = parts[0]
        for join, part in zip(joins, parts[1:], strict=True):
            text += join + part
        text += "\n"
        if name == "CRLF and CR":
            text = text.replace("\n", "\r" if rest % 5 == 4 else "\r\n")
        if name == "lone surrogate":
            k = len(text) // 2
            text = text[:k] + ("\ud800", "\udc00")[rest % 2] + text[k:]
        small = rest % 2 == 0
        size = 2 + rest // 2 % 8 if small else 10 + rest // 2 % 191
        data: dict[str, Any] = {
            "text": text,
            "language": None if name == "no language" else language,
            "max_tokens": size,
        }
        counter = rest // 16 % 8
        if counter in (1, 5):
            data["counter"] = "unicode"
        elif counter == 3:
            data["counter"] = "chars8"
        if rest // 128 % 3 == 1:
            data["scope_prefix"] = True
        bad = rest // 384
        if bad % 16 == 15:
            key, value = _BAD[bad // 16 % len(_BAD)]
            data[key] = value
        # one argument out of its range, about one case in eight (CONF-10)
        if fault % 8 == 7:
            replace_field(
                data, fault // 2, _FIELDS, OUT_OF_RANGE if hazards else PORTABLE_OUT_OF_RANGE
            )
        return "chunk_code", data

    return {
        "chunk_code": st.tuples(
            st.integers(0, 2**24 - 1), st.binary(min_size=1, max_size=8), FAULT
        ).map(build)
    }
