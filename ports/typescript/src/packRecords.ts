/**
 * `packRecords`: Python's `pack_records` (docs/spec/context.md, CTX-1..CTX-21): scored chunk
 * records packed into a budget as cited passages, overlapping records of one document merged
 * (their shared text once), the whole rendered context counted, access labels checked.
 *
 * Offsets are code points (as every record's), so every span operation here works on arrays
 * of code points, never on UTF-16 indexes. Counters: `whitespace`, `unicode`, `subword` and `chars{N}`
 * only, the port's counter scope (CTX-20); another name is a ValueError naming `counter`.
 */

import { compareCodePoints } from "./assemble.js";
import type { ChunkRecord, JsonValue } from "./record.js";
import { ArgumentTypeError, ArgumentValueError, requireInt, requireReal } from "./validate.js";
import { fault } from "./faults.js";
import { subwordCount } from "./subwords.js";
import { countUnits } from "./units.js";
import { countWords, isSpace } from "./whitespace.js";

/** The reader a context is packed for (CTX-13). */
export interface Principal {
  labels: Iterable<string>;
  tenant?: string | null;
}

export interface PackOptions {
  minScore?: number;
  counter?: string | null;
  order?: "reading" | "score";
  principal?: Principal | null;
  titles?: boolean;
  expand?: number | null;
  trim?: boolean;
}

export interface Citation {
  doc_id: string;
  source: string;
  title: string;
  start: number;
  end: number;
  page_start: number | null;
  page_end: number | null;
  heading_path: string[];
  record_ids: string[];
  score: number;
  trimmed: boolean;
}

/** `PackedContext.to_dict()`'s JSON (CTX-11). */
export interface PackedContext {
  context: string;
  tokens: number;
  budget: number;
  counter: string;
  order: string;
  withheld: number;
  unreadable_labels: string[];
  titles: boolean;
  citations: { [key: string]: Citation };
}

interface Open {
  docId: string;
  start: number;
  end: number;
  prefix: string;
  body: string[]; // code points of source[start:end]; a non-verbatim record's whole text
  verbatim: boolean;
  first: number;
  score: number;
  members: number[];
}

const ORDERS = ["reading", "score"];

