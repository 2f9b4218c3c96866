/**
 * `split_markdown`'s spans (strategy `structural`, MD-7 to MD-11) and their records.
 *
 * Structure first, size second: headings open sections (a stack, MD-7), a table or code
 * block is one chunk however long (MD-9), prose is packed by whole blocks up to the budget
 * and an oversized block is split by the SPLIT rules (MD-10). The counter is the whitespace counter, which is additive over
 * whitespace, so a run's count is the sum of its blocks' counts.
 */

import { fault } from "./faults.js";
import { inCodePoints } from "./codepoints.js";
import { frontMatterFields, refuseUnreadAccessKeys } from "./frontMatter.js";
import { type Block, lineTable, parseMarkdownBlocks } from "./markdown.js";
import type { Span } from "./span.js";
import { isBlankDocument, optionsOf, type RecordOptions, recordsOf, scriptCounter, type SourceDocument, textDocument } from "./records.js";
import type { ChunkRecord } from "./record.js";
import { measureOf, mergeSmall } from "./smallChunks.js";
import { splitInto } from "./split.js";
import { ArgumentTypeError, requireInt, requireText } from "./validate.js";
import { bisectLeft, bisectRight } from "./bisect.js";
import { sentenceSpans } from "./headingSentences.js";
import { counterNamed, type TokenCounter } from "./counters.js";
import { fitWord } from "./units.js";
import { isBlank, wordSpans } from "./whitespace.js";

/** Block kinds packed together as prose (MD-7); the others keep their kind. */
const PROSE = new Set(["paragraph", "list", "quote", "html", "reference", "thematic_break"]);

/** The largest k in [low, high] with ok(k) (ok monotone), else low. */
export function longest(low: number, high: number, ok: (k: number) => boolean): number {
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
    const mid = Math.floor((good + bad) / 2);
    if (ok(mid)) good = mid;
    else bad = mid;
  }
  return good;
}

function requireBool(argument: string, value: unknown): boolean {
  if (typeof value !== "boolean") throw new ArgumentTypeError(argument, "a bool", value);
  return value;
}

/** The spans of strategy `structural` (MD-7 to MD-11; SIZE-3 to SIZE-6 when `minTokens`). */
export function structuralSpans(document: SourceDocument, options: RecordOptions): Span[] {
  const { text } = document;
  const { maxTokens, minTokens, budgetIncludesHeadings } = options;
  const counter = counterNamed(options.counter);
  // SIZE-9: the trail budgeted as count_headings does, unless it takes over half the budget
  const splitter = new Splitter(
    text, maxTokens, options.countHeadings || budgetIncludesHeadings, options.splitTables, counter, document.blocks ?? null,
  );
  splitter.half = budgetIncludesHeadings;
  let spans = splitter.run();
  const titled = splitter.titled;
  const firstTitled = titled[0];
  const lastTitled = titled[titled.length - 1];
  if (spans.length === 0 && firstTitled !== undefined && lastTitled !== undefined && minTokens > 0) {
    // MD-19: a document of headings only is one prose run of its headings' lines, packed by MD-10.
    const start = firstTitled.start;
    const end = lastTitled.end;
    splitter.setPath([]);
    splitter.pack([{ kind: "paragraph", text: text.slice(start, end), start, end, level: 0 }], "heading");
    spans = splitter.out;
  }
  if (minTokens > 0) {
    spans = mergeStructural(text, spans, splitter.heads, minTokens, maxTokens, counter, budgetIncludesHeadings);
  }
  for (const span of spans) {
    // MD-19, SIZE-7: a heading record's section is the title of the heading it starts in or before.
    if (span.kind === "heading") span.section = titled.find((b) => b.end > span.start)?.text ?? "";
  }
  return inCodePoints(text, spans);
}

/** `chunk_document(SourceDocument(docId, text, "markdown", title), "structural", ...)`. */
export function splitMarkdownRecords(
  docId: string, title: string, text: string, maxTokens: number, countHeadings: boolean = false,
  splitTables: boolean = false, forceUnicode = false, minTokens = 0, budgetIncludesHeadings = false,
  caller: Record<string, unknown> = {},
): ChunkRecord[] {
  requireText("doc_id", docId);
  requireText("text", text);
  requireText("title", title);
  refuseUnreadAccessKeys(text, docId, caller); // TRUST-3, as SourceDocument refuses it
  requireInt("max_tokens", maxTokens, 1);
  requireBool("count_headings", countHeadings);
  requireBool("split_tables", splitTables);
  if (isBlankDocument(text)) return []; // SOURCE-7
  const counter = scriptCounter(forceUnicode ? "unicode" : "whitespace", text); // SCRIPT-6
  const options = optionsOf({
    strategy: "structural", maxTokens, counter, minTokens, countHeadings, splitTables, budgetIncludesHeadings,
  });
  const document = textDocument(docId, title, text, frontMatterFields(text)); // META-3
  return recordsOf(document, options, structuralSpans(document, options));
}

