import assert from "node:assert/strict";
import { test } from "node:test";
import { ArgumentTypeError, ArgumentValueError, ChunkRecordSchema, STRATEGIES, chunkDocument } from "../src/index.js";

const TEXT = "---\ntitle: Guide\ntenant_id: from-front-matter\nowner: docs\n---\n# Guide\n\nWho reads what.\n\n## Labels\n\nEvery chunk keeps them.\n";

test("META-4, META-9: every record of every strategy carries the document's metadata", () => {
  const metadata = { tenant_id: "t-42", corpus_id: "c-7", acl_labels: ["eng", "hr"] };
  for (const strategy of STRATEGIES) {
    const records = chunkDocument(TEXT, { docId: "g", strategy, maxTokens: 6, metadata });
    assert.ok(records.length > 1, strategy);
    const expected = { ...metadata, owner: "docs", title: "Guide" }; // NPM-5: Markdown for every strategy
    const plain = chunkDocument(TEXT, { docId: "g", strategy, maxTokens: 6, metadata, inputFormat: "text" });
    for (const record of plain) assert.deepEqual(record.metadata, metadata, strategy);
    for (const record of records) {
      assert.deepEqual(record.metadata, expected, strategy);
      assert.deepEqual(Object.keys(record.metadata), Object.keys(record.metadata).sort());
      ChunkRecordSchema.parse(record);
    }
  }
});

test("META-3: without caller metadata, Markdown records carry the front matter's fields", () => {
  const [record] = chunkDocument(TEXT, { docId: "g", strategy: "heading" });
  assert.deepEqual(record?.metadata, { owner: "docs", tenant_id: "from-front-matter", title: "Guide" });
  const [window] = chunkDocument(TEXT, { docId: "w", strategy: "window" });
  assert.deepEqual(window?.metadata, { owner: "docs", tenant_id: "from-front-matter", title: "Guide" });
  const [plain] = chunkDocument(TEXT, { docId: "w", strategy: "window", inputFormat: "text" });
  assert.deepEqual(plain?.metadata, {});
});

test("META-2: metadata JSON cannot hold is refused, naming the place", () => {
  const bad: Array<[unknown, unknown, string]> = [
    [{ n: 2 ** 53 }, ArgumentValueError, 'metadata["n"]'],
    [{ n: [NaN] }, ArgumentValueError, 'metadata["n"][0]'],
    [{ d: new Date(0) }, ArgumentTypeError, 'metadata["d"]'],
    [["x"], ArgumentTypeError, "metadata"],
    [{ s: "a\ud800" }, ArgumentValueError, 'metadata["s"]'],
  ];
  for (const [metadata, kind, argument] of bad) {
    assert.throws(
      () => chunkDocument("a b", { docId: "d", metadata: metadata as Record<string, never> }),
      (error: unknown) => error instanceof (kind as typeof Error) && (error as unknown as { argument: string }).argument === argument,
    );
  }
});
