/**
 * The window over whitespace tokens (TOKWIN-1..TOKWIN-7): the spans of strategy `window`
 * with a token counter, and `tokenWindows`, their records (RECORD-1).
 *
 * Offsets are CODE POINTS, as in Python (WIN-9): the text is split into code points once,
 * so an astral character before a token start counts one position, not two UTF-16 units.
 * Tokens are the runs of non-whitespace of Python's set (COUNT-4, WS-1).
 */

import { fault } from "./faults.js";
import type { ChunkRecord } from "./record.js";
import { isBlankDocument, optionsOf, recordsOf, scriptCounter, textDocument } from "./records.js";
import type { Span } from "./span.js";
import { requireInt, requireOverlapBelow, requireText } from "./validate.js";
import { codePointIndex } from "./codepoints.js";
import { counterNamed, type TokenCounter } from "./counters.js";
import { fittedWindows, Tokenized } from "./cuts.js";
import { countUnits, unitSpans } from "./units.js";
import { wordSpans } from "./wordSpans.js";
import { countWords } from "./whitespace.js";

const JS_SPACE = /\s/;

/**
 * Window `k` holds tokens `[k*step, min(k*step + size, N))` and is cut at token starts: the
 * spans of strategy `window` with a token counter (SCRIPT-6 applied). A counter whose token
 * starts repeat or may fall inside a cluster (`subword`) cuts by SCRIPT-10 (`fittedWindows`).
 */
export function tokenWindowSpans(text: string, maxTokens: number, overlapTokens: number, counter: TokenCounter): Span[] {
  if (!counter.summable) {
    const tokens = new Tokenized(text, counter);
    return fittedWindows(tokens, maxTokens, overlapTokens).map(([start, end, count]) => ({
      start, end, kind: "window", headingPath: [], parentId: null, prefix: "", text: tokens.slice(start, end), tokens: count,
    }));
  }
  const unicode = counter.name === "unicode";
  const points = fault("tokwin-utf16") ? text.split("") : Array.from(text);
  let tokens: { starts: number[]; ends: number[] };
  if (unicode) {
    const cp = fault("tokwin-utf16") ? (i: number): number => i : codePointIndex(text);
    const spans = unitSpans(text);
    tokens = { starts: spans.map(([a]) => cp(a)), ends: spans.map(([, b]) => cp(b)) };
  } else {
    tokens = fault("tokwin-js-space") ? wordSpans(points, (ch) => JS_SPACE.test(ch)) : wordSpans(points);
  }
  const { starts, ends } = tokens;
  const n = starts.length;
  const step = Math.max(1, maxTokens - overlapTokens);
  const out: Span[] = [];
  let a = 0;
  while (a < n) {
    const b = Math.min(a + maxTokens, n); // TOKWIN-3
    const k = out.length;
    // TOKWIN-4: the first window starts at 0, the last ends at len(text); the others are
    // cut at token starts, so the whitespace between tokens stays on the left (TOKWIN-5).
    let start = k === 0 ? 0 : (starts[a] ?? 0);
    if (fault("tokwin-first-at-token") && k === 0) start = starts[0] ?? 0;
    let end = b === n ? points.length : (starts[b] ?? 0);
    if (fault("tokwin-cut-at-token-end")) end = ends[b - 1] ?? 0;
    const piece = points.slice(start, end).join("");
    const count = unicode ? countUnits(piece) : countWords(piece); // RECORD-14
    out.push({ start, end, kind: "window", headingPath: [], parentId: null, prefix: "", text: piece, tokens: count });
    if (b >= n && !fault("tokwin-scrap")) break; // WIN-6: the first window to reach the end is the last
    if (fault("tokwin-overlap-chars")) {
      // The mistake: back up overlap CHARACTERS from the cut and start at the next token.
      const back = end - overlapTokens;
      let next = a + 1;
      while (next < n && (starts[next] ?? 0) < back) next++;
      a = next;
    } else {
      a += step;
    }
  }
  return out;
}

/** `chunk_document(SourceDocument(docId, text, "text", title), "window", counter="whitespace")`. */
export function tokenWindows(
  docId: string, title: string, text: string, maxTokens: number, overlapTokens: number,
  forceUnicode = false,
): ChunkRecord[] {
  requireText("doc_id", docId);
  requireText("text", text);
  requireText("title", title);
  if (fault("tokwin-boolean-size") && typeof maxTokens === "boolean") maxTokens = Number(maxTokens);
  requireInt("max_tokens", maxTokens, 1); // WIN-2 via TOKWIN-1
  requireInt("overlap_tokens", overlapTokens, 0); // WIN-3 via TOKWIN-1
  if (!fault("tokwin-overlap-unchecked")) requireOverlapBelow(maxTokens, overlapTokens);
  if (isBlankDocument(text)) return []; // SOURCE-7: a blank document has no record
  const counter = scriptCounter(forceUnicode ? "unicode" : "whitespace", text); // SCRIPT-6
  const options = optionsOf({ strategy: "window", maxTokens, overlap: overlapTokens, counter });
  const spans = tokenWindowSpans(text, maxTokens, overlapTokens, counterNamed(counter));
  let records = recordsOf(textDocument(docId, title, text), options, spans);
  if (fault("tokwin-tokens-nominal")) records = records.map((r) => ({ ...r, tokens: maxTokens }));
  if (fault("tokwin-id-from-one")) records = records.map((r) => ({ ...r, id: `${docId}:${r.index + 1}`, index: r.index + 1 }));
  return records;
}
