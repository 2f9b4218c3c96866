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

/** FM-3: a top-level key (column 0): letters, digits, `_` and `-`; then YAML's `:` or TOML's `=`. */
const YAML_KEY = /^([A-Za-z0-9_-]+)[ \t]*:(?:[ \t]+([\s\S]*)|[ \t]*)$/;
const TOML_KEY = /^([A-Za-z0-9_-]+)[ \t]*=[ \t]*([\s\S]*)$/;
/** FM-3: an unquoted value ends before ` #` (a comment). */
const COMMENT = /[ \t]+#[\s\S]*$/;
/** FM-3: quoted values, a comment allowed after the closing quote; `\"` and `\\` unescaped. */
const DOUBLE = /^"((?:[^"\\]|\\[\s\S])*)"(?:[ \t]+#[\s\S]*|[ \t]*)$/;
const ESCAPE = /\\(["\\])/g;
const SINGLE_YAML = /^'((?:[^']|'')*)'(?:[ \t]+#[\s\S]*|[ \t]*)$/;
const SINGLE_TOML = /^'([^']*)'(?:[ \t]+#[\s\S]*|[ \t]*)$/;

/** FM-3: the string a one-line scalar value stands for; null for anything else. */
function scalar(raw: string, yaml: boolean): string | null {
  const quoted = DOUBLE.exec(raw);
  if (quoted !== null) return (quoted[1] ?? "").replace(ESCAPE, "$1");
  const single = (yaml ? SINGLE_YAML : SINGLE_TOML).exec(raw);
  if (single !== null) return yaml ? (single[1] ?? "").replace(/''/g, "'") : (single[1] ?? "");
  const value = raw.replace(/[ \t]+$/, "").replace(COMMENT, "");
  const first = value[0];
  if (first === undefined || "\"'#|>".includes(first) || (yaml && "&*!".includes(first))) return null;
  return value;
}

/**
 * FM-3 and META-3: the top-level `key: value` (YAML) or `key = value` (TOML) scalar fields
 * of the front matter opening a Markdown `source`, the last of a repeated key winning; `{}`
 * when there is none. These are the metadata of every record of the document.
 */
export function frontMatterFields(source: string): Record<string, string> {
  const starts = [0];
  const ends: number[] = [];
  for (const match of source.matchAll(/\r\n|\r|\n/g)) {
    ends.push(match.index);
    starts.push(match.index + match[0].length);
  }
  ends.push(source.length);
  const end = frontMatterEnd(source, starts, ends);
  const fields = new Map<string, string>();
  if (end === 0) return {};
  const yaml = source[0] === "-";
  for (let line = 1; line < starts.length && (starts[line + 1] ?? source.length) < end; line++) {
    const text = source.slice(starts[line] ?? 0, ends[line] ?? 0);
    if (!yaml && text.startsWith("[")) break; // a [table] header: later keys are not top-level
    const match = (yaml ? YAML_KEY : TOML_KEY).exec(text);
    if (match === null) continue;
    const value = scalar(match[2] ?? "", yaml);
    if (value !== null) fields.set(match[1] ?? "", value);
  }
  return Object.fromEntries([...fields].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
