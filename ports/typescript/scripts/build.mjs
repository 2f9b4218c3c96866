#!/usr/bin/env node
/**
 * Two builds from one source (docs/conformance.md, "The TypeScript port"):
 *
 * - `dist-test/`: `tsc` over src/ and test/ as written. Deliberate faults stay switchable
 *   (src/faults.ts, catalogue faults.json); `dist-test/test/broken-adapter.js --break=NAME`
 *   enables one. Only the
 *   kit's own tests use it; it is never packed.
 * - `dist/src/`: what `npm pack` ships. Each src file is copied to a scratch folder with
 *   every `fault("NAME")` call replaced by `false` and its import of ./faults.js dropped
 *   (faults.ts itself is left out), compiled with `tsc` (types checked, `.d.ts` written), then
 *   each file's dead branches are removed by esbuild (`minifySyntax`, `treeShaking`), so the
 *   shipped code holds no fault and no way to enable one.
 *
 * Uniform: any `fault("...")` call site in any src file is handled, with no list to update;
 * a name not in faults.json, a catalogue entry no call site plants, or a use of the faults
 * module other than a `fault("...")` call stops the build.
 */

import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { transformSync } from "esbuild";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");
const SCRATCH = join(ROOT, ".ship");
const FAULT_CALL = /\bfault\(\s*"([^"\\]*)"\s*\)/g;
const FAULTS_IMPORT = /^import\s[^;]*?from\s+["']\.\/faults\.js["'];?[ \t]*\r?\n/gm;

/** The fault names of faults.json, the one catalogue of planted faults; a malformed entry
 * or a repeated name stops the build. */
export function faultNames() {
  const { faults } = JSON.parse(readFileSync(join(ROOT, "faults.json"), "utf8"));
  if (!Array.isArray(faults)) throw new Error("faults.json: no `faults` list");
  const names = new Set();
  for (const entry of faults) {
    const { name, ops, rule, related, description } = entry ?? {};
    const fine =
      typeof name === "string" && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(name) &&
      Array.isArray(ops) && ops.length > 0 && ops.every((op) => typeof op === "string") &&
      typeof rule === "string" && /^[A-Z]+-[0-9]+$/.test(rule) &&
      Array.isArray(related) && related.every((r) => typeof r === "string" && /^[A-Z]+-[0-9]+$/.test(r)) &&
      typeof description === "string" && description.length > 0;
    if (!fine) throw new Error(`faults.json: malformed entry ${JSON.stringify(entry)}`);
    if (names.has(name)) throw new Error(`faults.json: ${name} is listed twice`);
    names.add(name);
  }
  return names;
}

/** A source file without its faults: each `fault("NAME")` is `false`, the import is gone;
 * each name it uses is added to `used`. */
export function stripFaults(file, source, names, used = new Set()) {
  const out = source.replace(FAULTS_IMPORT, "").replace(FAULT_CALL, (_, name) => {
    if (!names.has(name)) throw new Error(`${file}: fault("${name}") is not in faults.json`);
    used.add(name);
    // `as boolean`: tsc keeps checking the branch with its narrowings (a bare `false` makes
    // it unreachable, where narrowing stops); the emitted JavaScript is a plain `false`.
    return "(false as boolean)";
  });
  return out; // any other use of the faults module fails to compile: it is not there
}

function tsc(project) {
  execFileSync(process.execPath, [TSC, "-p", project], { cwd: ROOT, stdio: "inherit" });
}

function buildTest() {
  rmSync(join(ROOT, "dist-test"), { recursive: true, force: true });
  tsc("tsconfig.json");
}

function buildShipped() {
  const names = faultNames();
  rmSync(SCRATCH, { recursive: true, force: true });
  rmSync(join(ROOT, "dist"), { recursive: true, force: true });
  mkdirSync(join(SCRATCH, "src"), { recursive: true });
  const used = new Set();
  for (const name of readdirSync(join(ROOT, "src"))) {
    if (!name.endsWith(".ts") || name === "faults.ts") continue;
    const source = readFileSync(join(ROOT, "src", name), "utf8");
    writeFileSync(join(SCRATCH, "src", name), stripFaults(`src/${name}`, source, names, used));
  }
  const unused = [...names].filter((name) => !used.has(name));
  if (unused.length !== 0) throw new Error(`faults.json: never planted: ${unused.join(", ")}`);
  writeFileSync(
    join(SCRATCH, "tsconfig.json"),
    JSON.stringify({
      extends: "../tsconfig.json",
      compilerOptions: { rootDir: ".", outDir: "out" },
      include: ["src/**/*.ts"],
    }),
  );
  tsc(join(SCRATCH, "tsconfig.json"));
  mkdirSync(join(ROOT, "dist", "src"), { recursive: true });
  for (const name of readdirSync(join(SCRATCH, "out", "src"))) {
    const from = join(SCRATCH, "out", "src", name);
    const to = join(ROOT, "dist", "src", name);
    if (name.endsWith(".d.ts")) {
      cpSync(from, to);
    } else if (name.endsWith(".js")) {
      const { code } = transformSync(readFileSync(from, "utf8"), {
        loader: "js",
        format: "esm",
        target: "es2022",
        minifySyntax: true, // `if (false) ...` and `false ? a : b` go
        treeShaking: true, // and so do helpers only a fault used
        legalComments: "none",
      });
      const left = code.match(/\bfault|--break|CHUNKSPEC_PORT_BREAK/i);
      if (left !== null) throw new Error(`dist/src/${name}: "${left[0]}" left in shipped code`);
      writeFileSync(to, code);
    }
  }
  rmSync(SCRATCH, { recursive: true, force: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const which = process.argv.slice(2);
  if (which.length === 0 || which.includes("test")) buildTest();
  if (which.length === 0 || which.includes("ship")) buildShipped();
}
