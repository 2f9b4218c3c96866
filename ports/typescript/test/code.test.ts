import assert from "node:assert/strict";
import { test } from "node:test";
import { chunkCode } from "../src/index.js";
import { GRAMMARS, grammarPath, loadGrammars, parseCode, parserFor } from "../src/grammars.js";

await loadGrammars();

const slice = (text: string, start: number, end: number) => Array.from(text).slice(start, end).join("");

test("CODE-1: every language's grammar loads from node_modules, none downloaded", () => {
  for (const [language, grammar] of Object.entries(GRAMMARS)) {
    assert.ok(grammarPath(grammar)?.includes("node_modules"), language);
    const tree = parseCode(language, "x\n");
    assert.ok(tree !== null, language);
    tree.delete();
  }
});

test("CODE-2, PORT-2: offsets count code points on astral names, strings and comments", () => {
  const text = "# \u{1F600}\ndef caf\u00e9(x):\n    return \"\u{1D400}\" + x  # \u{1F600}\n\n\ndef g():\n    pass\n";
  const { parser, spans } = chunkCode(text, { language: "python", maxTokens: 12, counter: "whitespace" }, parseCode);
  assert.equal(parser, "tree-sitter");
  assert.deepEqual(spans.map((s) => slice(text, s.start, s.end)), [
    "# \u{1F600}\ndef caf\u00e9(x):\n    return \"\u{1D400}\" + x  # \u{1F600}",
    "def g():\n    pass",
  ]);
  assert.deepEqual(spans.map((s) => [s.headingPath, s.symbols, s.lines]), [
    [["d", "def caf\u00e9"], ["caf\u00e9"], [1, 3]],
    [["d", "def g"], ["g"], [6, 7]],
  ]);
});

test("CODE-6, CODE-7, CODE-8: an oversized class splits at its methods, the header as prefix", () => {
  const text = "class A:\n    def f(self):\n        return 1 + 2\n\n    def g(self):\n        return 3 + 4\n";
  const { spans } = chunkCode(text, { language: "python", maxTokens: 8, scopePrefix: true, counter: "whitespace" }, parseCode);
  assert.deepEqual(spans.map((s) => [s.prefix, slice(text, s.start, s.end), s.headingPath]), [
    ["", "class A:\n    def f(self):\n        return 1 + 2", ["d", "class A"]],
    ["class A:\n", "def g(self):\n        return 3 + 4", ["d", "class A", "def g"]],
  ]);
});

test("CODE-3, CODE-4: a tree with errors is split, its error nodes by lines; no language by lines", () => {
  const broken = chunkCode("def f(:\n  x = 1\n\ny = 2\n", { language: "python", maxTokens: 3, counter: "whitespace" }, parseCode);
  assert.equal(broken.parser, "tree-sitter with errors");
  assert.deepEqual(broken.spans.map((s) => [s.start, s.end]), [[0, 7], [10, 15], [17, 22]]);
  const plain = chunkCode("a b\r\nc", { language: null, maxTokens: 5, counter: "whitespace" }, parseCode);
  assert.deepEqual([plain.parser, plain.spans.map((s) => [s.start, s.end, s.lines])], [
    "lines: no language", [[0, 6, [1, 2]]],
  ]);
});

test("CODE-1, CODE-6, CODE-8: argument errors name the argument", () => {
  const call = (options: Record<string, unknown>, text: unknown = "x") => () =>
    chunkCode(text as string, { language: "python", maxTokens: 4, ...options } as Parameters<typeof chunkCode>[1], parseCode);
  assert.throws(call({ language: "cobol" }), (e: Error & { argument?: string }) => e instanceof RangeError && e.argument === "language");
  assert.throws(call({ maxTokens: 0 }), (e: Error & { argument?: string }) => e instanceof RangeError && e.argument === "max_tokens");
  assert.throws(call({ scopePrefix: 1 }), (e: Error & { argument?: string }) => e instanceof TypeError && e.argument === "scope_prefix");
  assert.throws(call({}, "a\ud800"), (e: Error & { argument?: string }) => e.argument === "text");
});

test("CODE-2: a surrogate pair at a read boundary is one character (web-tree-sitter's reads)", () => {
  // web-tree-sitter's own string reader cuts at 5,119 units, also between the halves of a
  // pair: the identifier then ends early; grammars.ts reads 4,096 units, never inside a pair
  for (const at of [4095, 5118]) {
    const name = "x".repeat(at) + "\u{1D465}y";
    const text = `${name} = 1\n`;
    const tree = parseCode("python", text);
    assert.ok(tree !== null);
    const node = tree.rootNode.descendantForIndex(0);
    assert.deepEqual([node?.type, node?.endIndex, tree.rootNode.hasError], ["identifier", name.length, false]);
    tree.delete();
  }
  const raw = parserFor("python")?.parse(`${"x".repeat(5118)}\u{1D465}y = 1\n`);
  assert.ok(raw !== null && raw !== undefined);
  assert.notEqual(raw.rootNode.descendantForIndex(0)?.endIndex, 5121);
  raw.delete();
});
