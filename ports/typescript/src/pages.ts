/**
 * The page-aware chunker (PAGE-1..PAGE-15): the spans of strategy `pages` and `chunkPages`,
 * their records (RECORD-1):
 * `chunk_document(SourceDocument(docId, join_pages(pages), "text", title, pages), "pages")`
 * with the whitespace counter.
 *
 * `full_text` is the pages joined by a form feed (PAGE-2); windows of whitespace tokens
 * (COUNT-4) end at the last sentence end in their last fifth (PAGE-9), are stripped of
 * Python whitespace (PAGE-5), and carry the first and last page they touch (PAGE-11).
 * Offsets are CODE POINTS (PAGE-6): the text is an array of code points, never indexed by
 * UTF-16 unit.
 */

import { fault } from "./faults.js";
import type { ChunkRecord } from "./record.js";
import { isBlankDocument, optionsOf, recordsOf, scriptCounter, textDocument } from "./records.js";
import type { Span } from "./span.js";
import { ArgumentTypeError, ArgumentValueError, requireInt, requireOverlapBelow, requireText } from "./validate.js";
import { codePointIndex } from "./codepoints.js";
import { counterNamed, type TokenCounter } from "./counters.js";
import { Cuts, splitClusters, Tokenized } from "./cuts.js";
import { countUnits, unitSpans } from "./units.js";
import { wordSpans } from "./wordSpans.js";
import { countWords, isSpace } from "./whitespace.js";
import { CLOSERS, TERMINATORS, WIDE_TERMINATORS } from "./sentences.js";

/** The character between pages in `full_text` (PAGE-2). */
export const PAGE_SEPARATOR = "\f";

const JS_SPACE = /\s/;
/** Seed 004's marks: what the old PAGE-9 took (planted fault pages-ascii-terminators). */
const MARKS = new Set([".", "?", "!"]);

/** `join_pages(pages)`: validate the page texts (PAGE-1, PAGE-2) and join them with "\f". */
export function joinPages(pages: unknown): string {
  if (!Array.isArray(pages)) throw new ArgumentTypeError("pages", "a sequence of str or of Page", pages);
  pages.forEach((page: unknown, i) => {
    if (typeof page !== "string") throw new ArgumentTypeError(`pages[${i}]`, "a str or a Page", page);
    requireText(`pages[${i}]`, page);
    if (page.includes(PAGE_SEPARATOR)) {
      throw new ArgumentValueError(
        `pages[${i}]`, "must not contain a form feed (U+000C), the page separator", page,
      );
    }
  });
  return (pages as string[]).join(PAGE_SEPARATOR);
}

/** `[a, b)` of `points[lo:hi]` stripped of whitespace (PAGE-5), or null when it is blank. */
function trim(points: readonly string[], lo: number, hi: number): [number, number] | null {
  if (fault("pages-js-trim")) {
    const piece = points.slice(lo, hi).join("");
    const kept = piece.trim();
    if (kept === "") return null;
    const a = lo + Array.from(piece.slice(0, piece.length - piece.trimStart().length)).length;
    return [a, a + Array.from(kept).length];
  }
  let a = lo;
  let b = hi;
  while (a < b && isSpace(points[a] ?? "")) a++;
  while (b > a && isSpace(points[b - 1] ?? "")) b--;
  return a < b ? [a, b] : null;
}

/** RECORD-13: the `pages` strategy's default overlap, `floor(maxTokens / 4)`. */
export function quarterOverlap(maxTokens: number): number {
  return fault("pages-default-overlap-shift") ? maxTokens >> 2 : Math.floor(maxTokens / 4);
}

/**
 * The spans of strategy `pages` over `full`, the pages joined by a form feed (PAGE-3..PAGE-10):
 * token windows ending at sentence ends, stripped; the record loop numbers their pages.
 */
export function pageSpans(full: string, maxTokens: number, overlap: number, counter: TokenCounter): Span[] {
  if (!counter.summable && !isBlankDocument(full)) {
    const tokens = new Tokenized(full, counter);
    return windowsByCount(tokens, maxTokens, overlap).map(([start, end, count]) => ({
      start, end, kind: "window", headingPath: [], parentId: null, prefix: "", text: tokens.slice(start, end), tokens: count,
    }));
  }
  const unicode = counter.name === "unicode";
  const points = fault("pages-utf16") ? full.split("") : Array.from(full);
  let units: { starts: number[]; ends: number[] } | undefined;
  if (unicode) {
    const cp = fault("pages-utf16") ? (i: number): number => i : codePointIndex(full);
    const spans = unitSpans(full);
    units = { starts: spans.map(([a]) => cp(a)), ends: spans.map(([, b]) => cp(b)) };
  }
  const ranges = isBlankDocument(full) ? [[0, points.length] as [number, number]] : windows(points, maxTokens, overlap, units);
  return ranges.map(([a, b]) => {
    const text = points.slice(a, b).join("");
    const tokens = unicode ? countUnits(text) : countWords(text); // RECORD-14
    return { start: a, end: b, kind: "window", headingPath: [], parentId: null, prefix: "", text, tokens };
  });
}

