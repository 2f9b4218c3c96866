"""Write test/subword_random.json: Python's ``subword`` counter over seeded random strings.

The TypeScript port's test/subwords.test.ts checks ``subwordSpans`` and ``subwordCount``
against it (SCRIPT-30..SCRIPT-33, COUNT-12). Regenerate from the repository root after a
change to those rules, and commit the result:

    PYTHONPATH=src python ports/typescript/test/subword_fixture.py

Deterministic: a fixed seed, a fixed alphabet of pieces, offsets in code points (as the
goldens'); the output only changes when the counter does.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from chunkspec.counters import SubwordCounter

SEED = 41
CASES = 2500
MAX_PIECES = 24
OUT = Path(__file__).with_name("subword_random.json")

#: What the strings are made of: ASCII letters of both cases, digits, punctuation, spaces
#: and other whitespace (SCRIPT-33), combining marks after ASCII (SCRIPT-31), Devanagari
#: with a virama, Ethiopic, Hangul (SCRIPT-32), an emoji ZWJ sequence (astral, SCRIPT-4), CJK.
PIECES: tuple[str, ...] = (
    *"abcdefghijklmnopqrstuvwxyz",
    *"ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    *"0123456789",
    *".,;:!?-_/()[]{}'\"#$%&*+<=>@\\^`|~",
    *(" ", " ", " ", " ", "  ", "\n", "\r\n", "\t", "\u00a0", "\u2028"),
    *("\u00e9", "e\u0301", "\u0301"),
    *("\u0915", "\u094d", "\u0937", "\u0915\u094d\u0937", "\u093f"),
    *("\u12a0", "\u1230\u120b\u121d"),
    *("\ud55c", "\uad6d\uc5b4", "\u1100\u1161\u11a8"),
    *("\U0001f468\u200d\U0001f469\u200d\U0001f467", "\U0001f44b"),
    *("\u4e2d", "\u6587\u5b57", "\U00020000"),
)


def main() -> None:
    rng = random.Random(SEED)
    counter = SubwordCounter()
    cases = []
    for _ in range(CASES):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, MAX_PIECES)))
        spans = [list(span) for span in counter.token_spans(text)]
        cases.append({"text": text, "count": counter.count(text), "spans": spans})
    lines = ",\n".join(json.dumps(c, ensure_ascii=True, separators=(",", ":")) for c in cases)
    head = json.dumps({"generator": "ports/typescript/test/subword_fixture.py", "seed": SEED})
    OUT.write_text(f'{head[:-1]}, "cases": [\n{lines}\n]}}\n', encoding="utf-8")


if __name__ == "__main__":
    main()