/** SIZE-3 to SIZE-6 for `structural`: runs never cross a heading; the kind is the largest span's. */
function mergeStructural(
  text: string, spans: Span[], heads: number[], minTokens: number, maxTokens: number, counter: TokenCounter,
  trail: boolean,
): Span[] {
  const joins = (run: number[], k: number): boolean => {
    // SIZE-5: no heading starts between the run's end and span k.
    const at = bisectLeft(heads, spans[run[run.length - 1] as number]?.end ?? 0);
    return at === heads.length || (heads[at] ?? 0) >= (spans[k]?.start ?? 0);
  };
  const kindOf = (run: number[], tokens: number[]): string => {
    let best = run[0] as number;
    for (const i of run) if ((tokens[i] ?? 0) > (tokens[best] ?? 0)) best = i;
    return spans[best]?.kind ?? "";
  };
  const measure = measureOf(text, counter, trail);
  return mergeSmall(spans, measure, minTokens, maxTokens, joins, kindOf).map(([, span]) => span);
}

class Splitter {
  readonly starts: number[];
  readonly ends: number[];
  path: string[] = [];
  trail = "";
  trailTokens = 0;
  /** SIZE-9: a trail over half the budget is not counted; `counted`: this section's trail is. */
  half = false;
  counted = false;
  readonly out: Span[] = [];
  /** Where each heading block starts (SIZE-5). */
  readonly heads: number[] = [];
  /** The heading blocks with a title (MD-19). */
  readonly titled: Block[] = [];

  constructor(
    readonly source: string, readonly budget: number, readonly countHeadings: boolean,
    readonly splitTables: boolean, readonly counter: TokenCounter,
    readonly blocks: readonly Block[] | null = null,
  ) {
    [this.starts, this.ends] = lineTable(source);
  }

  /** The counter's count of `text`. */
  count(text: string): number {
    return this.counter.count(text);
  }

  /** True when source[start:end] alone, without a heading trail, is over budget (SCRIPT-8). */
  over(start: number, end: number): boolean {
    return this.count(this.source.slice(start, end)) > this.budget;
  }

  /** SCRIPT-8: a word over the budget by its sentences, then units, then clusters, repacked. */
  splitWord(start: number, end: number): Array<[number, number]> {
    const regions: Array<[number, number]> = [];
    for (const [a, b] of sentenceSpans(this.source, start, end)) {
      regions.push(...fitWord(this.source, a, b, (x, y) => !this.over(x, y)));
    }
    const packed: Array<[number, number]> = [];
    for (const [a, b] of regions) {
      const last = packed[packed.length - 1];
      if (last !== undefined && !this.over(last[0], b)) last[1] = b;
      else packed.push([a, b]);
    }
    return packed;
  }

  run(): Span[] {
    const stack: Array<[number, string]> = [];
    let prose: Block[] = [];
    for (const block of this.blocks ?? parseMarkdownBlocks(this.source)) {
      if (block.kind === "heading") {
        this.heads.push(block.start);
        if (!isBlank(block.text)) this.titled.push(block);
        this.prose(prose);
        prose = [];
        if (fault("md-path-by-position")) {
          // heading_path[: level - 1]: cut by list position, not by level (not MD-7).
          stack.splice(Math.max(0, block.level - 1));
        } else {
          // MD-7: pop every entry of equal or deeper level.
          while (stack.length > 0 && (stack[stack.length - 1]?.[0] ?? 0) >= block.level) stack.pop();
        }
        stack.push([block.level, block.text]);
        this.setPath(stack.map(([, title]) => title));
        continue;
      }
      const blank = fault("md-trim-blank") ? block.text.trim() === "" : block.text !== "" && isBlank(block.text);
      if (blank) continue; // whitespace-only blocks carry nothing (MD-8)
      if (PROSE.has(block.kind)) {
        prose.push(block);
        continue;
      }
      this.prose(prose);
      prose = [];
      if (block.kind === "table") this.table(block);
      else if (block.kind === "code") this.emit("code", block.start, block.end);
      else this.pack([block], "definition");
    }
    this.prose(prose);
    return this.out;
  }

  setPath(path: string[]): void {
    this.path = path;
    this.trail = path.join(" > ");
    this.trailTokens = this.countHeadings ? this.count(this.trail) : 0;
    this.counted = this.countHeadings;
    if (this.half && this.trail !== "" && this.count(`${this.trail}\n\n`) > Math.floor(this.budget / 2)) {
      this.trailTokens = 0;
      this.counted = false;
    }
  }

  emit(kind: string, start: number, end: number, prefix: string = ""): void {
    this.out.push({ start, end, kind, headingPath: [...this.path], parentId: null, prefix });
  }

  measured(text: string): number {
    if (this.counted && this.trail !== "") return this.count(`${this.trail}\n\n${text}`);
    return this.count(text);
  }

