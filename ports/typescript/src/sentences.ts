/**
 * The sentence splitter (SENT-1..SENT-4): one forward scan, no regular expression.
 *
 * Offsets are CODE POINTS, as in Python: the text is read as an array of code points once
 * (`Array.from`), so an astral character before a sentence counts one, not two. Whitespace
 * is Python's `str.isspace()` set (WS-1), never JavaScript's `/\s/` or `trim()`: U+001C..
 * U+001F and U+0085 end a sentence here, U+FEFF does not.
 *
 * `sentenceSpansOfPoints` works on an array the caller already holds (the heading-aware
 * chunker splits blocks of one source and should not re-split the whole text per block).
 */

import { fault } from "./faults.js";
import { requireStr, requireText } from "./validate.js";
import { isSpace } from "./whitespace.js";

/** Characters that end a sentence (SENT-1, SENT-5). */
export const TERMINATORS: ReadonlySet<string> = new Set([
  ".", "!", "?", "\u2026", "\u203c", "\u2047", "\u2048", "\u2049", "\u3002", "\uff01", "\uff1f",
  "\uff61", "\u061f", "\u06d4", "\u0964", "\u0965", "\u0589", "\u1362",
]);

/** Terminators that end a sentence with no whitespace after them (SENT-6). */
export const WIDE_TERMINATORS: ReadonlySet<string> = new Set(["\u3002", "\uff01", "\uff1f", "\uff61"]);

/** Characters after the terminators that still belong to the sentence (SENT-1, SENT-5). */
export const CLOSERS: ReadonlySet<string> = new Set([
  '"', "'", ")", "]", "}", "\u00bb", "\u201d", "\u2019", "\u203a", "\u300d", "\u300f",
  "\uff09", "\uff3d", "\uff5d", "\uff02", "\uff07", "\uff63", "\u3009", "\u300b", "\u3011",
  "\u3015", "\u3017", "\u3019", "\u301b",
]);

/** A few abbreviations: only the planted fault "sentence-abbreviation" uses them (SENT-3). */
const ABBREVIATIONS = new Set(["e.g.", "i.e.", "Mr.", "Dr.", "etc.", "vs."]);
/** The ASCII classes `[.!?]` and `["')]`: only the planted faults use them (not SENT-1). */
const ASCII_TERMINATORS = new Set([".", "!", "?"]);
const ASCII_CLOSERS = new Set(['"', "'", ")"]);

const JS_SPACE = /\s/;

/** Whitespace for the scan: Python's set (WS-1), or JavaScript's under a planted fault. */
function space(ch: string): boolean {
  return fault("sentence-js-space") ? JS_SPACE.test(ch) : isSpace(ch);
}

function terminator(ch: string | undefined): boolean {
  return (fault("sentence-ascii-terminators") ? ASCII_TERMINATORS : TERMINATORS).has(ch ?? "");
}

function closer(ch: string | undefined): boolean {
  return (fault("sentence-ascii-closers") ? ASCII_CLOSERS : CLOSERS).has(ch ?? "");
}

/**
 * The sentences of `points[start:end]` as `[s, e]` code-point offsets into `points`.
 *
 * A sentence ends after a run of TERMINATORS and any CLOSERS that is followed by
 * whitespace or the end (SENT-1); each span is stripped of whitespace and never blank
 * (SENT-2); there is no abbreviation list (SENT-3).
 */
export function sentenceSpansOfPoints(
  points: readonly string[], start = 0, end: number = points.length,
): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let i = start;
  let begin = start;
  while (i < end) {
    if (terminator(points[i])) {
      let j = i + 1;
      while (j < end && terminator(points[j])) j++;
      let wide = false; // SENT-6: a full-width or ideographic mark needs no whitespace after it
      for (let k = i; k < j; k++) if (WIDE_TERMINATORS.has(points[k] ?? "")) wide = true;
      while (j < end && closer(points[j])) j++;
      const ends = j === end || wide || space(points[j] ?? "") || fault("sentence-break-without-space");
      if (ends && !(fault("sentence-abbreviation") && abbreviation(points, begin, j))) {
        emit(points, begin, j, spans);
        begin = j;
      }
      i = j;
    } else if (fault("sentence-newline-break") && points[i] === "\n") {
      emit(points, begin, i, spans);
      begin = i + 1;
      i++;
    } else {
      i++;
    }
  }
  emit(points, begin, end, spans);
  return spans;
}

/** True when the word ending at `j` is one of ABBREVIATIONS (only the planted fault asks). */
function abbreviation(points: readonly string[], begin: number, j: number): boolean {
  let k = j;
  while (k > begin && !space(points[k - 1] ?? "")) k--;
  return ABBREVIATIONS.has(points.slice(k, j).join(""));
}

/** Append `points[start:end]` stripped of whitespace to `spans` unless it is blank (SENT-2). */
function emit(points: readonly string[], start: number, end: number, spans: Array<[number, number]>): void {
  if (fault("sentence-js-trim")) {
    const piece = points.slice(start, end).join("");
    const kept = piece.trim();
    if (kept !== "") {
      const s = start + Array.from(piece.slice(0, piece.length - piece.trimStart().length)).length;
      spans.push([s, s + Array.from(kept).length]);
    }
    return;
  }
  if (!fault("sentence-no-strip")) {
    while (start < end && space(points[start] ?? "")) start++;
    while (end > start && space(points[end - 1] ?? "")) end--;
  }
  if (start < end || (fault("sentence-keep-blank") && spans.length === 0)) spans.push([start, end]);
}

/** `sentence_spans(text, start, end)`: code-point offsets into `text` (SENT-2). */
export function sentenceSpans(text: string, start = 0, end?: number): Array<[number, number]> {
  const points = Array.from(text);
  return sentenceSpansOfPoints(points, start, end ?? points.length);
}

/** `split_sentences(text)`: the sentences' texts (SENT-1..SENT-4). */
export function splitSentences(text: string): string[] {
  if (fault("sentence-no-surrogate-check")) requireStr("text", text);
  else requireText("text", text); // PORT-2: no lone surrogates
  const points = Array.from(text);
  return sentenceSpansOfPoints(points).map(([s, e]) => points.slice(s, e).join(""));
}
