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

/** FM-1: the lines of the front matter's body (between its marker lines), or null; YAML? */
function frontMatterLines(source: string): [string[] | null, boolean] {
  const starts = [0];
  const ends: number[] = [];
  for (const match of source.matchAll(/\r\n|\r|\n/g)) {
    ends.push(match.index);
    starts.push(match.index + match[0].length);
  }
  ends.push(source.length);
  const end = frontMatterEnd(source, starts, ends);
  if (end === 0) return [null, false];
  const lines: string[] = [];
  for (let line = 1; line < starts.length && (starts[line + 1] ?? source.length) < end; line++) {
    lines.push(source.slice(starts[line] ?? 0, ends[line] ?? 0));
  }
  return [lines, source[0] === "-"];
}

/**
 * FM-3 and META-3: the top-level `key: value` (YAML) or `key = value` (TOML) scalar fields
 * of the front matter opening a Markdown `source`, the last of a repeated key winning; `{}`
 * when there is none. These are the metadata of every record of the document.
 */
export function frontMatterFields(source: string): Record<string, string> {
  const [lines, yaml] = frontMatterLines(source);
  const fields = new Map<string, string>();
  if (lines === null) return {};
  for (const text of lines) {
    if (!yaml && text.startsWith("[")) break; // a [table] header: later keys are not top-level
    const match = (yaml ? YAML_KEY : TOML_KEY).exec(text);
    if (match === null) continue;
    const value = scalar(match[2] ?? "", yaml);
    if (value !== null) fields.set(match[1] ?? "", value);
  }
  return Object.fromEntries([...fields].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * TRUST-3: the metadata keys that decide who may read a record (Python's
 * `_core/_access_keys.py`), in the order an error names them.
 */
export const ACCESS_KEYS = ["tenant_id", "acl_labels"] as const;
const TENANT_KEY = "tenant_id";
const LABELS_KEY = "acl_labels";

/** TRUST-3: YAML's and TOML's escapes. */
const ANY_ESCAPE = /\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|[\s\S])/g;
const SIMPLE: Record<string, string> = {
  "0": "\0", a: "\x07", b: "\b", t: "\t", "\t": "\t", n: "\n", v: "\v",
  f: "\f", r: "\r", e: "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\",
  N: "\x85", _: "\xa0", L: "\u2028", P: "\u2029",
};
/** TRUST-3: YAML node properties (an anchor `&a`, a tag `!t`) before a key. */
const PROPERTIES = /^(?:[&!][^ \t]*[ \t]+)+/;
/** TRUST-3: a plain `tenant_id` value every YAML parser reads as this same string. */
const SAFE_PLAIN = /^[A-Za-z_][A-Za-z0-9_.@/+-]*(?: [A-Za-z0-9_.@/+-]+)*$/;
const NOT_STRINGS = new Set(["null", "true", "false", "yes", "no", "on", "off", "y", "n"]);
const SINGLE_YAML_RAW = /^'(?:[^']|'')*'(?:[ \t]+#[\s\S]*|[ \t]*)$/;
const SINGLE_TOML_RAW = /^'[^']*'(?:[ \t]+#[\s\S]*|[ \t]*)$/;
/** TRUST-3: TOML: a bare or quoted key, dotted, then `=`; a `[table]` or `[[array]]` header. */
const TOML_PART = String.raw`(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\[\s\S])*"|'[^']*')`;
const TOML_PATH = String.raw`${TOML_PART}(?:[ \t]*\.[ \t]*${TOML_PART})*`;
const TOML_ANY_KEY = new RegExp(String.raw`^[ \t]*(${TOML_PATH})[ \t]*=([\s\S]*)$`);
const TOML_HEADER = new RegExp(String.raw`^[ \t]*\[\[?[ \t]*(${TOML_PATH})`);
const TOML_FIRST = new RegExp(`^${TOML_PART}`);

/** TRUST-3: `text` with YAML's and TOML's escapes read (an unknown escape kept). */
function decoded(text: string): string {
  return text.replace(ANY_ESCAPE, (whole: string, escape: string) => {
    if (escape.length > 1) return String.fromCodePoint(Math.min(parseInt(escape.slice(1), 16), 0x10ffff));
    return SIMPLE[escape] ?? whole;
  });
}

