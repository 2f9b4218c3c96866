/**
 * `HeadingAwareChunker`'s spans (strategy `heading`, HEAD-1 to HEAD-12) and their records:
 * one heading chunk per titled heading with a parent link to the closest enclosing
 * lower-level heading, body chunks packed to `max_tokens` with in-section overlap, oversized
 * blocks split by sentences then words. Counter: whitespace words (TOK-1), additive.
 */

import { fault } from "./faults.js";
import { sentenceSpans as headingSentences } from "./headingSentences.js";
import { inCodePoints } from "./codepoints.js";
import { frontMatterFields, refuseUnreadAccessKeys } from "./frontMatter.js";
import { type Block, parseMarkdownBlocks } from "./markdown.js";
import type { Span } from "./span.js";
import { isBlankDocument, optionsOf, type RecordOptions, recordsOf, scriptCounter, type SourceDocument, textDocument } from "./records.js";
import { type Measure, measureOf, mergeSmall } from "./smallChunks.js";
import type { ChunkRecord } from "./record.js";
import { requireInt, requireText } from "./validate.js";
import { counterNamed, type TokenCounter } from "./counters.js";
import { fitWord } from "./units.js";
import { countWords, isBlank, wordSpans } from "./whitespace.js";

/**
 * The spans of strategy `heading` (HEAD-1 to HEAD-12; SIZE-3 to SIZE-7 when `minTokens`):
 * parent ids are `${docId}:${position}`.
 */
export function headingSpans(document: SourceDocument, options: RecordOptions): Span[] {
  const { docId, text } = document;
  const { maxTokens, minTokens, budgetIncludesHeadings } = options;
  const counter = counterNamed(options.counter);
  const walk = new Run(
    docId, text, maxTokens, options.overlap ?? 0, counter, minTokens > 0, budgetIncludesHeadings, document.blocks ?? null,
    minTokens,
  );
  let spans = walk.run();
  if (minTokens > 0) {
    const measure = measureOf(text, counter, budgetIncludesHeadings);
    // SIZE-11: the tables and code blocks, kept whole
    const wholeBlocks = new Set(walk.fences.map(([start, end]) => `${start}:${end}`));
    spans = mergeHeadingSpans(docId, spans, walk.titles, minTokens, maxTokens, measure, wholeBlocks);
  }
  return inCodePoints(text, spans);
}

/** `chunk_document(SourceDocument(docId, text, "markdown", title), "heading", ...)`. */
export function headingAwareRecords(
  docId: string, title: string, text: string, maxTokens: number, overlapTokens: number,
  forceUnicode = false, minTokens = 0, budgetIncludesHeadings = false,
  caller: Record<string, unknown> = {},
): ChunkRecord[] {
  requireText("doc_id", docId);
  requireText("text", text);
  requireText("title", title);
  refuseUnreadAccessKeys(text, docId, caller); // TRUST-3, as SourceDocument refuses it
  requireInt("max_tokens", maxTokens, 1); // HEAD-12
  requireInt("overlap_tokens", overlapTokens, 0);
  if (isBlankDocument(text)) return []; // SOURCE-7
  const counter = scriptCounter(forceUnicode ? "unicode" : "whitespace", text); // SCRIPT-6
  const options = optionsOf({
    strategy: "heading", maxTokens, overlap: overlapTokens, counter, minTokens, budgetIncludesHeadings,
  });
  const document = textDocument(docId, title, text, frontMatterFields(text)); // META-3
  return recordsOf(document, options, headingSpans(document, options));
}

/** Python's `not text.strip()` (or the "ha-trim-blank" fault's JavaScript trim()). */
function blank(text: string): boolean {
  return fault("ha-trim-blank") ? text.trim() === "" : isBlank(text);
}

/** SIZE-11: the blocks the retrieval strategies never cut (MD-9). */
const WHOLE = new Set(["code", "table"]);

