/** packRecords against Python's goldens, tests/golden/pack_records.json (CTX rules). */

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { hashText } from "../src/hashing.js";
import { packRecords } from "../src/packRecords.js";
import type { PackOptions } from "../src/packRecords.js";
import type { ChunkRecord, JsonValue } from "../src/record.js";
import { countWords } from "../src/whitespace.js";

// dist-test/test/ -> the repository's tests/golden/
const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..", "tests", "golden", "pack_records.json");
const NUMBERS: { [key: string]: number } = { NaN: Number.NaN, Infinity: Infinity, "-Infinity": -Infinity };

type Spec = { [key: string]: JsonValue };

/** tests/pack_records.py's pack_record: a span of the source, the other fields defaulted. */
function record(spec: Spec, documents: { [key: string]: string }): ChunkRecord {
  const doc = spec.doc as string;
  const index = spec.index as number;
  const source = Array.from(documents[doc] ?? "");
  const start = (spec.start as number | undefined) ?? 0;
  const end = (spec.end as number | undefined) ?? source.length;
  const prefix = (spec.prefix as string | undefined) ?? "";
  const text = (spec.text as string | undefined) ?? prefix + source.slice(start, end).join("");
  const base: ChunkRecord = {
    id: `${doc}:${index}`,
    doc_id: doc,
    index,
    text,
    start,
    end,
    tokens: countWords(text),
    counter: "whitespace",
    content_hash: hashText(text),
    kind: "window",
    heading_path: [],
    parent_id: null,
    page_start: null,
    page_end: null,
    section: null,
    prefix,
    oversized: false,
    title: doc.toUpperCase(),
    source: `${doc}.md`,
    strategy: "window:max_tokens=8,overlap_tokens=2",
    metadata: {},
  };
  const rest = { ...spec };
  for (const key of ["doc", "index", "start", "end", "prefix", "text"]) delete rest[key];
  return { ...base, ...(rest as Partial<ChunkRecord>) };
}

const data = JSON.parse(readFileSync(GOLDEN, "utf8"));
for (const c of data.cases) {
  test(`pack_records golden ${c.id}`, () => {
    const input = c.input;
    const call = () => {
      const records = input.records.map((s: Spec) => record(s, input.documents));
      const scores = input.scores.map((s: number | string) => (typeof s === "string" ? NUMBERS[s] : s));
      const options: PackOptions = {};
      if ("min_score" in input) options.minScore = typeof input.min_score === "string" ? NUMBERS[input.min_score] : input.min_score;
      if ("counter" in input) options.counter = input.counter;
      if ("order" in input) options.order = input.order;
      if ("titles" in input) options.titles = input.titles;
      if ("expand" in input) options.expand = input.expand;
      if ("trim" in input) options.trim = input.trim;
      if ("principal" in input) options.principal = input.principal;
      if ("principal_raw" in input) options.principal = input.principal_raw;
      return packRecords(records, scores, input.budget, options);
    };
    if ("error" in c) {
      assert.throws(call, (error: unknown) => (error as { argument?: string }).argument === c.error.argument);
    } else {
      assert.deepEqual(JSON.parse(JSON.stringify(call())), c.output);
    }
  });
}