/** Leading spaces (YAML indents with spaces only). */
function spaces(line: string): number {
  return line.length - line.replace(/^ +/, "").length;
}

/** TRUST-3: `[key, plain, opaque]` of a YAML line at the top level's indentation (Python's `_yaml_key`). */
function yamlKey(content: string): [string | null, boolean, boolean] {
  let rest = content;
  let simple = true;
  let properties = PROPERTIES.exec(rest);
  if (properties !== null) {
    rest = rest.slice(properties[0].length);
    simple = false;
  }
  let explicit = false;
  if (rest[0] === "?" && (rest.length === 1 || rest[1] === " " || rest[1] === "\t")) {
    rest = rest.slice(1).replace(/^[ \t]+/, "");
    simple = false;
    properties = PROPERTIES.exec(rest);
    if (properties !== null) rest = rest.slice(properties[0].length);
    if (rest === "" || "|>[{*".includes(rest[0] ?? "")) return [null, false, true];
    explicit = true;
  }
  if (rest[0] === "*" || rest.startsWith("<<")) return [null, false, true];
  if (rest[0] === '"') {
    const end = /^"((?:[^"\\]|\\[\s\S])*)"/.exec(rest);
    if (end === null) return [null, false, explicit]; // an implicit key is one line
    const after = rest.slice(end[0].length).replace(/^[ \t]+/, "");
    if (explicit || after.startsWith(":")) return [decoded(end[1] ?? ""), false, false];
    return [null, false, false];
  }
  if (rest[0] === "'") {
    const end = /^'((?:[^']|'')*)'/.exec(rest);
    if (end === null) return [null, false, explicit];
    const after = rest.slice(end[0].length).replace(/^[ \t]+/, "");
    if (explicit || after.startsWith(":")) return [(end[1] ?? "").replace(/''/g, "'"), false, false];
    return [null, false, false];
  }
  const first = rest[0];
  if (first === undefined || "#,[]{}|>%@`".includes(first)) return [null, false, false];
  if ((first === "-" || first === ":") && (rest.length === 1 || rest[1] === " " || rest[1] === "\t")) {
    return [null, false, false]; // a list item, ...
  }
  const colon = /:(?:[ \t]|$)/.exec(rest);
  const comment = /[ \t]#/.exec(rest);
  if (colon !== null && (comment === null || colon.index < comment.index)) {
    return [rest.slice(0, colon.index).replace(/[ \t]+$/, ""), simple, false];
  }
  if (explicit) return [rest.replace(/[ \t]+$/, "").replace(COMMENT, "").replace(/[ \t]+$/, ""), false, false];
  return [null, false, false];
}

