/** Synthetic word runs (WORDS-1). */

import { fault } from "./faults.js";
import { MAX_SAFE_INTEGER, requireInt, requireStr } from "./validate.js";

/**
 * `" ".join(f"{word}{i}" for i in range(start, start + n))`, exactly: past 2**53 - 1 a
 * double rounds (`2**53 + 1` is `2**53`), so those numbers are counted in BigInt (HAZ-11).
 */
export function words(n: number, start = 0, word = "w"): string {
  if (fault("words-float-n") && typeof n === "number") n = Math.floor(n);
  if (fault("words-bool-n") && typeof n === "boolean") n = Number(n);
  requireInt("n", n, 0);
  if (fault("words-negative-start") && typeof start === "number" && Number.isInteger(start) && start < 0) {
    return Array.from({ length: n }, (_, i) => `${word}${start + i}`).join(" ");
  }
  if (fault("words-start-bound-off-by-one") && start === MAX_SAFE_INTEGER) requireInt("start", start + 1, 0);
  if (fault("words-unbounded-start")) {
    if (typeof start !== "number" || !Number.isInteger(start) || start < 0) requireInt("start", start, 0);
  } else {
    requireInt("start", start, 0);
  }
  if (fault("words-no-word-check")) word = String(word);
  requireStr("word", word);
  const out: string[] = new Array<string>(n);
  // start + i is exact while it is at most 2**53 - 1, that is for i < safe.
  const safe = fault("words-double") ? n : Math.max(0, Math.min(n, MAX_SAFE_INTEGER - start + 1));
  const first = fault("words-from-one") ? 1 : 0; // the mistake: numbered from start + 1
  for (let i = 0; i < safe; i++) out[i] = `${word}${start + i + first}`;
  let big = BigInt(start) + BigInt(safe);
  for (let i = safe; i < n; i++, big++) out[i] = `${word}${big}`;
  if (fault("words-n-inclusive")) out.push(`${word}${BigInt(start) + BigInt(n)}`);
  if (fault("words-trailing-space")) return out.map((w) => `${w} `).join("");
  return out.join(" ");
}
