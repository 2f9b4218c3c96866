/**
 * Stable chunk keys (KEY-1..KEY-3, docs/spec/incremental.md): a chunk named by its document,
 * the options' fingerprint, its heading path, its content hash and how many equal chunks of
 * that section came before it, never by its index. SHA-256 over fixed-width digests only,
 * with the same `hashText` every record's `content_hash` uses (HASH-1).
 */

import { fault } from "./faults.js";
import { hashText } from "./hashing.js";
import type { ChunkRecord } from "./record.js";

/** KEY-2: the key scheme's version, part of every key's fingerprint. */
export const KEY_SCHEME = "chunkspec-key/1";

/** The records of one call with `key` set, in order (KEY-3's occurrence numbers). */
export function withKeys(records: ChunkRecord[]): ChunkRecord[] {
  const seen = new Map<string, number>();
  const scheme = hashText(KEY_SCHEME);
  return records.map((record) => {
    const path = fault("key-path-joined")
      ? hashText(record.heading_path.join(" > "))
      : hashText(record.heading_path.map((heading) => hashText(heading)).join(""));
    const doc = hashText(record.doc_id);
    const same = doc + path + record.content_hash;
    const occurrence = fault("key-no-occurrence") ? 0 : (seen.get(same) ?? 0);
    seen.set(same, occurrence + 1);
    const fingerprint = scheme + hashText(record.strategy) + hashText(record.counter);
    const key = hashText(fingerprint + doc + path + record.content_hash + hashText(String(occurrence)));
    return { ...record, key };
  });
}
