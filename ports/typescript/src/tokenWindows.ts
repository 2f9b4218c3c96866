/**
 * The window over whitespace tokens as chunk records (TOKWIN-1..TOKWIN-7, RECORD-1):
 * `chunk_document(SourceDocument(docId, text, "text", title), "window", counter="whitespace")`.
 *
 * Offsets are CODE POINTS, as in Python (WIN-9): the text is split into code points once,
 * so an astral character before a token start counts one position, not two UTF-16 units.
 * Tokens are the runs of non-whitespace of Python's set (COUNT-4, WS-1).
 */

import { fault } from "./faults.js";
import { hashText } from "./hashing.js";
import type { ChunkRecord } from "./record.js";
import { ArgumentValueError, requireInt, requireText } from "./validate.js";
import { codePointIndex } from "./codepoints.js";
import { countUnits, hasClusterScript, unitSpans } from "./units.js";
import { wordSpans } from "./wordSpans.js";
import { countWords, pyStrip } from "./whitespace.js";
import { withKeys } from "./keys.js";

const JS_SPACE = /\s/;

/** Window `k` holds tokens `[k*step, min(k*step + size, N))` and is cut at token starts. */
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
  if (overlapTokens >= maxTokens && !fault("tokwin-overlap-unchecked")) {
    throw new ArgumentValueError("overlap_tokens", `must be < max_tokens (${maxTokens})`, overlapTokens);
  }
  if (pyStrip(text) === "") return []; // SOURCE-7: a blank document has no record
  const points = fault("tokwin-utf16") ? text.split("") : Array.from(text);
  // SCRIPT-6: on text with a script written without spaces the tokens are unicode units.
  const unicode = forceUnicode || hasClusterScript(text);
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
  const strategy = `window:max_tokens=${maxTokens},overlap_tokens=${overlapTokens}`; // RECORD-6
  const out: ChunkRecord[] = [];
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
    const count = unicode ? countUnits(piece) : countWords(piece);
    out.push({
      id: `${docId}:${fault("tokwin-id-from-one") ? k + 1 : k}`, doc_id: docId, index: fault("tokwin-id-from-one") ? k + 1 : k, text: piece, start, end,
      tokens: fault("tokwin-tokens-nominal") ? maxTokens : count, // RECORD-14
      counter: unicode ? "unicode" : "whitespace", content_hash: hashText(piece), kind: "window", heading_path: [],
      parent_id: null, page_start: null, page_end: null, section: null, prefix: "",
      oversized: count > maxTokens, title, source: "", strategy, metadata: {},
    });
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
  return withKeys(out);
}
