import assert from "node:assert/strict";
import { test } from "node:test";
import { graphemeBounds } from "../src/graphemes.js";
import { countUnits, unitSpans } from "../src/units.js";

function units(text: string): string[] {
  return unitSpans(text).map(([a, b]) => text.slice(a, b));
}

test("unicode units: whitespace words, one unit per ideograph, kana, Hangul or Thai cluster (SCRIPT-3)", () => {
  assert.deepEqual(units("Hello, world!  Ça va?"), ["Hello,", "world!", "Ça", "va?"]);
  assert.deepEqual(units("机器学习，GPT-4模型。"), ["机", "器", "学", "习", "，GPT-4", "模", "型", "。"]);
  assert.deepEqual(units("ラーーメン"), ["ラ", "ー", "ー", "メ", "ン"]); // HAZ-19: U+30FC is in the table
  assert.deepEqual(units("กำลัง ดี"), ["กำ", "ลั", "ง", "ดี"]);
  assert.deepEqual(units("\u{20000}\u{20001}a"), ["\u{20000}", "\u{20001}", "a"]); // HAZ-20
  assert.equal(countUnits("\u1100\u1161\u11a8\u1100\u1161"), 2); // jamo sequences (GB6..GB8)
});

test("grapheme clusters agree with Intl.Segmenter where Unicode 14 and the engine agree (SCRIPT-4, HAZ-18)", () => {
  const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" });
  const pieces = ["a", "e\u0301", "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}", "\u{1F44B}\u{1F3FD}", "\u{1F1EF}\u{1F1F5}",
    "\r\n", "\u1100\u1161\u11a8", "กำ", "\u202b", "中", " ", "\u0600" + "1"];
  for (let n = 0; n < 400; n++) {
    let text = "";
    for (let k = 0; k < 1 + (n % 9); k++) text += pieces[(n * 7 + k * 5) % pieces.length];
    const theirs = [0, ...Array.from(segmenter.segment(text), (s) => s.index + s.segment.length)];
    assert.deepEqual(graphemeBounds(text, 0, text.length), theirs, JSON.stringify(text));
  }
  // GB9c (Unicode 15.1): a virama and the consonant after it are one cluster there, two here.
  const conjunct = "\u0915\u094D\u0937";
  assert.deepEqual(graphemeBounds(conjunct, 0, conjunct.length), [0, 2, 3]);
});
