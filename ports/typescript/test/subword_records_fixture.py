"""Write test/subword_records.json: Python's records with ``counter="subword"`` for every
strategy of the port, over seeded random Markdown documents.

The TypeScript port's test/subwordRecords.test.ts runs ``chunkDocument`` on each case and
compares every record, field by field, with Python's ``chunk_document`` (SCRIPT-10,
SCRIPT-30..SCRIPT-34, COUNT-3, COUNT-12). To keep the file small a case's records are stored as one
string of digests, eight hex digits a record: the first eight of the SHA-256 of the record's JSON
object (keys sorted, no spaces, UTF-8), which the test computes for the port's records the
same way; a case also keeps each record's ``[start, end, tokens]`` when it has few records,
to read a difference by. Under ``packs``: ``pack_records`` over such records (random scores, budgets
and options), each packed context kept as a 16-hex digest of its JSON. Regenerate from the
repository root after a change to a chunker or to the counter, and commit the result:

    PYTHONPATH=src python ports/typescript/test/subword_records_fixture.py

Deterministic: a fixed seed and fixed pools of pieces; the output only changes when
Python's records do.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

from chunkspec.records import chunk_document, document_from_text, pack_records

SEED = 4134
DOCUMENTS = int(sys.argv[1]) if len(sys.argv) > 1 else 300
#: Another counter (``unicode``, ``whitespace``) writes the same cases to a scratch file, to
#: check the port's other counters by the same documents: ``... fixture.py 300 unicode OUT``.
COUNTER = sys.argv[2] if len(sys.argv) > 2 else "subword"
OUT = Path(sys.argv[3]) if len(sys.argv) > 3 else Path(__file__).with_name("subword_records.json")
STRATEGIES = ("heading", "structural", "window", "pages")

#: Words of every kind the subword counter treats differently (SCRIPT-31..SCRIPT-33).
WORDS: tuple[str, ...] = (
    *[
        "the",
        "a",
        "of",
        "and",
        "to",
        "in",
        "is",
        "it",
        "for",
        "on",
        "with",
        "as",
        "by",
        "at",
        "from",
        "this",
        "that",
        "be",
        "are",
    ],
    *[
        "parseJSON",
        "HTTPServer",
        "getElementById",
        "snake_case",
        "x86_64",
        "v1.2.3",
        "e.g.",
        "i.e.",
        "U.S.A.",
        "don't",
    ],
    *["12", "3.14159", "2026-12-07", "0xDEADBEEF", "1,234,567", "100%", "$42", "#tag", "@user"],
    *["café", "naïve", "résumé", "Straße", "façade", "été"],
    "\u4e2d\u6587\u5b57",
    "\u65e5\u672c\u8a9e\u306e\u6587\u7ae0",
    "\u6f22\u5b57\u3002\u304b\u306a",
    "\u0928\u092e\u0938\u094d\u0924\u0947",
    "\u0939\u093f\u0928\u094d\u0926\u0940",
    "\u0915\u094d\u0937\u0924\u094d\u0930\u093f\u092f",
    "\ud55c\uad6d\uc5b4",
    "\uc548\ub155\ud558\uc138\uc694.",
    "\u1100\u1161\u11a8",
    "\u12a0\u121b\u122d\u129b",
    "\u0e20\u0e32\u0e29\u0e32\u0e44\u0e17\u0e22",
    "\u0645\u0631\u062d\u0628\u0627",
    "\u041f\u0440\u0438\u0432\u0435\u0442",
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",
    "\U0001f44b\U0001f3fd",
    "\U0001f1fa\U0001f1f8",
    "\U00020000\U00020001",
    "a\u0301\u0302",
    "end.",
    "why?",
    "wow!",
    "(aside)",
    "\u201cquoted.\u201d",
)

#: What goes between words: one space mostly, and every other gap SCRIPT-33 counts.
GAPS: tuple[str, ...] = (
    *([" "] * 24),
    "  ",
    "\t",
    "\u00a0",
    " \u00a0",
    "\u3000",
    ". ",
    "! ",
    "? ",
    "\u3002",
    ", ",
    "\n",
)


def base64ish(rng: random.Random) -> str:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(20, 160))) + "=="


def sentence(rng: random.Random, n: int) -> str:
    out = []
    for i in range(n):
        if i:
            out.append(rng.choice(GAPS))
        out.append(base64ish(rng) if rng.random() < 0.02 else rng.choice(WORDS))
    if rng.random() < 0.7:
        out.append(rng.choice((".", "!", "?", "\u3002", ".)")))
    return "".join(out)


def paragraph(rng: random.Random) -> str:
    return " ".join(sentence(rng, rng.randint(1, 14)) for _ in range(rng.randint(1, 4)))


def block(rng: random.Random, level: int) -> str:
    r = rng.random()
    if r < 0.16:
        marks = "#" * rng.randint(1, min(4, level + 1))
        title = sentence(rng, rng.randint(0, 4)) if rng.random() < 0.95 else ""
        return f"{marks} {title}".rstrip() if title else marks
    if r < 0.19:
        return f"{sentence(rng, rng.randint(1, 3))}\n{rng.choice('=-') * rng.randint(3, 6)}"
    if r < 0.27:
        cols = rng.randint(1, 3)
        rows = [
            "| " + " | ".join(sentence(rng, rng.randint(1, 3)) for _ in range(cols)) + " |"
            for _ in range(rng.randint(1, 5))
        ]
        head = "| " + " | ".join(f"h{i}" for i in range(cols)) + " |"
        rule = "|" + "|".join("---" for _ in range(cols)) + "|"
        return "\n".join([head, rule, *rows])
    if r < 0.34:
        lang = rng.choice(("python", "js", "", "text"))
        body = "\n".join(
            rng.choice(("    ", "\t", "")) + sentence(rng, rng.randint(1, 6))
            for _ in range(rng.randint(1, 5))
        )
        return f"```{lang}\n{body}\n```"
    if r < 0.44:
        bullet = rng.choice(("- ", "* ", "1. "))
        return "\n".join(
            bullet + sentence(rng, rng.randint(1, 8)) for _ in range(rng.randint(1, 5))
        )
    if r < 0.48:
        return "> " + paragraph(rng)
    if r < 0.51:
        return "---"
    if r < 0.53:
        return base64ish(rng) + base64ish(rng)
    return paragraph(rng)


def document(rng: random.Random) -> str:
    parts = []
    if rng.random() < 0.12:
        parts.append(f"---\ntitle: {sentence(rng, 2)}\nauthor: x\n---")
    level = 0
    for _ in range(rng.randint(1, 9)):
        text = block(rng, level)
        if text.startswith("#"):
            level = len(text) - len(text.lstrip("#"))
        parts.append(text)
    joiner = rng.choice(("\n\n", "\n\n", "\n\n", "\n\n\n", "\n \n"))
    text = joiner.join(parts)
    if rng.random() < 0.1:
        pieces = text.split("\n\n")
        cut = rng.randint(0, len(pieces))
        text = "\n\n".join(pieces[:cut]) + "\f" + "\n\n".join(pieces[cut:])
    if rng.random() < 0.15:
        text = text.replace("\n", "\r\n")
    if rng.random() < 0.3:
        text += "\n"
    return text


def options_for(rng: random.Random, strategy: str) -> dict[str, object]:
    # budgets of 1..3 give a record a unit: few of them, or the file grows past 1.5 MB
    tiny = rng.random() < 0.06
    size = rng.choice((1, 2, 3) if tiny else (4, 5, 6, 8, 10, 12, 16, 20, 24, 30, 40))
    options: dict[str, object] = {"strategy": strategy, "max_tokens": size}
    if strategy in ("heading", "window", "pages") and rng.random() < 0.6:
        limit = size if strategy == "heading" else size - 1
        options["overlap_tokens"] = rng.randint(0, max(0, limit))
    if strategy in ("heading", "structural"):
        if rng.random() < 0.4:
            options["min_tokens"] = rng.choice((0, 0, rng.randint(0, size)))
        if rng.random() < 0.25:
            options["budget_includes_headings"] = True
    if strategy == "structural":
        if rng.random() < 0.25:
            options["count_headings"] = True
        if rng.random() < 0.3:
            options["split_tables"] = True
    if rng.random() < 0.1:
        options["input_format"] = "text"
    return options


def digest(record: dict[str, object]) -> str:
    data = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(data.encode("utf-8")).hexdigest()[:8]


def pack_cases(documents: list[str]) -> list[dict[str, object]]:
    """``pack_records`` over ``subword`` records (CTX-8 counts the context with the records'
    counter): a document's records, random scores, a budget and options, and the digest of
    the packed context's JSON (its ``to_dict``)."""
    rng = random.Random(SEED + 1)
    out: list[dict[str, object]] = []
    for d in range(0, len(documents), 3):
        strategy = rng.choice(STRATEGIES)
        size = rng.choice((8, 16, 30))
        source = document_from_text(documents[d], doc_id=f"d{d}")
        records = chunk_document(source, strategy, max_tokens=size, counter=COUNTER)
        if not records:
            continue
        # in (0, 1): a whole score is 1.0 in Python's JSON and 1 in JavaScript's
        scores = [rng.randint(1, 999) / 1000 for _ in records]
        budget = rng.choice((10, 30, 60, 120, 400))
        options: dict[str, object] = {}
        if rng.random() < 0.3:
            options["order"] = "score"
        if rng.random() < 0.3:
            options["expand"] = 0.5
        if rng.random() < 0.3:
            options["trim"] = True
        if rng.random() < 0.3:
            options["titles"] = False
        packed = pack_records(records, scores, budget, **options).to_dict()
        blob = json.dumps(packed, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        out.append(
            {
                "doc": d,
                "strategy": strategy,
                "max_tokens": size,
                "scores": scores,
                "budget": budget,
                "options": options,
                "digest": hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16],
            }
        )
    return out


