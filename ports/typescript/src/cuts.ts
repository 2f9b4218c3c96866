/**
 * Where a token window may be cut when the counter's token starts may repeat or fall inside
 * a grapheme cluster (SCRIPT-10), as Python's `_chunkers/_cuts.py`, and the `window`
 * strategy's windows under such a counter (`_window.py`'s `fitted_windows`): the `subword`
 * counter's heavy cluster is several tokens at one start (SCRIPT-32, COUNT-3), and of
 * several boundaries at one position only the first is a cut.
 *
 * Offsets are CODE POINTS of the text (WIN-9, PAGE-6); the counter's spans (UTF-16 indexes)
 * are converted once.
 */

import { bisectLeft, bisectRight } from "./bisect.js";
import { codePointIndex, utf16Index } from "./codepoints.js";
import type { TokenCounter } from "./counters.js";
import { graphemeBounds } from "./graphemes.js";
import { isSpace } from "./whitespace.js";

/** A text read once for windows over a counter's tokens: its code points and slicing. */
export class Tokenized {
  readonly points: string[];
  /** The token starts, code points (`checked_starts`). */
  readonly starts: number[];
  private readonly cp: (index: number) => number;
  private readonly utf16: (offset: number) => number;

  constructor(readonly text: string, readonly counter: TokenCounter) {
    this.points = Array.from(text);
    this.cp = codePointIndex(text);
    this.utf16 = utf16Index(text);
    this.starts = counter.spans(text).map(([a]) => this.cp(a));
  }

  /** `text[a:b]` in code points. */
  slice(a: number, b: number): string {
    return this.text.slice(this.utf16(a), this.utf16(b));
  }

  /** The counter's count of `text[a:b]`. */
  count(a: number, b: number): number {
    return this.counter.count(this.slice(a, b));
  }

  /** The grapheme cluster bounds of `text[a:b]`, code points (SCRIPT-4). */
  bounds(a: number, b: number): number[] {
    return graphemeBounds(this.text, this.utf16(a), this.utf16(b)).map(this.cp);
  }
}

/**
 * The token boundaries `0 .. N` a window may end at or start from (SCRIPT-10):
 * `positions[j]` is where the cut before token `j` falls (its start moved forward to the next
 * cluster boundary unless it follows whitespace); boundary `j` is a cut when `j` is 0 or
 * `N`, or `positions[j - 1] < positions[j] < len(text)`.
 */
export class Cuts {
  readonly positions: number[];
  /** The cuts, ascending; null: every boundary is one. */
  private readonly cuts: number[] | null;

  constructor(tokens: Tokenized) {
    const { starts, points, counter } = tokens;
    this.positions = starts;
    this.cuts = null;
    // word and unit starts are distinct and follow whitespace or a cluster boundary
    if (counter.summable) return;
    const n = points.length;
    const bounds = tokens.bounds(0, n);
    this.positions = starts.map((p) =>
      p >= n || (p > 0 && isSpace(points[p - 1] ?? "")) ? p : (bounds[bisectLeft(bounds, p)] ?? n),
    );
    const positions = this.positions;
    const nTokens = starts.length;
    const cuts = [0];
    for (let j = 1; j < nTokens; j++) {
      const p = positions[j] ?? 0;
      if ((positions[j - 1] ?? 0) < p && p < n) cuts.push(j);
    }
    cuts.push(nTokens);
    if (cuts.length !== nTokens + 1) this.cuts = cuts;
  }

  /** The largest cut in `[low, j]`, or null. */
  atOrBefore(j: number, low: number): number | null {
    if (this.cuts === null) return j >= low ? j : null;
    const k = bisectRight(this.cuts, j) - 1;
    const cut = this.cuts[k];
    return k >= 0 && cut !== undefined && cut >= low ? cut : null;
  }

  /** The smallest cut greater than `j` (`N` at most; `j < N`). */
  after(j: number): number {
    if (this.cuts === null) return j + 1;
    return this.cuts[bisectRight(this.cuts, j)] ?? j + 1;
  }

  /** True when boundary `j` is a cut. */
  isCut(j: number): boolean {
    return this.atOrBefore(j, j) !== null;
  }
}

/**
 * SCRIPT-10's last level (SCRIPT-8's): `text[lo:hi]`, over `maxTokens` with no cut inside,
 * split at clusters: from the first cluster on, each piece the run of clusters that grows
 * while it counts at most `maxTokens` (at least one cluster), as `[start, end, count]`.
 */
export function splitClusters(tokens: Tokenized, lo: number, hi: number, maxTokens: number): Array<[number, number, number]> {
  const bounds = tokens.bounds(lo, hi);
  const out: Array<[number, number, number]> = [];
  let i = 0;
  const last = bounds.length - 1;
  while (i < last) {
    let k = i + 1;
    let count = tokens.count(bounds[i] ?? 0, bounds[k] ?? 0);
    while (k < last) {
      const wider = tokens.count(bounds[i] ?? 0, bounds[k + 1] ?? 0);
      if (wider > maxTokens) break;
      k += 1;
      count = wider;
    }
    out.push([bounds[i] ?? 0, bounds[k] ?? 0, count]);
    i = k;
  }
  return out;
}

/**
 * The `window` strategy's windows `[start, end, count]` under a counter whose token starts
 * are not all cuts (SCRIPT-10, Python's `fitted_windows`): TOKWIN-3's windows with every
 * edge a cut; a window whose text re-counts over `size` gives back one cut at a time; the
 * next window starts at the last cut at or before `end - overlap` and past the window's
 * start. A window over `size` holds one cluster and nothing else.
 */
export function fittedWindows(tokens: Tokenized, size: number, overlap: number): Array<[number, number, number]> {
  const nTokens = tokens.starts.length;
  const n = tokens.points.length;
  if (nTokens === 0) return [];
  const cuts = new Cuts(tokens);
  const starts = cuts.positions;
  const out: Array<[number, number, number]> = [];
  let s = 0;
  for (;;) {
    let e = Math.min(s + size, nTokens);
    e = cuts.atOrBefore(e, s + 1) ?? cuts.after(e);
    const lo = s === 0 ? 0 : (starts[s] ?? 0);
    let hi: number;
    let count: number;
    for (;;) {
      hi = e === nTokens ? n : (starts[e] ?? 0);
      count = tokens.count(lo, hi);
      if (count <= size) break;
      const smaller = cuts.atOrBefore(e - 1, s + 1);
      if (smaller === null) break;
      e = smaller;
    }
    if (count <= size) out.push([lo, hi, count]);
    else out.push(...splitClusters(tokens, lo, hi, size)); // no cut inside: split at clusters
    if (e === nTokens) return out;
    const target = Math.max(e - overlap, s + 1);
    s = cuts.atOrBefore(target, s + 1) ?? cuts.after(target);
  }
}
