/**
 * Python's whitespace, not JavaScript's (rule WS-1).
 *
 * Python's `str.split()` and `str.strip()` use the code points for which `str.isspace()` is
 * true. JavaScript's `/\s/` and `trim()` use a different set: they add U+FEFF and leave out
 * U+001C..U+001F and U+0085. Reading `strip()` as `trim()` is therefore wrong at the edges,
 * and this port never uses `trim()`, `/\s/` or `split(/\s+/)`.
 */

import { fault } from "./faults.js";

/** The code points of Python's `str.isspace()`, in order (rule WS-1). */
export const WHITESPACE: readonly string[] = [
  "\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1d", "\x1e", "\x1f", " ", "\x85", "\xa0",
  "\u1680", "\u2000", "\u2001", "\u2002", "\u2003", "\u2004", "\u2005", "\u2006", "\u2007",
  "\u2008", "\u2009", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000",
];

const CLASS = "[\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const RUN = new RegExp(`${CLASS}+`, "g");
const LEADING = new RegExp(`^${CLASS}+`);
const TRAILING = new RegExp(`${CLASS}+$`);
const ONE = new RegExp(`^${CLASS}$`);

/** True when `ch` (one UTF-16 unit or code point) is Python whitespace. */
export function isSpace(ch: string): boolean {
  return ONE.test(ch);
}

/** Python's `text.strip()`. */
export function pyStrip(text: string): string {
  if (fault("trim")) return text.trim();
  return text.replace(LEADING, "").replace(TRAILING, "");
}

/** Python's `text.split()`: the maximal runs of non-whitespace, in order. */
export function pySplit(text: string): string[] {
  return text.split(RUN).filter((word) => word.length > 0);
}

/** `len(text.split())` without building the list. */
export function countWords(text: string): number {
  let count = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isSpaceUnit(c)) {
      inWord = false;
    } else if (!inWord) {
      inWord = true;
      count++;
    }
  }
  return count;
}

/** True for the UTF-16 code units of Python whitespace (all of them are in the BMP). */
function isSpaceUnit(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
  if (c < 0x85) return false;
  return (
    c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000
  );
}

/** Python's `text == "" or text.isspace()`: no character that is not Python whitespace. */
export function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isSpaceUnit(text.charCodeAt(i))) return false;
  return true;
}

/** Python's `len(text) - len(text.lstrip())` in UTF-16 units. */
export function lstripLength(text: string): number {
  let i = 0;
  while (i < text.length && isSpaceUnit(text.charCodeAt(i))) i++;
  return i;
}

/** The [start, end) UTF-16 offsets of Python's `re.finditer(r"\S+", text[from:to])`. */
export function wordSpans(text: string, from: number, to: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let i = from;
  while (i < to) {
    while (i < to && isSpaceUnit(text.charCodeAt(i))) i++;
    if (i >= to) break;
    const s = i;
    while (i < to && !isSpaceUnit(text.charCodeAt(i))) i++;
    out.push([s, i]);
  }
  return out;
}
