/**
 * Front matter (FM-1, FM-2): a YAML (`---`) or TOML (`+++`) block opening a Markdown text,
 * found by mdit-py-plugins' `front_matter` rule (markdown-it-front-matter's), which Python
 * quotes line by line; the blocks after it are parsed as if its lines were blank.
 */

/** markdown-it's tShift and sCount of `line`: leading spaces and tabs, and their columns. */
function indent(line: string): [number, number] {
  let shift = 0;
  let column = 0;
  for (const ch of line) {
    if (ch === " ") column += 1;
    else if (ch === "\t") column += 4 - (column % 4);
    else break;
    shift += 1;
  }
  return [shift, column];
}

/** Only spaces and tabs (markdown-it's skipSpaces to the line end). */
const SPACES = /^[ \t]*$/;

/** FM-1: `line` closes front matter opened by `count` `marker` characters. */
function closes(line: string, marker: string, count: number): boolean {
  const [shift, column] = indent(line);
  if (marker === "-" && column === 0 && line.startsWith("...") && SPACES.test(line.slice(3))) return true;
  const rest = line.slice(shift);
  if (rest[0] !== marker || column >= 4) return false;
  let run = 0;
  while (rest[run] === marker) run += 1;
  return run >= count && SPACES.test(rest.slice(run));
}

/** FM-1: where the text after the front matter opening `source` starts, or 0 when none. */
export function frontMatterEnd(source: string, starts: number[], ends: number[]): number {
  const marker = source[0];
  if (marker !== "-" && marker !== "+") return 0;
  const first = source.slice(0, ends[0] ?? 0);
  let count = 0;
  while (first[count] === marker) count += 1;
  if (count < 3) return 0;
  for (let line = 1; line < starts.length; line++) {
    if (closes(source.slice(starts[line] ?? 0, ends[line] ?? 0), marker, count)) {
      return starts[line + 1] ?? source.length;
    }
  }
  return 0; // FM-5: unclosed, so not front matter
}

/** FM-2: `source` with its front matter's characters, line breaks aside, made spaces. */
export function maskFrontMatter(source: string, starts: number[], ends: number[]): string {
  const end = frontMatterEnd(source, starts, ends);
  return end === 0 ? source : source.slice(0, end).replace(/[^\r\n]/g, " ") + source.slice(end);
}
