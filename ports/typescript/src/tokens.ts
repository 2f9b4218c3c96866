/** Token counting and the separators: tokens are Python `str.split()` words (TOK-1). */

import { fault } from "./faults.js";
import { requireStr } from "./validate.js";
import { countWords } from "./whitespace.js";

/** Paragraph, then line, then word (rule SPLIT-2). */
export const SEPARATORS: readonly ["\n\n", "\n", " "] = Object.freeze(["\n\n", "\n", " "] as const);

/** `len(text.split())` in Python: the number of maximal non-whitespace runs (TOK-1). */
export function countTokens(text: string): number {
  requireStr("text", text);
  if (fault("split-regex-tokens")) return text.split(/\s+/).length;
  if (fault("count-js-space")) return text.split(/\s+/).filter(Boolean).length;
  return countWords(text);
}
