/**
 * The options-object API (NPM-2): `chunkDocument(text, {docId, strategy, maxTokens, ...})`
 * and `splitSection({docId, title, text, maxTokens})`, over the same chunkers as the
 * positional functions, whose calls keep working exactly as before.
 */

import { assemble as assemblePositional } from "./assemble.js";
import type { Chunk } from "./chunk.js";
import { headingAwareRecords } from "./headingAware.js";
import { parseMarkdownBlocks } from "./markdown.js";
import { chunkPages, PAGE_SEPARATOR } from "./pages.js";
import { frontMatterFields, refuseUnreadAccessKeys } from "./frontMatter.js";
import type { ChunkRecord, JsonValue } from "./record.js";
import { defaultMinTokens } from "./smallChunks.js";
import { splitSection as splitSectionPositional } from "./split.js";
import { splitMarkdownRecords } from "./structural.js";
import { tokenWindows } from "./tokenWindows.js";
import { ArgumentTypeError, ArgumentValueError, requireInt, requireMetadata, requireText } from "./validate.js";
import { pySplit } from "./whitespace.js";
import { chunkWindows } from "./windows.js";

/** The strategies this package computes (Python's `STRATEGY_NAMES` less `recursive`). */
export const STRATEGIES = ["heading", "structural", "window", "pages"] as const;

/** One of {@link STRATEGIES}. */
export type Strategy = (typeof STRATEGIES)[number];

/** The options of {@link chunkDocument}; only `docId` is required. */
export interface ChunkDocumentOptions {
  /** The document id: records are `${docId}:0`, `${docId}:1`, ... */
  docId: string;
  /** The title; default: the first level-1 Markdown heading (`heading`, `structural`), else `docId`. */
  title?: string;
  /** Where the document came from, copied into each record's `source`; default `""`. */
  source?: string;
  /** The strategy; default `"heading"`. */
  strategy?: Strategy;
  /** The budget per chunk in tokens of the counter; default 512. */
  maxTokens?: number;
  /**
   * Tokens shared by neighbours (`heading`, `window`, `pages`); default
   * `min(64, floor(maxTokens / 8))`, `pages` `floor(maxTokens / 4)`.
   */
  overlapTokens?: number;
  /**
   * `"whitespace"` words (default; unicode units on text with a script written without
   * spaces, SCRIPT-6), `"unicode"` units (COUNT-11, SCRIPT-3) or, for `window` only,
   * `"chars1"` characters (code points).
   */
  counter?: "whitespace" | "unicode" | "chars1";
  /**
   * `heading` and `structural`: merge chunks under this many tokens, and heading-only chunks,
   * with their section's neighbours (SIZE-3 to SIZE-7); default `min(64, floor(maxTokens / 8))`
   * for those two strategies (SIZE-2), 0 (the only value allowed) for `window` and `pages`
   * (SIZE-1). 0 turns merging off.
   */
  minTokens?: number;
  /**
   * `heading` and `structural`: the budget covers the embedded text (the heading trail, a
   * blank line, the text; SIZE-8, SIZE-9) and each record's `tokens` counts it (RECORD-17);
   * default false.
   */
  budgetIncludesHeadings?: boolean;
  /** `structural` only: the budget counts the heading trail too; default false. */
  countHeadings?: boolean;
  /** `structural` only: split a table over the budget by rows; default false. */
  splitTables?: boolean;
  /**
   * The caller's document metadata (META-9): a JSON object every record's `metadata`
   * carries, over the front matter's fields (META-3); default `{}`.
   */
  metadata?: Record<string, JsonValue>;
}

/** The options of the options-object {@link splitSection}. */
export interface SplitSectionOptions {
  docId: string;
  /** Default: `docId`. */
  title?: string;
  text: string;
  maxTokens: number;
}

/** The options of the options-object {@link assemble}. */
export interface AssembleOptions {
  budget: number;
  /** Default 0.35. */
  minScore?: number;
}

const KNOWN = new Set([
  "docId", "title", "source", "strategy", "maxTokens", "overlapTokens", "counter", "countHeadings",
  "splitTables", "metadata", "minTokens", "budgetIncludesHeadings",
]);

function plainObject(argument: string, value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ArgumentTypeError(argument, "an options object", value);
  }
  return value as Record<string, unknown>;
}

function optionalBool(name: string, value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== "boolean") throw new ArgumentTypeError(name, "a boolean", value);
  return value;
}

