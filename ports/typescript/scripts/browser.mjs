#!/usr/bin/env node
/**
 * The browser build (NPM-4): the shipped `dist/src` bundled with its dependencies
 * (markdown-it, markdown-it-deflist, zod) into one file per format, `node:crypto` replaced
 * by the pure SHA-256 of `dist/src/sha256.js`:
 *
 * - `dist/browser/chunkspec.js`: ESM, the package's `browser` export condition;
 * - `dist/browser/chunkspec.iife.js`: a classic script defining the global `chunkspec`, for
 *   a page opened from a file (browsers load no module from file: URLs).
 *
 * Run after `scripts/build.mjs ship`; any other `node:` import left in the bundle stops it.
 */

import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(ROOT, "dist", "browser");

function bundle(format, outfile) {
  buildSync({
    entryPoints: [join(ROOT, "dist", "src", "index.js")],
    bundle: true,
    platform: "browser",
    format,
    globalName: format === "iife" ? "chunkspec" : undefined,
    target: "es2022",
    outfile,
    alias: { "node:crypto": join(ROOT, "dist", "src", "sha256.js") },
    minify: true,
    legalComments: "inline",
    logLevel: "warning",
  });
  const code = readFileSync(outfile, "utf8");
  const left = code.match(/["'`]node:[a-z_]+["'`]|\brequire\(/);
  if (left !== null) throw new Error(`${outfile}: ${left[0]} left in the browser build`);
}

mkdirSync(OUT, { recursive: true });
bundle("esm", join(OUT, "chunkspec.js"));
bundle("iife", join(OUT, "chunkspec.iife.js"));
