/**
 * The `unicode` counter's units (SCRIPT-1..SCRIPT-3, COUNT-11), as Python's `_core/_units.py`:
 * whitespace words (Python's `str.isspace`, WS-1, never `\s`: HAZ-19); in a word holding a
 * character of a script written without spaces, each cluster starting with one is a unit and
 * each run of the other clusters one unit. Offsets are UTF-16 indexes of `text`.
 */

import { graphemeBounds, inRanges } from "./graphemes.js";
import { isSpace } from "./whitespace.js";

/** SCRIPT-2: the scripts written without spaces between words. */
export const CLUSTER_SCRIPT_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x0e00, 0x0eff], [0x1000, 0x109f], [0x1100, 0x11ff], [0x1780, 0x17ff], [0x19e0, 0x19ff],
  [0x2e80, 0x2fdf], [0x3005, 0x3007], [0x3021, 0x3029], [0x3031, 0x3035], [0x3038, 0x303c],
  [0x3040, 0x30ff], [0x3100, 0x312f], [0x3130, 0x318f], [0x31a0, 0x31bf], [0x31f0, 0x31ff],
  [0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xa960, 0xa97f], [0xa9e0, 0xa9ff], [0xaa60, 0xaa7f],
  [0xac00, 0xd7ff], [0xf900, 0xfaff], [0xff66, 0xffdc], [0x1aff0, 0x1b16f], [0x20000, 0x3ffff],
];

function clusterScript(cp: number): boolean {
  return inRanges(CLUSTER_SCRIPT_RANGES, cp);
}

/** True if `text[start:end]` holds a SCRIPT-2 character (SCRIPT-6's test). */
export function hasClusterScript(text: string, start = 0, end = text.length): boolean {
  for (let i = start; i < end; i++) {
    const cp = text.codePointAt(i) ?? 0;
    if (cp >= 0x0e00 && clusterScript(cp)) return true;
    if (cp > 0xffff) i++;
  }
  return false;
}

/** The units of `text[start:end]` as `[s, e)` UTF-16 indexes into `text` (SCRIPT-3). */
export function unitSpans(text: string, start = 0, end = text.length): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let i = start;
  while (i < end) {
    while (i < end && isSpace(text[i] ?? "")) i++;
    if (i >= end) break;
    const a = i;
    while (i < end && !isSpace(text[i] ?? "")) i++;
    const b = i;
    if (!hasClusterScript(text, a, b)) {
      spans.push([a, b]);
      continue;
    }
    const bounds = graphemeBounds(text, a, b);
    let run = -1;
    for (let k = 0; k + 1 < bounds.length; k++) {
      const s = bounds[k] ?? 0;
      if (clusterScript(text.codePointAt(s) ?? 0)) {
        if (run >= 0) {
          spans.push([run, s]);
          run = -1;
        }
        spans.push([s, bounds[k + 1] ?? b]);
      } else if (run < 0) {
        run = s;
      }
    }
    if (run >= 0) spans.push([run, b]);
  }
  return spans;
}

/** `UnicodeCounter().count(text)` (COUNT-11). */
export function countUnits(text: string): number {
  return unitSpans(text).length;
}

/**
 * SCRIPT-8: split `text[start:end]` (no whitespace) into the longest runs of units that fit,
 * a unit that does not fit into the longest runs of clusters; a cluster alone if need be.
 */
export function fitWord(
  text: string, start: number, end: number, fits: (a: number, b: number) => boolean,
): Array<[number, number]> {
  const units = unitSpans(text, start, end);
  const bounds = [start, ...units.slice(1).map(([a]) => a), end];
  const out: Array<[number, number]> = [];
  for (const [i, k] of runs(bounds, fits)) {
    if (k > i) {
      out.push([bounds[i] ?? 0, bounds[k] ?? 0]);
      continue;
    }
    const clusters = graphemeBounds(text, bounds[i] ?? 0, bounds[i + 1] ?? 0);
    for (const [c, d] of runs(clusters, fits)) out.push([clusters[c] ?? 0, clusters[Math.max(d, c + 1)] ?? 0]);
  }
  return out;
}

/** The longest runs `[i, k]` of steps between `bounds` that fit; `k === i` where one does not. */
function runs(bounds: number[], fits: (a: number, b: number) => boolean): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let i = 0;
  const n = bounds.length - 1;
  while (i < n) {
    const first = bounds[i] ?? 0;
    let k = i;
    // gallop then bisect, as Python's longest(): the largest k in (i, n] with fits
    let step = 1;
    let bad = n + 1;
    while (k + step <= n) {
      if (fits(first, bounds[k + step] ?? 0)) {
        k += step;
        step *= 2;
      } else {
        bad = k + step;
        break;
      }
    }
    while (bad - k > 1) {
      const mid = (k + bad) >> 1;
      if (fits(first, bounds[mid] ?? 0)) k = mid;
      else bad = mid;
    }
    out.push([i, k]);
    i = Math.max(k, i + 1);
  }
  return out;
}