/** The chunk records of `pages` (PAGE rules; RECORD-13's default overlap is max_tokens // 4). */
export function chunkPages(
  docId: string, title: string, pages: unknown, maxTokens: number = 400, overlapTokens?: number | null,
  forceUnicode = false,
): ChunkRecord[] {
  requireText("doc_id", docId);
  const full = joinPages(pages);
  requireText("title", title);
  requireInt("max_tokens", maxTokens, 1); // PAGE-1
  const overlap = overlapTokens === undefined || overlapTokens === null
    ? quarterOverlap(maxTokens)
    : requireInt("overlap_tokens", overlapTokens, 0);
  requireOverlapBelow(maxTokens, overlap);
  if (isBlankDocument(full) && !fault("pages-blank-record")) return []; // SOURCE-7
  const counter = scriptCounter(forceUnicode ? "unicode" : "whitespace", full); // SCRIPT-6
  const options = optionsOf({ strategy: "pages", maxTokens, overlap, counter, pageNumbers: true });
  const pageTexts = pages as string[];
  // no page at all is one empty page (reached only by the planted pages-blank-record)
  const document = { ...textDocument(docId, title, full), pages: pageTexts.length === 0 ? null : pageTexts };
  let records = recordsOf(document, options, pageSpans(full, maxTokens, overlap, counterNamed(counter)));
  if (fault("pages-utf16") || fault("pages-page-from-zero") || fault("pages-page-end-inclusive") || fault("pages-start-page-only")) {
    records = records.map((r) => ({ ...r, ...faultyPages(pageTexts, r.start, r.end) }));
  }
  if (fault("pages-oversized-ge")) records = records.map((r) => ({ ...r, oversized: r.tokens >= maxTokens }));
  return records;
}

/** The planted page faults' page numbers (PAGE-11 broken four ways). */
function faultyPages(pages: string[], a: number, b: number): { page_start: number; page_end: number } {
  const pageStarts: number[] = [];
  let position = 0;
  for (const page of pages) {
    pageStarts.push(position);
    position += (fault("pages-utf16") ? page.length : Array.from(page).length) + 1;
  }
  const pageOf = (offset: number): number => {
    let k = 0;
    while (k + 1 < pageStarts.length && (pageStarts[k + 1] ?? 0) <= offset) k++;
    return fault("pages-page-from-zero") ? k : k + 1;
  };
  const first = pageOf(a);
  let last = pageOf(Math.max(a, b - 1));
  if (fault("pages-page-end-inclusive")) last = pageOf(b + 1); // a <= for a < in the page walk
  if (fault("pages-start-page-only")) last = first;
  return { page_start: first, page_end: last };
}

/** The chunks' stripped ranges `[a, b)` over `points` (PAGE-3..PAGE-10, whitespace counter). */
function windows(
  points: readonly string[], maxTokens: number, overlap: number,
  units?: { starts: number[]; ends: number[] },
): Array<[number, number]> {
  const { starts, ends } = units ?? wordSpans(points);
  const n = starts.length;
  const sentenceEnd = (j: number): boolean => endsSentence(points, starts[j] ?? 0, ends[j - 1] ?? 0);
  const out: Array<[number, number]> = [];
  let s = 0;
  for (;;) {
    let e = Math.min(s + maxTokens, n); // PAGE-4
    if (e < n && !fault("pages-no-sentence-break")) {
      // PAGE-9: the last sentence end in [max(s + floor(4m/5), s + overlap + 1), e].
      const floor = Math.max(s + Math.floor((4 * maxTokens) / 5), s + overlap + 1);
      if (fault("pages-sentence-first")) {
        for (let j = floor; j <= e; j++) if (sentenceEnd(j)) { e = j; break; }
      } else {
        for (let j = e; j >= floor; j--) if (sentenceEnd(j)) { e = j; break; }
      }
    }
    const lo = s === 0 ? 0 : (starts[s] ?? 0); // PAGE-5
    const hi = e === n ? points.length : (starts[e] ?? 0);
    const range = trim(points, lo, hi);
    const previous = out[out.length - 1];
    if (range !== null && (previous === undefined || range[1] > previous[1])) out.push(range);
    if (e === n) return out; // PAGE-10: no trailing scrap
    if (fault("pages-overlap-chars")) {
      // The mistake: back up overlap CHARACTERS from the cut, to the next token start.
      let next = s + 1;
      while (next < n && (starts[next] ?? 0) < hi - overlap) next++;
      s = Math.max(next, s + 1);
    } else {
      s = Math.max(e - overlap, s + 1); // PAGE-10
    }
  }
}

