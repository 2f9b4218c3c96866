/**
 * The `subword` counter (SCRIPT-30..SCRIPT-33, COUNT-12) against Python's: every `subword`
 * case of tests/golden/token_spans.json, and test/subword_random.json (seeded random strings
 * counted by Python's `SubwordCounter`, written by test/subword_fixture.py). Python's offsets
 * are code points, the port's UTF-16 indexes: the port's spans are converted to compare.
 */

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { codePointIndex } from "../src/codepoints.js";
import { subwordCount, subwordSpans } from "../src/subwords.js";

// dist-test/test/ -> the repository's tests/golden/ and this folder
const HERE = dirname(fileURLToPath(import.meta.url));
const GOLDEN = join(HERE, "..", "..", "..", "..", "tests", "golden", "token_spans.json");
const RANDOM = join(HERE, "..", "..", "test", "subword_random.json");

type Case = { text: string; count: number; spans: Array<[number, number]> };

/** The port's spans of `text` as code-point offsets, as Python gives them. */
function spansInCodePoints(text: string): Array<[number, number]> {
  const cp = codePointIndex(text);
  return subwordSpans(text).map(([a, b]) => [cp(a), cp(b)]);
}

function units(text: string): string[] {
  return subwordSpans(text).map(([a, b]) => text.slice(a, b));
}

const golden = JSON.parse(readFileSync(GOLDEN, "utf8")) as {
  cases: Array<{ id: string; input: { counter: string; text: string }; output: { count: number; spans: Array<[number, number]> } }>;
};
const cases = golden.cases.filter((c) => c.input.counter === "subword");

test("token_spans.json has subword cases", () => {
  assert.ok(cases.length >= 10, `${cases.length} subword cases`);
});

for (const c of cases) {
  test(`token_spans golden ${c.id}`, () => {
    assert.equal(subwordCount(c.input.text), c.output.count);
    assert.deepEqual(spansInCodePoints(c.input.text), c.output.spans);
  });
}

test("subword units: pieces, weights and the whitespace before a word (SCRIPT-31..SCRIPT-33)", () => {
  assert.deepEqual(units("HTTPServer 12345,"), ["H", "T", "T", "P", "Serve", "r", "123", "45", ","]);
  assert.deepEqual(units("cafe\u0301s"), ["cafe\u0301s"]); // one piece: the mark stays in its cluster
  assert.deepEqual(units("\u12a0\ud55c"), ["\u12a0", "\u12a0", "\u12a0", "\ud55c", "\ud55c"]);
  assert.deepEqual(units("a\n\u{1F44B}"), ["a", "\u{1F44B}", "\u{1F44B}", "\u{1F44B}"]); // astral 2, +1 after \n
  assert.deepEqual(units("a b  c"), ["a", "b", "c", "c"]); // not the word at the text start
  assert.deepEqual(units("\ta b"), ["a", "a", "b"]); // a tab before the first word counts
  assert.equal(subwordCount(""), 0);
  assert.equal(subwordCount(" \u00a0\u2028 "), 0);
});

const random = JSON.parse(readFileSync(RANDOM, "utf8")) as { seed: number; cases: Case[] };

test("subword_random.json: the port counts as Python's SubwordCounter (SCRIPT-30..SCRIPT-33)", () => {
  assert.ok(random.cases.length >= 2000, `${random.cases.length} cases`);
  for (const c of random.cases) {
    assert.equal(subwordCount(c.text), c.count, JSON.stringify(c.text));
    assert.deepEqual(spansInCodePoints(c.text), c.spans, JSON.stringify(c.text));
  }
});
