/**
 * TRUST-3, TRUST-4: the front-matter cases of Python's goldens (tests/golden/trust_labels.json):
 * chunkDocument refuses the same documents with the same message, or gives every record the
 * same metadata; the caller's metadata over a key lifts its refusal (META-3, META-9).
 */

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { InputError, STRATEGIES, chunkDocument, headingAwareRecords, splitMarkdownRecords } from "../src/index.js";
import type { JsonValue } from "../src/record.js";

// dist-test/test/ -> the repository's tests/golden/
const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..", "tests", "golden", "trust_labels.json");

type Case = {
  id: string;
  input: { reader: string; text?: string; metadata?: Record<string, JsonValue> };
  output: { error?: string; metadata?: Record<string, JsonValue> };
};

const cases = (JSON.parse(readFileSync(GOLDEN, "utf8")) as { cases: Case[] }).cases
  .filter((c) => c.input.reader === "front_matter");

test("the golden file has front-matter cases", () => {
  assert.ok(cases.length >= 10);
});

for (const c of cases) {
  test(`trust_labels golden ${c.id}`, () => {
    const text = c.input.text ?? "";
    const metadata = c.input.metadata;
    for (const strategy of STRATEGIES) { // NPM-5: every strategy reads Markdown
      const call = () => chunkDocument(text, { docId: "d", strategy, ...(metadata === undefined ? {} : { metadata }) });
      if (c.output.error !== undefined) {
        assert.throws(call, (error: unknown) => error instanceof InputError && error instanceof RangeError
          && error.message === `d: ${c.output.error}`);
      } else {
        const records = call();
        assert.ok(records.length > 0);
        for (const record of records) assert.deepEqual(record.metadata, c.output.metadata);
      }
    }
    if (c.output.error !== undefined && metadata === undefined) { // the conformance ops refuse too
      assert.throws(() => headingAwareRecords("d", "T", text, 512, 0), InputError);
      assert.throws(() => splitMarkdownRecords("d", "T", text, 512), InputError);
    }
  });
}

test("TRUST-3: every strategy refuses a Markdown text's unread access key; plain text has no front matter", () => {
  const text = "---\nacl_labels:\n  - hr\n---\nx\n";
  for (const strategy of STRATEGIES) {
    assert.throws(() => chunkDocument(text, { docId: "d", strategy }), InputError, strategy);
    const [record] = chunkDocument(text, { docId: "d", strategy, inputFormat: "text" });
    assert.deepEqual(record?.metadata, {}, strategy);
  }
});
