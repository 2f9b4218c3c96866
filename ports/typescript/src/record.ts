/** The chunk record every chunker answers with (RECORD-1): Python's field names, as in JSON. */

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
  /** KEY-1: the stable key, set by `withKeys` once a call's records are made. */
  key?: string;
}
