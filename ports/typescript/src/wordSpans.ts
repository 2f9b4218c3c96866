/**
 * The whitespace counter's tokens (COUNT-4): the maximal runs of characters that are not
 * Python whitespace (WS-1), as `[start, end)` CODE-POINT offsets into an array of code points.
 */

import { isSpace } from "./whitespace.js";

/** The spans of the words of `points`; `space` decides what is whitespace (WS-1 by default). */
export function wordSpans(
  points: readonly string[], space: (ch: string) => boolean = isSpace,
): { starts: number[]; ends: number[] } {
  const starts: number[] = [];
  const ends: number[] = [];
  let inWord = false;
  for (let i = 0; i < points.length; i++) {
    const blank = space(points[i] ?? "");
    if (!blank && !inWord) starts.push(i);
    else if (blank && inWord) ends.push(i);
    inWord = !blank;
  }
  if (inWord) ends.push(points.length);
  return { starts, ends };
}
