/**
 * The `code` strategy (docs/spec/code.md, CODE-1..CODE-11), as Python's `_code/_split.py`,
 * `_code/_scopes.py` and `_chunkers/_code.py`: a source file parsed by web-tree-sitter with
 * the grammar of its language (src/grammars.ts) and split into whole syntax nodes under the
 * budget.
 *
 * Offsets: web-tree-sitter reads a JS string as UTF-16, so its node offsets are UTF-16 units,
 * the same indexes as this file's slicing; the spans are turned into code points once, at the
 * end (CODE-2, PORT-2). Python counts label lengths (CODE-7) in code points, so does this.
 */

import { compareCodePoints } from "./assemble.js";
import { bisectLeft, bisectRight } from "./bisect.js";
import { codePointIndex } from "./codepoints.js";
import { fault } from "./faults.js";
import { defaultCounter } from "./options.js";
import { subwordCount } from "./subwords.js";
import { countUnits, fitWord, hasClusterScript } from "./units.js";
import { requireInt, requireStr, requireText } from "./validate.js";
import { countWords, isBlank, isSpace, pySplit, wordSpans } from "./whitespace.js";

/** What the split reads of a syntax node: web-tree-sitter's `Node`, structurally (so this
 * module's types need no web-tree-sitter; offsets are UTF-16 units of the parsed string). */
export interface SyntaxNode {
  readonly type: string;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly isNamed: boolean;
  readonly childCount: number;
  readonly children: ReadonlyArray<SyntaxNode | null>;
  readonly namedChildren: ReadonlyArray<SyntaxNode | null>;
  childForFieldName(name: string): SyntaxNode | null;
  walk(): SyntaxCursor;
}

/** A tree cursor (web-tree-sitter's `TreeCursor`), for the preorder walk of CODE-11. */
export interface SyntaxCursor {
  readonly currentNode: SyntaxNode;
  gotoFirstChild(): boolean;
  gotoNextSibling(): boolean;
  gotoParent(): boolean;
  delete(): void;
}

/** A parsed file (web-tree-sitter's `Tree`); `delete` frees its wasm memory. */
export interface SyntaxTree {
  readonly rootNode: SyntaxNode & { readonly hasError: boolean };
  delete(): void;
}

type Node = SyntaxNode;
type Tree = SyntaxTree;

/** CODE-3: a split that would open a node this deep chunks the file by lines instead. */
export const MAX_DEPTH = 256;
/** CODE-7: a scope label is at most this many characters (code points). */
export const LABEL_LIMIT = 100;

/** A language's definitions and wrappers (CODE-1, CODE-7), as `_languages.py` lists them. */
export interface CodeLanguage {
  readonly definitions: ReadonlySet<string>;
  readonly wrappers: ReadonlySet<string>;
}

const JS_DEFINITIONS = ["function_declaration", "generator_function_declaration", "class_declaration", "method_definition"];
const TS_DEFINITIONS = [...JS_DEFINITIONS, "abstract_class_declaration", "interface_declaration", "enum_declaration", "internal_module", "module"];
const C_DEFINITIONS = ["function_definition", "struct_specifier", "enum_specifier"];

function lang(definitions: string[], wrappers: string[] = []): CodeLanguage {
  return { definitions: new Set(definitions), wrappers: new Set(wrappers) };
}

/** CODE-1, CODE-7: the nine languages' definition and wrapper node types. */
export const CODE_LANGUAGES: Readonly<Record<string, CodeLanguage>> = {
  python: lang(["function_definition", "class_definition"], ["decorated_definition"]),
  javascript: lang(JS_DEFINITIONS, ["export_statement"]),
  typescript: lang(TS_DEFINITIONS, ["export_statement"]),
  tsx: lang(TS_DEFINITIONS, ["export_statement"]),
  go: lang(["function_declaration", "method_declaration", "type_declaration"]),
  rust: lang(["function_item", "impl_item", "struct_item", "enum_item", "trait_item", "mod_item", "union_item"]),
  java: lang([
    "class_declaration", "interface_declaration", "enum_declaration", "record_declaration",
    "annotation_type_declaration", "method_declaration", "constructor_declaration",
  ]),
  c: lang(C_DEFINITIONS),
  cpp: lang([...C_DEFINITIONS, "class_specifier", "namespace_definition"], ["template_declaration"]),
};

