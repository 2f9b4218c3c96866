/**
 * Argument checks shared by every function: each throws an error naming the argument.
 *
 * Python's TypeError is a JavaScript TypeError and Python's ValueError a RangeError; both
 * carry `argument` (the Python-side name, e.g. `max_tokens` or `chunks[3].score`).
 */

/** 2**53 - 1: budgets, token counts and sizes are capped here in every port (PORT-1). */
export const MAX_SAFE_INTEGER = Number.MAX_SAFE_INTEGER;

/** A TypeError that names the argument. */
export class ArgumentTypeError extends TypeError {
  constructor(readonly argument: string, expected: string, value: unknown) {
    super(`${argument} must be ${expected}, got ${describe(value)}`);
    this.name = "ArgumentTypeError";
  }
}

/** A RangeError (Python's ValueError) that names the argument. */
export class ArgumentValueError extends RangeError {
  constructor(readonly argument: string, problem: string, value: unknown) {
    super(`${argument} ${problem}, got ${shown(value)}`);
    this.name = "ArgumentValueError";
  }
}

/** Python's `_errors.py` formats: `{argument} must be {expected}, got {type} {value}` and
 * `{argument} {problem}, got {value}`, the value shown in at most 80 characters. */
function describe(value: unknown): string {
  return `${value === null ? "null" : typeof value} ${shown(value)}`;
}

function shown(value: unknown): string {
  let text: string;
  try {
    text = typeof value === "string" ? JSON.stringify(value) : String(value);
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > 80 ? text.slice(0, 77) + "..." : text;
}

/** A string. */
export function requireStr(argument: string, value: unknown): string {
  if (typeof value !== "string") throw new ArgumentTypeError(argument, "a str", value);
  return value;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A string that is valid Unicode text (no lone surrogate), so UTF-8 can encode it. */
export function requireText(argument: string, value: unknown): string {
  const text = requireStr(argument, value);
  const found = LONE_SURROGATE.exec(text);
  if (found !== null) {
    const unit = text.charCodeAt(found.index).toString(16).toUpperCase();
    throw new ArgumentValueError(argument, `must not contain a lone surrogate (U+${unit})`, value);
  }
  return text;
}

/**
 * An integer in [minimum, 2**53 - 1]. JSON `-0.0` arrives as `-0`, which Python reads as a
 * float: it is rejected as not an integer, as Python rejects `-0.0` (PORT-1).
 */
export function requireInt(argument: string, value: unknown, minimum: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || Object.is(value, -0)) {
    throw new ArgumentTypeError(argument, "an int", value);
  }
  if (value < minimum) throw new ArgumentValueError(argument, `must be >= ${minimum}`, value);
  if (value > MAX_SAFE_INTEGER) throw new ArgumentValueError(argument, "must be <= 2**53 - 1", value);
  return value;
}

/**
 * WIN-3, CHUNK-6: an overlap below the budget, as Python's `ChunkOptions` and the window
 * and page chunkers refuse it (named as Python names it).
 */
export function requireOverlapBelow(maxTokens: number, overlap: number): void {
  if (overlap >= maxTokens) {
    throw new ArgumentValueError("overlap_tokens", `must be < max_tokens (${maxTokens})`, overlap);
  }
}

/** A number that is not NaN (infinities are allowed). */
export function requireReal(argument: string, value: unknown): number {
  if (typeof value !== "number") throw new ArgumentTypeError(argument, "a number", value);
  if (Number.isNaN(value)) throw new ArgumentValueError(argument, "must not be NaN", value);
  return value;
}

/** META-2: containers nest at most this deep (the object itself is depth 1). */
const MAX_METADATA_DEPTH = 32;

/** META-2: a JSON object of JSON values, frozen in sorted key order; errors name the place. */
export function requireMetadata(argument: string, value: unknown, depth = 1): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ArgumentTypeError(argument, "an object of JSON values", value);
  }
  if (depth > MAX_METADATA_DEPTH) throw new ArgumentValueError(argument, `nests deeper than ${MAX_METADATA_DEPTH}`, "...");
  const entries = Object.keys(value).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.freeze(Object.fromEntries(entries.map((key) => {
    requireText(`${argument} key`, key);
    return [key, jsonValue(`${argument}[${JSON.stringify(key)}]`, (value as Record<string, unknown>)[key], depth)];
  })));
}

function jsonValue(argument: string, value: unknown, depth: number): unknown {
  if (value === null || typeof value === "boolean") return value;
  if (typeof value === "string") return requireText(argument, value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new ArgumentValueError(argument, "must be a finite number", value);
    if (Number.isInteger(value) && Math.abs(value) > MAX_SAFE_INTEGER) {
      throw new ArgumentValueError(argument, "must be in [-(2**53 - 1), 2**53 - 1]", value);
    }
    return value;
  }
  if (Array.isArray(value)) {
    if (depth + 1 > MAX_METADATA_DEPTH) throw new ArgumentValueError(argument, `nests deeper than ${MAX_METADATA_DEPTH}`, "...");
    return Object.freeze(value.map((item, i) => jsonValue(`${argument}[${i}]`, item, depth + 1)));
  }
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return requireMetadata(argument, value, depth + 1);
  }
  throw new ArgumentTypeError(argument, "a JSON value (string, number, boolean, null, array or object)", value);
}
