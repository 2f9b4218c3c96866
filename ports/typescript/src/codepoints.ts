/**
 * UTF-16 indexes to code-point offsets (SOURCE-2): JavaScript strings index UTF-16 code
 * units, Python's code points, so an astral character before a boundary moves every later
 * offset by one unless converted (HAZ-16).
 */

import { fault } from "./faults.js";
import type { Span } from "./span.js";

/** Return a function mapping a UTF-16 index of `text` to its code-point offset. */
export function codePointIndex(text: string): (index: number) => number {
  if (!/[\ud800-\udfff]/.test(text) || fault("md-utf16-offsets") || fault("ha-utf16-offsets")) {
    return (index) => index;
  }
  const table = new Int32Array(text.length + 1);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    table[i + 1] = (table[i] ?? 0) + (unit >= 0xdc00 && unit <= 0xdfff && i > 0 ? 0 : 1);
  }
  return (index) => table[index] ?? index;
}

/**
 * Return a function mapping a code-point offset of `text` to its UTF-16 index: the inverse
 * of {@link codePointIndex}, for slicing `text` at a record's offsets.
 */
export function utf16Index(text: string): (offset: number) => number {
  if (!/[\ud800-\udfff]/.test(text) || fault("md-utf16-offsets") || fault("ha-utf16-offsets")) {
    return (offset) => offset;
  }
  const table: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (!(unit >= 0xdc00 && unit <= 0xdfff && i > 0)) table.push(i); // as codePointIndex counts
  }
  table.push(text.length);
  return (offset) => table[offset] ?? offset;
}


/** `spans` built over UTF-16 indexes of `text` (the Markdown chunkers'), at code points. */
export function inCodePoints(text: string, spans: readonly Span[]): Span[] {
  const cp = codePointIndex(text);
  return spans.map((span) => ({ ...span, start: cp(span.start), end: cp(span.end) }));
}
