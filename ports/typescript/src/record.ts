/** The chunk record every chunker answers with (RECORD-1): Python's field names, as in JSON. */

/** A JSON value (META-2): what a record's `metadata` holds. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface ChunkRecord {
  id: string;
  doc_id: string;
  index: number;
  text: string;
  start: number;
  end: number;
  tokens: number;
  counter: string;
  content_hash: string;
  kind: string;
  heading_path: string[];
  parent_id: string | null;
  page_start: number | null;
  page_end: number | null;
  section: string | null;
  prefix: string;
  oversized: boolean;
  title: string;
  source: string;
  strategy: string;
  /** META-1: the document's metadata (its front-matter fields, META-3), the same on every record. */
  metadata: { [key: string]: JsonValue };
}