const NO_LANGUAGE: CodeLanguage = lang([]);

/** `(start, end, prefix) -> tokens` of the record text `prefix + text[start:end]` (UTF-16). */
export type Measure = (start: number, end: number, prefix: string) => number;

/** One enclosing definition (CODE-7): its label, header line, where its header starts,
 * where its body starts and where its first line ends (CODE-8). */
interface Scope {
  readonly label: string;
  readonly header: string;
  readonly start: number;
  readonly body: number | null;
  readonly lineEnd: number;
}

/** One chunk: `text[start:end]` (UTF-16) inside `scopes`; `own` the definition it is;
 * `prefix` its CODE-8 prefix. */
interface Piece {
  start: number;
  end: number;
  scopes: readonly Scope[];
  own: Scope | null;
  prefix: string;
}

/** What an item is: syntax nodes, text no node covers, a line (CODE-4), a word or a piece
 * of a word (CODE-9), or the end of an opened definition (CODE-6). */
const NODES = 0;
const TEXT = 1;
const WORD = 2;
const ATOM = 3;
const END = 4;

/** An item waiting to be packed (CODE-5): its span, its nodes, the definitions it is in,
 * how deep it was opened, its kind, and whether it is a definition's first lines. */
interface Item {
  start: number;
  end: number;
  nodes: Node[];
  scopes: readonly Scope[];
  depth: number;
  kind: number;
  head: boolean;
}

function item(start: number, end: number, nodes: Node[], scopes: readonly Scope[], depth: number, kind = NODES): Item {
  return { start, end, nodes, scopes, depth, kind, head: false };
}

class TooDeep extends Error {}

