/**
 * Spans of a Markdown document as chunk records (RECORD-1, RECORD-12), as chunk_document
 * writes them with the whitespace counter: offsets in code points (SOURCE-2), tokens by
 * TOK-1, the section by RECORD-12, every record checked by the zod record schema.
 */

import { codePointIndex } from "./codepoints.js";
import { fault } from "./faults.js";
import { frontMatterFields } from "./frontMatter.js";
import { hashText } from "./hashing.js";
import type { ChunkRecord } from "./record.js";
import { UnkeyedRecordSchema } from "./schema.js";
import { countUnits } from "./units.js";
import { countWords, pyStrip } from "./whitespace.js";
import { withKeys } from "./keys.js";

export interface Span {
  start: number; // UTF-16 index into the source
  end: number;
  kind: string;
  headingPath: string[];
  parentId: string | null;
  prefix: string;
  /** SIZE-7: a merged heading record's section, its heading's title (else RECORD-12's). */
  section?: string;
}

/** RECORD-12: a heading chunk's own title, else the innermost heading of its path. */
function section(path: string[], kind: string, text: string): string | null {
  if (kind === "heading") return text;
  const last = path[path.length - 1];
  if (last === undefined) return null;
  const blank = fault("md-section-trim") || fault("ha-section-trim") ? last.trim() === "" : pyStrip(last) === "";
  return blank ? null : last;
}

/** SIZE-8: the embedded text, `${trail}\n\n${text}` with the heading trail, or `text`. */
export function embedded(path: string[], text: string): string {
  const trail = path.join(" > ");
  return trail === "" ? text : `${trail}\n\n${text}`;
}

/**
 * The records of `spans` over `source` (ids `docId:index`); with `trail`, `tokens` counts
 * the embedded text (SIZE-8, RECORD-17).
 */
export function spanRecords(
  docId: string, title: string, source: string, spans: Span[], maxTokens: number, strategy: string,
  unicode = false, trail = false,
): ChunkRecord[] {
  const cp = codePointIndex(source);
  const metadata = frontMatterFields(source); // META-3, META-4: one object, every record
  return withKeys(spans.map((span, index) => {
    const text = span.prefix + source.slice(span.start, span.end);
    const counted = trail ? embedded(span.headingPath, text) : text;
    const tokens = unicode ? countUnits(counted) : countWords(counted); // SCRIPT-6
    const record: ChunkRecord = {
      id: `${docId}:${index}`, doc_id: docId, index, text, start: cp(span.start), end: cp(span.end),
      tokens, counter: unicode ? "unicode" : "whitespace", content_hash: hashText(text), kind: span.kind,
      heading_path: span.headingPath, parent_id: span.parentId, page_start: null, page_end: null,
      section: span.section ?? section(span.headingPath, span.kind, text), prefix: span.prefix,
      oversized: tokens > maxTokens, title, source: "", strategy, metadata,
    };
    UnkeyedRecordSchema.parse(record);
    return record;
  }));
}
