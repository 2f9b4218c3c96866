/**
 * UTF-16 indexes to code-point offsets (SOURCE-2): JavaScript strings index UTF-16 code
 * units, Python's code points, so an astral character before a boundary moves every later
 * offset by one unless converted (HAZ-16).
 */

import { fault } from "./faults.js";

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