/** The largest `k` in `[low, high]` with `ok(k)`, galloping from `low` (`_fit.longest`). */
function longest(low: number, high: number, ok: (k: number) => boolean): number {
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

/** CODE-5: comments, Rust attributes and decorators document what follows them. */
function isComment(node: Node): boolean {
  if (fault("code-comment-only")) return node.type.includes("comment");
  return node.type.includes("comment") || node.type === "attribute_item" || node.type === "decorator";
}

/** CODE-5, CODE-6: an item that only documents or opens what follows it: comments,
 * attributes, decorators and anonymous tokens (`export`, `(`). */
function documents(item: Item): boolean {
  return item.nodes.length > 0 && item.nodes.every((n) => isComment(n) || !n.isNamed);
}

/** CODE-5, CODE-6: an item of anonymous tokens only (`)`, `}`, `;`). */
function closes(item: Item): boolean {
  return item.nodes.length > 0 && !item.nodes.some((n) => n.isNamed);
}

/** Whether a line break lies between `end` and `start` (a line end, CODE-6). */
function breaks(text: string, end: number, start: number): boolean {
  const gap = text.slice(end, start);
  return gap.includes("\n") || gap.includes("\r");
}

/** Whether a blank line lies between `end` and `start` (CRLF counts as one break, CODE-5). */
function blank(text: string, end: number, start: number): boolean {
  const gap = text.slice(end, start).replace(/\r\n/g, "\n").replace(/\r/g, "\n");
  let count = 0;
  for (const ch of gap) if (ch === "\n") count++;
  return count >= 2;
}

/** An item of text no node covers, without the white space at its ends (CODE-5). */
function trimmed(text: string, start: number, end: number, scopes: readonly Scope[], depth: number): Item {
  while (isSpace(text[start] ?? "")) start++;
  while (isSpace(text[end - 1] ?? "")) end--;
  return item(start, end, [], scopes, depth, TEXT);
}

/** CODE-5: comments joined to what they document. */
function grouped(text: string, raw: Item[]): Item[] {
  const out: Item[] = [];
  let pending: Item[] = []; // comments above the next item, no blank line between
  for (let each of raw) {
    const first = each.nodes[0];
    const comment = each.nodes.length === 1 && first !== undefined && isComment(first);
    const last = out[out.length - 1];
    if (
      comment && pending.length === 0 && last !== undefined && last.kind === NODES &&
      !breaks(text, last.end, each.start) && !fault("code-no-trailing-comment")
    ) {
      last.end = each.end; // a trailing comment: it ends the line of the item before it
      last.nodes.push(...each.nodes);
      continue;
    }
    const above = pending[pending.length - 1];
    if (above !== undefined && (blank(text, above.end, each.start) || fault("code-comments-apart"))) {
      out.push(...pending);
      pending = [];
    }
    if (comment) {
      pending.push(each);
      continue;
    }
    if (pending.length > 0 && each.kind === NODES) {
      const top = pending[0] as Item;
      each = item(top.start, each.end, [...pending.flatMap((p) => p.nodes), ...each.nodes], each.scopes, each.depth);
      pending = [];
    }
    out.push(...pending);
    pending = [];
    out.push(each);
  }
  out.push(...pending);
  return out;
}

/** Python's `s.rstrip()` (Python white space, WS-1). */
function rstrip(text: string): string {
  let end = text.length;
  while (end > 0 && isSpace(text[end - 1] ?? "")) end--;
  return text.slice(0, end);
}

/** Where the line holding `text[start]` ends (before its line break). */
function lineEnd(text: string, start: number): number {
  let newline = text.indexOf("\n", start);
  if (newline < 0) newline = text.length;
  const carriage = text.slice(start, newline).indexOf("\r");
  return carriage < 0 ? newline : start + carriage;
}

/** CODE-7: a definition's label. */
function label(text: string, start: number, nameEnd: number | null, bodyStart: number | null): string {
  let end = lineEnd(text, start);
  if (nameEnd !== null && nameEnd <= end) end = nameEnd;
  else if (bodyStart !== null && bodyStart <= end) end = bodyStart;
  let folded = pySplit(text.slice(start, end)).join(" ");
  let cut = folded.length;
  while (cut > 0 && " {:".includes(folded[cut - 1] ?? "")) cut--;
  folded = folded.slice(0, cut);
  const points = Array.from(folded);
  // CODE-7 counts the limit in characters (code points), not UTF-16 units
  return fault("code-label-utf16") ? folded.slice(0, LABEL_LIMIT) : points.length > LABEL_LIMIT ? points.slice(0, LABEL_LIMIT).join("") : folded;
}

/** CODE-8: the definition's first line, whole, without its break or trailing white space. */
function headerLine(text: string, start: number): string {
  const newline = start > 0 ? text.lastIndexOf("\n", start - 1) : -1;
  const carriage = start > 0 ? text.lastIndexOf("\r", start - 1) : -1;
  const lineStart = Math.max(newline, carriage > newline ? carriage : -1) + 1;
  return rstrip(text.slice(lineStart, lineEnd(text, start)));
}

/** The definition `node` is (or wraps, through wrappers), else null (CODE-7). */
function definitionOf(node: Node | null, language: CodeLanguage): Node | null {
  while (node !== null) {
    if (language.definitions.has(node.type)) return node;
    if (!language.wrappers.has(node.type) || fault("code-no-wrappers")) return null;
    let inner: Node | null = null;
    for (const child of node.namedChildren) {
      if (child === null) continue;
      if (language.definitions.has(child.type) || language.wrappers.has(child.type)) {
        inner = child;
        break;
      }
    }
    node = inner;
  }
  return null;
}

/** CODE-11: the node naming a definition: its `name`; the innermost `declarator` (C, C++);
 * its `type` (a Rust impl); the `name` of its first named child with one (a Go type). */
function symbolNode(node: Node): Node | null {
  const name = node.childForFieldName("name");
  if (name !== null) return name;
  let declarator = node.childForFieldName("declarator");
  if (declarator !== null) {
    for (;;) {
      const inner: Node | null = declarator.childForFieldName("declarator");
      if (inner === null) return declarator;
      declarator = inner;
    }
  }
  const named = node.childForFieldName("type");
  if (named !== null) return named;
  for (const child of node.namedChildren) {
    const inner = child?.childForFieldName("name") ?? null;
    if (inner !== null) return inner;
  }
  return null;
}

/** A C `struct_specifier` or `enum_specifier` is a definition only with a body (CODE-7). */
function bodiless(node: Node): boolean {
  return node.type.endsWith("_specifier") && node.childForFieldName("body") === null;
}

class Splitter {
  readonly out: Piece[] = [];
  /** Stack positions of the END markers, bottom first (CODE-6). */
  readonly ends: number[] = [];
  readonly prefixes = new Map<string, string>();

  constructor(
    readonly text: string,
    readonly language: CodeLanguage,
    readonly measure: Measure,
    readonly maxTokens: number,
    readonly prefix: boolean,
  ) {}

  /** CODE-8: the first lines of the definitions whose first line ends before `start`,
   * unless they count more than half the budget together (then none). */
  prefixAt(scopes: readonly Scope[], start: number): string {
    if (!this.prefix || scopes.length === 0) return "";
    const above = scopes.filter((s) => s.lineEnd < start);
    const key = above.map((s) => s.start).join(",");
    let known = this.prefixes.get(key);
    if (known === undefined) {
      known = above.map((s) => s.header + "\n").join("");
      if (known !== "" && this.measure(0, 0, known) > Math.floor(this.maxTokens / 2)) known = "";
      this.prefixes.set(key, known);
    }
    return known;
  }

  fits(scopes: readonly Scope[], start: number, end: number): boolean {
    const prefix = fault("code-prefix-uncounted") ? "" : this.prefixAt(scopes, start);
    return this.measure(start, end, prefix) <= this.maxTokens;
  }

  /** CODE-5: a node's items. */
  items(node: Node, scopes: readonly Scope[], depth: number): Item[] {
    const text = this.text;
    const raw: Item[] = [];
    let position = node.startIndex;
    const end = node.endIndex;
    for (const child of node.children) {
      if (child === null) continue;
      const a = child.startIndex;
      const b = child.endIndex;
      if (a > position && !isBlank(text.slice(position, a))) raw.push(trimmed(text, position, a, scopes, depth));
      if (b > a) raw.push(item(a, b, [child], scopes, depth));
      position = Math.max(position, b);
    }
    if (end > position && !isBlank(text.slice(position, end))) raw.push(trimmed(text, position, end, scopes, depth));
    return grouped(text, raw);
  }

  /** CODE-7: the scope of the definition `node` is (or wraps), else null. */
  scope(node: Node): Scope | null {
    const definition = definitionOf(node, this.language);
    if (definition === null || bodiless(definition)) return null;
    const start = definition.startIndex;
    const name = definition.childForFieldName("name");
    const body = definition.childForFieldName("body");
    const bodyStart = body === null ? null : body.startIndex;
    return {
      label: label(this.text, start, name === null ? null : name.endIndex, bodyStart),
      header: headerLine(this.text, start),
      start,
      body: bodyStart,
      lineEnd: lineEnd(this.text, start),
    };
  }

  /** The definition an item is, when it holds one (with what documents it, CODE-7). */
  defines(each: Item): Scope | null {
    if (each.kind !== NODES) return null;
    const nodes = each.nodes.filter((n) => !isComment(n));
    return nodes.length === 1 ? this.scope(nodes[0] as Node) : null;
  }

  /** CODE-10: a piece trimmed of white space; one of white space alone is dropped. */
  emit(start: number, end: number, scopes: readonly Scope[], own: Scope | null): void {
    const text = this.text;
    if (!fault("code-untrimmed")) {
      while (start < end && isSpace(text[start] ?? "")) start++;
      while (end > start && isSpace(text[end - 1] ?? "")) end--;
    }
    if (end > start) this.out.push({ start, end, scopes, own, prefix: this.prefixAt(scopes, start) });
  }

  /** CODE-4: the lines of `text[start:end]`, each trimmed (lines end at \n, \r\n or \r). */
  lines(start: number, end: number, scopes: readonly Scope[], depth: number): Item[] {
    const text = this.text;
    const out: Item[] = [];
    let a = start;
    while (a < end) {
      let b = a;
      while (b < end && text[b] !== "\n" && text[b] !== "\r") b++;
      let s = a;
      let e = b;
      while (s < e && isSpace(text[s] ?? "")) s++;
      while (e > s && isSpace(text[e - 1] ?? "")) e--;
      if (e > s) out.push(item(s, e, [], scopes, depth, TEXT));
      a = b + 1;
    }
    return out;
  }

  /** CODE-6 step 5: the items that take `each`'s place, and the definition it is. */
  opened(each: Item): [Item[], Scope | null] {
    const depth = each.depth + 1;
    if (depth > MAX_DEPTH) throw new TooDeep();
    let scopes = each.scopes;
    if (each.kind === NODES) {
      const nodes = each.nodes;
      let inner = this.defines(each);
      const last = scopes[scopes.length - 1];
      if (inner !== null && !(last !== undefined && last.start === inner.start)) scopes = [...scopes, inner];
      else inner = null;
      if (nodes.length > 1) {
        // comments with what they document: each node an item
        const singles = nodes.map((n) => item(n.startIndex, n.endIndex, [n], scopes, depth));
        // what documents a definition is inside it; the definition opens next
        if (inner !== null) (singles[singles.length - 1] as Item).scopes = each.scopes;
        return [singles, null];
      }
      const node = nodes[0] as Node;
      // CODE-3: what the parser could not read, by lines
      if (node.type === "ERROR") return [this.lines(each.start, each.end, scopes, depth), inner];
      if (node.childCount > 0) {
        const items = this.items(node, scopes, depth);
        if (inner !== null && inner.body !== null) {
          for (const one of items) one.head = one.start < inner.body; // a definition's first lines
        }
        return [items, inner];
      }
    }
    if (each.kind === NODES || each.kind === TEXT) {
      // CODE-9: a leaf's words
      const words = wordSpans(this.text, each.start, each.end).map(([a, b]) => item(a, b, [], scopes, depth, WORD));
      if (words.length > 1) return [words, null];
    }
    // CODE-9: one word over the budget: SCRIPT-8's units, then grapheme clusters
    const prefix = this.prefixAt(scopes, each.start);
    const fits = (c: number, d: number) => this.measure(c, d, prefix) <= this.maxTokens;
    return [fitWord(this.text, each.start, each.end, fits).map(([c, d]) => item(c, d, [], scopes, depth, ATOM)), null];
  }

  /** CODE-6: packing; the waiting items are a stack, the next on top. */
  pack(items: Item[]): void {
    const text = this.text;
    const stack = items.slice().reverse();
    const ends = this.ends;
    const at = (j: number) => stack[stack.length - j] as Item; // stack[-j]
    while (stack.length > 0) {
      const top = at(1);
      if (top.kind === END) {
        // CODE-6 step 1: the tokens closing an opened definition join its last piece
        stack.pop();
        ends.pop();
        const last = this.out[this.out.length - 1];
        if (last !== undefined) {
          while (stack.length > 0 && closes(at(1))) {
            if (!this.fits(last.scopes, last.start, at(1).end)) break;
            last.end = (stack.pop() as Item).end;
          }
        }
        continue;
      }
      const floor = ends.length > 0 ? (ends[ends.length - 1] as number) : -1;
      const available = stack.length - 1 - floor;
      const first = top.start;
      const scopes = top.scopes;
      // CODE-6 step 2: the longest run that fits, not past the innermost opened end
      let k = longest(0, available, (j) => j > 0 && this.fits(scopes, first, at(j).end));
      if (k === available) {
        this.close(stack, k);
        continue;
      }
      const following = at(k + 1);
      if (k > 0 && this.fits(following.scopes, following.start, following.end)) {
        // CODE-6 step 3: a definition's body opens, its first line packs with its start
        if (
          ends.length > 0 && stack.length - (k + 1) === (ends[ends.length - 1] as number) + 1 &&
          following.kind === NODES && following.nodes.length === 1 &&
          (following.nodes[0] as Node).childCount > 0 && this.defines(following) === null
        ) {
          this.open(stack, k, following);
          continue;
        }
        // closed for room: end at the run's last line end, if it has one
        if (!breaks(text, at(k).end, following.start) && !fault("code-no-line-end")) {
          for (let j = k - 1; j > 0; j--) {
            if (breaks(text, at(j).end, at(j + 1).start)) {
              k = j;
              break;
            }
          }
        }
        this.close(stack, k);
        continue;
      }
      // CODE-6 step 4: `following` is over the budget alone: it opens in its place
      if (following.kind === ATOM) {
        this.close(stack, k > 0 ? k : 1); // the run first, then the cluster alone
        continue;
      }
      if (k > 0 && this.defines(following) !== null && !this.heads(stack, k) && !fault("code-header-joins-any")) {
        this.close(stack, k); // a definition opens at the start of a piece
        continue;
      }
      this.open(stack, k, following);
    }
  }

  /** CODE-6 step 4: the run is only definitions' first lines and what documents. */
  heads(stack: Item[], k: number): boolean {
    for (let j = 1; j <= k; j++) {
      const each = stack[stack.length - j] as Item;
      if (!(each.head || documents(each))) return false;
    }
    return true;
  }

  /** CODE-6 step 5: `following`'s items in its place; an opened definition ends with an
   * END marker, which nothing after it packs across. */
  open(stack: Item[], k: number, following: Item): void {
    const defined = k > 0 ? this.defines(following) : null;
    const [opened, inner] = this.opened(following);
    const position = stack.length - (k + 1);
    if (defined !== null) {
      let all = true;
      for (let j = 1; j <= k; j++) if (!documents(stack[stack.length - j] as Item)) all = false;
      if (all) {
        const inside = (opened[0] as Item).scopes; // what documents a definition is inside it
        for (let j = 1; j <= k; j++) (stack[stack.length - j] as Item).scopes = inside;
      }
    }
    if (inner !== null) {
      const end = item(following.end, following.end, [], following.scopes, 0, END);
      stack.splice(position, 1, end, ...opened.slice().reverse());
      this.ends.push(position);
    } else {
      stack.splice(position, 1, ...opened.slice().reverse());
    }
  }

  /** Make the top `k` items one piece (CODE-6, CODE-7). */
  close(stack: Item[], k: number): void {
    const run = stack.splice(stack.length - k, k);
    const first = run[run.length - 1] as Item;
    const own = k === 1 ? this.defines(first) : null;
    this.emit(first.start, (run[0] as Item).end, first.scopes, own);
  }
}

/** CODE-5..CODE-10: the pieces of `text` parsed as `root`. */
function splitTree(text: string, root: Node, language: CodeLanguage, measure: Measure, maxTokens: number, prefix: boolean): Piece[] {
  const splitter = new Splitter(text, language, measure, maxTokens, prefix);
  if (root.type === "ERROR") {
    // CODE-3: nothing parsed
    splitter.pack(splitter.lines(0, text.length, [], 0));
    return splitter.out;
  }
  const items = splitter.items(root, [], 0);
  // CODE-5: the text before and after the root node is covered too
  const start = root.startIndex;
  const end = root.endIndex;
  if (start > 0 && !isBlank(text.slice(0, start))) items.unshift(trimmed(text, 0, start, [], 0));
  if (end < text.length && !isBlank(text.slice(end))) items.push(trimmed(text, end, text.length, [], 0));
  splitter.pack(items);
  return splitter.out;
}

/** CODE-4: the fallback by whole lines, a line over the budget opened into its words. */
function splitLines(text: string, measure: Measure, maxTokens: number): Piece[] {
  const splitter = new Splitter(text, NO_LANGUAGE, measure, maxTokens, false);
  splitter.pack(splitter.lines(0, text.length, [], 0));
  return splitter.out;
}

/** The measure of a counter (whitespace: two bisects over the text's words, TOK-1). */
export function measureOf(text: string, counter: string): Measure {
  if (counter === "whitespace") {
    const spans = wordSpans(text, 0, text.length);
    const starts = spans.map(([a]) => a);
    const ends = spans.map(([, b]) => b);
    return (start, end, prefix) => {
      const n = Math.max(0, bisectLeft(starts, end) - bisectRight(ends, start));
      return prefix === "" ? n : n + countWords(prefix);
    };
  }
  if (counter === "unicode") return (start, end, prefix) => countUnits(prefix + text.slice(start, end));
  if (counter === "subword") return (start, end, prefix) => subwordCount(prefix + text.slice(start, end)); // COUNT-12
  const chars = /^chars([0-9]+)$/.exec(counter);
  if (chars !== null && Number(chars[1]) >= 1) {
    const size = Number(chars[1]);
    return (start, end, prefix) => Math.ceil(Array.from(prefix + text.slice(start, end)).length / size);
  }
  throw Object.assign(new RangeError(`counter must be whitespace, unicode, subword or chars{N} in this port, got ${JSON.stringify(counter)}`), { argument: "counter" });
}

/** CODE-11: `(start, name)` of every definition, by start then name (UTF-16 starts). */
function symbolsOf(text: string, root: Node, language: CodeLanguage): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  const cursor = root.walk();
  for (;;) {
    const node = cursor.currentNode;
    if (node.isNamed && language.definitions.has(node.type) && !bodiless(node)) {
      const name = symbolNode(node);
      if (name !== null) out.push([node.startIndex, pySplit(text.slice(name.startIndex, name.endIndex)).join(" ")]);
    }
    if (cursor.gotoFirstChild()) continue;
    let done = false;
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) {
        done = true;
        break;
      }
    }
    if (done) break;
  }
  cursor.delete();
  out.sort((x, y) => x[0] - y[0] || compareCodePoints(x[1], y[1]));
  return out;
}

