/**
 * The one loop from spans to records (RECORD-10 to RECORD-14), as Python's
 * `_records/_chunk_document.py` `records_of`: every strategy hands back spans
 * ({@link Span}) and this loop turns them into records, so `chunkDocument` and the positional
 * chunkers write the same records for the same input: tokens, hash, pages, section, title,
 * strategy, metadata and the stable key.
 */

import { bisectRight } from "./bisect.js";
import { utf16Index } from "./codepoints.js";
import { fault } from "./faults.js";
import { hashText } from "./hashing.js";
import { withKeys } from "./keys.js";
import type { Block } from "./markdown.js";
import type { ChunkRecord, JsonValue } from "./record.js";
import { embedded, type Span } from "./span.js";
import { type Counter, counterNamed } from "./counters.js";
import { hasClusterScript } from "./units.js";
import { pyStrip } from "./whitespace.js";

export type { Counter } from "./counters.js";

/** What a document gives its records (Python's `SourceDocument`, as the loop reads it). */
export interface SourceDocument {
  docId: string;
  title: string;
  /** Copied into each record's `source`. */
  source: string;
  text: string;
  /** The page texts (SOURCE-4, PAGE-2: the text is them joined by a form feed), or null. */
  pages: string[] | null;
  /** META-1: the one object every record's `metadata` carries. */
  metadata: { [key: string]: JsonValue };
  /**
   * The top-level blocks when the text is not Markdown (a page's, HTML-8), UTF-16 offsets
   * into `text`; absent: `heading` and `structural` read `text` as Markdown.
   */
  blocks?: readonly Block[];
  /**
   * FM-2: where a Markdown text's body starts after its front matter (a UTF-16 offset into
   * `text`); absent or 0: no front matter. `window` and `pages` do not window the front matter.
   */
  bodyStart?: number;
}

/** The checked options the spans functions and the record loop read (Python's `ChunkOptions`). */
export interface RecordOptions {
  strategy: string;
  maxTokens: number;
  /** The overlap in tokens; null for a strategy that does not overlap (CHUNK-6). */
  overlap: number | null;
  /** SIZE-2: the smallest chunk in tokens (0: no merging). */
  minTokens: number;
  countHeadings: boolean;
  splitTables: boolean;
  budgetIncludesHeadings: boolean;
  /** The counter, SCRIPT-6 applied ({@link scriptCounter}). */
  counter: Counter;
  /** RECORD-14: a document without pages is page 1 (the `pages` strategy). */
  pageNumbers: boolean;
}

/** Options with Python's `ChunkOptions` defaults for the fields not given (no overlap, no merging). */
export function optionsOf(
  given: Pick<RecordOptions, "strategy" | "maxTokens" | "counter"> & Partial<RecordOptions>,
): RecordOptions {
  return {
    overlap: null, minTokens: 0, countHeadings: false, splitTables: false, budgetIncludesHeadings: false,
    pageNumbers: false, ...given,
  };
}

/** A positional chunker's document: no source, pages or caller metadata. */
export function textDocument(
  docId: string, title: string, text: string, metadata: SourceDocument["metadata"] = {},
): SourceDocument {
  return { docId, title, source: "", text, pages: null, metadata };
}

/**
 * SCRIPT-6: `whitespace` counts `unicode` units on a text holding a script written without
 * spaces (Python's `script_options`; this package has no `recursive`).
 */
export function scriptCounter(counter: Counter, text: string): Counter {
  return counter === "whitespace" && hasClusterScript(text) ? "unicode" : counter;
}

/** SOURCE-7: a blank text (Python's whitespace) has no record. */
export function isBlankDocument(text: string): boolean {
  return pyStrip(text) === "";
}

/**
 * RECORD-6, RECORD-16: `name:max_tokens=N[,overlap_tokens=M][,min_tokens=K][,flag=true...]`;
 * `min_tokens` only when it is not 0.
 */
export function strategyString(options: RecordOptions): string {
  const parts = [`max_tokens=${options.maxTokens}`];
  const chars = options.strategy === "window" && options.counter === "chars1";
  if (options.overlap !== null && !(chars && fault("window-strategy-no-overlap"))) {
    parts.push(`overlap_tokens=${options.overlap}`);
  }
  if (options.minTokens > 0) parts.push(`min_tokens=${options.minTokens}`);
  const flags = !(options.strategy === "structural" && fault("md-strategy-flags"));
  if (options.countHeadings && flags) parts.push("count_headings=true");
  if (options.splitTables && flags) parts.push("split_tables=true");
  if (options.budgetIncludesHeadings) parts.push("budget_includes_headings=true");
  return `${options.strategy}:${parts.join(",")}`;
}

/** RECORD-12: a heading chunk's own title, else the innermost heading of its path. */
function section(path: string[], kind: string, text: string): string | null {
  if (kind === "heading") return text;
  const last = path[path.length - 1];
  if (last === undefined) return null;
  const blank = fault("md-section-trim") || fault("ha-section-trim") ? last.trim() === "" : pyStrip(last) === "";
  return blank ? null : last;
}

/**
 * The one loop from spans to records (Python's `records_of`): ids `docId:index`; `tokens`
 * the span's count, else the counter's count of the text, or of the embedded text under
 * `budgetIncludesHeadings` (SIZE-8, RECORD-17); pages when the document has pages or the
 * strategy numbers them (RECORD-14); every record's stable key (KEY-1).
 */
export function recordsOf(document: SourceDocument, options: RecordOptions, spans: readonly Span[]): ChunkRecord[] {
  const { docId, title, source, text: full, metadata } = document;
  const at = utf16Index(full);
  const count = counterNamed(options.counter).count; // RECORD-14
  const counter = options.counter;
  const strategy = strategyString(options);
  const { maxTokens, budgetIncludesHeadings: trail } = options;
  let pageStarts: number[] | null = null;
  if (document.pages !== null || options.pageNumbers) {
    pageStarts = [];
    let position = 0;
    for (const page of document.pages ?? [full]) {
      pageStarts.push(position);
      position += Array.from(page).length + 1;
    }
  }
  return withKeys(spans.map((span, index): ChunkRecord => {
    const { start, end, kind, headingPath, prefix } = span;
    const text = span.text ?? prefix + full.slice(at(start), at(end));
    const tokens = trail ? count(embedded(headingPath, text)) : (span.tokens ?? count(text));
    let first: number | null = null;
    let last: number | null = null;
    if (pageStarts !== null) {
      first = bisectRight(pageStarts, start);
      last = bisectRight(pageStarts, Math.max(start, end - 1));
    }
    return {
      id: `${docId}:${index}`, doc_id: docId, index, text, start, end, tokens, counter,
      content_hash: hashText(text), kind, heading_path: headingPath, parent_id: span.parentId,
      page_start: first, page_end: last, section: span.section ?? section(headingPath, kind, text), prefix,
      oversized: tokens > maxTokens, title, source, strategy, metadata,
    };
  }));
}