/**
 * SOURCE-5: the front matter's `title` field, whitespace folded, when not blank (FM-4); else
 * the first level-1 heading with a non-blank title, whitespace folded; else `docId`.
 */
function markdownTitle(text: string, docId: string): string {
  const fromFrontMatter = pySplit(frontMatterFields(text)["title"] ?? "").join(" ");
  if (fromFrontMatter !== "") return fromFrontMatter;
  for (const block of parseMarkdownBlocks(text)) {
    if (block.kind === "heading" && block.level === 1) {
      const words = pySplit(block.text);
      if (words.length > 0) return words.join(" ");
    }
  }
  return docId;
}

/**
 * The chunk records of `text` (NPM-2): Python's
 * `chunk_document(document_from_text(text, doc_id=docId, input_format=F, title=title,
 * source=source), strategy, ...)`, with F `markdown` for `heading` and `structural` and
 * `text` for `window` and `pages` (whose records then carry no heading path); a text with a
 * form feed is paged (SOURCE-4) under every strategy. Offsets
 * (`start`, `end`) count code points, as Python's do: slice with `Array.from(text)`, not
 * `text.slice`. A bad option throws ArgumentTypeError (a TypeError) or ArgumentValueError
 * (a RangeError) naming it.
 */
export function chunkDocument(text: string, options: ChunkDocumentOptions): ChunkRecord[] {
  requireText("text", text);
  const given = plainObject("options", options);
  for (const key of Object.keys(given)) {
    if (!KNOWN.has(key)) throw new ArgumentValueError("options", `has no option ${JSON.stringify(key)}`, key);
  }
  const docId = requireText("docId", given["docId"]);
  const strategy = given["strategy"] === undefined ? "heading" : given["strategy"];
  if (typeof strategy !== "string" || !(STRATEGIES as readonly string[]).includes(strategy)) {
    throw new ArgumentValueError("strategy", `must be one of ${STRATEGIES.join(", ")}`, strategy);
  }
  const maxTokens = given["maxTokens"] === undefined ? 512 : requireInt("maxTokens", given["maxTokens"], 1);
  const source = given["source"] === undefined ? "" : requireText("source", given["source"]);
  const countHeadings = optionalBool("countHeadings", given["countHeadings"]);
  const splitTables = optionalBool("splitTables", given["splitTables"]);
  const counter = given["counter"] === undefined ? "whitespace" : given["counter"];
  if (counter !== "whitespace" && counter !== "unicode" && counter !== "chars1") {
    throw new ArgumentValueError("counter", "must be whitespace, unicode or chars1", counter);
  }
  const unicode = counter === "unicode";
  if (counter === "chars1" && strategy !== "window") {
    throw new ArgumentValueError("counter", `belongs to strategy window, not ${strategy}`, counter);
  }
  if ((countHeadings || splitTables) && strategy !== "structural") {
    const name = countHeadings ? "countHeadings" : "splitTables";
    throw new ArgumentValueError(name, `belongs to strategy structural, not ${strategy}`, true);
  }
  let overlap: number;
  if (given["overlapTokens"] === undefined) {
    overlap = strategy === "pages" ? Math.floor(maxTokens / 4) : Math.min(64, Math.floor(maxTokens / 8));
  } else if (strategy === "structural") {
    throw new ArgumentValueError("overlapTokens", "has no effect with strategy structural", given["overlapTokens"]);
  } else {
    overlap = requireInt("overlapTokens", given["overlapTokens"], 0);
  }
  const markdown = strategy === "heading" || strategy === "structural";
  let minTokens = defaultMinTokens(strategy, maxTokens); // SIZE-2
  if (given["minTokens"] !== undefined) {
    minTokens = requireInt("minTokens", given["minTokens"], 0);
    if (minTokens > 0 && !markdown) {
      throw new ArgumentValueError("minTokens", `applies to heading, structural, not ${strategy} (SIZE-1)`, minTokens);
    }
    if (minTokens > maxTokens) throw new ArgumentValueError("minTokens", `must be <= maxTokens (${maxTokens})`, minTokens);
  }
  const budgetIncludesHeadings = optionalBool("budgetIncludesHeadings", given["budgetIncludesHeadings"]);
  if (budgetIncludesHeadings && !markdown) {
    throw new ArgumentValueError("budgetIncludesHeadings", `applies to heading, structural, not ${strategy} (SIZE-1)`, true);
  }
  const caller = given["metadata"] === undefined ? {} : requireMetadata("metadata", given["metadata"]);
  if (markdown) refuseUnreadAccessKeys(text, source === "" ? docId : source, caller); // TRUST-3
  const title = given["title"] === undefined
    ? (markdown ? markdownTitle(text, docId) : docId)
    : requireText("title", given["title"]);
  let records: ChunkRecord[];
  if (strategy === "heading") {
    records = headingAwareRecords(docId, title, text, maxTokens, overlap, unicode, minTokens, budgetIncludesHeadings, caller);
  } else if (strategy === "structural") {
    records = splitMarkdownRecords(
      docId, title, text, maxTokens, countHeadings, splitTables, unicode, minTokens, budgetIncludesHeadings, caller,
    );
  } else if (strategy === "pages") {
    records = chunkPages(docId, title, text.split(PAGE_SEPARATOR), maxTokens, overlap, unicode);
  } else {
    records = counter === "chars1"
      ? chunkWindows(docId, title, text, maxTokens, overlap)
      : tokenWindows(docId, title, text, maxTokens, overlap, unicode);
  }
  if (strategy !== "pages" && text.includes(PAGE_SEPARATOR)) records = paged(text, records);
  if (given["metadata"] !== undefined || markdown) {
    // META-3, META-9: the front matter's fields (Markdown strategies), the caller's over them
    const fields = markdown ? frontMatterFields(text) : {};
    const merged = requireMetadata("metadata", { ...fields, ...caller });
    records = records.map((record) => ({ ...record, metadata: merged as ChunkRecord["metadata"] }));
  }
  return source === "" ? records : records.map((record) => ({ ...record, source }));
}

