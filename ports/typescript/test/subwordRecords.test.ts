/**
 * `chunkDocument` with `counter: "subword"` against Python's `chunk_document(...,
 * counter="subword")`, every strategy, every record field (SCRIPT-10, SCRIPT-30..SCRIPT-34,
 * COUNT-3, COUNT-12): test/subword_records.json holds seeded random Markdown documents
 * (headings, tables, fences, lists, CJK, Devanagari, Hangul, Ethiopic, emoji ZWJ sequences,
 * CRLF, tabs, two spaces, no-break spaces, base64, front matter, form feeds) and, for each
 * case of options (budgets 1..40, overlaps, minTokens, budgetIncludesHeadings, countHeadings,
 * splitTables, inputFormat), a digest of each of Python's records (and, under `packs`,
 * `pack_records` over such records with random scores, budgets and options), written by
 * test/subword_records_fixture.py: the first eight hex digits of the SHA-256 of the record's
 * JSON object with its keys sorted, no spaces, UTF-8.
 */

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { chunkDocument, type ChunkDocumentOptions, type ChunkRecord } from "../src/index.js";
import { DEFAULT_COUNTERS, defaultCounter } from "../src/options.js";
import { packRecords } from "../src/packRecords.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const FIXTURE = join(HERE, "..", "..", "test", "subword_records.json");

type Case = {
  doc: number;
  options: { [option: string]: unknown };
  digests?: string;
  spans?: Array<[number, number, number]>;
  error?: string;
};
type Pack = {
  doc: number; strategy: string; max_tokens: number; scores: number[]; budget: number;
  options: { order?: "reading" | "score"; expand?: number; trim?: boolean; titles?: boolean }; digest: string;
};
const fixture = JSON.parse(readFileSync(FIXTURE, "utf8")) as { documents: string[]; cases: Case[]; packs: Pack[] };

/** JSON with every object's keys sorted and no spaces (Python's `sort_keys=True`, compact). */
function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
}

function digest(record: ChunkRecord): string {
  return createHash("sha256").update(canonical(record), "utf8").digest("hex").slice(0, 8);
}

/** The fixture's Python option names as chunkDocument's. */
function optionsOf(doc: number, given: Case["options"]): ChunkDocumentOptions {
  const names: { [python: string]: string } = {
    strategy: "strategy", max_tokens: "maxTokens", overlap_tokens: "overlapTokens", min_tokens: "minTokens",
    budget_includes_headings: "budgetIncludesHeadings", count_headings: "countHeadings", split_tables: "splitTables",
    input_format: "inputFormat",
  };
  const options: Record<string, unknown> = { docId: `d${doc}`, counter: "subword" };
  for (const [key, value] of Object.entries(given)) {
    const name = names[key];
    assert.ok(name !== undefined, `unknown option ${key}`);
    options[name] = value;
  }
  return options as unknown as ChunkDocumentOptions;
}

test("the fixture covers every strategy, small budgets and a few hundred documents", () => {
  assert.ok(fixture.documents.length >= 200, `${fixture.documents.length} documents`);
  const strategies = new Set(fixture.cases.map((c) => c.options["strategy"]));
  assert.deepEqual([...strategies].sort(), ["heading", "pages", "structural", "window"]);
  assert.ok(fixture.cases.some((c) => c.options["max_tokens"] === 1));
});

