#!/usr/bin/env node
/**
 * The conformance adapter: speaks chunkspec's JSON Lines protocol (docs/conformance.md) on
 * stdin/stdout, so `chunkspec conformance -- node dist/src/adapter.js` can check this port.
 *
 * Wire names are Python's (doc_id, max_tokens, content_hash, min_score); this file is the
 * only place that maps them to the port's names. Numbers that JSON cannot hold arrive as
 * the strings "Infinity", "-Infinity" and "NaN" in numeric fields.
 */

import { readFileSync } from "node:fs";
import { chunkDocument, type ChunkDocumentOptions, STRATEGIES, type Strategy } from "./api.js";
import { assemble } from "./assemble.js";
import { Chunk, render } from "./chunk.js";
import { fault } from "./faults.js";
import { hashText } from "./hashing.js";
import { headingAwareRecords } from "./headingAware.js";
import { readMarkup } from "./html.js";
import { splitMarkdownRecords } from "./structural.js";
import { splitSection } from "./split.js";
import { countTokens } from "./tokens.js";
import { chunkCode } from "./code.js";
import type { ParseCode } from "./code.js";
import { chunkPages } from "./pages.js";
import { packRecords } from "./packRecords.js";
import type { PackOptions } from "./packRecords.js";
import type { ChunkRecord } from "./record.js";
import { ChunkRecordSchema } from "./schema.js";
import { splitSentences } from "./sentences.js";
import { tokenWindows } from "./tokenWindows.js";
import { chunkWindows } from "./windows.js";
import { words } from "./words.js";
import { ArgumentValueError, requireInt, requireText } from "./validate.js";

/** The protocol versions this adapter speaks: 2 adds batch messages (CONF-15). */
const PROTOCOLS = [1, 2];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Input = { [key: string]: Json | undefined };

const NONFINITE: Record<string, number> = { Infinity: Infinity, "-Infinity": -Infinity, NaN: NaN };

/** Decode a numeric field: the three non-finite spellings become numbers; the rest as is. */
function num(value: Json | undefined): unknown {
  return typeof value === "string" && value in NONFINITE ? NONFINITE[value] : value;
}

/** A wire chunk (Python field names) as a port Chunk; fields are checked by the port. */
function chunkOf(value: Json | undefined): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const o = value as Input;
  return new Chunk(
    o["id"] as string, o["doc_id"] as string, o["title"] as string, o["text"] as string,
    num(o["tokens"]) as number, o["content_hash"] as string,
    o["score"] === undefined ? 0 : (num(o["score"]) as number),
  );
}

function wireChunk(c: Chunk): Json {
  return {
    id: c.id, doc_id: c.docId, title: c.title, text: c.text,
    tokens: c.tokens, content_hash: c.contentHash, score: c.score,
  };
}

/** The "schema-*" faults: a record schema too strict (the Markdown ChunkSchema's four kinds) or too loose
 * (unknown fields stripped, zod's default, instead of refused). */
function schemaFaults(record: Json | undefined): Json | undefined {
  if (record === null || typeof record !== "object" || Array.isArray(record)) return record;
  if (fault("schema-seed-kinds") && !["prose", "table", "code", "definition"].includes(String(record["kind"]))) {
    return { ...record, kind: null };
  }
  // Too loose: a constraint the port's schema leaves out, shown by repairing what it would catch.
  const hex = "0".repeat(64);
  if (fault("schema-hash-unchecked") && typeof record["content_hash"] === "string") return { ...record, content_hash: hex };
  if (fault("schema-key-optional") && !("key" in record)) return { ...record, key: hex };
  if (fault("schema-tokens-number") && typeof record["tokens"] === "number") {
    return { ...record, tokens: Math.floor(record["tokens"]) };
  }
  if (fault("schema-index-unbounded") && typeof record["index"] === "number" && record["index"] > Number.MAX_SAFE_INTEGER) {
    return { ...record, index: 0 };
  }
  if (fault("schema-start-negative") && typeof record["start"] === "number" && record["start"] < 0) {
    return { ...record, start: 0 };
  }
  if (fault("schema-counter-empty") && record["counter"] === "") return { ...record, counter: "whitespace" };
  // Too strict: a valid value the port's schema refuses, shown by a value it must refuse.
  if (fault("schema-pages-required") && record["page_start"] === null) return { ...record, page_start: "none" };
  if (fault("schema-prefix-empty") && record["prefix"] !== "") return { ...record, prefix: null };
  if (fault("schema-strip-unknown")) {
    const known = Object.keys(ChunkRecordSchema.shape);
    return Object.fromEntries(Object.entries(record).filter(([k]) => known.includes(k)));
  }
  return record;
}

/** The "*-crlf-normalised" faults: a port that reads Markdown with its line breaks as LF. */
function crlf(text: Json | undefined, normalise: boolean): string {
  return normalise && typeof text === "string" ? text.replace(/\r\n?/g, "\n") : (text as string);
}

