/**
 * The one shape every chunker hands to the record loop: a {@link Span} of the document's
 * text, as Python's `_chunkers/_span.py` states it (RECORD-10).
 */

/**
 * One chunk as a span of the document's text (RECORD-10).
 *
 * `start` and `end` are the record's offsets: CODE POINTS of the text (SOURCE-2). `text` is
 * absent when the chunk's text is `prefix + text[start:end]`, and the chunk's own text
 * otherwise (the window chunkers hand over the piece they sliced from their code points).
 * `tokens` is RECORD-14's count of the chunk's text when the chunker has counted exactly that
 * text with the call's counter, else absent (the record loop counts it). `section` is SIZE-7's
 * section of a merged heading record, its heading's title (Python's loop finds it by the
 * heading stack); absent, the loop takes RECORD-12's.
 */
export interface Span {
  start: number;
  end: number;
  kind: string;
  headingPath: string[];
  parentId: string | null;
  prefix: string;
  text?: string;
  tokens?: number;
  section?: string;
}

/** SIZE-8: the embedded text, `${trail}\n\n${text}` with the heading trail, or `text`. */
export function embedded(path: string[], text: string): string {
  const trail = path.join(" > ");
  return trail === "" ? text : `${trail}\n\n${text}`;
}
