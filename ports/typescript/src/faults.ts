/**
 * Deliberate faults for the conformance kit's own tests ("proof that the gate can fail").
 *
 * The library never enables a fault by itself: only the protocol adapter does, when started
 * with `--break=NAME` (or CHUNKSPEC_PORT_BREAK=NAME). Each name is one classic porting
 * mistake; the kit's tests assert that `chunkspec conformance` catches each one and blames
 * the rule it breaks. With no fault enabled, `fault(name)` is false everywhere.
 */

export const FAULTS = [
  "trim", // String.prototype.trim() instead of Python's whitespace set (WS-1)
  "utf16-order", // ids compared by UTF-16 code unit instead of code point (PACK-1)
  "locale-compare", // ids compared with localeCompare (PACK-1)
  "break-over-budget", // break instead of skip-and-continue on an over-budget chunk (PACK-7)
  "min-score-le", // stop at score <= minScore instead of score < minScore (PACK-4)
  "merge-last-subchunk", // an oversized piece's last sub-chunk joins the next pieces (SPLIT-8)
  "split-regex-tokens", // countTokens as text.split(/\s+/).length (TOK-1)
  "dedupe-seen", // dedupe against every hash seen, not only picked ones (PACK-6)
  "assemble-no-surrogate-check", // chunk id/doc_id not checked for lone surrogates (PORT-2)
  "trim-title", // splitSection trims the title it copies into each chunk (SPLIT-9)
  "words-unbounded-start", // words does not bound start at 2**53 - 1 (WORDS-2, PORT-1)
  "words-double", // words adds start + i in doubles past 2**53 - 1 (WORDS-1, HAZ-11)
  "drop-blank-chunk", // blank text gives no chunk instead of one empty chunk (SPLIT-10)
  "no-strip-whole", // a text that fits whole is not stripped (SPLIT-1)
  "strip-kept-pieces", // kept pieces are stripped before they are joined (SPLIT-3)
  "budget-off-by-one", // a chunk must fit with room to spare: tokens < room (PACK-7)
  "subtraction-comparator", // b.score - a.score, NaN for two equal infinities (HAZ-7, PACK-1)
  "window-utf16", // windows over UTF-16 code units, not code points (WIN-9, HAZ-12)
  "window-scrap", // keeps stepping after a window reached the end (WIN-6)
  "window-blank", // windows for a blank text instead of no record (SOURCE-7)
  "window-tokens-utf16", // tokens = piece.length in UTF-16 units (RECORD-14)
  "window-strategy-no-overlap", // strategy string without overlap_tokens (RECORD-6)
  "window-id-from-one", // record ids and indexes from 1 (RECORD-2)
  "window-boolean-size", // max_tokens true taken as 1 (Number(true)), not a TypeError (WIN-1)
  "window-end-unclamped", // the last window's end is start + size, past the text (RECORD-3)
  "md-fence-hash-heading", // a "#" line inside a fenced block opens a heading, as seed 001 (MD-1)
  "md-utf16-offsets", // record offsets in UTF-16 code units, not code points (RECORD-3, HAZ-16)
  "md-crlf-normalised", // CRLF turned into LF before chunking: text and offsets lose the \r (MD-2, HAZ-13)
  "md-table-split", // an oversized table split by rows without split_tables (MD-9)
  "md-path-by-position", // heading path cut by list position, seed 001's heading_path[: level - 1] (MD-7)
  "md-trim-blank", // whitespace-only blocks tested with trim(), not Python's isspace (MD-8)
  "md-fits-lt", // prose packed while tokens < max_tokens, not <= (MD-10)
  "md-strategy-flags", // the strategy string leaves out count_headings/split_tables (RECORD-6)
  "md-js-trim", // markdown-it parses with JavaScript's trim(), not markdown-it-py's mdTrim (MD-4, HAZ-17)
  "md-section-trim", // section blank test with trim(), not Python's strip (RECORD-12)
  "ha-parent-off-by-one", // a body chunk's parent is the chunk just before it (HEAD-4)
  "ha-path-not-reset", // a heading pops only deeper levels, not equal ones (HEAD-4)
  "ha-overlap-across-sections", // overlap carried across a heading (HEAD-6)
  "ha-overlap-ignores-budget", // overlap not shrunk to keep the chunk within max_tokens (HEAD-6)
  "ha-budget-lt", // a unit joins the buffer only while total < max_tokens (HEAD-5)
  "ha-trim-blank", // blank blocks and headings tested with trim() (HEAD-10)
  "ha-utf16-offsets", // record offsets in UTF-16 code units (RECORD-3, HAZ-16)
  "ha-crlf-normalised", // CRLF turned into LF before chunking (MD-2, HAZ-13)
  "ha-no-sentences", // an oversized block hard-split by words, not first by sentences (HEAD-7)
  "ha-section-trim", // section blank test with trim() (RECORD-12)
  "sentence-js-space", // sentences end and are stripped at JavaScript's /\s/, not Python's whitespace (SENT-1, WS-1)
  "sentence-js-trim", // sentences stripped with String.prototype.trim() (SENT-2, WS-1)
  "sentence-ascii-terminators", // only the seed regex's [.!?] end a sentence, not … 。 ！ ？ (SENT-1)
  "sentence-ascii-closers", // only the seed regex's ["')] close a sentence, not ] } » ” ’ (SENT-1)
  "sentence-break-without-space", // a terminator ends a sentence even with no whitespace after it (SENT-1)
  "sentence-abbreviation", // no break after an abbreviation such as "e.g." (SENT-3)
  "sentence-no-strip", // sentences keep the whitespace around them (SENT-2)
  "sentence-keep-blank", // a blank text gives one empty sentence, as "".split(re) does (SENT-2)
  "sentence-no-surrogate-check", // a lone surrogate in the text is not rejected (PORT-2)
  "tokwin-utf16", // token window offsets in UTF-16 code units, not code points (WIN-9, HAZ-15)
  "tokwin-js-space", // tokens are runs of JavaScript's non-/\s/ characters (COUNT-4, WS-1)
  "tokwin-overlap-chars", // the overlap counted in characters before the cut, not in tokens (TOKWIN-6)
  "tokwin-scrap", // keeps stepping after a window reached the last token (TOKWIN-3)
  "tokwin-first-at-token", // the first window starts at its first token, not at 0 (TOKWIN-4)
  "tokwin-cut-at-token-end", // a window ends where its last token ends, not at the next token's start (TOKWIN-5)
  "tokwin-boolean-size", // max_tokens true taken as 1 (Number(true)), not a TypeError (TOKWIN-1)
  "tokwin-tokens-nominal", // a record's tokens is max_tokens, not the count of its text (RECORD-14)
  "pages-utf16", // page chunk offsets in UTF-16 code units, not code points (PAGE-6, HAZ-15)
  "pages-js-trim", // chunk ranges stripped with trim(): U+FEFF stripped, U+001C..U+001F kept (PAGE-5, WS-1)
  "pages-page-end-inclusive", // a chunk ending where its page ends gets the next page as page_end (PAGE-11)
  "pages-start-page-only", // page_end is page_start, as the seed records one page (PAGE-11)
  "pages-page-from-zero", // page numbers counted from 0 (PAGE-11)
  "pages-no-sentence-break", // windows never end at a sentence boundary (PAGE-9)
  "pages-sentence-first", // the first sentence end in the zone, as the seed takes, not the last (PAGE-9)
  "pages-js-space-sentence", // a sentence mark must be followed by JavaScript's /\s/ (PAGE-9, HAZ-14)
  "pages-overlap-chars", // the next window starts overlap characters before the cut, not tokens (PAGE-10)
  "pages-blank-record", // a blank document gives one record instead of none (SOURCE-7, PAGE-5)
  "pages-oversized-ge", // oversized when tokens >= max_tokens, not > (RECORD-14)
] as const;

export type Fault = (typeof FAULTS)[number];

const enabled = new Set<string>();

/** Enable the named faults; throws on an unknown name. */
export function enableFaults(names: Iterable<string>): void {
  for (const name of names) {
    if (!(FAULTS as readonly string[]).includes(name)) {
      throw new Error(`unknown fault ${JSON.stringify(name)}; known: ${FAULTS.join(", ")}`);
    }
    enabled.add(name);
  }
}

/** True when the named fault is enabled (only ever in the kit's broken-port tests). */
export function fault(name: Fault): boolean {
  return enabled.size !== 0 && enabled.has(name);
}
