/**
 * HTML pages read as a browser shows them (HTML-1, HTML-3..HTML-21): the Python reader
 * (`_text/_html/`: `_page.read_markup`, `_elements`, `_align`, `_writer`, `_render`,
 * `_markup_map`) line for line, on parse5 (WHATWG) where Python has turbohtml (WHATWG).
 *
 * Both parsers build the standard's tree, so the walk, the writer and the aligner are the
 * same code over the same tree. JavaScript strings index UTF-16 code units and Python's
 * code points: everything here runs on UTF-16 indexes of the newline-normalized markup
 * (parse5's offsets are UTF-16 too) and the answer is converted to code points at the end
 * (SOURCE-2, HAZ-16), so text offsets index the text and markup offsets the markup exactly as
 * Python's do.
 */

import { decodeHTML, DecodingMode } from "entities";
import { parse } from "parse5";
import { fault } from "./faults.js";
import { ACCESS_KEYS } from "./frontMatter.js";
import { pySplit, pyStrip } from "./whitespace.js";

// -- the tree parse5 builds (only what the walk reads) ----------------------------------------

interface Location {
  startOffset: number;
  endOffset: number;
}

interface ElementLocation extends Location {
  startTag?: Location;
  endTag?: Location;
}

interface Node {
  nodeName: string;
  childNodes?: Node[];
  value?: string;
}

interface Element extends Node {
  tagName: string;
  namespaceURI: string;
  attrs: { name: string; value: string }[];
  childNodes: Node[];
  content?: Node;
  sourceCodeLocation?: ElementLocation | null;
}

const HTML_NAMESPACE = "http://www.w3.org/1999/xhtml";

function isElement(node: Node): node is Element {
  return (node as Element).tagName !== undefined;
}

function isText(node: Node): boolean {
  return node.nodeName === "#text";
}

/** The children of a node as the walk reads them (a template has none: it is never text). */
function childrenOf(node: Node): Node[] {
  return node.childNodes ?? [];
}

/** The children of a node, a template's content's for a template (turbohtml's view). */
function templateAware(node: Node): Node[] {
  return isElement(node) && node.tagName === "template" && node.content !== undefined
    ? childrenOf(node.content) : childrenOf(node);
}

/** turbohtml's `iter_elements()`: the descendant elements in tree order, template contents too. */
function* iterElements(node: Node): Generator<Element> {
  for (const child of templateAware(node)) {
    if (isElement(child)) {
      yield child;
      yield* iterElements(child);
    }
  }
}

/** turbohtml's `Element.text`: the data of every descendant text node (template contents too). */
function textOf(node: Node): string {
  let out = "";
  for (const child of templateAware(node)) {
    if (isText(child)) out += child.value ?? "";
    else if (isElement(child)) out += textOf(child);
  }
  return out;
}

/** An attribute's value, or undefined (the first of a name: the parser drops repeats). */
function attr(element: Element, name: string): string | undefined {
  for (const a of element.attrs) if (a.name === name) return a.value;
  return undefined;
}

/** The formatting elements of the adoption agency (HTML §13.2.4.3). */
const FORMATTING = new Set(["a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u"]);

/**
 * Give parse5's tree turbohtml's source locations (HTML-19): the standard says what the
 * tree is, not where its elements' tags are, and the two parsers differ in two places.
 * parse5 gives an element the adoption agency or the reconstruction of the active
 * formatting elements recreates the location of the tag it copies; turbohtml gives it none
 * (it has no tag of its own in the markup). And when the adoption agency takes a formatting
 * element off the stack for an end tag after a block inside it (`<b>1<p>2</b>`), parse5
 * records that end tag as the element's; turbohtml does not (the block, not the element,
 * holds the text before it). The walk's cursor moves past the tags it is given, so both are
 * read as turbohtml reads them.
 */
function turbohtmlLocations(tree: Node): void {
  const elements: Element[] = [];
  const ends: number[] = []; // ends[k]: the index after element k's subtree
  const visit = (node: Node): void => {
    for (const child of templateAware(node)) {
      if (!isElement(child)) continue;
      const k = elements.length;
      elements.push(child);
      ends.push(k + 1);
      visit(child);
      ends[k] = elements.length;
    }
  };
  visit(tree);
  const seen = new Set<number>();
  for (const element of elements) {
    const at = location(element);
    if (at === null || at.startTag === undefined) continue;
    if (seen.has(at.startTag.startOffset)) element.sourceCodeLocation = null; // a copy
    else seen.add(at.startTag.startOffset);
  }
  if (fault("html-parse5-locations")) return;
  elements.forEach((element, k) => {
    const at = location(element);
    if (at === null || at.startTag === undefined || at.endTag === undefined || !FORMATTING.has(element.tagName)) return;
    for (let next = ends[k] ?? elements.length; next < elements.length; next++) {
      const after = location(elements[next] as Element);
      if (after === null || after.startTag === undefined) continue;
      const start = after.startTag.startOffset;
      if (start > at.startTag.startOffset && start < at.endTag.startOffset) delete at.endTag;
      break;
    }
  });
}

function location(element: Element): ElementLocation | null {
  const at = element.sourceCodeLocation;
  return at === undefined || at === null || at.startTag === undefined ? null : at;
}

