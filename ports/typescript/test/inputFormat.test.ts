/**
 * NPM-5: `inputFormat` applies to every strategy and is `markdown` when left out, so a `.md`
 * text gives `window` and `pages` the records `chunkspec chunk --strategy S FILE.md` writes
 * (the values below are Python's `chunk_document(document_from_text(text, doc_id=...), ...)`;
 * the counter is named, so they hold whichever counter is the default, options.ts).
 */

import assert from "node:assert/strict";
import { test } from "node:test";
import { ArgumentValueError, STRATEGIES, chunkDocument } from "../src/index.js";

const FILE = "---\ntitle: Guide\nowner: docs\n---\n# H\n\na b c d\n\n## I\n\ne f";

test("NPM-5: window reads Markdown by default: front matter left out, title, metadata, heading paths", () => {
  const records = chunkDocument(FILE, { docId: "w", strategy: "window", maxTokens: 3, overlapTokens: 0, counter: "whitespace" });
  assert.deepEqual(records.map((r) => [r.start, r.end, r.text]), [
    [33, 40, "# H\n\na "], [40, 47, "b c d\n\n"], [47, 55, "## I\n\ne "], [55, 56, "f"],
  ]);
  assert.deepEqual(records.map((r) => r.heading_path), [["H"], ["H"], ["H", "I"], ["H", "I"]]);
  assert.deepEqual(records.map((r) => r.section), ["H", "H", "I", "I"]);
  for (const r of records) {
    assert.equal(r.title, "Guide");
    assert.deepEqual(r.metadata, { owner: "docs", title: "Guide" });
  }
  assert.deepEqual(chunkDocument(FILE, { docId: "w", strategy: "window", maxTokens: 3, overlapTokens: 0, counter: "whitespace", inputFormat: "markdown" }), records);
});

test("NPM-5: pages leaves the front matter out but keeps its page breaks", () => {
  const records = chunkDocument("---\nk: v\n\f\n---\n# T\n\na b c\fd e", { docId: "p", strategy: "pages", maxTokens: 4, counter: "whitespace" });
  assert.deepEqual(records.map((r) => [r.start, r.page_start, r.page_end, r.heading_path]), [
    [15, 2, 2, ["T"]], [22, 2, 3, ["T"]],
  ]);
  assert.deepEqual(records[0]?.metadata, { k: "v" });
  // a file of front matter alone: its body is blank, so no page chunk (PAGE-5), under every strategy
  for (const strategy of STRATEGIES) assert.deepEqual(chunkDocument("---\ntenant_id: t1\n---\n", { docId: "f", strategy }), [], strategy);
});

test("NPM-5: inputFormat text reads plain text under every strategy", () => {
  for (const strategy of STRATEGIES) {
    const records = chunkDocument(FILE, { docId: "t", strategy, maxTokens: 5, inputFormat: "text" });
    assert.ok(records.length > 0, strategy);
    assert.equal(records[0]?.start, 0, strategy);
    for (const r of records) {
      assert.equal(r.title, "t", strategy);
      assert.deepEqual(r.heading_path, [], strategy);
      assert.deepEqual(r.metadata, {}, strategy);
    }
  }
  assert.throws(() => chunkDocument("a", { docId: "d", inputFormat: "md" as "markdown" }), ArgumentValueError);
});