/** Pack `records` (scored by `scores`) into `budget` tokens of rendered context. */
export function packRecords(
  records: ChunkRecord[],
  scores: number[],
  budget: number,
  options: PackOptions = {},
): PackedContext {
  if (!Array.isArray(records)) throw new ArgumentTypeError("records", "an iterable of ChunkRecord", records);
  records.forEach((r, i) => {
    if (r === null || typeof r !== "object" || typeof r.id !== "string") {
      throw new ArgumentTypeError(`records[${i}]`, "a ChunkRecord", r);
    }
  });
  if (!Array.isArray(scores)) throw new ArgumentTypeError("scores", "an iterable of numbers", scores);
  const values = scores.map((s, i) => requireReal(`scores[${i}]`, s));
  if (values.length !== records.length) {
    throw new ArgumentValueError("scores", `must hold one score per record (${records.length})`, values.length);
  }
  requireInt("budget", budget, 0);
  const minScore = requireReal("min_score", options.minScore ?? 0.35);
  const order = options.order ?? "reading";
  if (!ORDERS.includes(order)) throw new ArgumentValueError("order", "must be one of reading, score", order);
  const principal = options.principal ?? null;
  if (principal !== null && (typeof principal !== "object" || !(Symbol.iterator in Object(principal.labels)))) {
    throw new ArgumentTypeError("principal", "a Principal or None", principal);
  }
  const titles = options.titles ?? fault("pack-titles-by-default"); // CTX-17, CTX-20: the key alone by default
  if (typeof titles !== "boolean") throw new ArgumentTypeError("titles", "a bool", titles);
  let trim = options.trim ?? !fault("pack-no-trim-by-default"); // CTX-19, CTX-20: trimming on by default
  if (typeof trim !== "boolean") throw new ArgumentTypeError("trim", "a bool", trim);
  const expand = options.expand ?? null;
  if (expand !== null) {
    requireReal("expand", expand);
    if (!(expand > 0 && expand <= 1)) throw new ArgumentValueError("expand", "must be in (0, 1] or None", expand);
  }
  // TRUST-10: a record whose labels cannot be read is withheld from every reader, and named.
  const unreadable: string[] = [];
  const allowed = records.map((r, i) => {
    try {
      return readable(`records[${i}].metadata`, r.metadata ?? {}, principal);
    } catch (error) {
      if (!(error instanceof ArgumentTypeError)) throw error;
      if (fault("pack-unreadable-labels-as-none")) return true; // the fail-open reading
      unreadable.push(r.id);
      return false;
    }
  });
  const visible = records.map((r, i) => [i, r] as [number, ChunkRecord]).filter(([i]) => allowed[i]);
  const [count, name] = counterOf(options.counter ?? null, visible);
  checkDocuments(visible);

  const ranks = records.map((_, i) => i).sort((a, b) => {
    if (values[a]! !== values[b]!) return values[a]! > values[b]! ? -1 : 1; // CTX-6
    return compareCodePoints(records[a]!.id, records[b]!.id);
  });
  const sections = expand === null ? new Map<string, number[]>() : sectionsOf(visible);
  const tried = new Set<string>();
  let passages: Open[] = [];
  const hashes = new Set<string>();
  let text = "";
  let tokens = 0;
  for (let rank = 0; rank < ranks.length; rank++) {
    const i = ranks[rank]!;
    if (fault("pack-min-score-le") ? values[i]! <= minScore : values[i]! < minScore) break; // CTX-6
    const record = records[i]!;
    if (!allowed[i] || (hashes.has(record.content_hash) && !fault("pack-duplicates-kept"))) continue;
    let trial = place(passages, record, i, rank, values[i]!);
    if (trial === null) continue;
    const rendered = render(layout(trial, order), records, titles);
    if (rendered !== text) {
      const counted = count(rendered);
      // The "pack-budget-ignores-headers" fault: the budget counts the passages' texts only.
      const cost = fault("pack-budget-ignores-headers") ? trial.reduce((n, p) => n + count(passageText(p)), 0) : counted;
      if (cost > budget) {
        const last = trial[trial.length - 1]!;
        if (!trim || last.members.length !== 1 || last.members[0] !== i || !last.verbatim) continue;
        trim = fault("pack-trim-twice"); // CTX-19: one trimmed passage a context
        const cut = trimmed(trial, order, records, titles, count, budget);
        if (cut === null) continue;
        [trial, text, tokens] = cut;
      } else {
        text = rendered;
        tokens = counted;
      }
    }
    passages = trial;
    hashes.add(record.content_hash);
    if (expand === null || record.heading_path.length === 0) continue;
    const key = JSON.stringify([record.doc_id, record.heading_path]);
    const members = sections.get(key);
    if (members === undefined || tried.has(key)) continue;
    const packed = new Set(passages.flatMap((p) => p.members));
    const have = members.filter((m) => packed.has(m)).length;
    if (have < Math.max(2, Math.ceil(expand * members.length))) continue;
    tried.add(key); // CTX-18
    let grown = passages;
    const added = new Set(hashes);
    for (const m of members) {
      if (packed.has(m) || added.has(records[m]!.content_hash)) continue;
      const step = place(grown, records[m]!, m, rank, values[m]!);
      if (step !== null) {
        grown = step;
        added.add(records[m]!.content_hash);
      }
    }
    if (grown === passages) continue;
    const wider = render(layout(grown, order), records, titles);
    if (wider === text) {
      passages = grown;
      added.forEach((h) => hashes.add(h));
      continue;
    }
    const counted = count(wider);
    if (counted <= budget) {
      passages = grown;
      added.forEach((h) => hashes.add(h));
      text = wider;
      tokens = counted;
    }
  }
  const citations: { [key: string]: Citation } = {};
  layout(passages, order).forEach((p, n) => {
    citations[String(fault("pack-keys-from-zero") ? n : n + 1)] = citation(p, records);
  });
  return {
    context: text,
    tokens,
    budget,
    counter: name,
    order,
    withheld: fault("pack-withheld-above-min-score")
      ? allowed.filter((ok, i) => !ok && values[i]! >= minScore).length
      : allowed.filter((ok) => !ok).length,
    unreadable_labels: unreadable,
    titles,
    citations,
  };
}