// -- _elements: what each element is (HTML-5..HTML-12) ----------------------------------------

/** HTML-5: never the page's text. */
const NEVER_TEXT = new Set([
  "area", "base", "basefont", "datalist", "head", "link", "meta", "noembed",
  "noframes", "param", "rp", "script", "style", "template", "title", "noscript",
  "iframe", "object", "embed", "canvas", "audio", "video", "picture", "source",
  "track", "select", "option", "optgroup", "input", "img", "map", "button",
]);

/** HTML-7: the heading elements and their levels. */
const HEADINGS: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };

/** HTML-8: elements read as one block of a kind. */
const ATOMIC_KINDS: Record<string, string> = {
  p: "paragraph", address: "paragraph", figure: "paragraph", ul: "list", ol: "list", menu: "list",
  dir: "list", dl: "definition", table: "table", pre: "code", listing: "code", xmp: "code",
  plaintext: "code", textarea: "code", blockquote: "quote",
};

/** HTML-6: `white-space: pre` elements. */
const PRE_ELEMENTS = new Set(["pre", "listing", "xmp", "plaintext", "textarea"]);

/** HTML-6: block containers: they separate blocks but are not one block themselves. */
const BLOCK_CONTAINERS = [
  "html", "body", "main", "article", "section", "div", "header", "footer", "nav",
  "aside", "form", "fieldset", "legend", "details", "summary", "center", "search",
  "hgroup", "dialog", "figcaption", "caption", "li", "dd", "dt",
  "frameset", "frame", "slot",
];

/** HTML-6: every element that starts a new line inside a block. */
const BLOCK_ELEMENTS = new Set([
  ...BLOCK_CONTAINERS, ...Object.keys(ATOMIC_KINDS), ...Object.keys(HEADINGS), "hr", "tr", "thead", "tbody", "tfoot",
]);

/** HTML-11: page furniture. */
const FURNITURE_TAGS = new Set(["nav", "aside", "header", "footer"]);
const FURNITURE_ROLES = new Set(["navigation", "banner", "contentinfo", "complementary", "search"]);
/** HTML-11: a `header` or `footer` inside one of these is the section's own. */
const SECTIONING = new Set(["article", "aside", "main", "nav", "section"]);

const COOKIE = /cookie|consent|gdpr/iu;
const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!\s*important\s*)?(?:;|$)/iu;

/** HTML-7: the text of a heading's permalink (Sphinx and MkDocs "¶", Node.js "#", "§"). */
const PERMALINK_TEXT = new Set(["", "#", "¶", "§", "🔗", "link", "permalink"]);
/** HTML-7: the text of a heading's link to its source code (Node.js "[src]", Sphinx's "[source]"). */
const SOURCE_LINK_TEXT = new Set(["[src]", "[source]"]);

/** HTML-14: `<meta name=...>` read into the metadata, and the key each gets. */
const META_NAMES: Record<string, string> = { description: "description", author: "author", keywords: "keywords" };

/** HTML-15: the access-control keys a page's `meta` may name (TRUST-3). */
const ACCESS = new Set<string>(ACCESS_KEYS);

function cookieBanner(id: string, classes: string): boolean {
  return COOKIE.test(id) || COOKIE.test(classes);
}

/** Python's `str.lower()` for the ASCII words compared here. */
function lower(text: string): string {
  return text.toLowerCase();
}

/** HTML-7: a link in a heading that is not part of its title: to a fragment of the page
 * with a permalink sign as its text, or to source code as `[src]`. */
function permalink(href: string | undefined, text: string): boolean {
  if (fault("html-no-permalink") || href === undefined) return false;
  const shown = lower(pyStrip(text));
  return (pyStrip(href).startsWith("#") && PERMALINK_TEXT.has(shown)) || SOURCE_LINK_TEXT.has(shown);
}

// -- _align: where a text node's characters sit in the markup (HTML-19) -----------------------

/** `(dataStart, dataEnd, markupStart, markupEnd, exact)`. */
type Piece = [number, number, number, number, boolean];

/** HTML-6: `data` with each form feed a space, its pieces split so that space is a run of
 * its own, not exact (HTML-18: text " ", markup "\f"). Offsets are UTF-16 here, as the
 * pieces' are. */
function noFormFeeds(data: string, pieces: Piece[] | null): [string, Piece[] | null] {
  const replaced = data.replace(/\f/g, " ");
  if (pieces === null) return [replaced, null];
  const out: Piece[] = [];
  for (const [pa, pb, s, e, exact] of pieces) {
    if (!exact) {
      out.push([pa, pb, s, e, exact]);
      continue;
    }
    let at = pa;
    for (let f = pa; f < pb; f++) {
      if (data[f] === "\f") {
        if (f > at) out.push([at, f, s + at - pa, s + f - pa, true]);
        out.push([f, f + 1, s + f - pa, s + f - pa + 1, false]);
        at = f + 1;
      }
    }
    if (at < pb) out.push([at, pb, s + at - pa, s + pb - pa, true]);
  }
  return [replaced, out];
}

