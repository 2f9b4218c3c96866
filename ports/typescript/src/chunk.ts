/** The seed-000 chunk record and its rendering into a context block. */

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

/** `[${c.id}] ${c.title}\n${c.text}`: the block assemble joins (rule PACK-9). */
export function render(c: Chunk): string {
  return `[${c.id}] ${c.title}\n${c.text}`;
}