/** CTX-13: may `principal` read a record whose metadata is `labels`? */
export function readable(argument: string, labels: { [key: string]: JsonValue }, principal: Principal | null): boolean {
  const tenant = labels["tenant_id"] ?? null;
  if (tenant !== null && typeof tenant !== "string") {
    throw new ArgumentTypeError(`${argument}['tenant_id']`, "a str or None", tenant);
  }
  const wanted = labels["acl_labels"] ?? null;
  let needed: string[] = [];
  if (wanted !== null) {
    if (!Array.isArray(wanted) || !wanted.every((label) => typeof label === "string")) {
      throw new ArgumentTypeError(`${argument}['acl_labels']`, "a list of str", wanted);
    }
    needed = wanted as string[];
  }
  if (tenant === null && needed.length === 0) return true;
  if (principal === null) return fault("pack-labels-read-without-principal"); // default deny
  if (tenant !== null && (principal.tenant ?? null) !== tenant) return false;
  const held = new Set(principal.labels);
  return needed.every((label) => held.has(label));
}

function verbatim(record: ChunkRecord): boolean {
  return record.strategy.split(":")[0] !== "recursive";
}

function codePoints(text: string): string[] {
  return Array.from(text);
}

function sourceOf(record: ChunkRecord): string[] {
  return codePoints(record.text).slice(codePoints(record.prefix).length);
}

function counterOf(counter: string | null, visible: Array<[number, ChunkRecord]>): [(text: string) => number, string] {
  let name = counter;
  if (name === null) {
    const first = visible[0];
    if (first === undefined) {
      name = "whitespace";
    } else {
      // CTX-8: SCRIPT-6's default gives whitespace and unicode records; one measure, unicode.
      const names = new Set(visible.map(([, r]) => r.counter));
      const mixed = names.size === 2 && names.has("whitespace") && names.has("unicode");
      const other = visible.find(([, r]) => r.counter !== first[1].counter);
      if (mixed) {
        name = "unicode";
      } else if (other !== undefined) {
        throw new ArgumentValueError(`records[${other[0]}].counter`, `differs from records[${first[0]}]'s`, other[1].counter);
      } else {
        name = first[1].counter;
      }
    }
  }
  if (name === "whitespace") return [countWords, name];
  if (name === "unicode") return [countUnits, name];
  if (name === "subword") return [subwordCount, name]; // COUNT-12
  const chars = /^chars([0-9]+)$/.exec(name);
  if (chars !== null && Number(chars[1]) >= 1) {
    const size = Number(chars[1]);
    return [(text: string) => Math.ceil(codePoints(text).length / size), name];
  }
  throw new ArgumentValueError("counter", "must be whitespace, unicode, subword or chars{N} in this port", name);
}

