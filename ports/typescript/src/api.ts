/**
 * The options-object API (NPM-2): `chunkDocument(text, {docId, strategy, maxTokens, ...})`
 * and `splitSection({docId, title, text, maxTokens})`. `chunkDocument` checks its options
 * once (`options.ts`), takes the strategy's spans from the registry (`strategies.ts`) and
 * makes records by the one loop (`records.ts`), as the positional functions do, whose calls
 * keep working exactly as before.
 */

import { assemble as assemblePositional } from "./assemble.js";
import type { Chunk } from "./chunk.js";
import { pageBlocks } from "./html.js";
import { fault } from "./faults.js";
import { withHeadingPaths } from "./headingPaths.js";
import { type Block, lineTable, parseMarkdownBlocks } from "./markdown.js";
import { checkOptions } from "./options.js";
import { PAGE_SEPARATOR } from "./pages.js";
import { frontMatterEnd, frontMatterFields, InputError, refuseUnreadAccessKeys } from "./frontMatter.js";
import type { ChunkRecord, JsonValue } from "./record.js";
import { isBlankDocument, recordsOf, scriptCounter, type SourceDocument } from "./records.js";
import { splitSection as splitSectionPositional } from "./split.js";
import { REGISTRY, STRATEGIES, type Strategy } from "./strategies.js";
import { ArgumentTypeError, ArgumentValueError, requireInt, requireMetadata, requireText } from "./validate.js";
import { isBlank, pySplit } from "./whitespace.js";

export { STRATEGIES, type Strategy };

/** The options of {@link chunkDocument}; only `docId` is required. */
export interface ChunkDocumentOptions {
  /** The document id: records are `${docId}:0`, `${docId}:1`, ... */
  docId: string;
  /**
   * The title; default: SOURCE-5's for Markdown (the front matter's `title`, else the first
   * level-1 heading), HTML-13's for a page, else `docId`.
   */
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
   * `"whitespace"` words (unicode units on text with a script written without spaces,
   * SCRIPT-6), `"unicode"` units (COUNT-11, SCRIPT-3), `"subword"` units (an estimate of
   * model tokens in every script, COUNT-12, SCRIPT-30..SCRIPT-33; windows cut by SCRIPT-10)
   * or, for `window` only, `"chars1"` characters (code points). Default: the strategy's
   * `defaultCounter` (options.ts), `"whitespace"` for every strategy today.
   */
  counter?: "whitespace" | "unicode" | "subword" | "chars1";
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
  /**
   * How `text` is read, under every strategy (NPM-5): `"markdown"` (the default, as a `.md`
   * file: its front matter, headings and title), `"text"` (plain text: no front matter,
   * headings or title from the text) or `"html"`: `text` is a page's markup, read as a
   * browser shows it (HTML-1..HTML-21, parse5): the records index the page's rendered text,
   * its blocks feed `heading` and `structural`, its `<title>` is the default title and its
   * `<meta>` description, author, keywords and `<html lang>` the metadata (HTML-13, HTML-14).
   */
  inputFormat?: "markdown" | "text" | "html";
  /** `html` only: keep navigation, banners, footers and asides (HTML-11); default false. */
  keepFurniture?: boolean;
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
  "splitTables", "metadata", "minTokens", "budgetIncludesHeadings", "inputFormat", "keepFurniture",
]);

function plainObject(argument: string, value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ArgumentTypeError(argument, "an options object", value);
  }
  return value as Record<string, unknown>;
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
 * The chunk records of `text` (NPM-1): Python's
 * `chunk_document(document_from_text(text, doc_id=docId, input_format=F, title=title,
 * source=source), strategy, ...)`, F the `inputFormat`, `markdown` when it is left out, under
 * every strategy (NPM-5): a Markdown text's title is SOURCE-5's, its front matter's fields are
 * every record's metadata under the caller's (META-3), an access key it sets in a form FM-3
 * cannot read refuses it (TRUST-3), `window` and `pages` leave its front matter out (FM-2)
 * and give each chunk the heading path where it starts (RECORD-12). A `text` text has no
 * headings, front matter or title but `docId`; its blocks are MD-12's paragraphs. A text
 * with a form feed is paged (SOURCE-4) under every strategy. Offsets (`start`, `end`) count
 * code points, as Python's do: slice with `Array.from(text)`, not `text.slice`. A bad option
 * throws ArgumentTypeError (a TypeError) or ArgumentValueError (a RangeError) naming it, with
 * the wording of Python's `ChunkOptions` (`checkOptions`).
 */