/**
 * SOURCE-4: a text holding a form feed is paged; a record's pages are those holding
 * `text[start]` and `text[end - 1]` (code points), page k starting after the (k-1)th form feed.
 */
function paged(text: string, records: ChunkRecord[]): ChunkRecord[] {
  const before: number[] = [0]; // before[i]: form feeds at code points < i
  for (const ch of text) before.push((before[before.length - 1] ?? 0) + (ch === PAGE_SEPARATOR ? 1 : 0));
  const page = (at: number): number => 1 + (before[at] ?? 0);
  return records.map((r) => ({ ...r, page_start: page(r.start), page_end: page(Math.max(r.start, r.end - 1)) }));
}

/** Seed 000's splitter with an options object: `splitSection({docId, title, text, maxTokens})`. */
export function splitSection(options: SplitSectionOptions): Chunk[];
/** Seed 000's splitter, positional, exactly as before (SPLIT-1 to SPLIT-13). */
export function splitSection(docId: string, title: string, text: string, maxTokens: number): Chunk[];
export function splitSection(...args: unknown[]): Chunk[] {
  const [first] = args;
  if (args.length === 1 && first !== null && typeof first === "object" && !Array.isArray(first)) {
    const o = first as Record<string, unknown>;
    for (const key of Object.keys(o)) {
      if (!["docId", "title", "text", "maxTokens"].includes(key)) {
        throw new ArgumentValueError("options", `has no option ${JSON.stringify(key)}`, key);
      }
    }
    const docId = requireText("docId", o["docId"]);
    const title = o["title"] === undefined ? docId : requireText("title", o["title"]);
    return splitSectionPositional(docId, title, requireText("text", o["text"]), requireInt("maxTokens", o["maxTokens"], 1));
  }
  return (splitSectionPositional as (...a: unknown[]) => Chunk[])(...args);
}

/** Seed 000's packer with an options object: `assemble(chunks, {budget, minScore})`. */
export function assemble(chunks: Iterable<Chunk>, options: AssembleOptions): [string, string[]] | null;
/** Seed 000's packer, positional, exactly as before (PACK-1 to PACK-13). */
export function assemble(chunks: Iterable<Chunk>, budget: number, minScore?: number): [string, string[]] | null;
export function assemble(...args: unknown[]): [string, string[]] | null {
  const [chunks, second] = args;
  if (args.length === 2 && second !== null && typeof second === "object" && !Array.isArray(second)) {
    const o = second as Record<string, unknown>;
    for (const key of Object.keys(o)) {
      if (key !== "budget" && key !== "minScore") {
        throw new ArgumentValueError("options", `has no option ${JSON.stringify(key)}`, key);
      }
    }
    const rest: unknown[] = [chunks, o["budget"]];
    if (o["minScore"] !== undefined) rest.push(o["minScore"]);
    return (assemblePositional as (...a: unknown[]) => [string, string[]] | null)(...rest);
  }
  return (assemblePositional as (...a: unknown[]) => [string, string[]] | null)(...args);
}
