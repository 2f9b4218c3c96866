/** Content hashes identical to Python's `hash_text` (HASH-1). */

import { createHash } from "node:crypto";
import { requireText } from "./validate.js";

/**
 * SHA-256 of the UTF-8 bytes as 64 lowercase hex digits. Node's UTF-8 encoder silently
 * turns a lone surrogate into U+FFFD, so we reject it first, as Python's encoder does.
 */
export function hashText(text: string): string {
  return createHash("sha256").update(requireText("text", text), "utf8").digest("hex");
}