/** TRUST-12: readable records of one document name one source; CTX-4: verbatim ones agree. */
function checkDocuments(visible: Array<[number, ChunkRecord]>): void {
  const firstOf = new Map<string, ChunkRecord>();
  for (const [index, record] of visible) {
    const other = firstOf.get(record.doc_id);
    if (other === undefined) {
      firstOf.set(record.doc_id, record);
    } else if (other.source !== record.source) {
      throw new ArgumentValueError(
        `records[${index}].source`,
        `(record ${JSON.stringify(record.id)}) differs from source ${JSON.stringify(other.source)} of record ${JSON.stringify(other.id)}, ` +
          `both of document ${JSON.stringify(record.doc_id)}: one document has one source (TRUST-12)`,
        record.source,
      );
    }
  }
  const byDoc = new Map<string, Array<[number, ChunkRecord]>>();
  for (const [index, record] of visible) {
    if (!verbatim(record)) continue;
    if (sourceOf(record).length !== record.end - record.start) {
      throw new ArgumentValueError(`records[${index}].text`, `is not prefix + source[${record.start}:${record.end}]`, record.text);
    }
    const list = byDoc.get(record.doc_id) ?? [];
    list.push([index, record]);
    byDoc.set(record.doc_id, list);
  }
  for (const list of byDoc.values()) {
    list.sort((a, b) => a[1].start - b[1].start || a[1].end - b[1].end);
    let start = -1;
    let body: string[] = [];
    for (const [n, [index, record]] of list.entries()) {
      const mine = sourceOf(record);
      const end = start + body.length;
      if (start < 0 || record.start > end) {
        start = record.start;
        body = mine;
        continue;
      }
      const shared = Math.min(end, record.end) - record.start;
      for (let k = 0; k < shared; k++) {
        if (body[record.start - start + k] !== mine[k]) {
          const other = disagreeing(record, list.slice(0, n).map(([, r]) => r));
          throw new ArgumentValueError(
            `records[${index}].text`,
            `(record ${JSON.stringify(record.id)}, source ${JSON.stringify(record.source)}) disagrees with record ${JSON.stringify(other.id)} ` +
              `(source ${JSON.stringify(other.source)}) of document ${JSON.stringify(record.doc_id)} where their spans overlap: ` +
              "one document has one text (CTX-4, TRUST-12)",
            record.text,
          );
        }
      }
      if (record.end > end) body = body.concat(mine.slice(end - record.start));
    }
  }
}

/** The earlier record whose text differs from `record`'s at a shared offset. */
function disagreeing(record: ChunkRecord, earlier: ChunkRecord[]): ChunkRecord {
  const mine = sourceOf(record);
  for (const other of earlier) {
    const theirs = sourceOf(other);
    for (let at = Math.max(record.start, other.start); at < Math.min(record.end, other.end); at++) {
      if (mine[at - record.start] !== theirs[at - other.start]) return other;
    }
  }
  return earlier[earlier.length - 1]!;
}

function place(passages: Open[], record: ChunkRecord, index: number, rank: number, score: number): Open[] | null {
  const mine = verbatim(record);
  const near: Open[] = [];
  for (const p of passages) {
    if (p.docId !== record.doc_id) continue;
    if (p.start < record.end && record.start < p.end) {
      if (!(mine && p.verbatim)) return null; // CTX-4
      near.push(p);
    } else if (mine && p.verbatim && p.start <= record.end && record.start <= p.end && !fault("pack-touching-apart")) {
      near.push(p); // CTX-2: touching
    }
  }
  const body = mine ? sourceOf(record) : codePoints(record.text);
  const pieces: Array<[number, number, string, string[]]> = near.map((p) => [p.start, 0, p.prefix, p.body]);
  pieces.push([record.start, 1, record.prefix, body]);
  pieces.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const opening = pieces[0]!;
  const start = opening[0];
  const prefix = opening[2];
  let text = opening[3].slice();
  for (const [at, , , more] of pieces.slice(1)) {
    const covered = start + text.length;
    if (fault("pack-shared-text-twice") && at < covered) text = text.concat(more);
    else if (at + more.length > covered) text = text.concat(more.slice(covered - at));
  }
  const merged: Open = {
    docId: record.doc_id,
    start,
    end: mine ? start + text.length : record.end,
    prefix,
    body: text,
    verbatim: mine,
    first: Math.min(rank, ...near.map((p) => p.first)),
    score: Math.max(score, ...near.map((p) => p.score)),
    members: Array.from(new Set([index, ...near.flatMap((p) => p.members)])).sort((a, b) => a - b),
  };
  return passages.filter((p) => !near.includes(p)).concat([merged]);
}

function layout(passages: Open[], order: string): Open[] {
  if (order === "score" || fault("pack-reading-as-score")) return passages.slice().sort((a, b) => a.first - b.first);
  const first = new Map<string, number>();
  for (const p of passages) first.set(p.docId, Math.min(first.get(p.docId) ?? p.first, p.first));
  return passages
    .slice()
    .sort((a, b) => first.get(a.docId)! - first.get(b.docId)! || a.start - b.start || a.first - b.first);
}

