/** Content hashes identical to Python's `hash_text` (HASH-1). */

import { createHash } from "node:crypto";
import { fault } from "./faults.js";
import { requireStr, requireText } from "./validate.js";

/**
 * SHA-256 of the UTF-8 bytes as 64 lowercase hex digits. Node's UTF-8 encoder silently
 * turns a lone surrogate into U+FFFD, so we reject it first, as Python's encoder does.
 */
export function hashText(text: string): string {
  if (fault("hash-no-surrogate-check")) return createHash("sha256").update(requireStr("text", text), "utf8").digest("hex");
  if (fault("hash-nfc")) return createHash("sha256").update(requireText("text", text).normalize("NFC"), "utf8").digest("hex");
  if (fault("hash-utf16")) return createHash("sha256").update(requireText("text", text), "utf16le").digest("hex");
  return createHash("sha256").update(requireText("text", text), "utf8").digest("hex");
}
