/**
 * The one strategy registry and its option checks (OPT-1, OPT-5): Python's `ChunkOptions`
 * messages under the option names of `chunkDocument`, and every strategy's records made by
 * the one loop from spans, the same as the positional chunker's.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  STRATEGIES, chunkDocument, chunkPages, chunkWindows, headingAwareRecords, splitMarkdownRecords, tokenWindows,
} from "../src/index.js";
import { checkOptions, defaultCounter } from "../src/options.js";
import { REGISTRY } from "../src/strategies.js";

const call = (options: Record<string, unknown>) => () =>
  chunkDocument("# T\n\na b c d e f", { docId: "d", ...options } as Parameters<typeof chunkDocument>[1]);

test("the registry lists every strategy chunkDocument offers, in order", () => {
  assert.deepEqual(Object.keys(REGISTRY), [...STRATEGIES]);
  assert.deepEqual(STRATEGIES.filter((s) => REGISTRY[s].defaultOverlap !== null), ["heading", "window", "pages"]);
  assert.deepEqual(STRATEGIES.filter((s) => REGISTRY[s].retrieval), ["heading", "structural"]);
});

test("defaults as Python's ChunkOptions (RECORD-13, SIZE-2)", () => {
  assert.deepEqual(checkOptions({}), {
    strategy: "heading", maxTokens: 512, overlap: 64, minTokens: 64, countHeadings: false, splitTables: false,
    budgetIncludesHeadings: false, counter: defaultCounter("heading"), pageNumbers: false,
  });
  assert.equal(checkOptions({ strategy: "pages", maxTokens: 10 }).overlap, 2);
  assert.equal(checkOptions({ strategy: "structural" }).overlap, null);
  assert.equal(checkOptions({ strategy: "window", maxTokens: 80 }).minTokens, 0);
});

test("option errors carry the wording of Python's ChunkOptions", () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ strategy: 5 }, "strategy must be one of heading, pages, structural, window, got 5"],
    [{ strategy: "recursive" }, 'strategy must be one of heading, pages, structural, window, got "recursive"'],
    [{ maxTokens: true }, "maxTokens must be an int, got boolean true"],
    [{ maxTokens: 0 }, "maxTokens must be >= 1, got 0"],
    [{ strategy: "structural", overlapTokens: 2 }, "overlapTokens applies to heading, window and pages, not structural (CHUNK-6), got 2"],
    [{ strategy: "window", maxTokens: 2, overlapTokens: 2 }, "overlap_tokens must be < max_tokens (2), got 2"],
    [{ countHeadings: true }, "countHeadings applies to structural, not heading, got true"],
    [{ strategy: "structural", splitTables: "yes" }, 'splitTables must be a bool, got string "yes"'],
    [{ strategy: "window", minTokens: 2 }, "minTokens applies to heading and structural, not window (SIZE-1), got 2"],
    [{ maxTokens: 4, minTokens: 5 }, "minTokens must be <= maxTokens (4), got 5"],
    [{ strategy: "pages", budgetIncludesHeadings: true }, "budgetIncludesHeadings applies to heading and structural, not pages (SIZE-8), got true"],
    [{ counter: "tiktoken:cl100k_base" }, 'counter must be whitespace, unicode, subword or chars1, got "tiktoken:cl100k_base"'],
    [{ counter: "chars1" }, 'counter chars1 applies to window, not heading, got "chars1"'],
  ];
  for (const [options, message] of cases) assert.throws(call(options), { message });
});

test("chunkDocument's records are the positional chunkers' (one loop from spans)", () => {
  const text = "# Guide\n\nSome words here.\n\n## Part\n\nMore 😀 words, and more words again.\n";
  const same = (options: Record<string, unknown>, positional: unknown) =>
    assert.deepEqual(chunkDocument(text, { docId: "d", title: "T", counter: "whitespace", ...options }), positional);
  same({ strategy: "heading", maxTokens: 6, overlapTokens: 1, minTokens: 0 }, headingAwareRecords("d", "T", text, 6, 1));
  same({ strategy: "structural", maxTokens: 6, minTokens: 0 }, splitMarkdownRecords("d", "T", text, 6));
  // the positional window chunkers read plain text (NPM-5: inputFormat text)
  same({ strategy: "window", maxTokens: 4, overlapTokens: 1, inputFormat: "text" }, tokenWindows("d", "T", text, 4, 1));
  same({ strategy: "window", maxTokens: 9, overlapTokens: 2, counter: "chars1", inputFormat: "text" }, chunkWindows("d", "T", text, 9, 2));
  same({ strategy: "pages", maxTokens: 5, inputFormat: "text" }, chunkPages("d", "T", [text], 5));
});
