/**
 * The sliding character windows (WIN-1..WIN-9): the spans of strategy `window` with the
 * counter `chars1`, and `chunkWindows`, their records.
 *
 * Offsets are CODE POINTS, as in Python (WIN-9): a JavaScript string indexes UTF-16 code
 * units, so an astral character before a boundary would move every later window by one.
 * The text is split into code points once; windows slice that array.
 */

import { fault } from "./faults.js";
import type { ChunkRecord } from "./record.js";
import { optionsOf, recordsOf, textDocument } from "./records.js";
import type { Span } from "./span.js";
import { requireInt, requireOverlapBelow, requireText } from "./validate.js";
import { pyStrip } from "./whitespace.js";

/** WIN-4 to WIN-6: the windows of `maxTokens` code points, `overlap` shared, no trailing scrap. */
export function charWindowSpans(text: string, maxTokens: number, overlap: number): Span[] {
  const points = fault("window-utf16") ? text.split("") : Array.from(text);
  const n = points.length;
  const step = Math.max(1, maxTokens - overlap);
  const out: Span[] = [];
  for (let start = 0; start < n; start += step) {
    const end = Math.min(start + maxTokens, n); // WIN-5
    const piece = fault("window-strip-pieces") ? pyStrip(points.slice(start, end).join("")) : points.slice(start, end).join("");
    out.push({
      start, end: fault("window-end-unclamped") ? start + maxTokens : end, kind: "window", headingPath: [],
      parentId: null, prefix: "", text: piece, tokens: end - start, // chars1: code points
    });
    if (start + maxTokens >= n && !fault("window-scrap")) break; // WIN-6: no trailing scrap
  }
  return out;
}

/** `chunk_document(SourceDocument(docId, text, "text", title), "window", counter="chars1")`. */
export function chunkWindows(
  docId: string, title: string, text: string, maxTokens: number, overlapTokens: number,
): ChunkRecord[] {
  requireText("doc_id", docId);
  requireText("text", text);
  requireText("title", title);
  if (fault("window-boolean-size") && typeof maxTokens === "boolean") maxTokens = Number(maxTokens);
  requireInt("max_tokens", maxTokens, 1); // WIN-2
  requireInt("overlap_tokens", overlapTokens, 0); // WIN-3
  if (!fault("window-overlap-unchecked")) requireOverlapBelow(maxTokens, overlapTokens);
  // SOURCE-7: a blank document has no record.
  if (pyStrip(text) === "" && !fault("window-blank")) return [];
  const options = optionsOf({ strategy: "window", maxTokens, overlap: overlapTokens, counter: "chars1" });
  let records = recordsOf(textDocument(docId, title, text), options, charWindowSpans(text, maxTokens, overlapTokens));
  if (fault("window-tokens-utf16")) records = records.map((r) => ({ ...r, tokens: r.text.length }));
  if (fault("window-id-from-one")) records = records.map((r) => ({ ...r, id: `${docId}:${r.index + 1}`, index: r.index + 1 }));
  return records;
}
