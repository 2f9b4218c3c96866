/**
 * The counters this package computes, each one value (Python's `TokenSpanCounter` objects,
 * `_counters/_builtin.py`): its record name (RECORD-5), its count, its token spans and the
 * properties the chunkers branch on, so that a chunker asks what a counter does, never which
 * counter it is.
 */

import { countUnits, unitSpans } from "./units.js";
import { subwordCount, subwordSpans } from "./subwords.js";
import { countWords, wordSpans } from "./whitespace.js";

/**
 * The counters' names: `whitespace` words (TOK-1), `unicode` units (COUNT-11, SCRIPT-3),
 * `subword` units (COUNT-12, SCRIPT-30..SCRIPT-33) and `chars1` code points (character
 * windows only).
 */
export type Counter = "whitespace" | "unicode" | "subword" | "chars1";

/** Every {@link Counter}, in the order messages list them. */
export const COUNTER_NAMES: readonly Counter[] = ["whitespace", "unicode", "subword", "chars1"];

/** One counter (Python's counter object). */
export interface TokenCounter {
  /** The record's `counter` (RECORD-5). */
  readonly name: Counter;
  /** The tokens of `text` (COUNT-1). */
  count(text: string): number;
  /**
   * The token spans of `text` as `[start, end)` UTF-16 indexes, starts never decreasing; a
   * span may repeat (COUNT-2, COUNT-3).
   */
  spans(text: string): Array<[number, number]>;
  /**
   * The count of a join is the sum of its parts' counts (whitespace words, TOK-1): Python's
   * `type(counter) is WhitespaceCounter` tests.
   */
  readonly additive: boolean;
  /**
   * Its tokens never hold or cross whitespace, so the count of blocks joined by whitespace is
   * the sum of theirs, and its token starts are distinct and never inside a grapheme cluster
   * (COUNT-4, SCRIPT-3): every token start is a cut (SCRIPT-10). Python's `type(counter) in
   * (WhitespaceCounter, UnicodeCounter)` tests.
   */
  readonly summable: boolean;
}

const WHITESPACE: TokenCounter = {
  name: "whitespace", count: countWords, spans: (text) => wordSpans(text, 0, text.length), additive: true, summable: true,
};
const UNICODE: TokenCounter = {
  name: "unicode", count: countUnits, spans: (text) => unitSpans(text), additive: false, summable: true,
};
const SUBWORD: TokenCounter = {
  name: "subword", count: subwordCount, spans: subwordSpans, additive: false, summable: false,
};
const CHARS1: TokenCounter = {
  name: "chars1",
  count: (text) => Array.from(text).length,
  spans: (text) => {
    const out: Array<[number, number]> = [];
    for (let i = 0; i < text.length; i++) {
      const wide = (text.codePointAt(i) ?? 0) > 0xffff;
      out.push([i, wide ? i + 2 : i + 1]);
      if (wide) i++;
    }
    return out;
  },
  additive: false,
  summable: false,
};

const COUNTERS: { readonly [name in Counter]: TokenCounter } = {
  whitespace: WHITESPACE, unicode: UNICODE, subword: SUBWORD, chars1: CHARS1,
};

/** The counter named `name` (Python's `resolve_counter` of a built-in name). */
export function counterNamed(name: Counter): TokenCounter {
  return COUNTERS[name];
}