  fits(start: number, end: number, prefix: string = ""): boolean {
    const n = this.measured(prefix + this.source.slice(start, end));
    return fault("md-fits-lt") ? n < this.budget : n <= this.budget;
  }

  prose(blocks: Block[]): void {
    if (blocks.length > 0) this.pack(blocks, "prose");
  }

  /** MD-10: pack whole blocks greedily; an oversized block is split by the SPLIT rules. */
  pack(blocks: Block[], kind: string): void {
    let units: Array<[number, number, number]> = [];
    for (const block of blocks) {
      const tokens = this.count(block.text);
      if (this.within(tokens + this.trailTokens) && (this.counter.summable || this.fits(block.start, block.end))) {
        units.push([block.start, block.end, tokens]);
        continue;
      }
      this.greedy(units, kind);
      units = [];
      for (const [start, end] of this.oversized(block.start, block.end)) this.emit(kind, start, end);
    }
    this.greedy(units, kind);
  }

  within(total: number): boolean {
    return fault("md-fits-lt") ? total < this.budget : total <= this.budget;
  }

  greedy(units: Array<[number, number, number]>, kind: string): void {
    let i = 0;
    const n = units.length;
    while (i < n) {
      let total = this.trailTokens + (units[i]?.[2] ?? 0);
      let j = i + 1;
      while (j < n && this.within(total + (units[j]?.[2] ?? 0))) {
        total += units[j]?.[2] ?? 0;
        j++;
      }
      const first = units[i]?.[0] ?? 0;
      if (!this.counter.summable && !this.fits(first, units[j - 1]?.[1] ?? 0)) {
        // The counter is not additive over blank lines: the longest run that really fits.
        j = longest(i + 1, j - 1, (k) => this.fits(first, units[k - 1]?.[1] ?? 0));
      }
      this.emit(kind, first, units[j - 1]?.[1] ?? 0);
      i = j;
    }
  }

  oversized(start: number, end: number): Array<[number, number]> {
    const words = wordSpans(this.source, start, end);
    const parts: Array<[string, number]> = [];
    splitInto(this.source.slice(start, end), Math.max(1, this.budget - this.trailTokens), parts, true);
    const regions: Array<[number, number]> = [];
    let w = 0;
    for (const [, tokens] of parts) {
      const first = words[w];
      const last = words[w + tokens - 1];
      w += tokens;
      if (first === undefined || last === undefined) continue;
      const fits = this.counter.additive ? tokens + this.trailTokens <= this.budget : this.fits(first[0], last[1]);
      if (fits) regions.push([first[0], last[1]]);
      else regions.push(...this.hard(words.slice(w - tokens, w)));
    }
    return regions;
  }

  /** The longest runs of words that fit; a lone word stays whole. */
  hard(words: Array<[number, number]>): Array<[number, number]> {
    const regions: Array<[number, number]> = [];
    let i = 0;
    const n = words.length;
    while (i < n) {
      const first = words[i]?.[0] ?? 0;
      const k = longest(i + 1, n, (k) => this.fits(first, words[k - 1]?.[1] ?? 0));
      const word = words[i];
      if (k === i + 1 && !this.counter.additive && word !== undefined && this.over(word[0], word[1])) {
        regions.push(...this.splitWord(word[0], word[1])); // SCRIPT-8
      } else {
        regions.push([first, words[k - 1]?.[1] ?? 0]);
      }
      i = k;
    }
    return regions;
  }

  /** MD-9: a table is one chunk; MD-11: split by body rows, header repeated, if asked. */
  table(block: Block): void {
    const first = bisectRight(this.starts, block.start) - 1;
    const last = bisectRight(this.starts, block.end - 1);
    const split = this.splitTables || fault("md-table-split");
    // MD-11: a Markdown table's header is two lines; a page's table's its header rows (HTML-16)
    const heads = block.headerRows !== undefined ? block.headerRows : 2;
    if (!split || last - first < heads + 2 || this.fits(block.start, block.end)) {
      this.emit("table", block.start, block.end);
      return;
    }
    const body = this.starts[first + heads] ?? 0;
    const header = fault("md-table-split") && !this.splitTables ? "" : this.source.slice(block.start, body);
    const rows: Array<[number, number]> = [];
    for (let k = first + heads; k < last; k++) rows.push([this.starts[k] ?? 0, this.ends[k] ?? 0]);
    let i = 0;
    const n = rows.length;
    while (i < n) {
      const start = i === 0 ? block.start : (rows[i]?.[0] ?? 0);
      const prefix = i === 0 ? "" : header;
      const k = longest(i + 1, n, (k) => this.fits(start, rows[k - 1]?.[1] ?? 0, prefix));
      this.emit("table", start, rows[k - 1]?.[1] ?? 0, prefix);
      i = k;
    }
  }
}