for (const strategy of ["heading", "structural", "window", "pages"]) {
  test(`chunkDocument(counter: "subword") equals Python's records: ${strategy}`, () => {
    let records = 0;
    const failures: string[] = [];
    for (const [at, c] of fixture.cases.entries()) {
      if (c.options["strategy"] !== strategy) continue;
      const text = fixture.documents[c.doc] as string;
      const options = optionsOf(c.doc, c.options);
      let got: ChunkRecord[];
      try {
        got = chunkDocument(text, options);
      } catch (error) {
        if (c.error === undefined) failures.push(`case ${at}: threw ${String(error)}`);
        continue;
      }
      if (c.error !== undefined) {
        failures.push(`case ${at}: Python raised ${c.error}, the port did not`);
        continue;
      }
      const want = c.digests ?? "";
      const digests = got.map(digest).join("");
      records += got.length;
      if (digests === want) continue;
      let i = 0;
      while (i < got.length && digests.slice(8 * i, 8 * i + 8) === want.slice(8 * i, 8 * i + 8)) i++;
      const record = got[i];
      const python = c.spans?.[i];
      failures.push(
        `case ${at} (doc ${c.doc}, ${JSON.stringify(c.options)}): ${got.length} records, Python ${want.length / 8}; ` +
          `first difference at record ${i}` + (python === undefined ? "" : ` (Python start, end, tokens ${JSON.stringify(python)})`) +
          (record === undefined ? "" : `: port ${JSON.stringify({ start: record.start, end: record.end, tokens: record.tokens, kind: record.kind, text: record.text })}`),
      );
    }
    assert.ok(records > 0);
    assert.deepEqual(failures.slice(0, 5), [], `${failures.length} cases differ`);
  });
}

test("packRecords over subword records equals Python's pack_records (CTX-8 counts with subword)", () => {
  assert.ok(fixture.packs.length >= 80, `${fixture.packs.length} packs`);
  const failures: string[] = [];
  for (const [at, p] of fixture.packs.entries()) {
    const records = chunkDocument(fixture.documents[p.doc] as string, {
      docId: `d${p.doc}`, strategy: p.strategy as ChunkDocumentOptions["strategy"] & string, maxTokens: p.max_tokens, counter: "subword",
    });
    const packed = packRecords(records, p.scores, p.budget, p.options);
    assert.equal(packed.counter, "subword");
    const got = createHash("sha256").update(canonical(JSON.parse(JSON.stringify(packed))), "utf8").digest("hex").slice(0, 16);
    if (got !== p.digest) failures.push(`pack ${at} (doc ${p.doc}, ${p.strategy}, budget ${p.budget}): ${packed.tokens} tokens`);
  }
  assert.deepEqual(failures.slice(0, 5), [], `${failures.length} packs differ`);
});

test("the default counter is in one place, whitespace for every strategy today", () => {
  for (const strategy of ["heading", "structural", "window", "pages", "code"] as const) {
    assert.equal(defaultCounter(strategy), DEFAULT_COUNTERS[strategy]);
  }
  const text = "# T\n\nparseJSON \u0928\u092e\u0938\u094d\u0924\u0947\n\nmore words here";
  for (const strategy of ["heading", "structural", "window", "pages"] as const) {
    const [first] = chunkDocument(text, { docId: "d", strategy, maxTokens: 8 });
    assert.equal(first?.counter, defaultCounter(strategy));
  }
});

test("counter subword: records say so, count with subwordCount, and pack (COUNT-12)", () => {
  const text = "# Title\n\nparseJSON HTTPServer \uc548\ub155\ud558\uc138\uc694 \U0001F44B.\n\nTail text.";
  const records = chunkDocument(text, { docId: "d", strategy: "heading", maxTokens: 6, counter: "subword", minTokens: 0 });
  assert.ok(records.length > 1);
  for (const record of records) {
    assert.equal(record.counter, "subword");
    assert.ok(!record.oversized || record.tokens > 6);
  }
  const packed = packRecords(records, records.map(() => 1), 100);
  assert.equal(packed.counter, "subword");
  assert.throws(
    () => chunkDocument(text, { docId: "d", strategy: "heading", counter: "chars1" }),
    /chars1 applies to window, not heading/,
  );
  assert.throws(
    () => chunkDocument(text, { docId: "d", counter: "tokens" as unknown as "subword" }),
    /must be whitespace, unicode, subword or chars1/,
  );
});
