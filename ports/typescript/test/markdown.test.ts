/** Unit tests of the Markdown chunkers (the kit checks them against Python; these pin a few facts). */

import assert from "node:assert/strict";
import { test } from "node:test";
import { ChunkRecordSchema, headingAwareRecords, splitMarkdownRecords } from "../src/index.js";

test("a # line inside a fence is code, not a heading (MD-1, MD-9)", () => {
  const records = splitMarkdownRecords("d", "T", "# A\n\n```\n# not\n```\n", 512);
  assert.deepEqual(records.map((r) => [r.kind, r.heading_path, r.text]), [["code", ["A"], "```\n# not\n```"]]);
});

test("offsets are code points after an astral character (HAZ-16)", () => {
  const [record] = splitMarkdownRecords("d", "T", "# \u{1F600}\n\nx", 512);
  assert.equal(record?.start, 5);
  assert.equal(record?.end, 6);
});

test("CRLF stays in texts and offsets (HAZ-13)", () => {
  const records = headingAwareRecords("d", "T", "# A\r\n\r\nx\r\ny\r\n", 512, 0);
  assert.deepEqual(records.map((r) => [r.kind, r.text, r.start, r.end]), [["heading", "A", 2, 3], ["body", "x\r\ny", 7, 11]]);
});

test("a heading titled U+FEFF is a heading, and trim() is restored after parsing (HAZ-17)", () => {
  const records = headingAwareRecords("d", "T", "# \uFEFF\n\nx", 512, 0);
  assert.deepEqual(records.map((r) => [r.kind, r.parent_id]), [["heading", null], ["body", "d:0"]]);
  assert.equal("\uFEFFa\uFEFF".trim(), "a");
});

test("every record passes the zod record schema; a broken one does not (RECORD-2)", () => {
  for (const record of splitMarkdownRecords("d", "T", "a b\n\n| x |\n|---|\n| 1 |\n", 1)) {
    assert.equal(ChunkRecordSchema.safeParse(record).success, true);
    assert.equal(ChunkRecordSchema.safeParse({ ...record, id: "d:9" }).success, false);
  }
});

test("front matter is never a chunk or a heading; unclosed, it is text (FM-1, FM-2, FM-5)", () => {
  const yaml = splitMarkdownRecords("d", "T", "---\ntitle: x\n---\n# A\n\nb\n", 512);
  assert.deepEqual(yaml.map((r) => [r.text, r.heading_path, r.start]), [["b", ["A"], 22]]);
  const toml = headingAwareRecords("d", "T", "+++\r\ntitle = 'x'\r\n+++\r\nb\r\n", 512, 0);
  assert.deepEqual(toml.map((r) => [r.text, r.start]), [["b", 23]]);
  const open = splitMarkdownRecords("d", "T", "---\ntitle: x\n", 512);
  assert.deepEqual(open.map((r) => r.text), ["---\ntitle: x"]);
});
