/** Token counting and the separators: tokens are Python `str.split()` words (TOK-1). */

import { fault } from "./faults.js";
import { requireStr, requireText } from "./validate.js";
import { countWords, pySplit } from "./whitespace.js";

/** Paragraph, then line, then word (rule SPLIT-2). */
export const SEPARATORS: readonly ["\n\n", "\n", " "] = Object.freeze(["\n\n", "\n", " "] as const);

/** `len(text.split())` in Python: the number of maximal non-whitespace runs (TOK-1). */
export function countTokens(text: string): number {
  if (fault("count-no-type-check")) text = String(text);
  if (fault("count-rejects-lone-surrogate")) requireText("text", text);
  requireStr("text", text);
  if (fault("count-zero-width-space")) return text.split(/[\s\u200b]+/).filter(Boolean).length;
  if (fault("count-ascii-space")) return text.split(/[ \t\n\r\f\v]+/).filter(Boolean).length;
  if (fault("count-space-only")) return text.split(" ").filter(Boolean).length;
  if (fault("count-chars-over-4")) return Math.ceil(text.length / 4);
  if (fault("count-word-regex")) return text.split(/\W+/).filter(Boolean).length;
  if (fault("count-nbsp-not-space")) return pySplit(text.replace(/\u00a0/g, "x")).length;
  if (fault("split-regex-tokens")) return text.split(/\s+/).length;
  if (fault("count-js-space")) return text.split(/\s+/).filter(Boolean).length;
  return countWords(text);
}