/**
 * PAGE-9: a cut at `q` (a token start) ends a sentence when only whitespace lies between a
 * sentence end of SENT-1, SENT-5 and SENT-6 and `q`: a maximal run of terminators, then the
 * maximal run of closers after it, followed by whitespace or holding a wide terminator
 * (。！？｡), which ends a sentence whatever follows. `gap`: where the token before ends (for
 * the planted pages-blank-line-sentence only).
 */
function endsSentence(points: readonly string[], q: number, gap: number): boolean {
  if (fault("pages-blank-line-sentence")) {
    // The mistake: a blank line (two line feeds before the next token) ends a sentence too.
    if (/\n[^\S\n]*\n/.test(points.slice(gap, q).join(""))) return true;
  }
  let p = q;
  while (p > 0 && isSpace(points[p - 1] ?? "")) p--;
  if (fault("pages-ascii-terminators")) {
    // The mistake: seed 004's marks only, '.', '?' or '!' right before the whitespace.
    return p < q && MARKS.has(points[p - 1] ?? "");
  }
  const next = points[p] ?? "";
  if (p < points.length && (TERMINATORS.has(next) || CLOSERS.has(next))) return false;
  let c = p;
  while (c > 0 && CLOSERS.has(points[c - 1] ?? "")) c--;
  let t = c;
  let wide = false;
  while (t > 0 && TERMINATORS.has(points[t - 1] ?? "")) {
    t--;
    if (WIDE_TERMINATORS.has(points[t] ?? "")) wide = true;
  }
  if (t === c) return false;
  if (fault("pages-wide-stop-needs-space")) wide = false;
  if (fault("pages-js-space-sentence") && p < q && !JS_SPACE.test(points[p] ?? "")) return false;
  return wide || p === points.length || isSpace(points[p] ?? "");
}

/**
 * The chunks' stripped ranges `[a, b, count]` under a counter whose token starts are not all
 * cuts (`subword`; Python's `_windows` with SCRIPT-10's cuts): PAGE-4's windows ending at
 * cuts, the last sentence end in their last fifth (PAGE-9), a window whose stripped text
 * re-counts over the budget giving back one cut at a time (PAGE-7), a window with no cut
 * inside split at clusters (PAGE-8), the next starting at the last cut at or before
 * `end - overlap` (PAGE-10).
 */
function windowsByCount(tokens: Tokenized, maxTokens: number, overlap: number): Array<[number, number, number]> {
  const { points } = tokens;
  const nTokens = tokens.starts.length;
  const n = points.length;
  const out: Array<[number, number, number]> = [];
  if (nTokens === 0) {
    const range = trim(points, 0, n);
    if (range !== null) out.push([range[0], range[1], tokens.count(range[0], range[1])]);
    return out;
  }
  const cuts = new Cuts(tokens);
  const starts = cuts.positions;
  let s = 0;
  for (;;) {
    let e = Math.min(s + maxTokens, nTokens);
    e = cuts.atOrBefore(e, s + 1) ?? cuts.after(e); // SCRIPT-10
    if (e < nTokens) {
      const floor = Math.max(s + Math.floor((4 * maxTokens) / 5), s + overlap + 1); // PAGE-9
      for (let j = e; j >= floor; j--) {
        if (cuts.isCut(j) && endsSentence(points, starts[j] ?? 0, starts[j] ?? 0)) {
          e = j;
          break;
        }
      }
    }
    const pieces: Array<[number, number, number]> = [];
    for (;;) {
      const lo = s === 0 ? 0 : (starts[s] ?? 0);
      const hi = e === nTokens ? n : (starts[e] ?? 0);
      const range = trim(points, lo, hi);
      if (range === null) break;
      const count = tokens.count(range[0], range[1]);
      if (count <= maxTokens) {
        pieces.push([range[0], range[1], count]);
        break;
      }
      const smaller = cuts.atOrBefore(e - 1, s + 1);
      if (smaller === null) {
        // no cut inside: split at clusters; a piece over is one cluster (PAGE-8)
        for (const [a, b, c] of splitClusters(tokens, range[0], range[1], maxTokens)) {
          const piece = trim(points, a, b);
          if (piece !== null) {
            pieces.push([piece[0], piece[1], piece[0] === a && piece[1] === b ? c : tokens.count(piece[0], piece[1])]);
          }
        }
        break;
      }
      e = smaller; // re-counting the text disagreed with the document's tokens (PAGE-7)
    }
    for (const piece of pieces) {
      const previous = out[out.length - 1];
      if (previous === undefined || piece[1] > previous[1]) out.push(piece);
    }
    if (e === nTokens) return out;
    const target = Math.max(e - overlap, s + 1); // PAGE-10 under SCRIPT-10
    s = cuts.atOrBefore(target, s + 1) ?? cuts.after(target);
  }
}