/** SIZE-3 to SIZE-7: seed 003's spans merged, parent links remapped to the merged records. */
function mergeHeadingSpans(
  docId: string, spans: Span[], titles: Map<number, string>, minTokens: number, maxTokens: number,
  measure: Measure, wholeBlocks: Set<string>,
): Span[] {
  const position = new Map<string, number>(spans.map((_, i) => [`${docId}:${i}`, i]));
  const parents = spans.map((s) => (s.parentId === null ? null : (position.get(s.parentId) ?? null)));
  const kind = (i: number): string => spans[i]?.kind ?? "";
  // SIZE-5: the chunks before the first heading (the preamble) may take it.
  let first = spans.findIndex((s) => s.kind === "heading");
  if (first < 0) first = spans.length;
  const preamble = (run: number[]): boolean => (run[0] as number) < first && first <= (run[run.length - 1] as number);
  const joins = (run: number[], k: number): boolean => {
    // SIZE-5: span k's parent is a heading of the run or the parent of one of its spans;
    // a run that starts with a body chunk takes no heading, unless it is before the first heading.
    if (kind(k) === "heading" && kind(run[0] as number) !== "heading" && (run[0] as number) >= first) return false;
    const parent = parents[k];
    return run.some((i) => parents[i] === parent || (i === parent && kind(i) === "heading"));
  };
  const runs = mergeSmall(
    spans, measure, minTokens, maxTokens, joins, (run) => (preamble(run) ? "heading" : kind(run[0] as number)),
    (k) => kind(k) === "heading" && k + 1 < spans.length && parents[k + 1] === k,
    (k) => wholeBlocks.has(`${spans[k]?.start}:${spans[k]?.end}`),
  );
  const index = new Map<number, number>();
  runs.forEach(([run], at) => { for (const i of run) index.set(i, at); });
  return runs.map(([run, span]) => {
    const parent = parents[run[0] as number];
    const merged: Span = { ...span, parentId: parent === null || parent === undefined ? null : `${docId}:${index.get(parent)}` };
    const title = titles.get(preamble(run) ? first : (run[0] as number));
    if (span.kind === "heading" && title !== undefined) merged.section = title; // SIZE-7
    return merged;
  });
}

class Run {
  readonly out: Span[] = [];
  /** The title of each heading span, by position (SIZE-7). */
  readonly titles = new Map<number, string>();
  /** SIZE-3: the section's budget, and the tokens of the headings waiting for their first body chunk. */
  base: number;
  readonly full: number;
  max: number;
  /**
   * The tokens the budget sees for a body text: the text's, or (a counter that is not
   * additive) with the heading trail (SIZE-9) or the waiting headings (SIZE-3) before it.
   */
  measure: (text: string) => number;
  readonly plain: (text: string) => number;
  lead = 0;
  /** SIZE-3: where the headings waiting for a body start (-1: none), the first one's parent, and their ids. */
  leadStart = -1;
  chainStart = -1;
  leadParent: string | null = null;
  chain = new Set<string>();
  leading = false;
  /** SIZE-3: [start, tokens] of the one chunk before the first heading, else null. */
  preamble: [number, number] | null = null;
  /** SIZE-11: the code blocks and tables seen, [start, end]: an overlap never starts inside one. */
  readonly fences: Array<[number, number]> = [];
  readonly stack: Array<[number, string, string]> = []; // level, chunk id, title
  start = -1;
  end = -1;
  tokens = 0;
  carry: [number, number] | null = null;

  constructor(
    readonly docId: string, readonly source: string, max: number, readonly overlap: number,
    readonly counter: TokenCounter, readonly glue: boolean = false, readonly trail: boolean = false,
    readonly blocks: readonly Block[] | null = null, readonly least: number = 0,
  ) {
    this.full = this.base = this.max = max;
    this.additive = counter.additive;
    this.measure = this.plain = counter.count;
  }

  /** Whitespace words: the count of a join is the sum of its parts' (TOK-1). */
  readonly additive: boolean;

  /**
   * SIZE-9: budget the section's body with its trail, unless the trail takes more than half
   * of the budget (then the text alone is budgeted).
   */
  budget(): void {
    this.base = this.full;
    this.measure = this.plain;
    this.limit();
    const trail = this.stack.map(([, , title]) => title).join(" > ");
    if (trail === "") return;
    const head = `${trail}\n\n`;
    const cost = this.plain(head);
    if (cost > Math.floor(this.full / 2)) return;
    if (this.additive) {
      this.base = this.full - cost; // whitespace counts are sums (TOK-1)
      this.limit();
    } else {
      const count = this.counter.count;
      this.measure = (text) => count(head + text);
    }
  }

  /**
   * SIZE-3: pack the first body chunk, which starts at `at`, so that the headings waiting for
   * it fit beside it: their text and markup, `source[leadStart:at]`. Whitespace words add
   * (TOK-1): the budget is cut by the headings' count. Another counter counts the headings
   * and the chunk together, as the merged record is counted (with a trail counted, SIZE-9,
   * the headings' count is taken off instead).
   */
  leadIn(at: number): void {
    this.leadOut();
    let head = this.source.slice(this.leadStart, at);
    let cost = this.plain(head);
    if (cost >= this.base && this.chainStart !== this.leadStart) {
      head = this.source.slice(this.chainStart, at); // no room for the preamble too
      cost = this.plain(head);
    }
    if (this.additive || this.trail) {
      this.lead = cost;
      this.limit();
    } else if (cost < this.base) {
      const count = this.counter.count;
      const waiting = head;
      this.measure = (text) => count(waiting + text);
    }
    this.leading = true;
  }

