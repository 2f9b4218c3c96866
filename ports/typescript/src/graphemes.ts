/**
 * Extended grapheme clusters (SCRIPT-4, SCRIPT-5): UAX #29's GB3..GB13 and GB999 without
 * GB9c, from the same tables as Python's `_core/_graphemes.py`. General categories come from
 * JavaScript's `\p{...}`, whose Unicode version is the engine's (HAZ-18): on a character
 * assigned after Python's `unicodedata.unidata_version` the two may differ.
 * Offsets are UTF-16 indexes; a surrogate pair is one code point, never split (HAZ-20).
 */

const OTHER = 0, CR = 1, LF = 2, CONTROL = 3, EXTEND = 4, ZWJ = 5, RI = 6, PREPEND = 7, SPACING = 8;
const L = 9, V = 10, T = 11, LV = 12, LVT = 13;

type Ranges = ReadonlyArray<readonly [number, number]>;

const PREPEND_RANGES: Ranges = [
  [0x0600, 0x0605], [0x06dd, 0x06dd], [0x070f, 0x070f], [0x0890, 0x0891], [0x08e2, 0x08e2],
  [0x0d4e, 0x0d4e], [0x110bd, 0x110bd], [0x110cd, 0x110cd], [0x111c2, 0x111c3], [0x1193f, 0x1193f],
  [0x11941, 0x11941], [0x11a3a, 0x11a3a], [0x11a84, 0x11a89], [0x11d46, 0x11d46],
];
const NOT_SPACING: Ranges = [
  [0x102b, 0x102c], [0x1038, 0x1038], [0x1062, 0x1064], [0x1067, 0x106d], [0x1083, 0x1083],
  [0x1087, 0x108c], [0x108f, 0x108f], [0x109a, 0x109c], [0x1a61, 0x1a61], [0x1a63, 0x1a64],
  [0xaa7b, 0xaa7b], [0xaa7d, 0xaa7d], [0x11720, 0x11721],
];
/** Extended_Pictographic, emoji-data 14.0 (SCRIPT-5). */
const PICTOGRAPHIC: Ranges = [
  [0x00a9, 0x00a9], [0x00ae, 0x00ae], [0x203c, 0x203c], [0x2049, 0x2049], [0x2122, 0x2122],
  [0x2139, 0x2139], [0x2194, 0x2199], [0x21a9, 0x21aa], [0x231a, 0x231b], [0x2328, 0x2328],
  [0x2388, 0x2388], [0x23cf, 0x23cf], [0x23e9, 0x23f3], [0x23f8, 0x23fa], [0x24c2, 0x24c2],
  [0x25aa, 0x25ab], [0x25b6, 0x25b6], [0x25c0, 0x25c0], [0x25fb, 0x25fe], [0x2600, 0x2605],
  [0x2607, 0x2612], [0x2614, 0x2685], [0x2690, 0x2705], [0x2708, 0x2712], [0x2714, 0x2714],
  [0x2716, 0x2716], [0x271d, 0x271d], [0x2721, 0x2721], [0x2728, 0x2728], [0x2733, 0x2734],
  [0x2744, 0x2744], [0x2747, 0x2747], [0x274c, 0x274c], [0x274e, 0x274e], [0x2753, 0x2755],
  [0x2757, 0x2757], [0x2763, 0x2767], [0x2795, 0x2797], [0x27a1, 0x27a1], [0x27b0, 0x27b0],
  [0x27bf, 0x27bf], [0x2934, 0x2935], [0x2b05, 0x2b07], [0x2b1b, 0x2b1c], [0x2b50, 0x2b50],
  [0x2b55, 0x2b55], [0x3030, 0x3030], [0x303d, 0x303d], [0x3297, 0x3297], [0x3299, 0x3299],
  [0x1f000, 0x1f0ff], [0x1f10d, 0x1f10f], [0x1f12f, 0x1f12f], [0x1f16c, 0x1f171], [0x1f17e, 0x1f17f],
  [0x1f18e, 0x1f18e], [0x1f191, 0x1f19a], [0x1f1ad, 0x1f1e5], [0x1f201, 0x1f20f], [0x1f21a, 0x1f21a],
  [0x1f22f, 0x1f22f], [0x1f232, 0x1f23a], [0x1f23c, 0x1f23f], [0x1f249, 0x1f3fa], [0x1f400, 0x1f53d],
  [0x1f546, 0x1f64f], [0x1f680, 0x1f6ff], [0x1f774, 0x1f77f], [0x1f7d5, 0x1f7ff], [0x1f80c, 0x1f80f],
  [0x1f848, 0x1f84f], [0x1f85a, 0x1f85f], [0x1f888, 0x1f88f], [0x1f8ae, 0x1f8ff], [0x1f90c, 0x1f93a],
  [0x1f93c, 0x1f945], [0x1f947, 0x1faff], [0x1fc00, 0x1fffd],
];
const IGNORABLE_UNASSIGNED: Ranges = [
  [0x2065, 0x2065], [0xfff0, 0xfff8], [0xe0000, 0xe0000], [0xe0002, 0xe001f], [0xe0080, 0xe00ff],
  [0xe01f0, 0xe0fff],
];

