/**
 * SENT-1/SENT-2/SENT-5/SENT-6 sentence spans for the heading-aware chunker's oversized blocks (HEAD-7):
 * one forward scan (SENT-4), Python's whitespace (WS-1). UTF-16 indexes of `text`; every
 * terminator, closer and whitespace character is in the BMP, so code units suffice.
 */

import { isSpace } from "./whitespace.js";

import { CLOSERS, TERMINATORS, WIDE_TERMINATORS } from "./sentences.js";

/** The sentences of text[start:end] as [s, e) offsets, each trimmed and non-blank. */
export function sentenceSpans(text: string, start: number, end: number): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let i = start;
  let begin = start;
  while (i < end) {
    if (TERMINATORS.has(text[i] ?? "")) {
      let j = i + 1;
      while (j < end && TERMINATORS.has(text[j] ?? "")) j++;
      let wide = false; // SENT-6
      for (let k = i; k < j; k++) if (WIDE_TERMINATORS.has(text[k] ?? "")) wide = true;
      while (j < end && CLOSERS.has(text[j] ?? "")) j++;
      if (wide || j === end || isSpace(text[j] ?? "")) {
        emit(text, begin, j, spans);
        begin = j;
      }
      i = j;
    } else {
      i++;
    }
  }
  emit(text, begin, end, spans);
  return spans;
}

function emit(text: string, start: number, end: number, spans: Array<[number, number]>): void {
  while (start < end && isSpace(text[start] ?? "")) start++;
  while (end > start && isSpace(text[end - 1] ?? "")) end--;
  if (start < end) spans.push([start, end]);
}