def main() -> None:
    rng = random.Random(SEED)
    documents = []
    cases = []
    for d in range(DOCUMENTS):
        text = document(rng)
        documents.append(text)
        for strategy in STRATEGIES:
            for _ in range(2 if rng.random() < 0.3 else 1):
                options = options_for(rng, strategy)
                keywords = {
                    k: v for k, v in options.items() if k not in ("strategy", "input_format")
                }
                source = document_from_text(
                    text, doc_id=f"d{d}", input_format=str(options.get("input_format", "markdown"))
                )
                try:
                    records = chunk_document(
                        source, str(options["strategy"]), counter=COUNTER, **keywords
                    )
                except (TypeError, ValueError) as error:  # an option the strategy refuses
                    cases.append({"doc": d, "options": options, "error": type(error).__name__})
                    continue
                dicts = [record.to_dict() for record in records]
                case = {"doc": d, "options": options, "digests": "".join(map(digest, dicts))}
                if len(dicts) <= 12:
                    case["spans"] = [[r["start"], r["end"], r["tokens"]] for r in dicts]
                cases.append(case)
    packs = pack_cases(documents)
    dump = lambda value: json.dumps(value, ensure_ascii=True, separators=(",", ":"))  # noqa: E731
    head = dump(
        {
            "generator": "ports/typescript/test/subword_records_fixture.py",
            "seed": SEED,
            "counter": COUNTER,
        }
    )
    body = ",\n".join(dump(t) for t in documents)
    rows = ",\n".join(dump(c) for c in cases)
    packed = ",\n".join(dump(c) for c in packs)
    OUT.write_text(
        f'{head[:-1]},"documents":[\n{body}\n],"cases":[\n{rows}\n],"packs":[\n{packed}\n]}}\n',
        encoding="utf-8",
    )
    print(f"{len(documents)} documents, {len(cases)} cases, {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