  /** SIZE-3: back to the section's own budget. */
  leadOut(): void {
    this.lead = 0;
    this.limit();
    if (!this.trail) this.measure = this.plain;
    this.leading = false;
  }

  /** SIZE-3: the next body chunk's budget: the section's, less the waiting headings' tokens when that leaves any. */
  limit(): void {
    this.max = this.lead < this.base ? this.base - this.lead : this.base;
  }

  /** The tokens the budget sees of source[start:end] ({@link measure}). */
  count(start: number, end: number): number {
    return this.measure(this.source.slice(start, end));
  }

  run(): Span[] {
    for (const block of this.blocks ?? parseMarkdownBlocks(this.source)) {
      if (block.kind === "heading") {
        this.flush();
        if (!fault("ha-overlap-across-sections")) this.carry = null; // HEAD-6
        // HEAD-4: pop every open heading of equal or deeper level.
        const deeper = (level: number): boolean =>
          fault("ha-path-not-reset") ? level > block.level : level >= block.level;
        while (this.stack.length > 0 && deeper(this.stack[this.stack.length - 1]?.[0] ?? 0)) this.stack.pop();
        if (this.trail) this.budget();
        if (blank(block.text)) continue; // HEAD-10: an empty heading gives no chunk
        const parent = this.stack[this.stack.length - 1]?.[1] ?? null;
        const id = this.emit(block.start, block.end, parent, "heading");
        this.titles.set(this.out.length - 1, block.text);
        if (this.glue) {
          // SIZE-3: a heading that would not join the waiting ones (SIZE-5) starts its own run.
          if (this.leadStart < 0 || (parent !== this.leadParent && (parent === null || !this.chain.has(parent)))) {
            this.leadStart = block.start;
            this.chainStart = block.start;
            this.leadParent = parent;
            this.chain = new Set();
            // SIZE-3: a short text before the first heading waits with it.
            if (this.preamble !== null && this.preamble[1] < this.least) this.leadStart = this.preamble[0];
          }
          this.preamble = null;
          this.chain.add(id);
        }
        this.stack.push([block.level, id, block.text]);
        if (this.trail) this.budget();
        continue;
      }
      if (this.glue && WHOLE.has(block.kind)) this.fences.push([block.start, block.end]); // SIZE-11
      if (this.leading && this.start >= 0) {
        // SIZE-3: a block after the first chunk's start is cut to the section's budget.
        const lead = this.lead;
        const measure = this.measure;
        this.leadOut();
        const units = blank(block.text) ? [] : this.units(block); // HEAD-10
        this.lead = lead;
        this.measure = measure;
        this.leading = true;
        this.limit();
        for (const [start, end, tokens] of units) this.add(start, end, tokens);
        continue;
      }
      if (this.leadStart >= 0 && this.start < 0) this.leadIn(block.start);
      if (blank(block.text)) continue; // HEAD-10
      for (const [start, end, tokens] of this.units(block)) this.add(start, end, tokens);
    }
    this.flush();
    return this.out;
  }

  emit(start: number, end: number, parent: string | null, kind: string): string {
    const id = `${this.docId}:${this.out.length}`;
    this.out.push({
      start, end, kind, headingPath: this.stack.map(([, , title]) => title), parentId: parent, prefix: "",
    });
    return id;
  }

  flush(): void {
    if (this.start < 0) return;
    let parent = this.stack[this.stack.length - 1]?.[1] ?? null;
    if (fault("ha-parent-off-by-one") && this.out.length > 0) parent = `${this.docId}:${this.out.length - 1}`;
    const id = this.emit(this.start, this.end, parent, "body");
    if (this.least > 0 && this.chain.size === 0 && this.stack.length === 0) {
      // SIZE-3: the text before the first heading, if it is one chunk.
      this.preamble = id === `${this.docId}:0` ? [this.start, this.plain(this.source.slice(this.start, this.end))] : null;
    }
    if (this.leadStart >= 0) {
      this.leadStart = -1;
      this.chain = new Set();
      this.leadOut();
    }
    this.carry = [this.start, this.end];
    this.start = this.end = -1;
    this.tokens = 0;
  }

  /** HEAD-5: accumulate while the count stays within max_tokens, else flush first. */
  add(start: number, end: number, tokens: number): void {
    if (this.start >= 0) {
      const total = this.additive ? this.tokens + tokens : this.count(this.start, end);
      if (fault("ha-budget-lt") ? total < this.max : total <= this.max) {
        this.end = end;
        this.tokens = total;
        return;
      }
      this.flush();
    }
    this.start = start;
    this.end = end;
    this.tokens = tokens;
    if (this.carry !== null && this.overlap > 0) this.seed(tokens);
  }