/** One chunk of a source file: code point offsets, prefix, scope path, symbols (CODE-11). */
export interface CodeSpan {
  start: number;
  end: number;
  prefix: string;
  headingPath: string[];
  symbols: string[];
  lines: [number, number];
}

/** The spans of a file, and why it was split as it was (CODE-3's `parser`). */
export interface CodeChunks {
  parser: string;
  /** The counter that counted (RECORD-5; SCRIPT-6 makes whitespace unicode on CJK text). */
  counter: string;
  spans: CodeSpan[];
}

export interface ChunkCodeOptions {
  /** Python's `LANGUAGES` name, or null (no language: lines, CODE-3). */
  language: string | null;
  maxTokens: number;
  /** `subword` (default: `defaultCounter("code")`, options.ts), `whitespace`, `unicode` or `chars{N}`. */
  counter?: string;
  scopePrefix?: boolean;
  /** The first entry of every heading_path (the document's title). */
  title?: string;
}

/** Parse `text` as `language`, or null when its grammar is not loaded: in Node,
 * `grammars.ts`'s `parseCode` (web-tree-sitter, the npm grammars). */
export type ParseCode = (language: string, text: string) => SyntaxTree | null;

function require_(ok: boolean, argument: string, error: () => Error): void {
  if (!ok) throw Object.assign(error(), { argument });
}

