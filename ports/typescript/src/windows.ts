/**
 * The sliding character windows as chunk records (WIN-1..WIN-9, RECORD-1).
 *
 * Offsets are CODE POINTS, as in Python (WIN-9): a JavaScript string indexes UTF-16 code
 * units, so an astral character before a boundary would move every later window by one.
 * The text is split into code points once; windows slice that array.
 */

import { fault } from "./faults.js";
import { hashText } from "./hashing.js";
import type { ChunkRecord } from "./record.js";
import { ArgumentValueError, requireInt, requireText } from "./validate.js";
import { pyStrip } from "./whitespace.js";
import { withKeys } from "./keys.js";

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
  if (overlapTokens >= maxTokens && !fault("window-overlap-unchecked")) {
    throw new ArgumentValueError("overlap_tokens", `must be < max_tokens (${maxTokens})`, overlapTokens);
  }
  // SOURCE-7: a blank document has no record.
  if (pyStrip(text) === "" && !fault("window-blank")) return [];
  const points = fault("window-utf16") ? text.split("") : Array.from(text);
  const n = points.length;
  const step = Math.max(1, maxTokens - overlapTokens);
  const strategy = fault("window-strategy-no-overlap")
    ? `window:max_tokens=${maxTokens}`
    : `window:max_tokens=${maxTokens},overlap_tokens=${overlapTokens}`; // RECORD-6
  const out: ChunkRecord[] = [];
  for (let start = 0; start < n; start += step) {
    const end = Math.min(start + maxTokens, n); // WIN-5
    const piece = fault("window-strip-pieces") ? pyStrip(points.slice(start, end).join("")) : points.slice(start, end).join("");
    const index = out.length + (fault("window-id-from-one") ? 1 : 0);
    out.push({
      id: `${docId}:${index}`, doc_id: docId, index, text: piece, start,
      end: fault("window-end-unclamped") ? start + maxTokens : end,
      tokens: fault("window-tokens-utf16") ? piece.length : end - start, // chars1: code points
      counter: "chars1", content_hash: hashText(piece), kind: "window", heading_path: [],
      parent_id: null, page_start: null, page_end: null, section: null, prefix: "",
      oversized: false, title, source: "", strategy, metadata: {},
    });
    if (start + maxTokens >= n && !fault("window-scrap")) break; // WIN-6: no trailing scrap
  }
  return withKeys(out);
}