  /** HEAD-6: the longest tail of words of the last chunk within overlap and the budget. */
  seed(tokens: number): void {
    if (this.carry === null) return;
    const words = wordSpans(this.source, this.carry[0], this.carry[1]);
    if (!this.additive) {
      // HEAD-6 with a counter that is not additive: the longest tail within both bounds.
      const tailEnd = this.carry[1];
      const end = this.end;
      const ok = (k: number): boolean => {
        const at = words[words.length - k]?.[0] ?? 0;
        return this.plain(this.source.slice(at, tailEnd)) <= this.overlap && this.count(at, end) <= this.max;
      };
      const k = this.outside(words, gallop(0, words.length, (k) => k === 0 || ok(k)));
      if (k > 0) {
        this.start = words[words.length - k]?.[0] ?? this.start;
        this.tokens = this.count(this.start, end);
      }
      return;
    }
    const room = fault("ha-overlap-ignores-budget") ? this.overlap : this.max - tokens;
    const k = this.outside(words, Math.min(this.overlap, room, words.length));
    if (k > 0) {
      this.start = words[words.length - k]?.[0] ?? this.start;
      this.tokens = tokens + k;
    }
  }

  /** SIZE-11: the longest tail of at most k words that does not start inside a code block or table. */
  outside(words: Array<[number, number]>, k: number): number {
    if (!this.glue) return k;
    while (k > 0 && this.inside(words[words.length - k]?.[0] ?? 0)) k--;
    return k;
  }

  /** SIZE-11: `at` is inside a code block or table seen, after its start. */
  inside(at: number): boolean {
    for (let i = this.fences.length - 1; i >= 0; i--) {
      const [start, end] = this.fences[i] as [number, number];
      if (start < at && at < end) return true;
      if (end <= at) return false;
    }
    return false;
  }

  /** HEAD-7: a block over the budget by sentences, a sentence over it by words. */
  units(block: Block): Array<[number, number, number]> {
    if (!this.additive) return this.unitsByCount(block);
    const tokens = countWords(block.text);
    if (tokens <= this.max || (this.glue && WHOLE.has(block.kind))) return [[block.start, block.end, tokens]]; // SIZE-11
    const units: Array<[number, number, number]> = [];
    const sentences = fault("ha-no-sentences")
      ? [[block.start, block.end] as [number, number]]
      : headingSentences(this.source, block.start, block.end);
    for (const [start, end] of sentences) {
      const n = countWords(this.source.slice(start, end));
      if (n <= this.max) {
        units.push([start, end, n]);
        continue;
      }
      const words = wordSpans(this.source, start, end);
      for (let i = 0; i < words.length; i += this.max) {
        const last = words[Math.min(i + this.max, words.length) - 1];
        const first = words[i];
        if (first !== undefined && last !== undefined) units.push([first[0], last[1], Math.min(this.max, words.length - i)]);
      }
    }
    return units;
  }

  /** HEAD-7 with a counter that is not additive: sentences, then words, then units and clusters (SCRIPT-8). */
  unitsByCount(block: Block): Array<[number, number, number]> {
    const tokens = this.count(block.start, block.end);
    if (tokens <= this.max || (this.glue && WHOLE.has(block.kind))) return [[block.start, block.end, tokens]]; // SIZE-11
    const units: Array<[number, number, number]> = [];
    for (const [start, end] of headingSentences(this.source, block.start, block.end)) {
      const n = this.count(start, end);
      if (n <= this.max) {
        units.push([start, end, n]);
        continue;
      }
      const words = wordSpans(this.source, start, end);
      let i = 0;
      while (i < words.length) {
        const first = words[i]?.[0] ?? 0;
        const at = i;
        const k = gallop(i, words.length, (k) => k > at && this.count(first, words[k - 1]?.[1] ?? 0) <= this.max);
        if (k === i) {
          const [a, b] = words[i] ?? [0, 0];
          const fits = (x: number, y: number): boolean => this.count(x, y) <= this.max;
          for (const [x, y] of fitWord(this.source, a, b, fits)) units.push([x, y, this.count(x, y)]);
          i += 1;
        } else {
          const last = words[k - 1]?.[1] ?? 0;
          units.push([first, last, this.count(first, last)]);
          i = k;
        }
      }
    }
    return units;
  }
}

/** Python's `longest`: the largest k in [low, high] with ok(k), galloping then bisecting. */
function gallop(low: number, high: number, ok: (k: number) => boolean): number {
  let good = low;
  let step = 1;
  let bad = high + 1;
  while (good + step <= high) {
    if (ok(good + step)) {
      good += step;
      step *= 2;
    } else {
      bad = good + step;
      break;
    }
  }
  while (bad - good > 1) {
    const mid = (good + bad) >> 1;
    if (ok(mid)) good = mid;
    else bad = mid;
  }
  return good;
}