const REFERENCE = /&(?:#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)/uy;
const COMMENT = /<!--(?:>|->|[\s\S]*?(?:--!?>|$))/y;
const BOGUS = /<[!?][^>]*>?/y;
const TAG = /<\/?[A-Za-z][^\t\n\f />]*(?:[^>"']|"[^"]*"|'[^']*')*>?|<\/>/y;
const REACH = 4096;

/** Python's `html._invalid_charrefs`. */
const INVALID_CHARREFS: Record<number, string> = {
  0x00: "\ufffd", 0x0d: "\r", 0x80: "\u20ac", 0x81: "\x81", 0x82: "\u201a", 0x83: "\u0192",
  0x84: "\u201e", 0x85: "\u2026", 0x86: "\u2020", 0x87: "\u2021", 0x88: "\u02c6", 0x89: "\u2030",
  0x8a: "\u0160", 0x8b: "\u2039", 0x8c: "\u0152", 0x8d: "\x8d", 0x8e: "\u017d", 0x8f: "\x8f",
  0x90: "\x90", 0x91: "\u2018", 0x92: "\u2019", 0x93: "\u201c", 0x94: "\u201d", 0x95: "\u2022",
  0x96: "\u2013", 0x97: "\u2014", 0x98: "\u02dc", 0x99: "\u2122", 0x9a: "\u0161", 0x9b: "\u203a",
  0x9c: "\u0153", 0x9d: "\x9d", 0x9e: "\u017e", 0x9f: "\u0178",
};

/** Python's `html._invalid_codepoints`. */
function invalidCodePoint(n: number): boolean {
  return (n >= 0x1 && n <= 0x8) || n === 0xb || (n >= 0xe && n <= 0x1f) || (n >= 0x7f && n <= 0x9f) ||
    (n >= 0xfdd0 && n <= 0xfdef) || (n & 0xfffe) === 0xfffe;
}

/** Python's `html.unescape` of one character reference (the whole of `ref`). */
function unescape(ref: string): string {
  if (ref[1] === "#") {
    const hex = ref[2] === "x" || ref[2] === "X";
    const digits = ref.slice(hex ? 3 : 2).replace(/;$/, "");
    const n = parseInt(digits, hex ? 16 : 10);
    const known = INVALID_CHARREFS[n];
    if (known !== undefined) return known;
    if ((n >= 0xd800 && n <= 0xdfff) || n > 0x10ffff || !Number.isFinite(n)) return "\ufffd";
    if (invalidCodePoint(n)) return "";
    return String.fromCodePoint(n);
  }
  // A named reference: the longest name of the standard's table that starts it, where only
  // the legacy names may go without ";" (what `html.unescape` does, and the tokenizer in data).
  return decodeHTML(ref, DecodingMode.Legacy);
}

/** The pieces of `data` found in `markup` from `cursor` and the position after them, or null. */
function align(data: string, markup: string, cursor: number): [Piece[], number] | null {
  if (markup.startsWith(data, cursor)) return [[[0, data.length, cursor, cursor + data.length, true]], cursor + data.length];
  const pieces: Piece[] = [];
  let i = 0;
  let p = cursor;
  const n = data.length;
  const limit = Math.min(markup.length, cursor + REACH + 8 * n);
  while (i < n) {
    if (p >= limit) return null;
    const c = markup[p];
    if (c === "&") {
      REFERENCE.lastIndex = p;
      const match = REFERENCE.exec(markup);
      if (match !== null) {
        const decoded = unescape(match[0]);
        const end = p + match[0].length;
        if (decoded !== match[0] && data.startsWith(decoded, i)) {
          pieces.push([i, i + decoded.length, p, end, false]);
          i += decoded.length;
          p = end;
          continue;
        }
      }
    }
    if (c === data[i]) {
      literal(pieces, i, p);
      i += 1;
      p += 1;
      continue;
    }
    if (c === "<") {
      const end = skipMarkup(markup, p);
      if (end === null) return null;
      p = end;
      continue;
    }
    if (c === "\0") {
      if (data[i] === "\ufffd") {
        pieces.push([i, i + 1, p, p + 1, false]);
        i += 1;
      }
      p += 1;
      continue;
    }
    if (c === " " || c === "\t" || c === "\n" || c === "\f") {
      p += 1;
      continue;
    }
    return null;
  }
  return [pieces, p];
}

function literal(pieces: Piece[], i: number, p: number): void {
  const last = pieces[pieces.length - 1];
  if (last !== undefined && last[4] && last[1] === i && last[3] === p) {
    last[1] += 1;
    last[3] += 1;
    return;
  }
  pieces.push([i, i + 1, p, p + 1, true]);
}

function skipMarkup(markup: string, p: number): number | null {
  for (const pattern of [COMMENT, BOGUS, TAG]) {
    pattern.lastIndex = p;
    const match = pattern.exec(markup);
    if (match !== null) return p + match[0].length;
  }
  return null;
}

// -- _writer: CSS white-space, line breaks, blocks and segments (HTML-4, HTML-6..HTML-10) ----

/** One block of the page (HTML-8): offsets are UTF-16 here, code points in the answer. */
export interface HtmlBlock {
  kind: string;
  level: number;
  start: number;
  end: number;
  text: string;
  headerRows: number;
}

const SPACE_RUN = /[ \t\n\f]+/g;
const NOT_SPACE = /[^ \t\n\f]/;
const BLOCK_SEPARATOR = "\n\n";

class Segments {
  textStart: number[] = [];
  textEnd: number[] = [];
  markupStart: number[] = [];
  markupEnd: number[] = [];
  exact: boolean[] = [];

  add(a: number, b: number, s: number, e: number, exact: boolean): void {
    const k = this.exact.length - 1;
    if (exact && k >= 0 && this.exact[k] && this.textEnd[k] === a && this.markupEnd[k] === s) {
      this.textEnd[k] = b;
      this.markupEnd[k] = e;
      return;
    }
    this.textStart.push(a);
    this.textEnd.push(b);
    this.markupStart.push(s);
    this.markupEnd.push(e);
    this.exact.push(exact);
  }

  /** Drop every run at or after text offset `length` and shorten one across it. */
  cut(length: number): void {
    while (this.textStart.length > 0 && (this.textStart[this.textStart.length - 1] ?? 0) >= length) {
      this.textStart.pop();
      this.textEnd.pop();
      this.markupStart.pop();
      this.markupEnd.pop();
      this.exact.pop();
    }
    const k = this.textEnd.length - 1;
    const end = this.textEnd[k];
    if (end !== undefined && end > length) {
      const over = end - length;
      this.textEnd[k] = length;
      if (this.exact[k]) this.markupEnd[k] = (this.markupEnd[k] ?? 0) - over;
    }
  }
}

type Tail = [string, number, number, Piece[] | null];

class Writer {
  parts: string[] = [];
  length = 0;
  segments = new Segments();
  blocks: HtmlBlock[] = [];
  kind = "paragraph";
  level = 0;
  blockStart: number | null = null;
  blockPart = 0;
  separatorPart = 0;
  separatorStart = 0;
  headerRows = 0;
  breaks = 0;
  newlines = 0;
  tabs = 0;
  /** A collapsed run waiting: its markup span, and whether it is one " " (exact). */
  space: [number, number, boolean] | null = null;
  preTail: Tail[] = [];
  flatten = 0;
  lines = 0;

  openBlock(kind: string, level = 0): void {
    this.closeBlock();
    this.kind = kind;
    this.level = level;
  }

  closeBlock(): void {
    if (this.blockStart !== null) {
      const text = this.parts.slice(this.blockPart).join("");
      if (text !== "" && pyStrip(text) === "" && !fault("html-blank-block")) {
        this.unwrite(this.separatorPart, this.separatorStart); // HTML-8: never blank
      } else {
        this.blocks.push({
          kind: this.kind, level: this.level, start: this.blockStart, end: this.length, text, headerRows: this.headerRows,
        });
      }
    }
    this.blockStart = null;
    this.kind = "paragraph";
    this.level = 0;
    this.headerRows = 0;
    this.forget();
  }

  forget(): void {
    this.breaks = this.newlines = this.tabs = this.lines = 0;
    this.space = null;
    this.preTail = [];
  }

  lineBreak(count = 1): void {
    if (this.flatten) {
      this.requestSpace();
      return;
    }
    this.tabs = 0;
    this.preTail = []; // white space ending a pre element ends a line: not written
    if (count > this.breaks) this.breaks = count;
  }

  br(): void {
    if (this.flatten) this.requestSpace();
    else this.newlines += 1;
  }

  cell(): void {
    if (this.flatten || fault("html-table-no-tab")) this.requestSpace();
    else this.tabs += 1;
  }

  requestSpace(): void {
    if (this.space === null) this.space = [-1, -1, false];
  }

  text(data: string, pieces: Piece[] | null, pre: boolean): void {
    if (pre && !this.flatten) {
      if (data.includes("\f")) [data, pieces] = noFormFeeds(data, pieces); // HTML-6
      this.pre(data, pieces);
      return;
    }
    if (fault("html-no-collapse")) {
      this.content(data, 0, data.length, pieces);
      return;
    }
    let at = 0;
    SPACE_RUN.lastIndex = 0;
    for (let m = SPACE_RUN.exec(data); m !== null; m = SPACE_RUN.exec(data)) {
      if (m.index > at) this.content(data, at, m.index, pieces);
      if (this.space === null) {
        const [s, e] = this.span(m.index, m.index + m[0].length, pieces);
        this.space = [s, e, e - s === 1 && m[0] === " "];
      }
      at = m.index + m[0].length;
    }
    if (at < data.length) this.content(data, at, data.length, pieces);
  }

  pre(data: string, pieces: Piece[] | null): void {
    const first = NOT_SPACE.exec(data);
    if (first === null) {
      if (this.blockStart !== null) this.preTail.push([data, 0, data.length, pieces]);
      return;
    }
    let start = 0;
    if (this.blockStart === null) {
      start = fault("html-pre-keeps-blank-lines") ? 0 : data.lastIndexOf("\n", first.index - 1) + 1;
      if (first.index === 0) start = 0; // rfind("\n", 0, 0) is -1
      this.begin();
    } else {
      for (const tail of this.preTail) this.write(...tail);
      this.preTail = [];
      this.openLine();
    }
    const last = data.replace(/[ \t\n\f]+$/, "").length;
    this.write(data, start, last, pieces);
    if (last < data.length) this.preTail.push([data, last, data.length, pieces]);
  }

  begin(): void {
    // HTML-10: a table's first row keeps the tabs of its leading empty cells
    const tabs = this.tabs;
    this.forget();
    this.separatorPart = this.parts.length;
    this.separatorStart = this.length;
    if (this.blocks.length > 0) this.raw(BLOCK_SEPARATOR);
    this.blockStart = this.length;
    this.blockPart = this.parts.length;
    if (tabs) this.raw("\t".repeat(tabs));
  }

  content(data: string, a: number, b: number, pieces: Piece[] | null): void {
    if (this.blockStart === null) {
      this.begin();
    } else {
      this.preTail = [];
      this.openLine();
    }
    this.write(data, a, b, pieces);
  }

  openLine(): void {
    const lines = Math.max(this.breaks, this.newlines);
    if (lines) {
      this.raw("\n".repeat(lines));
      this.lines += 1;
    }
    if (this.tabs) {
      this.raw("\t".repeat(this.tabs));
    } else if (!lines && this.space !== null) {
      const [s, e, exact] = this.space;
      if (s >= 0) this.segments.add(this.length, this.length + 1, s, e, exact);
      this.raw(" ");
    }
    this.breaks = this.newlines = this.tabs = 0;
    this.space = null;
  }

  /** Remove what was written from part `part` (text offset `length`) on. */
  unwrite(part: number, length: number): void {
    this.parts.length = part;
    this.length = length;
    this.segments.cut(length);
  }

  raw(text: string): void {
    this.parts.push(text);
    this.length += text.length;
  }

  write(data: string, a: number, b: number, pieces: Piece[] | null): void {
    if (a >= b) return;
    const base = this.length - a;
    if (pieces === null) {
      // HTML-20: unplaced text has no segment
    } else if (pieces.length === 1 && pieces[0]?.[4]) {
      const s = pieces[0][2];
      this.segments.add(base + a, base + b, s + a, s + b, true);
    } else {
      for (const [pa, pb, s, e, exact] of pieces) {
        const lo = Math.max(pa, a);
        const hi = Math.min(pb, b);
        if (lo >= hi) continue;
        if (exact) this.segments.add(base + lo, base + hi, s + lo - pa, s + hi - pa, true);
        else this.segments.add(base + lo, base + hi, s, e, false);
      }
    }
    this.raw(data.slice(a, b));
  }

  span(a: number, b: number, pieces: Piece[] | null): [number, number] {
    if (pieces === null) return [-1, -1];
    let start = -1;
    let end = -1;
    for (const [pa, pb, s, e, exact] of pieces) {
      if (pa <= a && a < pb) start = exact ? s + a - pa : s;
      if (pa < b && b <= pb) end = exact ? s + b - pa : e;
    }
    return start >= 0 && start <= end ? [start, end] : [-1, -1];
  }

  finish(): string {
    this.closeBlock();
    return this.parts.join("");
  }
}

// -- _render: the tree walk (HTML-3..HTML-17) --------------------------------------------------

class Walk {
  cursor = 0;
  writer = new Writer();
  title: string | null = null;
  meta: Record<string, string> = {};
  accessNames = new Set<string>();
  unplaced = 0;
  sections = 0;
  inHeading = false;

  constructor(readonly markup: string, readonly keepFurniture: boolean) {}

  enter(element: Element): void {
    const at = location(element);
    if (at !== null && at.startTag !== undefined && at.startTag.startOffset >= this.cursor) {
      this.cursor = at.startTag.endOffset;
    }
  }

  leave(element: Element): void {
    const at = location(element);
    if (at !== null && at.endTag !== undefined && at.endTag.startOffset >= this.cursor) {
      this.cursor = at.endTag.endOffset;
    }
  }

  skip(element: Element): void {
    this.enter(element);
    let end = this.cursor;
    for (const node of iterElements(element)) {
      const at = location(node);
      if (at !== null) {
        const tag = at.endTag ?? at.startTag;
        if (tag !== undefined) end = Math.max(end, tag.endOffset);
      }
    }
    const at = location(element);
    if (at !== null && at.endTag !== undefined) end = Math.max(end, at.endTag.endOffset);
    this.cursor = Math.max(this.cursor, end);
  }

  place(data: string): Piece[] | null {
    const found = align(data, this.markup, this.cursor);
    if (found === null) {
      this.unplaced += 1;
      return null;
    }
    this.cursor = found[1];
    return found[0];
  }

  hidden(element: Element, tag: string): boolean {
    if (element.namespaceURI !== HTML_NAMESPACE) return true;
    if (NEVER_TEXT.has(tag)) return true;
    const hiddenAttr = attr(element, "hidden");
    if (hiddenAttr !== undefined && hiddenAttr !== "until-found") return true;
    if (tag === "dialog" && attr(element, "open") === undefined) return true;
    const style = attr(element, "style");
    if (style !== undefined && HIDDEN_STYLE.test(style)) return true;
    if (tag === "a" && this.inHeading && permalink(attr(element, "href"), textOf(element))) return true;
    return !this.keepFurniture && this.furniture(element, tag);
  }

  furniture(element: Element, tag: string): boolean {
    if (FURNITURE_TAGS.has(tag) && (tag === "nav" || tag === "aside" || !this.sections)) return true;
    const role = attr(element, "role");
    if (role !== undefined && FURNITURE_ROLES.has(lower(pyStrip(role)))) return true;
    return cookieBanner(attr(element, "id") ?? "", attr(element, "class") ?? "");
  }

  headingLevel(element: Element, tag: string): number {
    const level = HEADINGS[tag] ?? 0;
    if (level) return level;
    const role = attr(element, "role");
    if (role !== undefined && lower(pyStrip(role)) === "heading") {
      const raw = attr(element, "aria-level");
      if (raw !== undefined && /^[0-9]+$/.test(pyStrip(raw))) {
        const n = Number(pyStrip(raw));
        if (n >= 1 && n <= 6) return n;
      }
      return 2;
    }
    return 0;
  }

  head(element: Element): void {
    for (const node of [element, ...iterElements(element)]) {
      const tag = node.tagName;
      if (tag === "title" && this.title === null) {
        this.title = pySplit(textOf(node)).join(" ");
      } else if (tag === "meta") {
        const name = attr(node, "name");
        const content = attr(node, "content");
        if (name === undefined) continue;
        const key = lower(pyStrip(name));
        if (ACCESS.has(key)) {
          this.accessNames.add(key);
        } else if (Object.hasOwn(META_NAMES, key) && content !== undefined && pySplit(content).length > 0) {
          const field = META_NAMES[key] as string;
          if (!Object.hasOwn(this.meta, field)) this.meta[field] = pySplit(content).join(" ");
        }
      }
    }
  }

  language(element: Element): void {
    const lang = attr(element, "lang");
    if (lang !== undefined && pyStrip(lang) !== "" && !Object.hasOwn(this.meta, "language")) {
      this.meta["language"] = pyStrip(lang);
    }
  }

  flow(children: Iterable<Node>): void {
    const writer = this.writer;
    for (const node of children) {
      if (isText(node)) {
        const data = node.value ?? "";
        const pieces = this.place(data);
        if (writer.blockStart === null && !NOT_SPACE.test(data)) continue; // HTML-4: NBSP is a letter
        writer.text(data, pieces, false);
        continue;
      }
      if (!isElement(node)) continue;
      const tag = node.tagName;
      if (tag === "html") this.language(node);
      if (this.hidden(node, tag)) {
        if (tag === "head" || tag === "title" || tag === "meta") this.head(node);
        this.skip(node);
        continue;
      }
      const level = this.headingLevel(node, tag);
      if (level) {
        this.heading(node, level);
      } else if (Object.hasOwn(ATOMIC_KINDS, tag)) {
        this.atomic(node, tag);
      } else if (BLOCK_ELEMENTS.has(tag)) {
        writer.closeBlock();
        this.enter(node);
        const sectioning = SECTIONING.has(tag) ? 1 : 0;
        this.sections += sectioning;
        this.flow(node.childNodes);
        this.sections -= sectioning;
        this.leave(node);
        writer.closeBlock();
      } else if (tag === "br") {
        this.enter(node);
        writer.br();
      } else {
        this.enter(node);
        this.flow(node.childNodes);
        this.leave(node);
      }
    }
  }

  heading(element: Element, level: number): void {
    const writer = this.writer;
    writer.openBlock("heading", level);
    this.enter(element);
    writer.flatten += 1;
    this.inHeading = true;
    this.inline(element.childNodes, false);
    this.inHeading = false;
    writer.flatten -= 1;
    this.leave(element);
    writer.closeBlock();
  }

  atomic(element: Element, tag: string): void {
    const writer = this.writer;
    if (tag === "table") this.caption(element);
    writer.openBlock(ATOMIC_KINDS[tag] as string);
    this.enter(element);
    if (tag === "table") this.table(element);
    else this.inline(element.childNodes, PRE_ELEMENTS.has(tag));
    this.leave(element);
    writer.closeBlock();
  }

  inline(children: Iterable<Node>, pre: boolean): void {
    const writer = this.writer;
    for (const node of children) {
      if (isText(node)) {
        const data = node.value ?? "";
        writer.text(data, this.place(data), pre);
        continue;
      }
      if (!isElement(node)) continue;
      const tag = node.tagName;
      if (this.hidden(node, tag)) {
        this.skip(node);
        continue;
      }
      if (tag === "br") {
        this.enter(node);
        if (fault("html-heading-br-newline") && writer.flatten && this.inHeading) writer.newlines += 1;
        else writer.br();
        continue;
      }
      if (tag === "table") {
        writer.lineBreak();
        this.enter(node);
        writer.flatten += 1;
        this.table(node);
        writer.flatten -= 1;
        this.leave(node);
        writer.lineBreak();
        continue;
      }
      const block = BLOCK_ELEMENTS.has(tag) || this.headingLevel(node, tag) > 0;
      if (block) writer.lineBreak();
      this.enter(node);
      this.inline(node.childNodes, pre || PRE_ELEMENTS.has(tag));
      this.leave(node);
      if (block) writer.lineBreak();
    }
  }

  caption(table: Element): void {
    for (const child of table.childNodes) {
      if (isElement(child) && child.tagName === "caption") {
        if (!this.hidden(child, "caption")) {
          this.writer.openBlock("paragraph");
          this.writer.flatten += 1;
          this.inline(child.childNodes, false);
          this.writer.flatten -= 1;
          this.writer.closeBlock();
        }
        return;
      }
    }
  }

  table(table: Element): void {
    const writer = this.writer;
    let header = 0;
    let bodySeen = false;
    for (const [section, row] of this.rows(table)) {
      const cells = [...this.cells(row)];
      const isHeader = section === "thead" || (
        !bodySeen && section !== "tfoot" && cells.every((cell) => cell.tagName === "th") && cells.length > 0
      );
      const before = writer.length;
      writer.lineBreak();
      this.enter(row);
      let first = true;
      for (const cell of cells) {
        if (!first) writer.cell();
        first = false;
        this.enter(cell);
        if (this.hidden(cell, cell.tagName)) {
          this.skip(cell);
          continue;
        }
        writer.flatten += 1;
        this.inline(cell.childNodes, false);
        writer.flatten -= 1;
        this.leave(cell);
      }
      this.leave(row);
      const wrote = writer.length > before;
      if (fault("html-header-rows-th-anywhere")) {
        if (cells.length > 0 && cells.every((cell) => cell.tagName === "th") && wrote) header += 1;
      } else if (isHeader && !bodySeen) {
        header += wrote ? 1 : 0;
      } else if (wrote) {
        bodySeen = true;
      }
    }
    if (!writer.flatten) writer.headerRows = header; // 0 too: a table without header rows repeats none
  }

  *rows(table: Element): Generator<[string, Element]> {
    for (const child of table.childNodes) {
      if (!isElement(child)) continue;
      const tag = child.tagName;
      if (tag === "caption") {
        this.skip(child);
      } else if (tag === "thead" || tag === "tbody" || tag === "tfoot") {
        this.enter(child);
        for (const row of child.childNodes) {
          if (isElement(row) && row.tagName === "tr") yield [tag, row];
        }
        this.leave(child);
      } else if (tag === "tr") {
        yield ["tbody", child];
      } else if (tag === "colgroup" || tag === "col") {
        this.skip(child);
      }
    }
  }

  *cells(row: Element): Generator<Element> {
    for (const cell of row.childNodes) {
      if (isElement(cell) && (cell.tagName === "td" || cell.tagName === "th")) yield cell;
    }
  }
}

/** HTML-12: the page's first `main` element (or `role="main"`) whose start tag is in the markup. */
/** HTML-12: the first rendered `main` (or `role="main"`): its start tag in the markup,
 * neither it nor an element around it hidden, never text or furniture (HTML-5, HTML-11). */
function mainOf(document: Node, walk: Walk): Element | null {
  const chain: Element[] = [];
  const visit = (node: Node): Element | null => {
    for (const child of templateAware(node)) {
      if (!isElement(child)) continue;
      chain.push(child);
      const role = attr(child, "role");
      const isMain = child.tagName === "main" || (role !== undefined && lower(pyStrip(role)) === "main");
      if (isMain && location(child) !== null && !chain.some((e) => walk.hidden(e, e.tagName))) {
        return child;
      }
      const found = visit(child);
      chain.pop();
      if (found !== null) return found;
    }
    return null;
  };
  return visit(document);
}

/** HTML-15: markup that reads as a `meta` naming an access key, wherever it stands. */
const ACCESS_TAG = new RegExp(`<meta\\b[^>]*?\\bname\\s*=\\s*["']?\\s*(${ACCESS_KEYS.join("|")})\\b`, "giu");

// -- _page and _markup_map: the page read (HTML-1, HTML-18) ----------------------------------

/** One run of the text and the markup span it came from (HTML-18), code points. */
export interface HtmlSegment {
  text_start: number;
  text_end: number;
  markup_start: number;
  markup_end: number;
  exact: boolean;
}

/** A page as the reader made it; every offset counts code points, as Python's do. */
export interface HtmlPage {
  text: string;
  blocks: { kind: string; level: number; start: number; end: number; header_rows: number }[];
  segments: HtmlSegment[];
  title: string | null;
  meta: Record<string, string>;
  /** HTML-15: the access keys the page's `meta` names. */
  accessNames: string[];
  /** HTML-20: the text nodes not found in the markup. */
  unplaced: number;
}

/**
 * Read the page `markup` (HTML-1): parse it as a browser does (parse5, WHATWG) and render
 * its text, blocks, markup segments, title and metadata.
 */
export function readMarkup(markup: string, keepFurniture = false): HtmlPage {
  // Bad input is a TypeError naming the argument (as the Python reader's), never a page
  if (typeof markup !== "string") throw Object.assign(new TypeError("markup must be a str"), { argument: "markup" });
  if (typeof keepFurniture !== "boolean") {
    throw Object.assign(new TypeError("keep_furniture must be a bool"), { argument: "keep_furniture" });
  }
  const { walk, carriage, lone } = render(markup, keepFurniture);
  const text = walk.writer.finish();
  const utf16 = fault("html-utf16-offsets");
  const textAt = utf16 ? (i: number) => i : pointIndex(text);
  const markupAt = utf16 ? (i: number) => i : pointIndex(markup);
  const raw = (offset: number): number => {
    if (fault("html-crlf-offsets")) return offset;
    let lo = 0;
    let hi = carriage.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((carriage[mid] ?? 0) < offset) lo = mid + 1;
      else hi = mid;
    }
    return offset + lo;
  };
  // HTML-18: an exact run holding a CRLF or a lone CR of the file is three runs: before
  // it, the LF from the CRLF or CR (not exact), after it.
  const breaks = lone.length > 0 ? [...carriage, ...lone].sort((x, y) => x - y) : carriage;
  const seg = walk.writer.segments;
  const segments: HtmlSegment[] = [];
  const push = (a: number, b: number, s: number, e: number, exact: boolean): void => {
    segments.push({
      text_start: textAt(a), text_end: textAt(b), markup_start: markupAt(raw(s)), markup_end: markupAt(raw(e)), exact,
    });
  };
  seg.textStart.forEach((first, k) => {
    let a = first;
    const b = seg.textEnd[k] ?? a;
    let s = seg.markupStart[k] ?? 0;
    const e = seg.markupEnd[k] ?? 0;
    if (!seg.exact[k]) {
      push(a, b, s, e, false);
      return;
    }
    if (!fault("html-crlf-one-run")) {
      for (const c of breaks) {
        if (c < s || c >= e) continue;
        const at = a + c - s; // the LF's text offset
        if (at > a) push(a, at, s, c, true);
        push(at, at + 1, c, c + 1, false);
        a = at + 1;
        s = c + 1;
      }
    }
    if (a < b) push(a, b, s, e, true);
  });
  return {
    text,
    blocks: walk.writer.blocks.map((b) => ({
      kind: b.kind, level: b.level, start: textAt(b.start), end: textAt(b.end), header_rows: b.headerRows,
    })),
    segments,
    title: walk.title,
    meta: walk.meta,
    accessNames: [...walk.accessNames].sort(),
    unplaced: walk.unplaced,
  };
}

/**
 * A function mapping a UTF-16 index of `text` to its code-point offset (SOURCE-2): a low
 * surrogate counts only after a high one, so a lone surrogate is one code point, as in
 * Python (HAZ-4).
 */
function pointIndex(text: string): (index: number) => number {
  if (!/[\ud800-\udfff]/.test(text)) return (index) => index;
  const table = new Int32Array(text.length + 1);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const previous = i > 0 ? text.charCodeAt(i - 1) : 0;
    const pair = unit >= 0xdc00 && unit <= 0xdfff && previous >= 0xd800 && previous <= 0xdbff;
    table[i + 1] = (table[i] ?? 0) + (pair ? 0 : 1);
  }
  return (index) => table[index] ?? index;
}

/** A page for the chunkers: its text, blocks (UTF-16 offsets into the text), title, meta. */
export interface PageForChunks {
  text: string;
  blocks: HtmlBlock[];
  title: string | null;
  meta: Record<string, string>;
  /** HTML-15: the access keys the page's `meta` names. */
  accessNames: string[];
}

/** Read `markup` for the chunkers (HTML-3, HTML-8, HTML-13, HTML-14). */
export function pageBlocks(markup: string, keepFurniture = false): PageForChunks {
  const { walk } = render(markup, keepFurniture);
  const text = walk.writer.finish();
  return { text, blocks: walk.writer.blocks, title: walk.title, meta: walk.meta, accessNames: [...walk.accessNames].sort() };
}

/** Parse and walk `markup`: the walk done, and the CRLF positions of the normalized markup. */
function render(markup: string, keepFurniture: boolean): { walk: Walk; carriage: number[]; lone: number[] } {
  // HTML §13.2.3.5: CRLF and CR become LF before tokenizing; keep where each CRLF was.
  const carriage: number[] = []; // LFs that were CRLF (their CR removed)
  const lone: number[] = []; // LFs that were a lone CR (same length)
  let normal = markup;
  if (markup.includes("\r")) {
    let removed = 0;
    for (let at = markup.indexOf("\r"); at >= 0; at = markup.indexOf("\r", at + 1)) {
      if (markup.startsWith("\r\n", at)) {
        carriage.push(at - removed);
        removed += 1;
      } else {
        lone.push(at - removed);
      }
    }
    normal = markup.replace(/\r\n/g, "\n").replace(/\r/g, "\n");
  }
  // HTML-5: scripting on, as turbohtml is asked to parse (and as parse5 does by default): a
  // noscript's content is raw text, never the page's text, in the head or the body.
  const tree = parse(normal, { sourceCodeLocationInfo: true, scriptingEnabled: !fault("html-scripting-off") }) as unknown as Node;
  turbohtmlLocations(tree);
  const walk = new Walk(normal, keepFurniture);
  for (const node of iterElements(tree)) { // HTML-15: every meta, rendered or not
    if (node.tagName !== "meta") continue;
    const name = attr(node, "name");
    if (name !== undefined && ACCESS.has(lower(pyStrip(name)))) walk.accessNames.add(lower(pyStrip(name)));
  }
  for (const match of normal.matchAll(ACCESS_TAG)) walk.accessNames.add(lower(match[1] as string));
  const main = keepFurniture ? null : mainOf(tree, walk);
  if (main === null) {
    walk.flow(childrenOf(tree));
  } else { // HTML-12: the main landmark is the page's content; the rest is furniture
    for (const node of iterElements(tree)) {
      if (node.tagName === "html") walk.language(node);
      else if (node.tagName === "head") walk.head(node);
    }
    walk.cursor = location(main)?.startTag?.startOffset ?? 0;
    walk.flow([main]);
  }
  return { walk, carriage, lone };
}