export function chunkDocument(text: string, options: ChunkDocumentOptions): ChunkRecord[] {
  requireText("text", text);
  const given = plainObject("options", options);
  for (const key of Object.keys(given)) {
    if (!KNOWN.has(key)) throw new ArgumentValueError("options", `has no option ${JSON.stringify(key)}`, key);
  }
  const docId = requireText("docId", given["docId"]);
  const source = given["source"] === undefined ? "" : requireText("source", given["source"]);
  const checked = checkOptions(given); // OPT-1, by the registry (OPT-5)
  const entry = REGISTRY[checked.strategy as Strategy];
  const caller = given["metadata"] === undefined ? {} : requireMetadata("metadata", given["metadata"]);
  const format = given["inputFormat"] ?? "markdown"; // NPM-5: a .md file's format
  if (format !== "markdown" && format !== "text" && format !== "html") {
    throw new ArgumentValueError("inputFormat", "must be one of markdown, text, html", format);
  }
  const keep = given["keepFurniture"];
  if (keep !== undefined && typeof keep !== "boolean") throw new ArgumentTypeError("keepFurniture", "a bool", keep);
  if (format === "html") {
    return chunkPage(text, docId, source, given["title"], caller as Record<string, JsonValue>, keep === true, checked, entry);
  }
  const markdown = format === "markdown" && !fault("doc-read-as-text");
  if (markdown) refuseUnreadAccessKeys(text, source === "" ? docId : source, caller); // TRUST-3
  const title = given["title"] === undefined
    ? (markdown ? markdownTitle(text, docId) : docId)
    : requireText("title", given["title"]);
  if (isBlankDocument(text)) return []; // SOURCE-7
  // META-3, META-9: the front matter's fields (a Markdown text's), the caller's over them
  const fields = markdown ? frontMatterFields(text) : {};
  const metadata = requireMetadata("metadata", { ...fields, ...caller }) as SourceDocument["metadata"];
  const pages = text.includes(PAGE_SEPARATOR) ? text.split(PAGE_SEPARATOR) : null; // SOURCE-4
  const document: SourceDocument = { docId, title, source, text, pages, metadata };
  if (markdown) {
    document.bodyStart = frontMatterEnd(text, ...lineTable(text)); // FM-2
  } else {
    document.blocks = textBlocks(text); // MD-12
  }
  const chosen = { ...checked, counter: scriptCounter(checked.counter, text) }; // SCRIPT-6
  let spans = entry.spans(document, chosen);
  if (markdown && !entry.markdown) spans = withHeadingPaths(text, parseMarkdownBlocks(text), spans); // RECORD-12
  return recordsOf(document, chosen, spans);
}

/**
 * MD-12: plain text's blocks, each run of non-blank lines one `paragraph` (Python's
 * `parse_text`; a line is blank when it is Python whitespace only).
 */
function textBlocks(text: string): Block[] {
  const [starts, ends] = lineTable(text);
  const blocks: Block[] = [];
  let first = -1;
  for (let i = 0; i <= starts.length; i++) {
    const blank = i === starts.length || isBlank(text.slice(starts[i] ?? 0, ends[i] ?? 0));
    if (blank && first >= 0) {
      const start = starts[first] ?? 0;
      const end = ends[i - 1] ?? 0;
      blocks.push({ kind: "paragraph", text: text.slice(start, end), start, end, level: 0 });
      first = -1;
    } else if (!blank && first < 0) {
      first = i;
    }
  }
  return blocks;
}

/**
 * A page's records (HTML-16): the page read (HTML-3), its title (HTML-13: `<title>`, else
 * the first level-1 heading, else `docId`), its metadata under the caller's (HTML-14), a
 * page naming an access key in its `meta` the caller does not set refused (HTML-15).
 */
function chunkPage(
  markup: string, docId: string, source: string, givenTitle: unknown, caller: Record<string, JsonValue>,
  keepFurniture: boolean, checked: ReturnType<typeof checkOptions>, entry: (typeof REGISTRY)[Strategy],
): ChunkRecord[] {
  const page = pageBlocks(markup, keepFurniture);
  for (const key of page.accessNames) {
    if (caller[key] === undefined || caller[key] === null) {
      throw new InputError(
        `${source === "" ? docId : source}: a <meta name='${key}'> is not read as an access label (HTML-15); ` +
          "give access labels as caller metadata (--metadata sidecar, metadata=)",
      );
    }
  }
  let title = givenTitle === undefined ? null : requireText("title", givenTitle);
  if (title === null && page.title) title = page.title;
  if (title === null) {
    const first = page.blocks.find((b) => b.kind === "heading" && b.level === 1 && pySplit(b.text).length > 0);
    title = first === undefined ? docId : pySplit(first.text).join(" ");
  }
  const { text } = page;
  if (isBlankDocument(text)) return []; // SOURCE-7
  const metadata = requireMetadata("metadata", { ...page.meta, ...caller }) as SourceDocument["metadata"];
  const document: SourceDocument = { docId, title, source, text, pages: null, metadata, blocks: page.blocks };
  const chosen = { ...checked, counter: scriptCounter(checked.counter, text) }; // SCRIPT-6
  let spans = entry.spans(document, chosen);
  if (!entry.markdown) spans = withHeadingPaths(text, page.blocks, spans);
  return recordsOf(document, chosen, spans);
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
