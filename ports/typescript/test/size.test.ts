import assert from "node:assert/strict";
import { test } from "node:test";
import { ArgumentTypeError, ArgumentValueError, chunkDocument } from "../src/index.js";

const GUIDE = "# Guide\n\nIntro words here.\n\n## Install\n\nRun this:\n\n```\npip install x y z w\n```\n";

test("SIZE-2: heading merges each heading with its text by default; minTokens 0 is the seed's output", () => {
  const merged = chunkDocument(GUIDE, { docId: "g", maxTokens: 8, counter: "whitespace" });
  assert.deepEqual(merged.map((r) => [r.kind, r.text, r.parent_id, r.section]), [
    ["heading", "Guide\n\nIntro words here.", null, "Guide"],
    ["heading", "Install\n\nRun this:", "g:0", "Install"],
    ["body", "```\npip install x y z w\n```", "g:1", "Install"],
  ]);
  assert.ok(merged.every((r) => r.strategy === "heading:max_tokens=8,overlap_tokens=1,min_tokens=1"));
  const seed = chunkDocument(GUIDE, { docId: "g", maxTokens: 8, minTokens: 0, counter: "whitespace" });
  assert.deepEqual(seed.map((r) => r.kind), ["heading", "body", "heading", "body", "body"]);
  assert.ok(seed.every((r) => r.strategy === "heading:max_tokens=8,overlap_tokens=1"));
});

test("SIZE-5: structural joins an introducing sentence to its code, never across a heading", () => {
  const records = chunkDocument(GUIDE, { docId: "g", strategy: "structural", maxTokens: 64 });
  assert.deepEqual(records.map((r) => [r.kind, r.heading_path]), [
    ["prose", ["Guide"]],
    ["code", ["Guide", "Install"]],
  ]);
  assert.equal(records[1]?.text, "Run this:\n\n```\npip install x y z w\n```");
});

test("SIZE-8: budgetIncludesHeadings counts the embedded text", () => {
  const [, second] = chunkDocument(GUIDE, { docId: "g", maxTokens: 64, minTokens: 0, budgetIncludesHeadings: true, counter: "whitespace" });
  assert.equal(second?.tokens, 1 + 3); // "Guide\n\nIntro words here."
  assert.match(second?.strategy ?? "", /,budget_includes_headings=true$/);
});

test("SIZE-1, SIZE-2: minTokens and budgetIncludesHeadings errors name the option", () => {
  const call = (options: Record<string, unknown>) => () =>
    chunkDocument("a b", { docId: "d", ...options } as Parameters<typeof chunkDocument>[1]);
  assert.throws(call({ strategy: "window", minTokens: 2 }), ArgumentValueError);
  assert.throws(call({ maxTokens: 4, minTokens: 5 }), ArgumentValueError);
  assert.throws(call({ minTokens: -1 }), ArgumentValueError);
  assert.throws(call({ minTokens: true }), ArgumentTypeError);
  assert.throws(call({ strategy: "pages", budgetIncludesHeadings: true }), ArgumentValueError);
  assert.throws(call({ budgetIncludesHeadings: 1 }), ArgumentTypeError);
  assert.equal(chunkDocument("a b", { docId: "d", strategy: "window", minTokens: 0 }).length, 1);
});
