/**
 * The `subword` counter's units (SCRIPT-30..SCRIPT-33, COUNT-12), as Python's
 * `_core/_subwords.py`: whitespace words (Python's `str.isspace`, WS-1, never `\s`); in a
 * word, ASCII-started grapheme clusters cut into pieces by their first characters (a unit per
 * started five letters, three digits, or one other character), every other cluster one span
 * repeated once per unit of its code points' weights; a word after whitespace other than one
 * plain space repeats its first span. Offsets are UTF-16 indexes of `text`.
 */

import { graphemeBounds } from "./graphemes.js";
import { isSpace, wordSpans } from "./whitespace.js";

/**
 * SCRIPT-32: code points weighing two or three units, as `[first, last, weight]`, copied
 * from `_core/_subwords.py`'s `HEAVY_RANGES`; every other non-ASCII code point weighs 1.
 */
export const HEAVY_RANGES: ReadonlyArray<readonly [number, number, number]> = [
  [0x0530, 0x058f, 2], // Armenian
  [0x0980, 0x0dff, 2], // Bengali, Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam, Sinhala
  [0x0e80, 0x0eff, 2], // Lao
  [0x0f00, 0x0fff, 2], // Tibetan
  [0x1000, 0x109f, 2], // Myanmar
  [0x10a0, 0x10ff, 2], // Georgian
  [0x1100, 0x11ff, 2], // Hangul Jamo
  [0x1200, 0x139f, 3], // Ethiopic, Ethiopic Supplement
  [0x1780, 0x17ff, 2], // Khmer
  [0x19e0, 0x19ff, 2], // Khmer Symbols
  [0x1c90, 0x1cbf, 2], // Georgian Extended
  [0x2d00, 0x2d2f, 2], // Georgian Supplement
  [0x2d80, 0x2ddf, 3], // Ethiopic Extended
  [0x3130, 0x318f, 2], // Hangul Compatibility Jamo
  [0xa960, 0xa97f, 2], // Hangul Jamo Extended-A
  [0xa9e0, 0xa9ff, 2], // Myanmar Extended-B
  [0xaa60, 0xaa7f, 2], // Myanmar Extended-A
  [0xab00, 0xab2f, 3], // Ethiopic Extended-A
  [0xac00, 0xd7ff, 2], // Hangul Syllables, Hangul Jamo Extended-B
  [0x10000, 0x10ffff, 2], // every astral code point: emoji, CJK Extension B.., historic scripts
];

/** SCRIPT-31: an optional capital and small letters, a capital alone, digits, one other character. */
const ASCII_PIECE = /[A-Z]?[a-z]+|[A-Z]|[0-9]+|[^A-Za-z0-9]/g;
/** SCRIPT-31: characters a letter piece and a digit piece hold per unit. */
const LETTERS_PER_UNIT = 5;
const DIGITS_PER_UNIT = 3;

/** A non-ASCII code point's weight (SCRIPT-32). */
function weight(cp: number): number {
  let lo = 0;
  let hi = HEAVY_RANGES.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((HEAVY_RANGES[mid]?.[0] ?? 0) <= cp) lo = mid + 1;
    else hi = mid;
  }
  const r = HEAVY_RANGES[lo - 1];
  return r !== undefined && cp <= r[1] ? r[2] : 1;
}

/** Characters per unit of an ASCII piece starting with `first` (SCRIPT-31). */
function step(first: number): number {
  if ((first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a)) return LETTERS_PER_UNIT;
  if (first >= 0x30 && first <= 0x39) return DIGITS_PER_UNIT;
  return 1;
}

/**
 * Append the units of the ASCII pieces of `heads`, whose `i`-th character is the first of
 * the cluster `[bounds[i], bounds[i + 1])` (SCRIPT-31).
 */
function asciiSpans(heads: string, bounds: readonly number[], spans: Array<[number, number]>): void {
  for (const piece of heads.matchAll(ASCII_PIECE)) {
    const p = piece.index;
    const q = p + piece[0].length;
    const n = step(heads.charCodeAt(p));
    for (let i = p; i < q; i += n) spans.push([bounds[i] ?? 0, bounds[Math.min(q, i + n)] ?? 0]);
  }
}

/** True if `text[a:b]` is all ASCII. */
function isAscii(text: string, a: number, b: number): boolean {
  for (let i = a; i < b; i++) if (text.charCodeAt(i) >= 0x80) return false;
  return true;
}

