"""Write test/subword_code.json: Python's ``code`` strategy with ``counter="subword"``.

Python's ``chunk_document(..., strategy="code", counter="subword")`` takes the counter (any
counter object counts a code chunk, CODE-6); the port's ``chunkCode`` does too.
test/subwordCode.test.ts checks the port's answer against the conformance kit's
``chunk_code`` (parser, counter, every span's start, end, prefix, heading path, symbols and
lines) on programs drawn from the kit's own ``chunk_code`` pools (nine languages, nested
and oversized definitions, comments, non-ASCII names, CRLF), each answer kept as the first
16 hex digits of the SHA-256 of its JSON (keys sorted, no spaces, UTF-8). Regenerate from
the repository root after a change to the code strategy or the counter, and commit:

    PYTHONPATH=src python ports/typescript/test/subword_code_fixture.py
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

from chunkspec._conformance.code import _code_generate as pools
from chunkspec._conformance.code._code_ops import chunk_code

SEED = 7
CASES = 120
OUT = Path(__file__).with_name("subword_code.json")


def program(rng: random.Random) -> tuple[str, str | None]:
    """A program as the kit's generator builds one (its classes, languages and pieces)."""
    name = pools.CLASSES[rng.randrange(pools._PORTABLE)]
    language = rng.choice(pools.LANGUAGE_ORDER)
    own = pools._own(name, language)
    ordinary = pools._ORDINARY[language]
    raw = [rng.randrange(256) for _ in range(rng.randint(1, 6))]
    text = own[raw[0] % len(own)]
    for byte in raw[1:]:
        table = own if byte & 1 else ordinary
        text += ("\n" if byte & 2 else "\n\n") + table[(byte >> 2) % len(table)]
    text += "\n"
    if name == "CRLF and CR":
        text = text.replace("\n", "\r\n")
    return text, None if name == "no language" else language


def main() -> None:
    rng = random.Random(SEED)
    cases = []
    while len(cases) < CASES:
        text, language = program(rng)
        if any(0xD800 <= ord(ch) <= 0xDFFF for ch in text):
            continue  # a lone surrogate is refused before any counting
        data = {
            "text": text,
            "language": language,
            "max_tokens": rng.choice((2, 3, 4, 6, 8, 12, 16, 24, 40, 64, 100)),
            "counter": "subword",
            "scope_prefix": rng.random() < 0.3,
        }
        answer = chunk_code(**data)
        blob = json.dumps(answer, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        digest = hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]
        cases.append({"input": data, "spans": len(answer["spans"]), "digest": digest})
    dump = lambda value: json.dumps(value, ensure_ascii=True, separators=(",", ":"))  # noqa: E731
    head = dump({"generator": "ports/typescript/test/subword_code_fixture.py", "seed": SEED})
    rows = ",\n".join(dump(c) for c in cases)
    OUT.write_text(f'{head[:-1]},"cases":[\n{rows}\n]}}\n', encoding="utf-8")
    print(f"{len(cases)} cases, {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