/** CODE-1: the grammars, loaded once at start (about 70 ms for the nine) when the port's
 * web-tree-sitter and grammar packages are installed; without them chunk_code answers
 * CODE-2's error. A dynamic import: the other ops never need them. */
const grammars = await import("./grammars.js").then(
  async (g) => {
    await g.loadGrammars();
    return g;
  },
  () => null,
);
const parseCode: ParseCode = (language, text) => (grammars === null ? null : grammars.parseCode(language, text));

const OPS: Record<string, (input: Input) => Json> = {
  split_section: (i) =>
    splitSection(i["doc_id"] as string, i["title"] as string, i["text"] as string, num(i["max_tokens"]) as number)
      .map(wireChunk),
  assemble: (i) => {
    const raw = i["chunks"];
    const chunks = Array.isArray(raw) ? raw.map(chunkOf) : raw;
    const args: unknown[] = [chunks, num(i["budget"])];
    if (i["min_score"] !== undefined) args.push(num(i["min_score"]));
    const result = (assemble as (...a: unknown[]) => [string, string[]] | null)(...args);
    return result === null ? null : { context: result[0], ids: result[1] };
  },
  count_tokens: (i) => countTokens(i["text"] as string),
  hash_text: (i) => hashText(i["text"] as string),
  render: (i) => render(chunkOf(i["c"] ?? i["chunk"]) as Chunk),
  chunk: (i) =>
    chunkWindows(
      i["doc_id"] as string, i["title"] as string, i["text"] as string,
      num(i["max_tokens"]) as number, num(i["overlap_tokens"]) as number,
    ) as unknown as Json,
  split_markdown: (i) =>
    splitMarkdownRecords(
      i["doc_id"] as string, i["title"] as string, crlf(i["text"], fault("md-crlf-normalised")), num(i["max_tokens"]) as number,
      (i["count_headings"] === undefined ? false : i["count_headings"]) as boolean,
      (i["split_tables"] === undefined ? false : i["split_tables"]) as boolean,
    ) as unknown as Json,
  heading_aware: (i) =>
    headingAwareRecords(
      i["doc_id"] as string, i["title"] as string, crlf(i["text"], fault("ha-crlf-normalised")),
      num(i["max_tokens"]) as number, num(i["overlap_tokens"]) as number,
    ) as unknown as Json,
  token_windows: (i) =>
    tokenWindows(
      i["doc_id"] as string, i["title"] as string, i["text"] as string,
      num(i["max_tokens"]) as number, num(i["overlap_tokens"]) as number,
    ) as unknown as Json,
  chunk_pages: (i) =>
    chunkPages(
      i["doc_id"] as string, i["title"] as string, i["pages"],
      i["max_tokens"] === undefined ? 400 : (num(i["max_tokens"]) as number),
      num(i["overlap_tokens"]) as number | null | undefined,
    ) as unknown as Json,
  split_sentences: (i) => splitSentences(i["text"] as string),
  validate_record: (i) => ChunkRecordSchema.safeParse(schemaFaults(i["record"])).success,
  pack_records: (i) => {
    const options: PackOptions = {};
    if (i["min_score"] !== undefined) options.minScore = num(i["min_score"]) as number;
    if (i["counter"] !== undefined) options.counter = i["counter"] as string | null;
    if (i["order"] !== undefined) options.order = i["order"] as "reading" | "score";
    if (i["titles"] !== undefined) options.titles = i["titles"] as boolean;
    if (i["expand"] !== undefined) options.expand = num(i["expand"]) as number | null;
    if (i["trim"] !== undefined) options.trim = i["trim"] as boolean;
    const given = i["principal"];
    if (given !== undefined) {
      const plain = given !== null && typeof given === "object" && !Array.isArray(given);
      options.principal = (plain
        ? { labels: (given["labels"] ?? []) as string[], tenant: (given["tenant"] ?? null) as string | null }
        : given) as NonNullable<PackOptions["principal"]> | null;
    }
    const scores = Array.isArray(i["scores"]) ? i["scores"].map(num) : i["scores"];
    const result = packRecords(i["records"] as unknown as ChunkRecord[], scores as number[], num(i["budget"]) as number, options);
    return result as unknown as Json;
  },
  read_html: (i) => {
    const markup = i["markup"];
    if (typeof markup !== "string") throw Object.assign(new TypeError("markup must be a str"), { argument: "markup" });
    const keep = i["keep_furniture"] === undefined ? false : i["keep_furniture"];
    if (typeof keep !== "boolean") {
      throw Object.assign(new TypeError("keep_furniture must be a bool"), { argument: "keep_furniture" });
    }
    const page = readMarkup(markup, keep);
    return {
      text: page.text, blocks: page.blocks, segments: page.segments as unknown as Json,
      title: page.title, meta: page.meta,
    } as unknown as Json;
  },
  chunk_document: (i) => {
    // The wire's names (Python's) are checked first, in Python's order; chunkDocument's
    // option errors are renamed back to them.
    const docId = requireText("doc_id", i["doc_id"]);
    const text = requireText("text", i["text"]);
    const strategy = i["strategy"];
    if (typeof strategy !== "string" || !(STRATEGIES as readonly string[]).includes(strategy)) {
      throw new ArgumentValueError("strategy", `must be one of ${STRATEGIES.join(", ")}`, strategy);
    }
    const format = i["input_format"] === undefined ? "markdown" : i["input_format"];
    if (format !== "markdown" && format !== "text") {
      throw new ArgumentValueError("input_format", "must be one of markdown, text", format);
    }
    const maxTokens = requireInt("max_tokens", num(i["max_tokens"]), 1);
    const options: ChunkDocumentOptions = { docId, strategy: strategy as Strategy, maxTokens };
    if (i["input_format"] !== undefined) options.inputFormat = format;
    return chunkDocument(text, options) as unknown as Json;
  },
  chunk_code: (i) => {
    const text = i["text"];
    if (typeof text !== "string") throw Object.assign(new TypeError("text must be a str"), { argument: "text" });
    const language = i["language"] === undefined ? null : i["language"];
    const result = chunkCode(
      text,
      {
        language: language as string | null,
        maxTokens: num(i["max_tokens"]) as number,
        // the kit's chunk_code op counts whitespace words when the case names no counter
        counter: (i["counter"] === undefined ? "whitespace" : i["counter"]) as string,
        scopePrefix: (i["scope_prefix"] === undefined ? false : i["scope_prefix"]) as boolean,
      },
      parseCode,
    );
    return {
      parser: result.parser,
      counter: result.counter,
      spans: result.spans.map((s) => ({
        start: s.start, end: s.end, prefix: s.prefix, heading_path: s.headingPath, symbols: s.symbols, lines: s.lines,
      })),
    };
  },
  words: (i) => {
    const args: unknown[] = [num(i["n"])];
    if (i["start"] !== undefined || i["word"] !== undefined) args.push(i["start"] === undefined ? 0 : num(i["start"]));
    if (i["word"] !== undefined) args.push(i["word"]);
    return (words as (...a: unknown[]) => string)(...args);
  },
};

