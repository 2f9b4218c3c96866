import assert from "node:assert/strict";
import { test } from "node:test";
import {
  Chunk, SEPARATORS, assemble, compareCodePoints, countTokens, hashText, pySplit, pyStrip, render,
  splitSection, words,
} from "../src/index.js";

function chunk(id: string, tokens: number, score: number, contentHash = id): Chunk {
  return new Chunk(id, "doc", "T", `text of ${id}`, tokens, contentHash, score);
}

test("SEPARATORS are paragraph, line, word", () => {
  assert.deepEqual([...SEPARATORS], ["\n\n", "\n", " "]);
});

test("countTokens uses Python's whitespace, not /\\s/", () => {
  assert.equal(countTokens("  a b  "), 2);
  assert.equal(countTokens("a\x1cb\x85c"), 3); // U+001C and U+0085 are Python whitespace
  assert.equal(countTokens("a\ufeffb"), 1); // U+FEFF is not
  assert.equal(countTokens(""), 0);
  assert.throws(() => countTokens(3 as unknown as string), TypeError);
});

test("pyStrip differs from trim() exactly where Python does", () => {
  assert.equal(pyStrip("\x1f a \x85"), "a");
  assert.equal(pyStrip("\ufeffa\ufeff"), "\ufeffa\ufeff");
  assert.deepEqual(pySplit("\u3000x\u2028y "), ["x", "y"]);
});