/** True if `cp` lies in one of `ranges` (sorted, disjoint). */
export function inRanges(ranges: Ranges, cp: number): boolean {
  let lo = 0;
  let hi = ranges.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((ranges[mid]?.[0] ?? 0) <= cp) lo = mid + 1;
    else hi = mid;
  }
  const r = ranges[lo - 1];
  return r !== undefined && cp <= r[1];
}

const MARK = /^[\p{Mn}\p{Me}]$/u;
const SPACING_MARK = /^\p{Mc}$/u;
const CONTROL_CATEGORY = /^[\p{Cc}\p{Zl}\p{Zp}\p{Cf}\p{Cs}]$/u;
const UNASSIGNED = /^\p{Cn}$/u;

const CLASSES = new Map<number, number>();

/** The Grapheme_Cluster_Break class of code point `cp` (SCRIPT-4's table). */
function breakClass(cp: number): number {
  const cached = CLASSES.get(cp);
  if (cached !== undefined) return cached;
  let found: number;
  const ch = String.fromCodePoint(cp);
  if (cp === 0x0d) found = CR;
  else if (cp === 0x0a) found = LF;
  else if (cp === 0x200d) found = ZWJ;
  else if (cp >= 0x1f1e6 && cp <= 0x1f1ff) found = RI;
  else if (cp >= 0xac00 && cp <= 0xd7a3) found = (cp - 0xac00) % 28 === 0 ? LV : LVT;
  else if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0xa960 && cp <= 0xa97c)) found = L;
  else if ((cp >= 0x1160 && cp <= 0x11a7) || (cp >= 0xd7b0 && cp <= 0xd7c6)) found = V;
  else if ((cp >= 0x11a8 && cp <= 0x11ff) || (cp >= 0xd7cb && cp <= 0xd7fb)) found = T;
  else if (cp === 0x200c || (cp >= 0xff9e && cp <= 0xff9f) || (cp >= 0x1f3fb && cp <= 0x1f3ff)
    || (cp >= 0xe0020 && cp <= 0xe007f)) found = EXTEND;
  else if (inRanges(PREPEND_RANGES, cp)) found = PREPEND;
  else if (cp === 0x0e33 || cp === 0x0eb3) found = SPACING;
  else if (MARK.test(ch)) found = EXTEND;
  else if (SPACING_MARK.test(ch)) found = inRanges(NOT_SPACING, cp) ? OTHER : SPACING;
  else if (CONTROL_CATEGORY.test(ch)) found = CONTROL;
  else if (UNASSIGNED.test(ch) && inRanges(IGNORABLE_UNASSIGNED, cp)) found = CONTROL;
  else found = OTHER;
  CLASSES.set(cp, found);
  return found;
}

/** Rules GB3 to GB9b: true when there is no boundary between the two classes. */
function joins(previous: number, current: number): boolean {
  if (previous === CR) return current === LF;
  if (previous === LF || previous === CONTROL || current === CR || current === LF || current === CONTROL) return false;
  if (previous === L) {
    if (current === L || current === V || current === LV || current === LVT) return true;
  } else if (previous === LV || previous === V) {
    if (current === V || current === T) return true;
  } else if ((previous === LVT || previous === T) && current === T) {
    return true;
  }
  if (current === EXTEND || current === ZWJ || current === SPACING) return true;
  return previous === PREPEND;
}

/** The cluster boundaries of `text[start:end]` (UTF-16 indexes): start, ..., end (SCRIPT-4). */
export function graphemeBounds(text: string, start: number, end: number): number[] {
  if (start >= end) return [start];
  const bounds = [start];
  let i = start;
  const first = text.codePointAt(i) ?? 0;
  let previous = breakClass(first);
  let pictograph = inRanges(PICTOGRAPHIC, first);
  let afterZwj = false;
  let regional = previous === RI ? 1 : 0;
  i += first > 0xffff ? 2 : 1;
  while (i < end) {
    const cp = text.codePointAt(i) ?? 0;
    const current = breakClass(cp);
    let joined = joins(previous, current);
    if (!joined && current === RI && previous === RI && regional % 2 === 1) joined = true; // GB12, GB13
    const isPict = current === OTHER && inRanges(PICTOGRAPHIC, cp);
    if (!joined && afterZwj && isPict) joined = true; // GB11
    if (joined) {
      afterZwj = pictograph && current === ZWJ;
      if (current !== EXTEND) pictograph = isPict;
    } else {
      bounds.push(i);
      pictograph = isPict;
      afterZwj = false;
    }
    regional = current === RI ? regional + 1 : 0;
    previous = current;
    i += cp > 0xffff ? 2 : 1;
  }
  bounds.push(end);
  return bounds;
}
