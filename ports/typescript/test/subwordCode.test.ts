/**
 * `chunkCode` with `counter: "subword"` against Python's `code` strategy with
 * `counter="subword"` (CODE-6, COUNT-12): test/subword_code.json holds programs from the
 * conformance kit's `chunk_code` pools and a digest of the kit's answer for each (parser,
 * counter, every span's start, end, prefix, heading path, symbols and lines), written by
 * test/subword_code_fixture.py: the first 16 hex digits of the SHA-256 of the answer's JSON
 * with its keys sorted, no spaces, UTF-8.
 */

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { chunkCode } from "../src/index.js";
import { loadGrammars, parseCode } from "../src/grammars.js";

await loadGrammars();

const HERE = dirname(fileURLToPath(import.meta.url));
const FIXTURE = join(HERE, "..", "..", "test", "subword_code.json");

type Case = {
  input: { text: string; language: string | null; max_tokens: number; counter: string; scope_prefix: boolean };
  spans: number;
  digest: string;
};
const fixture = JSON.parse(readFileSync(FIXTURE, "utf8")) as { cases: Case[] };

/** JSON with every object's keys sorted and no spaces (Python's `sort_keys=True`, compact). */
function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
}

test("chunkCode(counter: subword) equals Python's code strategy with counter subword", () => {
  assert.ok(fixture.cases.length >= 100);
  const failures: string[] = [];
  for (const [at, c] of fixture.cases.entries()) {
    const i = c.input;
    const result = chunkCode(
      i.text, { language: i.language, maxTokens: i.max_tokens, counter: i.counter, scopePrefix: i.scope_prefix, title: "d" },
      parseCode,
    );
    const answer = {
      parser: result.parser,
      counter: result.counter,
      spans: result.spans.map((s) => ({
        start: s.start, end: s.end, prefix: s.prefix, heading_path: s.headingPath, symbols: s.symbols, lines: s.lines,
      })),
    };
    const digest = createHash("sha256").update(canonical(answer), "utf8").digest("hex").slice(0, 16);
    if (digest !== c.digest) {
      failures.push(`case ${at} (${i.language}, max_tokens ${i.max_tokens}): ${answer.spans.length} spans, Python ${c.spans}`);
    }
  }
  assert.deepEqual(failures.slice(0, 5), [], `${failures.length} cases differ`);
});
