/**
 * No crumbs: merge heading-only and small chunks with their section's neighbours (SIZE-3 to
 * SIZE-6), as Python's `_chunkers/_small_chunks.py` does. Two passes over the spans:
 *
 * 1. forward (SIZE-3): a run that is *open* (only headings, or fewer than `minTokens`
 *    tokens) takes the next span while that span *joins* the run and the merged span fits
 *    `maxTokens`;
 * 2. backward (SIZE-4): a run still open after pass 1 is merged into the run before it when
 *    it joins that run and the result fits, unless it ends with a heading whose body is in
 *    the next run.
 *
 * A merged span runs from its first span's start to its last span's end, with its first
 * span's prefix and heading path (SIZE-6). `joins` and the merged kind are the strategy's
 * (SIZE-5).
 */

import type { TokenCounter } from "./counters.js";
import { embedded, type Span } from "./span.js";

/** `(start, end, prefix, headingPath) -> tokens` as the record counts them (SIZE-8). */
export type Measure = (start: number, end: number, prefix: string, path: string[]) => number;

/** The tokens of a span's record text, or of its embedded text when `trail` (SIZE-8). */
export function measureOf(source: string, counter: TokenCounter, trail: boolean): Measure {
  const count = counter.count;
  return (start, end, prefix, path) => {
    const text = prefix + source.slice(start, end);
    return count(trail ? embedded(path, text) : text);
  };
}

/**
 * The merged runs of `spans`: each run's span indexes and its merged span (SIZE-3, SIZE-4).
 * `joins(run, k)`: span `k` belongs to the section(s) of the run's spans; `kindOf(run,
 * tokens)`: the merged kind; `glued(k)`: span `k + 1` is what heading `k` introduces (a run
 * takes both or neither, and never ends at `k` by a merge). `parentId` is the caller's to map.
 */
export function mergeSmall(
  spans: Span[], measure: Measure, minTokens: number, maxTokens: number,
  joins: (run: number[], k: number) => boolean,
  kindOf: (run: number[], tokens: number[]) => string,
  glued: (k: number) => boolean = () => false,
  whole: (k: number) => boolean = () => false,
): Array<[number[], Span]> {
  const n = spans.length;
  const alone = spans.map((s) => measure(s.start, s.end, s.prefix, s.headingPath));
  const heading = spans.map((s) => s.kind === "heading");
  const isOpen = (run: number[], tokens: number): boolean => tokens < minTokens || run.every((i) => heading[i]);
  const at = (i: number): Span => spans[i] as Span;
  const joined = (run: number[], last: number): number => {
    const first = at(run[0] as number);
    return measure(first.start, at(last).end, first.prefix, first.headingPath);
  };
  const group = (k: number): number => {
    while (k + 1 < n && glued(k)) k += 1;
    return k + 1;
  };
  const runs: Array<[number[], number]> = [];
  let i = 0;
  while (i < n) { // pass 1, forward (SIZE-3)
    const run = [i];
    let tokens = alone[i] as number;
    let k = i + 1;
    while (k < n && isOpen(run, tokens) && joins(run, k)) {
      const stop = group(k);
      const merged = joined(run, stop - 1);
      // SIZE-11: headings take the oversized table or code block they introduce
      const over = run.every((j) => heading[j]) && whole(stop - 1) && (alone[stop - 1] as number) > maxTokens;
      if (merged > maxTokens && !over) break;
      for (let j = k; j < stop; j++) run.push(j);
      tokens = merged;
      k = stop;
    }
    runs.push([run, tokens]);
    i = k;
  }
  const out: Array<[number[], number]> = [];
  for (const [run, tokens] of runs) { // pass 2, backward (SIZE-4)
    const before = out[out.length - 1];
    if (
      before !== undefined && isOpen(run, tokens) && joins(before[0], run[0] as number)
      && !glued(run[run.length - 1] as number)
    ) {
      const merged = joined(before[0], run[run.length - 1] as number);
      if (merged <= maxTokens) {
        out[out.length - 1] = [[...before[0], ...run], merged];
        continue;
      }
    }
    out.push([run, tokens]);
  }
  return out.map(([run]) => {
    const first = at(run[0] as number);
    const span: Span = { ...first, end: at(run[run.length - 1] as number).end, kind: kindOf(run, alone) };
    return [run, span];
  });
}
