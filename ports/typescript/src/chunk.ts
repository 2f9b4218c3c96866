/** The `Chunk` record and its rendering into a context block (RENDER-1). */

import { fault } from "./faults.js";
import { ArgumentTypeError } from "./validate.js";

/** One retrievable unit: `id === `${docId}:${n}`` as made by splitSection. */
export class Chunk {
  constructor(
    readonly id: string,
    readonly docId: string,
    readonly title: string,
    readonly text: string,
    readonly tokens: number,
    readonly contentHash: string,
    readonly score: number = 0,
  ) {}
}

/** `[${c.id}] ${c.title}\n${c.text}`: the block assemble joins (RENDER-1, PACK-9). */
export function render(c: Chunk): string {
  if (fault("render-no-type-check") && !(c instanceof Chunk)) return `[${String((c as { id?: unknown })?.id)}] undefined\nundefined`;
  if (!(c instanceof Chunk)) throw new ArgumentTypeError("c", "a Chunk", c);
  return renderUnchecked(c);
}

/** `render` without the type check, for callers that validated `c` already. */
export function renderUnchecked(c: Chunk): string {
  if (fault("render-no-newline")) return `[${c.id}] ${c.title} ${c.text}`;
  if (fault("render-crlf")) return `[${c.id}] ${c.title}\r\n${c.text}`;
  if (fault("render-trim-title")) return `[${c.id}] ${c.title.trim()}\n${c.text}`;
  if (fault("render-doc-id")) return `[${c.docId}] ${c.title}\n${c.text}`;
  if (fault("render-empty-title") && c.title === "") return `[${c.id}]\n${c.text}`;
  if (fault("render-trailing-newline")) return `[${c.id}] ${c.title}\n${c.text}\n`;
  if (fault("render-collapse-whitespace")) return `[${c.id}] ${c.title}\n${c.text.replace(/\s+/g, " ")}`;
  if (fault("render-title-no-space")) return `[${c.id}]${c.title}\n${c.text}`;
  if (fault("render-trim-text")) return `[${c.id}] ${c.title}\n${c.text.trim()}`;
  return `[${c.id}] ${c.title}\n${c.text}`;
}
