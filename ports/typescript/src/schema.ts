/**
 * The zod `ChunkSchema` of Markdown chunks, extended to the full chunk record (RECORD-1,
 * RECORD-2).
 *
 * `ChunkSchema` names six facts in camelCase (`docId`, `headingPath`); the record, the
 * wire and the JSON Schema (chunk-record.schema.json) use Python's names. The record schema
 * reuses each of `ChunkSchema`'s field schemas under its record name and adds the rest, and
 * checks what a JSON Schema cannot state: `id == doc_id:index`, `text` starts with `prefix`,
 * `start <= end`, pages both null or both set.
 */

import { z } from "zod";

/** A Markdown chunk's six facts, in camelCase. */
export const ChunkSchema = z.object({
  docId: z.string(),
  text: z.string().min(1),
  headingPath: z.array(z.string()),
  kind: z.enum(["prose", "table", "code", "definition"]),
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
});

export type Chunk = z.infer<typeof ChunkSchema>;

/** RECORD-4's kinds: `ChunkSchema`'s four, and heading, body, window. */
export const RECORD_KINDS = [...ChunkSchema.shape.kind.options, "heading", "body", "window"] as const;

/** META-2: a JSON value: finite numbers, integers within 2**53 - 1, nested at most 32 deep. */
const jsonValue: z.ZodType<unknown> = z.lazy(() =>
  z.union([
    z.string(),
    z.number().refine((n) => Number.isFinite(n) && (!Number.isInteger(n) || Math.abs(n) <= Number.MAX_SAFE_INTEGER)),
    z.boolean(),
    z.null(),
    z.array(jsonValue),
    z.record(z.string(), jsonValue),
  ]),
);

const count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const page = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullable();

/** The chunk record's fields but `key` (RECORD-1): `ChunkSchema`'s under their record names, then the rest. */
const recordFields = {
  id: z.string(),
  doc_id: ChunkSchema.shape.docId,
  index: count,
  text: ChunkSchema.shape.text,
  start: ChunkSchema.shape.start.max(Number.MAX_SAFE_INTEGER),
  end: ChunkSchema.shape.end.max(Number.MAX_SAFE_INTEGER),
  tokens: count,
  counter: z.string().min(1),
  content_hash: z.string().regex(/^[0-9a-f]{64}$/),
  kind: z.enum(RECORD_KINDS),
  heading_path: ChunkSchema.shape.headingPath,
  parent_id: z.string().nullable(),
  page_start: page,
  page_end: page,
  section: z.string().nullable(),
  prefix: z.string(),
  oversized: z.boolean(),
  title: z.string(),
  source: z.string(),
  strategy: z.string().min(1),
  metadata: z.record(z.string(), jsonValue), // META-1, META-2
};

/** The fields RECORD-2's equations read. */
interface RecordCore {
  id: string; doc_id: string; index: number; start: number; end: number; text: string;
  prefix: string; page_start: number | null; page_end: number | null;
}

/** RECORD-2's equations, each a custom issue with its message. */
function equations(r: RecordCore, ctx: z.RefinementCtx): void {
  const broken = (message: string): void => ctx.addIssue({ code: "custom", message });
  if (r.id !== `${r.doc_id}:${r.index}`) broken("RECORD-2: id is doc_id:index");
  if (!(r.start <= r.end)) broken("RECORD-2: start <= end");
  if (!r.text.startsWith(r.prefix)) broken("RECORD-2: text starts with prefix");
  if ((r.page_start === null) !== (r.page_end === null)) broken("RECORD-2: pages");
}

/** The chunk record (RECORD-1), its stable key included (KEY-1): what the port writes. */
export const ChunkRecordSchema = z
  .object({ ...recordFields, key: z.string().regex(/^[0-9a-f]{64}$/) })
  .strict()
  .superRefine(equations);

export type ChunkRecordShape = z.infer<typeof ChunkRecordSchema>;
