/** Synthetic word runs (WORDS-1). */

import { requireInt, requireStr } from "./validate.js";

/** `" ".join(f"{word}{i}" for i in range(start, start + n))`. */
export function words(n: number, start = 0, word = "w"): string {
  requireInt("n", n, 0);
  requireInt("start", start, 0);
  requireStr("word", word);
  const out: string[] = new Array<string>(n);
  for (let i = 0; i < n; i++) out[i] = `${word}${start + i}`;
  return out.join(" ");
}
