/** `assemble`: pack the best-scored chunks into a token budget (PACK-1..PACK-13). */

import { Chunk, renderUnchecked } from "./chunk.js";
import { fault } from "./faults.js";
import { ArgumentTypeError, requireInt, requireReal, requireStr, requireText } from "./validate.js";

/**
 * Pick chunks best score first into `budget` tokens; `null` when nothing is picked.
 *
 * Candidates are visited by score descending, then id ascending BY CODE POINT (PACK-1; not
 * by UTF-16 unit and never with localeCompare); the walk stops at the first score below
 * `minScore` (PACK-4); a chunk whose contentHash was already picked is skipped (PACK-6);
 * a chunk that does not fit the room left is skipped and the walk goes on (PACK-7).
 */
export function assemble(chunks: Iterable<Chunk>, budget: number, minScore = 0.35): [string, string[]] | null {
  if (typeof chunks === "string" || chunks === null || typeof chunks !== "object" || !(Symbol.iterator in chunks)) {
    throw new ArgumentTypeError("chunks", "an iterable of Chunk", chunks);
  }
  const items = Array.from(chunks);
  items.forEach((item, index) => requireChunk(`chunks[${index}]`, item));
  requireInt("budget", budget, 0);
  requireReal("min_score", minScore);

  const ranked = items.slice().sort(rank); // Array.prototype.sort is stable (PACK-3)
  const picked: Chunk[] = [];
  const hashes = new Set<string>();
  let room = budget;
  for (const chunk of ranked) {
    if (fault("min-score-le") ? chunk.score <= minScore : chunk.score < minScore) break; // PACK-4
    if (hashes.has(chunk.contentHash)) continue; // PACK-6
    if (fault("dedupe-seen")) hashes.add(chunk.contentHash);
    if (fault("budget-off-by-one") ? chunk.tokens >= room : chunk.tokens > room) {
      if (fault("break-over-budget")) break;
      continue; // PACK-7
    }
    picked.push(chunk);
    hashes.add(chunk.contentHash);
    room -= chunk.tokens;
  }
  if (picked.length === 0) return null; // PACK-8
  return [picked.map(renderUnchecked).join(fault("assemble-blank-line-join") ? "\n\n" : "\n"), picked.map((c) => c.id)];
}

function rank(a: Chunk, b: Chunk): number {
  if (fault("subtraction-comparator")) {
    const d = b.score - a.score; // NaN for two equal infinities: the engine's order
    if (d !== 0) return d;
    return compareCodePoints(a.id, b.id);
  }
  // Comparisons, not subtraction: Infinity - Infinity is NaN.
  if (a.score > b.score) return -1;
  if (a.score < b.score) return 1;
  if (fault("locale-compare")) return a.id.localeCompare(b.id);
  if (fault("utf16-order")) return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  return compareCodePoints(a.id, b.id);
}

/**
 * Compare two well-formed strings by code point, as Python does. JavaScript's `<` compares
 * UTF-16 units, which puts an astral character (a surrogate pair, 0xD800..) before
 * U+E000..U+FFFF. Lifting surrogate units above 0xFFFF restores code point order.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return lift(x) - lift(y);
  }
  return a.length - b.length;
}

function lift(unit: number): number {
  return unit >= 0xd800 && unit <= 0xdfff ? unit + 0x10000 : unit;
}

function requireChunk(argument: string, item: unknown): void {
  if (!(item instanceof Chunk)) throw new ArgumentTypeError(argument, "a Chunk", item);
  const check = fault("assemble-no-surrogate-check") ? requireStr : requireText;
  check(`${argument}.id`, item.id);
  check(`${argument}.doc_id`, item.docId);
  requireText(`${argument}.title`, item.title);
  requireText(`${argument}.text`, item.text);
  requireStr(`${argument}.content_hash`, item.contentHash);
  requireInt(`${argument}.tokens`, item.tokens, 0);
  if (fault("assemble-nan-score") && Number.isNaN(item.score)) return;
  requireReal(`${argument}.score`, item.score);
}