/** TRUST-3: `raw` is one string FM-3 and every YAML or TOML parser read alike (Python's `_safe_tenant`). */
function safeTenant(raw: string, yaml: boolean): boolean {
  const double = DOUBLE.exec(raw);
  if (double !== null) return !(double[1] ?? "").replace(/\\["\\]/g, "").includes("\\");
  if ((yaml ? SINGLE_YAML_RAW : SINGLE_TOML_RAW).test(raw)) return true;
  if (!yaml) return false; // TOML: an unquoted value is a number, a bool, a date, an array, ...
  const value = raw.replace(/[ \t]+$/, "").replace(COMMENT, "");
  return SAFE_PLAIN.test(value) && !NOT_STRINGS.has(value.toLowerCase());
}

/** TRUST-3: `tenant_id` is set once, by a bare column-0 line FM-3 read, safely. */
function tenantRead(lines: string[], found: Array<[number, boolean]>, yaml: boolean, fields: Record<string, string>): boolean {
  const only = found[0];
  if (found.length !== 1 || only === undefined || !only[1] || !(TENANT_KEY in fields)) return false;
  const line = lines[only[0]] ?? "";
  const separator = new RegExp(`^${TENANT_KEY}[ \\t]*[:=][ \\t]*`).exec(line);
  if (separator === null || !safeTenant(line.slice(separator[0].length), yaml)) return false;
  if (yaml) { // a more-indented line after it continues a plain value
    for (const after of lines.slice(only[0] + 1)) {
      if (after.replace(/[ \t]/g, "") === "") continue;
      return spaces(after) === 0 && !after.startsWith("\t");
    }
  }
  return true;
}

/**
 * TRUST-3 (Python's `unread_access_keys`): the access keys the front matter's `lines` set
 * as top-level keys in a form FM-3's `fields` do not hold as they need. `acl_labels` (a
 * list of strings, which FM-3 never reads) always; `tenant_id` unless set once by a bare
 * column-0 line FM-3 reads, with a value every parser reads as that string.
 */
function unreadAccessKeys(lines: string[], yaml: boolean, fields: Record<string, string>): string[] {
  const seen = new Map<string, Array<[number, boolean]>>(ACCESS_KEYS.map((key) => [key, []]));
  // TRUST-3: YAML 1.1 parsers also break lines at NEL, LS and PS, which FM-3's rule does not.
  let opaque = yaml && /[\u0085\u2028\u2029]/.test(lines.join("\n"));
  if (yaml) {
    let top: number | null = null;
    for (let number = 0; number < lines.length; number++) {
      const line = lines[number] ?? "";
      const content = line.replace(/^ +/, "");
      if (content.replace(/[ \t]/g, "") === "" || content.startsWith("#")) continue;
      if (top === null) {
        top = spaces(line);
        if (content.startsWith("{")) {
          opaque = true; // a flow mapping: its keys are not lines
          break;
        }
      }
      if (spaces(line) !== top && line[spaces(line)] !== "\t") continue;
      const [key, plain, unknown] = yamlKey(content.replace(/^[ \t]+/, ""));
      opaque = opaque || unknown;
      const list = key === null ? undefined : seen.get(key);
      if (list !== undefined && key !== null) list.push([number, plain && top === 0 && line.startsWith(key)]);
    }
  } else { // TOML: a header or a key line in any table counts
    for (let number = 0; number < lines.length; number++) {
      const line = lines[number] ?? "";
      const header = TOML_HEADER.exec(line);
      const found = header ?? TOML_ANY_KEY.exec(line);
      if (found === null) continue;
      const part = TOML_FIRST.exec(found[1] ?? "")?.[0] ?? "";
      const quoted = part[0] === '"' || part[0] === "'";
      const name = quoted ? decoded(part.slice(1, -1)) : part;
      const list = seen.get(name);
      if (list === undefined) continue;
      const bare = header === null && part === found[1] && line.startsWith(part) && !quoted;
      list.push([number, bare]);
    }
  }
  if (opaque) {
    const text = decoded(lines.join("\n"));
    return ACCESS_KEYS.filter((key) => text.includes(key));
  }
  const unread: string[] = [];
  const tenant = seen.get(TENANT_KEY) ?? [];
  if ((tenant.length > 0 || TENANT_KEY in fields) && !tenantRead(lines, tenant, yaml, fields)) unread.push(TENANT_KEY);
  if ((seen.get(LABELS_KEY) ?? []).length > 0 || LABELS_KEY in fields) unread.push(LABELS_KEY);
  return unread;
}

/** A document that cannot be read (Python's InputError, a ValueError): a RangeError. */
export class InputError extends RangeError {
  constructor(message: string) {
    super(message);
    this.name = "InputError";
  }
}

/**
 * TRUST-3: throw InputError when the front matter opening Markdown `source` sets an access
 * key in a form FM-3 cannot read as it needs and `caller` (the caller's metadata, META-3)
 * does not set that key; `name` names the document (its source, else its id).
 */
export function refuseUnreadAccessKeys(source: string, name: string, caller: Record<string, unknown> = {}): void {
  const [lines, yaml] = frontMatterLines(source);
  if (lines === null) return;
  for (const key of unreadAccessKeys(lines, yaml, frontMatterFields(source))) {
    if (caller[key] === undefined || caller[key] === null) { // a null sets nothing (TRUST-3)
      throw new InputError(
        `${name}: front matter sets access key '${key}' in a form chunkspec does not read ` +
        "(TRUST-3); give access labels as caller metadata (--metadata sidecar, metadata=)",
      );
    }
  }
}
