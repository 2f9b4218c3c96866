/** Content hashes identical to Python's `hash_text` (HASH-1). */

import { createHash } from "node:crypto";
import { fault } from "./faults.js";
import { requireStr, requireText } from "./validate.js";

/**
 * SHA-256 of the UTF-8 bytes as 64 lowercase hex digits. Node's UTF-8 encoder silently
 * turns a lone surrogate into U+FFFD, so we reject it first, as Python's encoder does.
 */
export function hashText(text: string): string {
  if (fault("hash-no-type-check")) text = String(text);
  if (fault("hash-empty-skipped") && text === "") return "";
  if (fault("hash-trimmed")) return digest(requireText("text", text).trim(), "utf8");
  if (fault("hash-crlf-normalised")) return digest(requireText("text", text).replace(/\r\n/g, "\n"), "utf8");
  if (fault("hash-latin1")) return digest(requireText("text", text), "latin1");
  if (fault("hash-nfkc")) return digest(requireText("text", text).normalize("NFKC"), "utf8");
  if (fault("hash-uppercase-hex")) return digest(requireText("text", text), "utf8").toUpperCase();
  if (fault("hash-no-surrogate-check")) return createHash("sha256").update(requireStr("text", text), "utf8").digest("hex");
  if (fault("hash-nfc")) return createHash("sha256").update(requireText("text", text).normalize("NFC"), "utf8").digest("hex");
  if (fault("hash-utf16")) return createHash("sha256").update(requireText("text", text), "utf16le").digest("hex");
  return createHash("sha256").update(requireText("text", text), "utf8").digest("hex");
}

function digest(text: string, encoding: "utf8" | "latin1"): string {
  return createHash("sha256").update(text, encoding).digest("hex");
}
