/**
 * `splitSection`: the recursive paragraph > line > word splitter (SPLIT-1..SPLIT-13).
 *
 * Every separator is whitespace, so joining pieces never merges or splits a word and the
 * token count of a joined run is the sum of its pieces' counts (SPLIT-6): we count each
 * piece once and walk the pieces greedily, which is linear in the text.
 */

import { Chunk } from "./chunk.js";
import { fault } from "./faults.js";
import { hashText } from "./hashing.js";
import { SEPARATORS } from "./tokens.js";
import { requireInt, requireText } from "./validate.js";
import { countWords, pyStrip } from "./whitespace.js";

/** Split `text` into chunks of at most `maxTokens` whitespace-separated words. */
export function splitSection(docId: string, title: string, text: string, maxTokens: number): Chunk[] {
  requireText("doc_id", docId); // PORT-2: no lone surrogates in any string field
  requireText("title", title);
  requireText("text", text);
  requireInt("max_tokens", maxTokens, fault("split-max-tokens-zero") ? 0 : 1);
  const parts: Array<[string, number]> = [];
  splitInto(text, maxTokens, parts, false);
  if (fault("drop-blank-chunk") && parts.length === 1 && parts[0]?.[1] === 0) parts.pop();
  if (fault("trim-title")) title = title.trim();
  return parts.map(
    ([body, tokens], n) =>
      new Chunk(
        `${docId}:${fault("split-ids-from-one") ? n + 1 : n}`, docId, title, body, tokens,
        hashText(fault("split-hash-with-title") ? `${title}\n${body}` : body), 0,
      ),
  );
}

function count(text: string): number {
  return fault("split-regex-tokens") ? text.split(/\s+/).length : countWords(text);
}

export function splitInto(text: string, maxTokens: number, out: Array<[string, number]>, oversized: boolean): void {
  // SPLIT-2: split on the first separator that occurs in the text.
  const sep = SEPARATORS.find((s) => text.includes(s));
  if (sep === undefined) {
    // SPLIT-5: no separator occurs: one unbreakable chunk, fitting or not.
    out.push([pyStrip(text), count(text)]);
    return;
  }
  const pieces = text.split(sep);
  const counts = pieces.map(count);
  if (!oversized) {
    const total = counts.reduce((a, b) => a + b, 0);
    if (total <= maxTokens) {
      // SPLIT-1: the whole text fits: one chunk.
      out.push([fault("no-strip-whole") ? text : pyStrip(text), total]);
      return;
    }
  }
  // SPLIT-3: drop blank pieces (a piece is blank iff it has no token).
  const kept: string[] = [];
  const keptCounts: number[] = [];
  pieces.forEach((piece, k) => {
    const c = counts[k] ?? 0;
    if (c > 0) {
      kept.push(fault("strip-kept-pieces") ? pyStrip(piece) : piece);
      keptCounts.push(c);
    }
  });
  // SPLIT-4: join consecutive pieces while they fit; start a new chunk when the next won't.
  let i = 0;
  while (i < kept.length) {
    let j = i;
    let acc = 0;
    while (j < kept.length && acc + (keptCounts[j] ?? 0) <= maxTokens) {
      acc += keptCounts[j] ?? 0;
      j++;
    }
    if (j === i) {
      // SPLIT-7: an oversized piece is split with the next separator, in place; SPLIT-8:
      // a fresh chunk starts after its sub-chunks.
      splitInto(kept[i] ?? "", maxTokens, out, true);
      i++;
      if (fault("merge-last-subchunk")) mergeLast(out, kept, keptCounts, i, sep, maxTokens);
    } else {
      out.push([pyStrip(kept.slice(i, j).join(sep)), acc]);
      i = j;
    }
  }
}

/** The "merge-last-subchunk" fault: glue following pieces onto the last sub-chunk. */
function mergeLast(
  out: Array<[string, number]>, kept: string[], counts: number[], i: number, sep: string, maxTokens: number,
): void {
  const last = out[out.length - 1];
  const next = counts[i];
  if (last === undefined || next === undefined || last[1] + next > maxTokens) return;
  out[out.length - 1] = [pyStrip(last[0] + sep + (kept[i] ?? "")), last[1] + next];
  kept.splice(i, 1);
  counts.splice(i, 1);
}