/** Append the units of the word `text[a:b]` (SCRIPT-31, SCRIPT-32). */
function unitsOfWord(text: string, a: number, b: number, spans: Array<[number, number]>): void {
  if (isAscii(text, a, b)) {
    // every ASCII character outside whitespace is a cluster of its own (SCRIPT-4)
    for (const piece of text.slice(a, b).matchAll(ASCII_PIECE)) {
      const p = a + piece.index;
      const q = p + piece[0].length;
      const n = step(text.charCodeAt(p));
      for (let i = p; i < q; i += n) spans.push([i, Math.min(q, i + n)]);
    }
    return;
  }
  const bounds = graphemeBounds(text, a, b);
  const last = bounds.length - 1;
  let k = 0;
  while (k < last) {
    const s = bounds[k] ?? 0;
    if (text.charCodeAt(s) < 0x80) {
      // a run of ASCII-started clusters, cut as ASCII text by their first characters
      let j = k;
      let heads = "";
      while (j < last && text.charCodeAt(bounds[j] ?? 0) < 0x80) heads += text[bounds[j++] ?? 0];
      asciiSpans(heads, bounds.slice(k, j + 1), spans);
      k = j;
      continue;
    }
    const e = bounds[k + 1] ?? b;
    let units = 0;
    for (let i = s; i < e; i++) {
      const cp = text.codePointAt(i) ?? 0;
      units += weight(cp);
      if (cp > 0xffff) i++;
    }
    for (let n = 0; n < units; n++) spans.push([s, e]);
    k++;
  }
}

/**
 * The `subword` units of `text` as `[start, end)` UTF-16 indexes (SCRIPT-30..SCRIPT-33), as
 * Python's `subword_spans` (which gives code-point offsets): starts never decrease, a span
 * repeats once per unit of its cluster (SCRIPT-32) and a word after whitespace other than
 * one plain U+0020 repeats its first span (SCRIPT-33).
 */
export function subwordSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const [a, b] of wordSpans(text, 0, text.length)) {
    const before = spans.length;
    unitsOfWord(text, a, b, spans);
    // SCRIPT-33: whitespace before the word that is not exactly one plain space
    if (spaced(text, a)) {
      const first = spans[before];
      if (first !== undefined) {
        // insert a copy of the word's first span after it, in time linear in the word
        spans.push(first);
        spans.copyWithin(before + 1, before, spans.length - 1);
        spans[before] = [first[0], first[1]];
      }
    }
  }
  return spans;
}

/** SCRIPT-33: true when the word starting at `a` follows whitespace other than one plain space. */
function spaced(text: string, a: number): boolean {
  return a > 0 && (text[a - 1] !== " " || (a > 1 && isSpace(text[a - 2] ?? "")));
}

/** The units of the ASCII word `text[a:b]` (SCRIPT-31), counted without spans. */
function asciiUnits(text: string, a: number, b: number): number {
  let units = 0;
  let i = a;
  while (i < b) {
    const c = text.charCodeAt(i);
    let j = i + 1;
    if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) {
      while (j < b && text.charCodeAt(j) >= 0x61 && text.charCodeAt(j) <= 0x7a) j++;
      units += Math.ceil((j - i) / LETTERS_PER_UNIT);
    } else if (c >= 0x30 && c <= 0x39) {
      while (j < b && text.charCodeAt(j) >= 0x30 && text.charCodeAt(j) <= 0x39) j++;
      units += Math.ceil((j - i) / DIGITS_PER_UNIT);
    } else {
      units += 1;
    }
    i = j;
  }
  return units;
}

/** Units of words holding a non-ASCII character, by word (a word's units are its own, SCRIPT-30). */
const WORD_UNITS = new Map<string, number>();

/** `SubwordCounter().count(text)` (COUNT-12): `subwordSpans(text).length`, without the spans. */
export function subwordCount(text: string): number {
  let total = 0;
  for (const [a, b] of wordSpans(text, 0, text.length)) {
    if (spaced(text, a)) total++;
    if (isAscii(text, a, b)) {
      total += asciiUnits(text, a, b);
      continue;
    }
    const word = text.slice(a, b);
    let units = WORD_UNITS.get(word);
    if (units === undefined) {
      const spans: Array<[number, number]> = [];
      unitsOfWord(word, 0, word.length, spans);
      units = spans.length;
      if (WORD_UNITS.size >= 65536) WORD_UNITS.clear();
      WORD_UNITS.set(word, units);
    }
    total += units;
  }
  return total;
}
