/**
 * RECORD-12: the heading path of a `window` or `pages` chunk is the path of the last heading
 * whose line starts at or before the chunk's start, by MD-7's stack: Python's `_Headings` in
 * `_records/_chunk_document.py`, line for line. A heading starts where its line starts (its
 * `#` marker, or a setext title's first line), not where its title does: a window that
 * begins with `## Install` is in the Install section.
 */

import { bisectRight } from "./bisect.js";
import { utf16Index } from "./codepoints.js";
import { fault } from "./faults.js";
import type { Block } from "./markdown.js";
import type { Span } from "./span.js";
import { isSpace } from "./whitespace.js";

/** Python's `str.isspace()`: not empty and only Python whitespace. */
function pyIsSpace(text: string): boolean {
  if (text === "") return false;
  for (const ch of text) if (!isSpace(ch)) return false;
  return true;
}

/** The start of the line holding `source[offset]`, not looking back before `floor`. */
function lineAt(source: string, offset: number, floor: number): number {
  let found = -1;
  if (offset > floor) {
    found = Math.max(source.lastIndexOf("\n", offset - 1), source.lastIndexOf("\r", offset - 1));
    if (found < floor) found = -1;
  }
  return found >= 0 ? found + 1 : floor;
}

/** The columns of a line's leading spaces and tabs (a tab to the next multiple of 4). */
function indent(line: string): number {
  let column = 0;
  for (const ch of line) {
    if (ch === " ") column += 1;
    else if (ch === "\t") column += 4 - (column % 4);
    else break;
  }
  return column;
}

/**
 * CommonMark's ATX opening sequence: up to three spaces, 1 to 6 `#`, then a space, a tab or
 * the line's end. A setext title's line never matches (it would be an ATX heading).
 */
const ATX_OPENER = / {0,3}#{1,6}(?:[ \t\r\n]|$)/y;

/**
 * Where the heading whose title starts at `source[offset]` starts (MD-2 line), given that it
 * is not before `floor`: the title's own line, except for a setext heading whose paragraph
 * opens with lines of Unicode whitespace that are not blank to CommonMark (markdown-it's map).
 */
function lineStart(source: string, offset: number, floor: number): number {
  if (offset < floor) floor = 0;
  let start = lineAt(source, offset, floor);
  ATX_OPENER.lastIndex = start;
  if (ATX_OPENER.test(source)) return start; // an ATX heading is its one line (an empty title too)
  if (!(pyIsSpace(source.slice(start, offset)) || start === offset)) return start;
  let opening = start;
  while (start > floor) {
    const end = source.startsWith("\r\n", start - 2) ? start - 2 : start - 1;
    const before = lineAt(source, end, floor);
    const line = source.slice(before, end);
    if (!(pyIsSpace(line) && line.replace(/^[ \t]+|[ \t]+$/g, "") !== "")) break;
    start = before;
    if (indent(line) < 4) opening = start;
  }
  return opening;
}

/**
 * `spans` (offsets in code points of `source`) with RECORD-12's heading paths from `blocks`
 * (UTF-16 offsets into `source`: the document's Markdown blocks, or a page's, HTML-8).
 */
export function withHeadingPaths(source: string, blocks: readonly Block[], spans: Span[]): Span[] {
  const titles: number[] = [];
  const paths: string[][] = [];
  const stack: Array<[number, string[]]> = [];
  for (const block of blocks) {
    if (block.kind !== "heading") continue;
    while (stack.length > 0 && (stack[stack.length - 1]?.[0] ?? 0) >= block.level) stack.pop();
    const here = [...(stack[stack.length - 1]?.[1] ?? []), block.text];
    stack.push([block.level, here]);
    titles.push(block.start);
    paths.push(here);
  }
  if (titles.length === 0) return spans;
  const lines = titles.map(() => -1); // each heading's line start, once looked up
  const at = utf16Index(source);
  return spans.map((span) => {
    const offset = at(span.start);
    let i = bisectRight(titles, offset);
    if (i < titles.length && !fault("doc-heading-title-start")) {
      // the next heading: its marker may start at or before the offset
      let line = lines[i] ?? -1;
      if (line < 0) {
        line = lineStart(source, titles[i] ?? 0, i > 0 ? (titles[i - 1] ?? 0) : 0);
        lines[i] = line;
      }
      if (line <= offset) i += 1;
    }
    return { ...span, headingPath: i > 0 ? (paths[i - 1] ?? []) : [] };
  });
}
