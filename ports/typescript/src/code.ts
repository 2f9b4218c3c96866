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

/** One enclosing definition (CODE-7): its label, header line and where its header starts. */
interface Scope {
  readonly label: string;
  readonly header: string;
  readonly start: number;
}

/** One chunk: `text[start:end]` (UTF-16) inside `scopes`; `own` the definition it is. */
interface Piece {
  start: number;
  end: number;
  scopes: readonly Scope[];
  own: Scope | null;
}

/** A run of sibling nodes (or text no node covers) kept together (CODE-5). */
interface Item {
  start: number;
  end: number;
  nodes: Node[];
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

/** CODE-6: an item that only documents what follows it. */
function documents(item: Item): boolean {
  return item.nodes.length > 0 && item.nodes.every(isComment);
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
function trimmed(text: string, start: number, end: number): Item {
  while (isSpace(text[start] ?? "")) start++;
  while (isSpace(text[end - 1] ?? "")) end--;
  return { start, end, nodes: [] };
}

/** CODE-5: comments joined to what they document. */
function grouped(text: string, raw: Item[]): Item[] {
  const out: Item[] = [];
  let pending: Item[] = [];
  for (let item of raw) {
    const first = item.nodes[0];
    const comment = item.nodes.length === 1 && first !== undefined && isComment(first);
    const last = out[out.length - 1];
    if (comment && pending.length === 0 && last !== undefined && !breaks(text, last.end, item.start) && !fault("code-no-trailing-comment")) {
      last.end = item.end; // a trailing comment: it ends the line of the item before it
      last.nodes.push(...item.nodes);
      continue;
    }
    const above = pending[pending.length - 1];
    if (above !== undefined && (blank(text, above.end, item.start) || fault("code-comments-apart"))) {
      out.push(...pending);
      pending = [];
    }
    if (comment) {
      pending.push(item);
      continue;
    }
    if (pending.length > 0) {
      const top = pending[0] as Item;
      item = { start: top.start, end: item.end, nodes: [...pending.flatMap((p) => p.nodes), ...item.nodes] };
      pending = [];
    }
    out.push(item);
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
  const ends = [text.indexOf("\n", start), text.indexOf("\r", start)].filter((e) => e >= 0);
  return ends.length > 0 ? Math.min(...ends) : text.length;
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
  const lineStart = Math.max(text.lastIndexOf("\n", start - 1), text.lastIndexOf("\r", start - 1)) + 1;
  return rstrip(text.slice(start > 0 ? lineStart : 0, lineEnd(text, start)));
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

/** CODE-11: the node naming a definition. */
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
  return node.childForFieldName("type");
}

/** A C `struct_specifier` or `enum_specifier` is a definition only with a body (CODE-7). */
function bodiless(node: Node): boolean {
  return node.type.endsWith("_specifier") && node.childForFieldName("body") === null;
}

class Splitter {
  readonly out: Piece[] = [];

  constructor(
    readonly text: string,
    readonly language: CodeLanguage,
    readonly measure: Measure,
    readonly maxTokens: number,
    readonly prefix: boolean,
  ) {}

  /** CODE-8: the prefix a piece starting at `start` carries. */
  prefixAt(scopes: readonly Scope[], start: number): string {
    if (!this.prefix) return "";
    return scopes.filter((s) => s.start < start).map((s) => s.header + "\n").join("");
  }

  fits(scopes: readonly Scope[], start: number, end: number): boolean {
    const prefix = fault("code-prefix-uncounted") ? "" : this.prefixAt(scopes, start);
    return this.measure(start, end, prefix) <= this.maxTokens;
  }

  /** CODE-5: a node's items. */
  items(node: Node): Item[] {
    const text = this.text;
    const raw: Item[] = [];
    let position = node.startIndex;
    const end = node.endIndex;
    for (const child of node.children) {
      if (child === null) continue;
      const a = child.startIndex;
      const b = child.endIndex;
      if (a > position && !isBlank(text.slice(position, a))) raw.push(trimmed(text, position, a));
      if (b > a) raw.push({ start: a, end: b, nodes: [child] });
      position = Math.max(position, b);
    }
    if (end > position && !isBlank(text.slice(position, end))) raw.push(trimmed(text, position, end));
    return grouped(text, raw);
  }

  /** CODE-7: the scope `node` opens, if it is (or wraps) a definition. */
  scope(node: Node): Scope | null {
    const definition = definitionOf(node, this.language);
    if (definition === null || bodiless(definition)) return null;
    const start = definition.startIndex;
    const name = definition.childForFieldName("name");
    const body = definition.childForFieldName("body");
    return {
      label: label(this.text, start, name === null ? null : name.endIndex, body === null ? null : body.startIndex),
      header: headerLine(this.text, start),
      start,
    };
  }

  /** CODE-10: a piece trimmed of white space; one of white space alone is dropped. */
  emit(start: number, end: number, scopes: readonly Scope[], own: Scope | null): void {
    const text = this.text;
    if (!fault("code-untrimmed")) {
      while (start < end && isSpace(text[start] ?? "")) start++;
      while (end > start && isSpace(text[end - 1] ?? "")) end--;
    }
    if (end > start) this.out.push({ start, end, scopes, own });
  }

  /** The definition a run is, when it is one item holding one (CODE-7). */
  ownScope(items: readonly Item[]): Scope | null {
    if (items.length !== 1) return null;
    const nodes = (items[0] as Item).nodes.filter((n) => !isComment(n));
    return nodes.length === 1 ? this.scope(nodes[0] as Node) : null;
  }

  /** CODE-6: packing. */
  run(items: Item[], scopes: readonly Scope[], depth: number): void {
    if (depth > MAX_DEPTH) throw new TooDeep();
    const text = this.text;
    const n = items.length;
    let i = 0;
    while (i < n) {
      const first = (items[i] as Item).start;
      let k = longest(i, n, (k) => k > i && this.fits(scopes, first, (items[k - 1] as Item).end));
      if (k === n) {
        this.emit(first, (items[n - 1] as Item).end, scopes, this.ownScope(items.slice(i, n)));
        return;
      }
      const following = items[k] as Item;
      if (k > i && this.fits(scopes, following.start, following.end)) {
        // CODE-6: the run closed for room; end it at its last line end if it has one
        if (!breaks(text, (items[k - 1] as Item).end, following.start) && !fault("code-no-line-end")) {
          for (let j = k - 1; j > i; j--) {
            if (breaks(text, (items[j - 1] as Item).end, (items[j] as Item).start)) {
              k = j;
              break;
            }
          }
        }
        this.emit(first, (items[k - 1] as Item).end, scopes, this.ownScope(items.slice(i, k)));
        i = k;
        continue;
      }
      // CODE-6: `following` is over the budget alone: split it; the run before it joins its
      // first piece when both fit, unless `following` is a definition and the run holds more
      // than what documents it.
      const mark = this.out.length;
      this.splitItem(following, scopes, depth);
      if (k > i) {
        const pieces = this.out.slice(mark);
        const head = pieces[0];
        let joins = head !== undefined && this.fits(scopes, first, head.end);
        const definition = this.ownScope([following]) !== null;
        if (joins && definition && !fault("code-header-joins-any")) joins = items.slice(i, k).every(documents);
        if (joins && head !== undefined) {
          this.out[mark] = { start: first, end: head.end, scopes: definition ? head.scopes : scopes, own: null };
        } else {
          this.out.length = mark;
          this.emit(first, (items[k - 1] as Item).end, scopes, this.ownScope(items.slice(i, k)));
          this.out.push(...pieces);
        }
      }
      i = k + 1;
    }
  }

  /** Split an item over the budget alone (CODE-6, CODE-9). */
  splitItem(item: Item, scopes: readonly Scope[], depth: number): void {
    const nodes = item.nodes;
    if (nodes.length > 1) {
      const singles = nodes.map((n) => ({ start: n.startIndex, end: n.endIndex, nodes: [n] }));
      this.run(singles, scopes, depth + 1);
      return;
    }
    const node = nodes[0];
    if (node !== undefined && node.childCount > 0) {
      const inner = this.scope(node);
      const last = scopes[scopes.length - 1];
      if (inner !== null && !(last !== undefined && last.start === inner.start)) scopes = [...scopes, inner];
      this.run(this.items(node), scopes, depth + 1);
      return;
    }
    this.cutLeaf(item.start, item.end, scopes);
  }

  /** CODE-9: white-space words, then SCRIPT-8's units and grapheme clusters. */
  cutLeaf(start: number, end: number, scopes: readonly Scope[]): void {
    const words = wordSpans(this.text, start, end);
    const n = words.length;
    let i = 0;
    while (i < n) {
      const first = (words[i] as [number, number])[0];
      const k = longest(i, n, (k) => k > i && this.fits(scopes, first, (words[k - 1] as [number, number])[1]));
      if (k > i) {
        this.emit(first, (words[k - 1] as [number, number])[1], scopes, null);
        i = k;
        continue;
      }
      const [a, b] = words[i] as [number, number];
      const prefix = this.prefixAt(scopes, a);
      for (const [c, d] of fitWord(this.text, a, b, (c, d) => this.measure(c, d, prefix) <= this.maxTokens)) {
        this.emit(c, d, scopes, null);
      }
      i += 1;
    }
  }
}

/** CODE-4: each line's text from its first to its last non-white-space character. */
function lineItems(text: string): Item[] {
  const out: Item[] = [];
  let start = 0;
  while (start <= text.length) {
    let end = start;
    while (end < text.length && text[end] !== "\n" && text[end] !== "\r") end++;
    let a = start;
    let b = end;
    while (a < b && isSpace(text[a] ?? "")) a++;
    while (b > a && isSpace(text[b - 1] ?? "")) b--;
    if (b > a) out.push({ start: a, end: b, nodes: [] });
    if (end >= text.length) break;
    start = end + (text[end] === "\r" && text[end + 1] === "\n" ? 2 : 1);
  }
  return out;
}

/** CODE-5..CODE-10: the pieces of `text` parsed as `root`. */
function splitTree(text: string, root: Node, language: CodeLanguage, measure: Measure, maxTokens: number, prefix: boolean): Piece[] {
  const splitter = new Splitter(text, language, measure, maxTokens, prefix);
  const items = splitter.items(root);
  // CODE-5: the text before and after the root node is covered too
  const start = root.startIndex;
  const end = root.endIndex;
  if (start > 0 && !isBlank(text.slice(0, start))) items.unshift(trimmed(text, 0, start));
  if (end < text.length && !isBlank(text.slice(end))) items.push(trimmed(text, end, text.length));
  splitter.run(items, [], 0);
  return splitter.out;
}

/** CODE-4: the fallback by whole lines. */
function splitLines(text: string, measure: Measure, maxTokens: number): Piece[] {
  const splitter = new Splitter(text, NO_LANGUAGE, measure, maxTokens, false);
  splitter.run(lineItems(text), [], 0);
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
  const chars = /^chars([0-9]+)$/.exec(counter);
  if (chars !== null && Number(chars[1]) >= 1) {
    const size = Number(chars[1]);
    return (start, end, prefix) => Math.ceil(Array.from(prefix + text.slice(start, end)).length / size);
  }
  throw Object.assign(new RangeError(`counter must be whitespace, unicode or chars{N} in this port, got ${JSON.stringify(counter)}`), { argument: "counter" });
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
  /** `whitespace` (default), `unicode` or `chars{N}`. */
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
  const counter = options.counter === undefined ? "whitespace" : options.counter;
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
      if (tree.rootNode.hasError && !fault("code-errors-parsed")) {
        parser = "lines: syntax error";
      } else {
        parser = "tree-sitter";
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
    const prefix = scopePrefix ? piece.scopes.filter((s) => s.start < piece.start).map((s) => s.header + "\n").join("") : "";
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