function headingPath(p: Open, records: ChunkRecord[]): string[] {
  const paths = p.members.map((m) => records[m]!.heading_path);
  let common = paths[0]!;
  for (const path of paths.slice(1)) {
    let n = 0;
    while (n < Math.min(common.length, path.length) && common[n] === path[n]) n++;
    common = common.slice(0, n);
  }
  return common;
}

function firstRecord(p: Open, records: ChunkRecord[]): ChunkRecord {
  return p.members
    .map((m) => records[m]!)
    .sort((a, b) => a.start - b.start || a.index - b.index || compareCodePoints(a.id, b.id))[0]!;
}

function label(title: string, path: string[]): string {
  const rest = path.length > 0 && path[0] === title ? path.slice(1) : path;
  return [title, ...rest].join(" > ");
}

function passageText(p: Open): string {
  return (p.verbatim ? p.prefix : "") + p.body.join("");
}

function render(passages: Open[], records: ChunkRecord[], titles: boolean): string {
  return passages
    .map((p, n) => {
      const head = titles ? `[${n + 1}] ${label(firstRecord(p, records).title, headingPath(p, records))}` : `[${n + 1}]`;
      return `${head}\n${passageText(p)}`;
    })
    .join("\n\n");
}

function trimmed(
  trial: Open[],
  order: string,
  records: ChunkRecord[],
  titles: boolean,
  count: (text: string) => number,
  budget: number,
): [Open[], string, number] | null {
  const last = trial[trial.length - 1]!;
  const ends: number[] = [];
  for (let k = 1; k < last.body.length; k++) {
    if (!isSpace(last.body[k - 1]!) && isSpace(last.body[k]!)) ends.push(k); // CTX-19: word ends
  }
  const attempt = (k: number): [Open[], string, number] | null => {
    const at = ends[k]!;
    const cut: Open = { ...last, end: last.start + at, body: last.body.slice(0, at) };
    const passages = trial.slice(0, -1).concat([cut]);
    const rendered = render(layout(passages, order), records, titles);
    const counted = count(rendered);
    return counted <= budget ? [passages, rendered, counted] : null;
  };
  let best: [Open[], string, number] | null = null;
  let low = -1;
  let high = ends.length;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    const found = attempt(middle);
    if (found === null) {
      high = middle;
    } else {
      low = middle;
      best = found;
    }
  }
  return best;
}

function sectionsOf(visible: Array<[number, ChunkRecord]>): Map<string, number[]> {
  const sections = new Map<string, number[]>();
  const byIndex = new Map(visible);
  for (const [index, record] of visible) {
    if (record.heading_path.length === 0) continue;
    const key = JSON.stringify([record.doc_id, record.heading_path]);
    const list = sections.get(key) ?? [];
    list.push(index);
    sections.set(key, list);
  }
  for (const list of sections.values()) {
    list.sort((a, b) => {
      const x = byIndex.get(a)!;
      const y = byIndex.get(b)!;
      return x.start - y.start || x.end - y.end || x.index - y.index || a - b;
    });
  }
  return sections;
}

function citation(p: Open, records: ChunkRecord[]): Citation {
  const members = p.members
    .map((m) => records[m]!)
    .sort((a, b) => a.start - b.start || a.end - b.end || compareCodePoints(a.id, b.id));
  const first = firstRecord(p, records);
  const starts = members.map((r) => r.page_start).filter((x): x is number => x !== null);
  const ends = members.map((r) => r.page_end).filter((x): x is number => x !== null);
  return {
    doc_id: p.docId,
    source: first.source,
    title: first.title,
    start: p.start,
    end: p.end,
    page_start: starts.length > 0 ? Math.min(...starts) : null,
    page_end: ends.length > 0 ? (fault("pack-pages-of-first") ? ends[0]! : Math.max(...ends)) : null,
    heading_path: headingPath(p, records),
    record_ids: members.map((r) => r.id),
    score: p.score,
    trimmed: members.some((r) => r.end > p.end),
  };
}
