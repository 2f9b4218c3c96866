/**
 * The tree-sitter grammars of the code strategy (CODE-1), for Node: web-tree-sitter and one
 * `.wasm` file a language, each from an npm package pinned in package.json and loaded from
 * node_modules. Nothing is downloaded at run time.
 *
 * The grammars are the ones the Python wheels compile (docs/conformance.md, "The TypeScript
 * port": same grammar version, same parse tables), so both sides parse a file into the same
 * tree; `scripts/compare-trees.py` checks that on real repositories. Where no grammar package
 * of the wheel's version ships a `.wasm` on npm (tree-sitter-rust 0.24.2: npm stops at
 * 0.24.0, whose external scanner differs), the file is the grammar's own release build,
 * carried by `@kerebron/wasm`.
 *
 * Node only (it reads files): the browser build does not include this module.
 */

import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { Language, Parser } from "web-tree-sitter";
import type { Tree } from "web-tree-sitter";

/** A language's grammar: the npm package that ships it and the file's path in it. */
export interface Grammar {
  readonly package: string;
  readonly file: string;
  /** The grammar release the Python side compiles (its wheel's version). */
  readonly version: string;
}

/** CODE-1: the nine languages, named as Python's `LANGUAGES` names them. */
export const GRAMMARS: Readonly<Record<string, Grammar>> = {
  python: { package: "tree-sitter-python", file: "tree-sitter-python.wasm", version: "0.25.0" },
  javascript: { package: "tree-sitter-javascript", file: "tree-sitter-javascript.wasm", version: "0.25.0" },
  typescript: { package: "tree-sitter-typescript", file: "tree-sitter-typescript.wasm", version: "0.23.2" },
  tsx: { package: "tree-sitter-typescript", file: "tree-sitter-tsx.wasm", version: "0.23.2" },
  go: { package: "tree-sitter-go", file: "tree-sitter-go.wasm", version: "0.25.0" },
  rust: { package: "@kerebron/wasm", file: "assets/tree-sitter-rust/tree-sitter-rust.wasm", version: "0.24.2" },
  java: { package: "tree-sitter-java", file: "tree-sitter-java.wasm", version: "0.23.5" },
  // npm's tree-sitter-c stops at 0.24.1; 0.24.2 changed only the version in its metadata
  // (parser.c is otherwise byte for byte the same).
  c: { package: "tree-sitter-c", file: "tree-sitter-c.wasm", version: "0.24.2" },
  cpp: { package: "tree-sitter-cpp", file: "tree-sitter-cpp.wasm", version: "0.23.4" },
};

const require = createRequire(import.meta.url);

/** The path of `grammar`'s `.wasm` in the nearest node_modules that has it, or null. Found by
 * walking Node's own search path: a package's `exports` may hide its files from `resolve`. */
export function grammarPath(grammar: Grammar): string | null {
  for (const folder of require.resolve.paths(grammar.package) ?? []) {
    const path = join(folder, grammar.package, grammar.file);
    if (existsSync(path)) return path;
  }
  return null;
}

let ready: Promise<void> | null = null;
const loaded = new Map<string, Language>();

/** Load web-tree-sitter and the grammars of `languages` (all by default); a language whose
 * package is not installed is left out (CODE-1: a file of it is chunked by the fallback). */
export async function loadGrammars(languages: readonly string[] = Object.keys(GRAMMARS)): Promise<void> {
  ready ??= Parser.init();
  await ready;
  for (const name of languages) {
    const grammar = GRAMMARS[name];
    if (grammar === undefined || loaded.has(name)) continue;
    const path = grammarPath(grammar);
    if (path !== null) loaded.set(name, await Language.load(path));
  }
}

const parsers = new Map<string, Parser>();

/** The parser of `language`, loaded by {@link loadGrammars}; null if it was not. One parser a
 * language, reused: a tree it returns must be freed with `tree.delete()` (wasm memory). */
export function parserFor(language: string): Parser | null {
  let parser = parsers.get(language);
  if (parser !== undefined) return parser;
  const grammar = loaded.get(language);
  if (grammar === undefined) return null;
  parser = new Parser();
  parser.setLanguage(grammar);
  parsers.set(language, parser);
  return parser;
}

/** Units a read hands web-tree-sitter: its buffer holds 5,119 UTF-16 units and it cuts a
 * longer string there, also between the two halves of a surrogate pair, which then lex as
 * two broken characters (an identifier with an astral letter ends early). */
const READ_UNITS = 4096;

/**
 * Parse `text` (CODE-1). web-tree-sitter reads a JS string as UTF-16, so tree offsets are
 * UTF-16 units (callers turn them into code points, PORT-2). It is read in pieces of at most
 * {@link READ_UNITS} units that never end between a high and a low surrogate.
 */
export function parseText(parser: Parser, text: string): Tree {
  const tree = parser.parse((index: number) => {
    if (index >= text.length) return "";
    let end = Math.min(index + READ_UNITS, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    return text.slice(index, end);
  });
  if (tree === null) throw new Error("tree-sitter returned no tree");
  return tree;
}

/** `text` parsed as `language` (code.ts's `ParseCode`), or null if its grammar is not loaded. */
export function parseCode(language: string, text: string): Tree | null {
  const parser = parserFor(language);
  return parser === null ? null : parseText(parser, text);
}

/** The languages {@link loadGrammars} has loaded. */
export function loadedLanguages(): string[] {
  return [...loaded.keys()];
}
