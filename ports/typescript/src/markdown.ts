/**
 * Markdown to top-level blocks with exact offsets (MD-1 to MD-6), on markdown-it 14.1.0:
 * the JavaScript original that markdown-it-py 4.3.0 ports, with GFM tables and
 * markdown-it-deflist 2.0.3 (the version mdit-py-plugins' deflist ports), so block
 * structure agrees with Python's by construction. Offsets here are UTF-16 indexes of the
 * source; records convert them to code points (codepoints.ts, SOURCE-2).
 */

import MarkdownIt from "markdown-it";
import deflist from "markdown-it-deflist";
import { fault } from "./faults.js";
import { maskFrontMatter } from "./frontMatter.js";
import { isBlank, lstripLength, pyStrip } from "./whitespace.js";

export interface Block {
  kind: string;
  text: string;
  start: number;
  end: number;
  level: number;
  /** HTML-10: a page's table's header rows (MD-11's split repeats them; absent: two lines). */
  headerRows?: number;
}

/** Opening token types of top-level blocks and the block kind each becomes (MD-3). */
const KINDS: Record<string, string> = {
  heading_open: "heading", paragraph_open: "paragraph", bullet_list_open: "list",
  ordered_list_open: "list", table_open: "table", fence: "code", code_block: "code",
  blockquote_open: "quote", html_block: "html", dl_open: "definition", hr: "thematic_break",
};

let parser: MarkdownIt | undefined;

/** CommonMark + GFM tables + definition lists, block rules only (MD-1). */
function md(): MarkdownIt {
  if (parser === undefined) {
    parser = new MarkdownIt("commonmark").enable("table").use(deflist);
    parser.disable("inline");
  }
  return parser;
}

/** JavaScript's trim() set less U+FEFF: markdown-it-py 4.3.0's `mdTrim`. */
const MD_TRIM = /^[\t\n\v\f\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

/**
 * markdown-it's tokens, trimmed as markdown-it-py trims (HAZ-17). markdown-it's block rules
 * call String.prototype.trim() (heading and paragraph content, table rows and delimiter
 * cells); markdown-it-py 4.3.0 calls `mdTrim`, the same set less U+FEFF. So "# \uFEFF" is
 * an empty heading in JavaScript and a titled one in Python, and a "\uFEFF" line over
 * "|---|" a table header in JavaScript only. For the (synchronous) parse, trim() is
 * markdown-it-py's; it is restored before anything else runs.
 */
function parseAsPython(source: string): ReturnType<MarkdownIt["parse"]> {
  const trim = String.prototype.trim;
  if (fault("md-js-trim")) return md().parse(source, {});
  String.prototype.trim = function mdTrim(this: string): string {
    return String(this).replace(MD_TRIM, "");
  };
  try {
    return md().parse(source, {});
  } finally {
    String.prototype.trim = trim;
  }
}

/** MD-2: lines end at \r\n, \r or \n; returns [starts, ends] (terminators excluded). */
export function lineTable(text: string): [number[], number[]] {
  const starts = [0];
  const ends: number[] = [];
  const re = /\r\n|\r|\n/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    ends.push(m.index);
    starts.push(m.index + m[0].length);
  }
  ends.push(text.length);
  return [starts, ends];
}

/** The top-level blocks of `source` in order, each a region of `source` (MD-3, MD-4). */
export function parseMarkdownBlocks(text: string): Block[] {
  const [starts, ends] = lineTable(text);
  const source = maskFrontMatter(text, starts, ends); // FM-2: front matter gives no block
  const tokens = parseAsPython(source);
  const blocks: Block[] = [];
  let cursor = 0;
  const blank = (i: number): boolean => isBlank(source.slice(starts[i] ?? 0, ends[i] ?? 0));
  const gap = (upto: number): void => {
    // MD-6: lines markdown-it consumed without a token are `reference` blocks.
    let first = -1;
    for (let i = cursor; i <= upto; i++) {
      const b = i === upto || blank(i);
      if (b && first >= 0) {
        const s = starts[first] ?? 0;
        const e = ends[i - 1] ?? 0;
        blocks.push({ kind: "reference", text: source.slice(s, e), start: s, end: e, level: 0 });
        first = -1;
      } else if (!b && first < 0) {
        first = i;
      }
    }
  };
  tokens.forEach((token, index) => {
    if (token.level !== 0 || token.nesting < 0 || token.map === null) return;
    const kind = KINDS[token.type];
    if (kind === undefined) return;
    let first = Math.max(token.map[0], cursor);
    let last = Math.min(token.map[1], starts.length);
    if (first >= last) return;
    gap(first);
    cursor = last;
    if (kind === "heading") {
      blocks.push(heading(source, starts, ends, first, last, token.tag, tokens[index + 1]?.content ?? ""));
      return;
    }
    while (first < last && blank(first)) first++;
    while (last > first && blank(last - 1)) last--;
    if (first < last) {
      const s = starts[first] ?? 0;
      const e = ends[last - 1] ?? 0;
      if (fault("md-fence-hash-heading") && kind === "code") {
        blocks.push(...lineHeadings(source, starts, ends, first, last));
        return;
      }
      blocks.push({ kind, text: source.slice(s, e), start: s, end: e, level: 0 });
    }
  });
  gap(starts.length);
  return blocks;
}

/** The heading block whose title lies inside lines [first, last) (MD-4, MD-5). */
function heading(
  source: string, starts: number[], ends: number[], first: number, last: number, tag: string, content: string,
): Block {
  const level = Number(tag.slice(1));
  const regionStart = starts[first] ?? 0;
  const regionEnd = (last - first === 1 ? ends[last - 1] : ends[last - 2]) ?? 0;
  const found = source.slice(regionStart, regionEnd).indexOf(content);
  if (found >= 0) {
    const at = regionStart + found;
    return { kind: "heading", text: content, start: at, end: at + content.length, level };
  }
  // markdown-it normalised the title (\r\n to \n, NUL to U+FFFD): the trimmed raw lines.
  const raw = source.slice(regionStart, regionEnd);
  const at = regionStart + lstripLength(raw);
  const text = pyStrip(raw);
  return { kind: "heading", text, start: at, end: at + text.length, level };
}

/** The "md-fence-hash-heading" fault: heading line prefixes inside a code block (not MD-1). */
function lineHeadings(source: string, starts: number[], ends: number[], first: number, last: number): Block[] {
  const out: Block[] = [];
  let run = -1;
  const close = (upto: number): void => {
    if (run < 0) return;
    const s = starts[run] ?? 0;
    const e = ends[upto - 1] ?? 0;
    out.push({ kind: "code", text: source.slice(s, e), start: s, end: e, level: 0 });
    run = -1;
  };
  for (let i = first; i < last; i++) {
    const line = source.slice(starts[i] ?? 0, ends[i] ?? 0);
    if (/^#{1,6} \S/.test(line)) {
      close(i);
      const level = line.length - line.replace(/^#+/, "").length;
      const title = pyStrip(line.replace(/^[# ]+/, ""));
      const at = (starts[i] ?? 0) + line.indexOf(title);
      out.push({ kind: "heading", text: title, start: at, end: at + title.length, level });
    } else if (run < 0) {
      run = i;
    }
  }
  close(last);
  return out;
}