const VERSION = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;

/** One request's answer, without its id: `{ok}`, `{error}` or `{skipped}`. */
function reply(op: string, input: Input): { [key: string]: Json } {
  const run = OPS[op];
  if (run === undefined) return { skipped: `op ${op} is not supported` };
  try {
    return { ok: run(input) };
  } catch (error) {
    return { error: errorOf(error) };
  }
}

/** The highest version both sides speak: the kit lists its own in `protocols` (CONF-15). */
function protocolFor(input: Input): number {
  const offered = Array.isArray(input["protocols"]) ? input["protocols"] : [input["protocol"] ?? 1];
  const common = PROTOCOLS.filter((p) => offered.includes(p));
  return common.length === 0 ? 1 : Math.max(...common);
}

function answer(line: string): string {
  let id: Json = null;
  try {
    const request = JSON.parse(line) as { id?: Json; op?: string; input?: Input };
    id = request.id ?? null;
    const op = request.op ?? "";
    const input = request.input ?? {};
    if (op === "hello") {
      return JSON.stringify({
        id, ok: { protocol: protocolFor(input), name: "chunkspec (npm)", version: VERSION, ops: offered() },
      });
    }
    if (op === "batch" && Array.isArray(input["requests"])) {
      const requests = input["requests"] as { op?: string; input?: Input }[];
      return JSON.stringify({ id, ok: requests.map((r) => reply(r.op ?? "", r.input ?? {})) });
    }
    return JSON.stringify({ id, ...reply(op, input) });
  } catch (error) {
    return JSON.stringify({ id, error: errorOf(error) });
  }
}

/** Every op, or only those CHUNKSPEC_PORT_OPS lists (the kit's tests check one op at a time). */
function offered(): string[] {
  const only = process.env["CHUNKSPEC_PORT_OPS"];
  const all = Object.keys(OPS);
  return only === undefined || only === "" ? all : all.filter((op) => only.split(",").includes(op));
}

function errorOf(error: unknown): Json {
  if (error instanceof TypeError) {
    const argument = (error as { argument?: string }).argument;
    return argument === undefined
      ? { kind: "TypeError", message: error.message }
      : { kind: "TypeError", message: error.message, argument };
  }
  if (error instanceof RangeError) {
    const argument = (error as { argument?: string }).argument;
    return argument === undefined
      ? { kind: "ValueError", message: error.message }
      : { kind: "ValueError", message: error.message, argument };
  }
  return { kind: "Error", message: String(error) };
}

function main(): void {
  let pending = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (data: string) => {
    pending += data;
    if (!data.includes("\n")) return;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    const out: string[] = [];
    for (const line of lines) if (line.trim() !== "") out.push(answer(line));
    if (out.length > 0) process.stdout.write(out.join("\n") + "\n");
  });
  process.stdin.on("end", () => {
    if (pending.trim() !== "") process.stdout.write(answer(pending) + "\n");
  });
}

main();
