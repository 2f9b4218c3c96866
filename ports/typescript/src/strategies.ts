/**
 * The strategy registry: name -> spans function and the options that apply (OPT-5), as
 * Python's `_chunkers/_strategies.py`. `chunkDocument` and its option checks
 * (`options.ts`) read the strategies from this table; a strategy's spans go through the one
 * record loop (`records.ts`).
 */

import { headingSpans } from "./headingAware.js";
import { fault } from "./faults.js";
import { PAGE_SEPARATOR, pageSpans, quarterOverlap } from "./pages.js";
import { counterNamed } from "./counters.js";
import { type Counter, isBlankDocument, type RecordOptions, type SourceDocument } from "./records.js";
import type { Span } from "./span.js";
import { structuralSpans } from "./structural.js";
import { tokenWindowSpans } from "./tokenWindows.js";
import { charWindowSpans } from "./windows.js";

/** The strategies this package computes, in registry order (Python's less `recursive`). */
export const STRATEGIES = ["heading", "structural", "window", "pages"] as const;

/** One of {@link STRATEGIES}. */
export type Strategy = (typeof STRATEGIES)[number];

/** A strategy's one entry point: the spans of a document under checked options. */
export type SpansFunction = (document: SourceDocument, options: RecordOptions) => Span[];

/** The boolean options that belong to some strategies only (under their option names). */
export type Flag = "countHeadings" | "splitTables";

/**
 * One strategy: its spans function, its default overlap and the options it takes.
 *
 * `defaultOverlap` maps `maxTokens` to RECORD-13's default overlap; null means the strategy
 * does not overlap and refuses `overlapTokens` (CHUNK-6), and `overlapBelowBudget` that it
 * refuses an overlap of `maxTokens` or more (WIN-3, PAGE-1). `flags` are the boolean options
 * only this strategy takes. `pageNumbers` gives a document without pages page 1 in its
 * records (RECORD-14). `retrieval` marks the strategies that take `minTokens` and
 * `budgetIncludesHeadings` (SIZE-1). `markdown`: the strategy reads the document's blocks
 * itself and its spans carry their heading paths; the others' spans get RECORD-12's. `counters`: the counters it takes in this package.
 */
export interface StrategyEntry {
  readonly name: Strategy;
  readonly spans: SpansFunction;
  readonly defaultOverlap: ((maxTokens: number) => number) | null;
  readonly overlapBelowBudget: boolean;
  readonly flags: readonly Flag[];
  readonly pageNumbers: boolean;
  readonly retrieval: boolean;
  readonly markdown: boolean;
  readonly counters: readonly Counter[];
}

/**
 * FM-2: the spans `windows` gives of a Markdown document's body, the text after its front
 * matter, in offsets of the whole text (Python's `window_spans` and `page_spans`). `paged`:
 * the front matter's page breaks are kept before the body, so page numbers stay the text's.
 */
function afterFrontMatter(document: SourceDocument, paged: boolean, windows: (text: string) => Span[]): Span[] {
  const body = fault("doc-window-front-matter") ? 0 : (document.bodyStart ?? 0);
  if (body === 0) return windows(document.text);
  const head = document.text.slice(0, body);
  const breaks = paged ? head.split(PAGE_SEPARATOR).length - 1 : 0;
  const shift = Array.from(head).length - breaks;
  return windows(PAGE_SEPARATOR.repeat(breaks) + document.text.slice(body)).map(
    (span) => ({ ...span, start: span.start + shift, end: span.end + shift }),
  );
}

/** CHUNK-6's default overlap: `min(64, floor(maxTokens / 8))`. */
function chunk6(maxTokens: number): number {
  return Math.min(64, Math.floor(maxTokens / 8));
}

/** The counters of every strategy but character windows: token counters (RECORD-5). */
const TOKEN_COUNTERS: readonly Counter[] = ["whitespace", "unicode", "subword"];

/** RECORD-10: strategy name -> {@link StrategyEntry}, in the order of {@link STRATEGIES}. */
export const REGISTRY: { readonly [name in Strategy]: StrategyEntry } = {
  heading: {
    name: "heading", spans: headingSpans, defaultOverlap: chunk6, overlapBelowBudget: false, flags: [],
    pageNumbers: false, retrieval: true, markdown: true, counters: TOKEN_COUNTERS,
  },
  structural: {
    name: "structural", spans: structuralSpans, defaultOverlap: null, overlapBelowBudget: false,
    flags: ["countHeadings", "splitTables"], pageNumbers: false, retrieval: true, markdown: true,
    counters: TOKEN_COUNTERS,
  },
  window: {
    name: "window",
    spans: (document, { maxTokens, overlap, counter }) => afterFrontMatter(document, false, (text) => counter === "chars1"
      ? charWindowSpans(text, maxTokens, overlap ?? 0)
      : tokenWindowSpans(text, maxTokens, overlap ?? 0, counterNamed(counter))),
    defaultOverlap: chunk6, overlapBelowBudget: true, flags: [], pageNumbers: false, retrieval: false,
    markdown: false, counters: [...TOKEN_COUNTERS, "chars1"],
  },
  pages: {
    name: "pages",
    spans: (document, { maxTokens, overlap, counter }) => afterFrontMatter(
      // a body of blank pages has no chunk (PAGE-5; SOURCE-7's test saw the whole text,
      // front matter included)
      document, true, (text) => isBlankDocument(text) ? [] : pageSpans(text, maxTokens, overlap ?? 0, counterNamed(counter)),
    ),
    defaultOverlap: quarterOverlap, overlapBelowBudget: true, flags: [], pageNumbers: true, retrieval: false,
    markdown: false, counters: TOKEN_COUNTERS,
  },
};

/** The registered strategies `keep` selects, in registry order. */
export function strategiesWhere(keep: (entry: StrategyEntry) => boolean): Strategy[] {
  return STRATEGIES.filter((name) => keep(REGISTRY[name]));
}