test("hashText is SHA-256 of UTF-8 and rejects lone surrogates", () => {
  assert.equal(hashText(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assert.equal(hashText("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.throws(() => hashText("a\ud800"), RangeError);
});

test("words joins numbered words", () => {
  assert.equal(words(3), "w0 w1 w2");
  assert.equal(words(2, 5, "x"), "x5 x6");
  assert.equal(words(0), "");
  assert.throws(() => words(-1), RangeError);
  assert.throws(() => words(1.5), TypeError);
  // HAZ-11: exact past 2**53 - 1 (a double would print ...992 twice)
  assert.equal(words(3, Number.MAX_SAFE_INTEGER), "w9007199254740991 w9007199254740992 w9007199254740993");
  assert.throws(() => words(1, 2 ** 53), RangeError);
});

test("render is [id] title, newline, text", () => {
  assert.equal(render(new Chunk("d:0", "d", "Title", "body", 1, "h")), "[d:0] Title\nbody");
});

test("splitSection: fitting text is one stripped chunk with derived fields", () => {
  const [only, ...rest] = splitSection("d", "T", "  a b \n", 5);
  assert.equal(rest.length, 0);
  assert.ok(only);
  assert.equal(only.id, "d:0");
  assert.equal(only.text, "a b");
  assert.equal(only.tokens, 2);
  assert.equal(only.contentHash, hashText("a b"));
  assert.equal(only.score, 0);
});

test("splitSection: paragraphs, then lines, then words; oversized piece in place", () => {
  const text = `${words(2)}\n\n${words(5, 2)}\n\n${words(1, 7)}`;
  const got = splitSection("d", "T", text, 3).map((c) => c.text);
  assert.deepEqual(got, ["w0 w1", "w2 w3 w4", "w5 w6", "w7"]);
});

test("splitSection: blank text gives one empty chunk", () => {
  const got = splitSection("d", "T", " \n\n ", 1);
  assert.equal(got.length, 1);
  assert.equal(got[0]?.text, "");
  assert.equal(got[0]?.tokens, 0);
});

test("splitSection: argument errors name the argument", () => {
  assert.throws(() => splitSection("d", "T", "x", 0), { name: "ArgumentValueError", argument: "max_tokens" });
  assert.throws(() => splitSection("d", "T", "x", 2 ** 53), RangeError);
  assert.throws(() => splitSection("d", "T", "\udc00", 1), RangeError);
});

test("assemble: best first, skip what does not fit, stop below min_score", () => {
  const chunks = [chunk("a", 5, 0.9), chunk("b", 2, 0.8), chunk("c", 1, 0.7), chunk("d", 1, 0.2)];
  assert.deepEqual(assemble(chunks, 3)?.[1], ["b", "c"]);
  assert.equal(assemble(chunks, 0), null);
  assert.equal(assemble([chunk("x", 1, 0.35)], 5)?.[1][0], "x"); // score == min_score is in
});

test("assemble: dedupe against picked hashes only", () => {
  const chunks = [chunk("a", 9, 0.9, "h"), chunk("b", 1, 0.8, "h")];
  assert.deepEqual(assemble(chunks, 1)?.[1], ["b"]);
});

test("assemble: ties by code point, astral after U+FFFF", () => {
  const chunks = [chunk("\u{1F600}", 1, 0.5), chunk("\uffff", 1, 0.5), chunk("b", 1, 0.5)];
  assert.deepEqual(assemble(chunks, 9)?.[1], ["b", "\uffff", "\u{1F600}"]);
  assert.ok(compareCodePoints("\u{10000}", "\ue000") > 0);
  assert.ok(compareCodePoints("a", "ab") < 0);
});

test("assemble: -0 budget and NaN scores are rejected like Python", () => {
  assert.throws(() => assemble([], -0), TypeError);
  assert.throws(() => assemble([chunk("a", 1, NaN)], 1), { argument: "chunks[0].score" });
  assert.throws(() => assemble("abc" as unknown as Chunk[], 1), TypeError);
});

test("faults are off unless enabled, and unknown names are refused", async () => {
  const { FAULTS, enableFaults, fault } = await import("../src/faults.js");
  for (const name of FAULTS) assert.equal(fault(name), false);
  assert.throws(() => enableFaults(["no-such-fault"]), /unknown fault/);
});

test("splitSection keeps \\r in CRLF text (no newline normalisation)", () => {
  const got = splitSection("d", "T", "a\r\nb\r\nc d", 2).map((c) => c.text);
  assert.deepEqual(got, ["a\r\nb", "c d"]);
});

test("countTokens accepts lone surrogates; hashText and splitSection do not", () => {
  assert.equal(countTokens("\ud800 a\udfff"), 2);
  assert.throws(() => splitSection("d", "T", "a \udfff", 1), { argument: "text" });
  assert.throws(() => splitSection("d", "\ud800", "a", 1), { argument: "title" });
});

test("integers stay exact up to 2**53 - 1", () => {
  assert.equal(words(2, Number.MAX_SAFE_INTEGER - 2), "w9007199254740989 w9007199254740990");
  const big = [
    new Chunk("a", "d", "T", "x", Number.MAX_SAFE_INTEGER - 1, "h1", 0.9),
    new Chunk("b", "d", "T", "x", 1, "h2", 0.8),
    new Chunk("c", "d", "T", "x", 1, "h3", 0.7),
  ];
  assert.deepEqual(assemble(big, Number.MAX_SAFE_INTEGER)?.[1], ["a", "b"]);
  assert.throws(() => assemble([], 2 ** 53), { argument: "budget" });
});

test("splitSentences: SENT-1..SENT-3 with Python's whitespace", async () => {
  const { splitSentences, sentenceSpans } = await import("../src/index.js");
  assert.deepEqual(splitSentences("One. Two! Three? Four"), ["One.", "Two!", "Three?", "Four"]);
  assert.deepEqual(splitSentences("Use e.g. this."), ["Use e.g.", "this."]); // SENT-3
  assert.deepEqual(splitSentences("One.\x1cTwo.\x85Three"), ["One.", "Two.", "Three"]); // WS-1
  assert.deepEqual(splitSentences("\ufeffOne.\ufeff Two."), ["\ufeffOne.\ufeff Two."]);
  assert.deepEqual(splitSentences(" \n\t"), []);
  assert.deepEqual(sentenceSpans("\u{1F600} a. b"), [[0, 4], [5, 6]]); // code points
  assert.throws(() => splitSentences("a\ud800"), RangeError);
});

test("tokenWindows: cut at token starts, offsets in code points", async () => {
  const { tokenWindows } = await import("../src/index.js");
  const records = tokenWindows("d", "T", "\u{1F600} a b c d e", 3, 1);
  assert.deepEqual(records.map((r) => [r.text, r.start, r.end, r.tokens]),
    [["\u{1F600} a b ", 0, 6, 3], ["b c d ", 4, 10, 3], ["d e", 8, 11, 2]]);
  assert.equal(records[0]?.strategy, "window:max_tokens=3,overlap_tokens=1");
  assert.deepEqual(tokenWindows("d", "T", " \n ", 2, 0), []); // SOURCE-7
  assert.throws(() => tokenWindows("d", "T", "a", 2, 2), RangeError);
});

test("chunkPages: page spans, sentence breaks, default overlap", async () => {
  const { chunkPages } = await import("../src/index.js");
  const records = chunkPages("d", "T", ["a b c", "d e f"], 4, 1);
  assert.deepEqual(records.map((r) => [r.text, r.start, r.end, r.page_start, r.page_end]),
    [["a b c\fd", 0, 7, 1, 2], ["d e f", 6, 11, 2, 2]]);
  const broken = chunkPages("d", "T", ["one two three four. five six seven eight nine."], 5, 0);
  assert.equal(broken[0]?.text, "one two three four."); // PAGE-9
  assert.equal(chunkPages("d", "T", ["a"], 8)[0]?.strategy, "pages:max_tokens=8,overlap_tokens=2");
  assert.throws(() => chunkPages("d", "T", ["a\fb"], 2, 0), RangeError); // PAGE-2
  assert.throws(() => chunkPages("d", "T", "ab", 2, 0), TypeError); // PAGE-1
});