/**
 * Chunk `text` by its syntax tree (CODE-3..CODE-11), as Python's
 * `chunk_document(document_from_text(text, doc_id=title, input_format="code",
 * language=language), strategy="code", ...)` gives its records' spans.
 */
export function chunkCode(text: string, options: ChunkCodeOptions, parse: ParseCode): CodeChunks {
  const { language, maxTokens } = options;
  // only an absent option takes its default: null is a value (of the wrong type)
  const counter = options.counter === undefined ? defaultCounter("code") : options.counter;
  const scopePrefix = options.scopePrefix === undefined ? false : options.scopePrefix;
  const title = options.title ?? "d";
  // Python's order of checks: the text's type, the language's, the text's code points,
  // the language's name, then the options (max_tokens, scope_prefix, counter).
  requireStr("text", text);
  require_(language === null || typeof language === "string", "language", () => new TypeError(`language must be a str, got ${typeof language}`));
  requireText("text", text);
  const entry = language === null ? undefined : CODE_LANGUAGES[language];
  require_(language === null || entry !== undefined, "language", () => new RangeError(`language must be one of ${Object.keys(CODE_LANGUAGES).join(", ")}, got ${JSON.stringify(language)}`));
  requireInt("max_tokens", maxTokens, 1); // PORT-1: an int in [1, 2**53 - 1], -0.0 refused
  require_(typeof scopePrefix === "boolean", "scope_prefix", () => new TypeError("scope_prefix must be a bool"));
  require_(typeof counter === "string", "counter", () => new TypeError("counter must be a str"));
  // SCRIPT-6: the name whitespace counts unicode units on a text holding a SCRIPT-2 character
  const counted = counter === "whitespace" && hasClusterScript(text) && !fault("code-no-script-default") ? "unicode" : counter;
  const measure = measureOf(text, counted);
  let pieces: Piece[] | null = null;
  let parser: string;
  let symbols: Array<[number, string]> = [];
  let tree: Tree | null = null;
  try {
    if (language === null || entry === undefined) {
      parser = "lines: no language";
    } else {
      tree = parse(language, text);
      if (tree === null) {
        throw Object.assign(new RangeError(`code needs web-tree-sitter and the ${language} grammar`), { argument: "strategy" });
      }
      // CODE-3: a tree with errors is used; only its error nodes open into lines
      if (tree.rootNode.hasError && fault("code-errors-as-lines")) {
        parser = "lines: syntax error";
      } else {
        parser = tree.rootNode.hasError ? "tree-sitter with errors" : "tree-sitter";
        try {
          pieces = splitTree(text, tree.rootNode, entry, measure, maxTokens, scopePrefix);
          symbols = symbolsOf(text, tree.rootNode, entry);
        } catch (error) {
          if (!(error instanceof TooDeep)) throw error;
          parser = `lines: nested deeper than ${MAX_DEPTH}`;
          pieces = null;
        }
      }
    }
  } finally {
    tree?.delete();
  }
  pieces ??= splitLines(text, measure, maxTokens);
  const cp = fault("code-utf16-offsets") ? (i: number) => i : codePointIndex(text);
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\n" || (ch === "\r" && text[i + 1] !== "\n")) lineStarts.push(i + 1);
  }
  const symbolStarts = symbols.map(([s]) => s);
  const spans = pieces.map((piece) => {
    const path = [title, ...piece.scopes.map((s) => s.label)];
    if (piece.own !== null) path.push(piece.own.label);
    const prefix = piece.prefix; // CODE-8, as the split counted it
    const a = bisectLeft(symbolStarts, piece.start);
    const b = bisectLeft(symbolStarts, piece.end);
    return {
      start: cp(piece.start),
      end: cp(piece.end),
      prefix,
      headingPath: path,
      symbols: symbols.slice(a, b).map(([, name]) => name),
      lines: [bisectRight(lineStarts, piece.start), bisectRight(lineStarts, piece.end - 1)] as [number, number],
    };
  });
  return { parser, counter: counted, spans };
}
