/**
 * One call's chunking options, checked in one place (OPT-1 to OPT-5), as Python's
 * `_chunkers/_options.py` `ChunkOptions` checks them, with its messages' wording: an error
 * names the option as the caller spelled it (`maxTokens`, `overlapTokens`, ...). What applies
 * to which strategy is read from the registry (`strategies.ts`).
 */

import { COUNTER_NAMES, type Counter } from "./counters.js";
import type { RecordOptions } from "./records.js";
import { type Flag, REGISTRY, STRATEGIES, type Strategy, strategiesWhere } from "./strategies.js";
import { ArgumentTypeError, ArgumentValueError, requireInt, requireOverlapBelow } from "./validate.js";

/** The counters this package computes (RECORD-5's names). */
const COUNTERS: readonly Counter[] = COUNTER_NAMES;

/**
 * The counter each strategy counts with when the call gives none (SCRIPT-35): `subword`, as
 * Python's `ChunkOptions` (`Strategy.default_counter`); this port has no `recursive` record
 * chunker, whose default is `whitespace` (seed 000's words, SCRIPT-7). `chunkDocument` (every
 * strategy), the conformance adapter and `chunkCode` read it.
 */
export const DEFAULT_COUNTERS: { readonly [name in Strategy | "code"]: Counter } = {
  heading: "subword", structural: "subword", window: "subword", pages: "subword", code: "subword",
};

/** The counter `strategy` counts with when none is given ({@link DEFAULT_COUNTERS}). */
export function defaultCounter(strategy: Strategy | "code"): Counter {
  return DEFAULT_COUNTERS[strategy];
}

/** `a`, `a and b`, `a, b and c`. */
function listed(names: readonly string[]): string {
  return names.length === 1 ? `${names[0]}` : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** A boolean option: false when not given. */
function flag(name: string, value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== "boolean") throw new ArgumentTypeError(name, "a bool", value);
  return value;
}

/**
 * The checked options of `given` (the options object's chunking options, any of them
 * absent): each defaults as Python's `ChunkOptions` does (OPT-1), `maxTokens` 512,
 * `overlapTokens` the strategy's default overlap (RECORD-13), `minTokens` SIZE-2's, the
 * counter the strategy's {@link defaultCounter} (SCRIPT-6 not yet applied). A bad option is an ArgumentTypeError or
 * ArgumentValueError naming it.
 */
export function checkOptions(given: { readonly [option: string]: unknown }): RecordOptions {
  const strategy = given["strategy"] === undefined ? "heading" : given["strategy"];
  // NPM-2: anything but the four names is a ValueError (Python: a str, then one of them)
  if (typeof strategy !== "string" || !(STRATEGIES as readonly string[]).includes(strategy)) {
    throw new ArgumentValueError("strategy", `must be one of ${[...STRATEGIES].sort().join(", ")}`, strategy);
  }
  const entry = REGISTRY[strategy as Strategy];
  const maxTokens = given["maxTokens"] === undefined ? 512 : requireInt("maxTokens", given["maxTokens"], 1);
  let overlap = entry.defaultOverlap === null ? null : entry.defaultOverlap(maxTokens);
  if (given["overlapTokens"] !== undefined) {
    if (entry.defaultOverlap === null) {
      const overlapping = strategiesWhere((e) => e.defaultOverlap !== null);
      throw new ArgumentValueError(
        "overlapTokens", `applies to ${listed(overlapping)}, not ${strategy} (CHUNK-6)`, given["overlapTokens"],
      );
    }
    overlap = requireInt("overlapTokens", given["overlapTokens"], 0);
    if (entry.overlapBelowBudget) requireOverlapBelow(maxTokens, overlap); // the chunker's own check
  }
  const flags: Record<Flag, boolean> = { countHeadings: false, splitTables: false };
  for (const name of ["countHeadings", "splitTables"] as const) {
    const value = flag(name, given[name]);
    const owners = strategiesWhere((e) => e.flags.includes(name));
    if (value && !owners.includes(entry.name)) {
      throw new ArgumentValueError(name, `applies to ${listed(owners)}, not ${strategy}`, value);
    }
    flags[name] = value;
  }
  const retrieval = strategiesWhere((e) => e.retrieval);
  let minTokens = entry.retrieval ? Math.min(64, Math.floor(maxTokens / 8)) : 0; // SIZE-2
  if (given["minTokens"] !== undefined) {
    minTokens = requireInt("minTokens", given["minTokens"], 0);
    if (minTokens > 0 && !entry.retrieval) {
      throw new ArgumentValueError("minTokens", `applies to ${listed(retrieval)}, not ${strategy} (SIZE-1)`, minTokens);
    }
    if (minTokens > maxTokens) throw new ArgumentValueError("minTokens", `must be <= maxTokens (${maxTokens})`, minTokens);
  }
  const budgetIncludesHeadings = flag("budgetIncludesHeadings", given["budgetIncludesHeadings"]);
  if (budgetIncludesHeadings && !entry.retrieval) {
    throw new ArgumentValueError(
      "budgetIncludesHeadings", `applies to ${listed(retrieval)}, not ${strategy} (SIZE-8)`, true,
    );
  }
  const counter = given["counter"] === undefined ? defaultCounter(entry.name) : given["counter"];
  if (typeof counter !== "string" || !(COUNTERS as readonly string[]).includes(counter)) { // NPM-2
    throw new ArgumentValueError("counter", `must be ${listed(COUNTERS).replace(" and ", " or ")}`, counter);
  }
  if (!entry.counters.includes(counter as Counter)) {
    const owners = strategiesWhere((e) => e.counters.includes(counter as Counter));
    throw new ArgumentValueError("counter", `${counter} applies to ${listed(owners)}, not ${strategy}`, counter);
  }
  return {
    strategy, maxTokens, overlap, minTokens, ...flags, budgetIncludesHeadings, counter: counter as Counter,
    pageNumbers: entry.pageNumbers,
  };
}
