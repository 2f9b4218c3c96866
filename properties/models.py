"""Literal, obviously correct models of each algorithm: slow on purpose, read like the seeds.

The fast code in ``src/`` is checked against these by the property suites.
"""

from __future__ import annotations

# --- seed 000: split_section / assemble ----------------------------------------------------
import functools
import hashlib
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from chunkspec._core._graphemes import grapheme_bounds

_MODEL_SEPARATORS = ["\n\n", "\n", " "]


def model_count(text: str) -> int:
    """Count tokens by walking characters: a token starts at a non-space after a space."""
    tokens = 0
    in_token = False
    for char in text:
        if char.isspace():
            in_token = False
        elif not in_token:
            tokens += 1
            in_token = True
    return tokens


def model_split_texts(text: str, max_tokens: int) -> list[str]:
    """The seed's split_section read literally, re-counting the joined string every step."""
    if model_count(text) <= max_tokens:
        return [text.strip()]
    return _model_split_oversized(text, max_tokens)


def _model_split_oversized(text: str, max_tokens: int) -> list[str]:
    """Split a text already known not to fit."""
    separator = None
    for candidate in _MODEL_SEPARATORS:
        if candidate in text:
            separator = candidate
            break
    if separator is None:
        return [text.strip()]
    pieces = [piece for piece in text.split(separator) if piece.strip() != ""]
    chunks: list[str] = []
    current: str | None = None
    for piece in pieces:
        if model_count(piece) > max_tokens:
            if current is not None:
                chunks.append(current.strip())
                current = None
            chunks.extend(_model_split_oversized(piece, max_tokens))
            continue
        joined = piece if current is None else current + separator + piece
        if model_count(joined) <= max_tokens:
            current = joined
        else:
            assert current is not None
            chunks.append(current.strip())
            current = piece
    if current is not None:
        chunks.append(current.strip())
    return chunks


@dataclass(frozen=True)
class ModelChunk:
    """What the model knows of a chunk: the fields assemble reads."""

    id: str
    title: str
    text: str
    tokens: int
    content_hash: str
    score: float


def _compare(a: ModelChunk, b: ModelChunk) -> int:
    """Score descending, then id by code point list ascending (no string `<` used)."""
    if a.score != b.score:
        return -1 if a.score > b.score else 1
    left = [ord(c) for c in a.id]
    right = [ord(c) for c in b.id]
    if left != right:
        return -1 if left < right else 1
    return 0


def model_assemble(
    chunks: list[ModelChunk], budget: int, min_score: float
) -> tuple[str, list[str]] | None:
    """The seed's assemble read literally: sort, stop, skip duplicates, skip misfits."""
    ordered = sorted(chunks, key=functools.cmp_to_key(_compare))
    picked: list[ModelChunk] = []
    for chunk in ordered:
        if chunk.score < min_score:
            break
        if any(p.content_hash == chunk.content_hash for p in picked):
            continue
        if sum(p.tokens for p in picked) + chunk.tokens > budget:
            continue
        picked.append(chunk)
    if not picked:
        return None
    blocks = ["[" + c.id + "] " + c.title + "\n" + c.text for c in picked]
    return "\n".join(blocks), [c.id for c in picked]


def model_hash(text: str) -> str:
    """SHA-256 hex of UTF-8, via hashlib directly."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --- seed 001 / 003: split_markdown, HeadingAwareChunker, sentences (issue 5) ---------------
# These models ask markdown-it-py directly (not chunkspec's block parser) where structure is
# needed, and state each rule in its most literal form.

_MD_TERMINATORS = ".!?…‼⁇⁈⁉。！？" + "｡؟۔।॥։።"  # SENT-1, SENT-5
_MD_CLOSERS = "\"')]}»”’›」』" + "）］｝＂＇｣〉》】〕〗〙〛"  # SENT-1, SENT-5
_MD_WIDE = "。！？｡"  # SENT-6


def model_lines(source: str) -> list[tuple[int, int]]:
    """Lines of ``source`` as (start, end) offsets, split at \\r\\n, \\r or \\n, one at a time."""
    lines: list[tuple[int, int]] = []
    start = i = 0
    while i < len(source):
        if source[i] == "\r" and source[i + 1 : i + 2] == "\n":
            lines.append((start, i))
            i += 2
            start = i
        elif source[i] in "\r\n":
            lines.append((start, i))
            i += 1
            start = i
        else:
            i += 1
    lines.append((start, len(source)))
    return lines


#: FM-1's TOML model: mdit-py-plugins' rule reads ``-`` and YAML's ``...``; swapping ``+``
#: with ``-`` (and ``.`` with a character no rule reads) makes it TOML's ``+++`` rule.
_TOML_AS_YAML = str.maketrans({"+": "-", "-": "+", ".": "\x01", "\x01": "."})


def model_front_matter(source: str) -> tuple[int, int] | None:
    """FM-1: the front matter's lines ``(0, end line)`` per mdit-py-plugins' ``front_matter``
    (TOML ``+++`` through the swap above), or None."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.front_matter import front_matter_plugin

    if source.startswith("+"):
        source = source.translate(_TOML_AS_YAML)
    tokens = MarkdownIt("commonmark").use(front_matter_plugin).parse(source)
    found = [t.map for t in tokens if t.type == "front_matter"]
    return (found[0][0], found[0][1]) if found and found[0] is not None else None


def model_top_level(source: str) -> list[tuple[str, int, int, str, int]]:
    """Top-level blocks per markdown-it: (token type, first line, end line, title, level).

    Front matter (FM-1) is a ``front_matter`` entry and no other block.
    """
    from markdown_it import MarkdownIt
    from mdit_py_plugins.deflist import deflist_plugin
    from mdit_py_plugins.front_matter import front_matter_plugin

    md = MarkdownIt("commonmark").enable("table").use(deflist_plugin)
    found = model_front_matter(source)
    if found is not None and source.startswith("+"):
        # TOML: markdown-it goes on after a front_matter token whatever its marker, so the
        # same lines as a YAML block (---, x..., ---) give the blocks after it.
        lines = model_lines(source)
        fake = ["---", *["x"] * (found[1] - 2), "---"]
        breaks = [source[lines[n][1] : lines[n + 1][0]] for n in range(len(lines) - 1)] + [""]
        cut = lines[found[1]][0] if found[1] < len(lines) else len(source)
        source = "".join(f + b for f, b in zip(fake, breaks, strict=False)) + source[cut:]
    tokens = md.use(front_matter_plugin).parse(source)
    out = []
    for i, token in enumerate(tokens):
        if token.level == 0 and token.nesting >= 0 and token.map is not None:
            title = tokens[i + 1].content if token.type == "heading_open" else ""
            level = int(token.tag[1]) if token.type == "heading_open" else 0
            out.append((token.type, token.map[0], token.map[1], title, level))
    return out


def model_heading_path_at(source: str, line: int) -> list[str]:
    """The heading path in force at 0-based ``line``: a literal stack over earlier headings."""
    stack: list[tuple[int, str]] = []
    for kind, first, _, title, level in model_top_level(source):
        if kind != "heading_open" or first >= line:
            continue
        stack = [entry for entry in stack if entry[0] < level]  # pop equal or deeper
        stack.append((level, title))
    return [title for _, title in stack]


def model_sentences(text: str) -> list[str]:
    """Sentences: maximal runs of words ending at a word that, closers stripped, ends in a
    terminator; each sentence is the source text from its first word to its last."""
    import re

    terminators = re.escape(_MD_TERMINATORS)
    # SENT-6: inside a word, a terminator run holding a wide terminator, with its closers.
    wide = re.compile(
        f"[{terminators}]*[{re.escape(_MD_WIDE)}][{terminators}]*[{re.escape(_MD_CLOSERS)}]*"
    )
    sentences: list[str] = []
    begin = None
    for match in re.finditer(r"\S+", text):
        pieces = [match.start()]
        pieces += [match.start() + m.end() for m in wide.finditer(match.group())]
        if pieces[-1] != match.end():
            pieces.append(match.end())
        for a, b in itertools.pairwise(pieces):
            if begin is None:
                begin = a
            piece = text[a:b].rstrip(_MD_CLOSERS)
            if b < match.end() or (piece and piece[-1] in _MD_TERMINATORS):
                sentences.append(text[begin:b])
                begin = None
    if begin is not None:
        sentences.append(text[begin:].rstrip())
    return sentences


def model_parents(levels: list[int]) -> list[int | None]:
    """For headings of these levels in order, the index of each one's parent: the latest
    earlier heading of a lower level with no heading of its level or lower in between."""
    parents: list[int | None] = []
    for i, level in enumerate(levels):
        parent = None
        for j in range(i - 1, -1, -1):
            if levels[j] < level and all(levels[k] > levels[j] for k in range(j + 1, i)):
                parent = j
                break
        parents.append(parent)
    return parents


# --- seeds 002 and 004: sliding windows, token windows, the page chunker --------------------


def model_chunk(text: str, size: int, overlap: int) -> list[str]:
    """Seed 002's loop, verbatim: step by ``size - overlap``, stop once a window reaches the end."""
    step = size - overlap
    chunks = []
    i = 0
    while i < len(text):
        chunks.append(text[i : i + size])
        if i + size >= len(text):
            break  # this window already reached the end
        i += step
    return chunks


def model_token_ranges(n_tokens: int, size: int, overlap: int) -> list[tuple[int, int]]:
    """Seed 002's loop over token indices: the ``[a, b)`` token range of every window."""
    step = size - overlap
    ranges = []
    i = 0
    while i < n_tokens:
        ranges.append((i, min(i + size, n_tokens)))
        if i + size >= n_tokens:
            break
        i += step
    return ranges


def model_page_of(pages: list[str]) -> list[int | None]:
    """Return, for each character of ``"\\f".join(pages)``, its 1-based page (None: separator)."""
    owner: list[int | None] = []
    for number, page in enumerate(pages, start=1):
        if number > 1:
            owner.append(None)
        owner.extend([number] * len(page))
    return owner


#: SENT-1 and SENT-5's terminators and closers, and SENT-6's wide terminators, spelled out.
MODEL_TERMINATORS = (
    ".!?\u2026\u203c\u2047\u2048\u2049\u3002\uff01\uff1f\uff61\u061f\u06d4\u0964\u0965\u0589\u1362"
)
MODEL_WIDE = "\u3002\uff01\uff1f\uff61"
MODEL_CLOSERS = (
    "\"')]}\u00bb\u201d\u2019\u203a\u300d\u300f\uff09\uff3d\uff5d\uff02\uff07\uff63"
    "\u3009\u300b\u3011\u3015\u3017\u3019\u301b"
)


def model_ends_sentence(text: str, cut: int) -> bool:
    """PAGE-9: only whitespace lies between ``cut`` and the end ``p`` of a sentence end: a
    maximal run of terminators and the maximal run of closers after it (SENT-6), that
    whitespace follows or whose terminators hold a wide one (then whatever follows, a new
    terminator too: ``。」??`` ends twice)."""
    p = cut
    while p > 0 and text[p - 1].isspace():
        p -= 1
    if p < len(text) and text[p] in MODEL_CLOSERS:
        return False  # inside the closers' run
    c = p
    while c > 0 and text[c - 1] in MODEL_CLOSERS:
        c -= 1
    if c == p and p < len(text) and text[p] in MODEL_TERMINATORS:
        return False  # inside the terminators' run
    t = c
    while t > 0 and text[t - 1] in MODEL_TERMINATORS:
        t -= 1
    if t == c:
        return False
    wide = any(ch in MODEL_WIDE for ch in text[t:c])
    return wide or p == len(text) or text[p].isspace()


def model_cut_positions(text: str, starts: list[int]) -> tuple[list[int], list[bool]]:
    """SCRIPT-10 written plainly: each start moved forward to a cluster boundary unless it
    is one or follows whitespace; boundary j a cut when 0, N, or past the one before it."""
    bounds = set(grapheme_bounds(text))
    n = len(text)
    positions = []
    for p in starts:
        if p >= n or p in bounds or (p > 0 and text[p - 1].isspace()):
            positions.append(p)
        else:
            positions.append(min(b for b in bounds if b > p))
    n_tokens = len(starts)
    cut = [j in (0, n_tokens) or positions[j - 1] < positions[j] < n for j in range(n_tokens + 1)]
    return positions, cut


def model_cluster_pieces(
    text: str, lo: int, hi: int, count: Callable[[str], int], max_tokens: int
) -> list[tuple[int, int]]:
    """SCRIPT-10's split of a window with no cut inside: each piece grows by one cluster while
    its text counts within the budget; at least one cluster."""
    bounds = grapheme_bounds(text[lo:hi])
    out = []
    i = 0
    while i < len(bounds) - 1:
        k = i + 1
        while (
            k + 1 < len(bounds) and count(text[lo + bounds[i] : lo + bounds[k + 1]]) <= max_tokens
        ):
            k += 1
        out.append((lo + bounds[i], lo + bounds[k]))
        i = k
    return out


def model_page_ranges(
    text: str,
    starts: list[int],
    count: Callable[[str], int],
    max_tokens: int,
    overlap: int,
) -> list[tuple[int, int, bool]]:
    """The page chunker written plainly: ``(char_start, char_end, oversized)`` of each chunk.

    ``starts`` are the token starts of ``text``, moved out of clusters (SCRIPT-10). Each
    window is tokens ``[s, e)`` between cuts; if it does not reach the end it moves back to
    the last sentence end in its final fifth (but past the overlap); it shrinks a cut at a
    time while its stripped text counts over budget, and one with no cut inside is split at
    clusters; the next window starts at the last cut ``overlap`` tokens before its end, or
    past its start.
    """
    n_tokens = len(starts)
    out: list[tuple[int, int, bool]] = []

    def stripped(lo: int, hi: int) -> tuple[int, int] | None:
        while lo < hi and text[lo].isspace():
            lo += 1
        while hi > lo and text[hi - 1].isspace():
            hi -= 1
        return (lo, hi) if lo < hi else None

    if n_tokens == 0:
        r = stripped(0, len(text))
        if r is not None:
            out.append((r[0], r[1], count(text[r[0] : r[1]]) > max_tokens))
        return out
    positions, cut = model_cut_positions(text, starts)

    def last_cut(low: int, high: int) -> int:
        inside = [j for j in range(low, high + 1) if cut[j]]
        return inside[-1] if inside else next(j for j in range(high + 1, n_tokens + 1) if cut[j])

    s = 0
    while True:
        e = last_cut(s + 1, min(s + max_tokens, n_tokens))
        if e < n_tokens:
            lowest = max(s + (4 * max_tokens) // 5, s + overlap + 1)
            for j in range(e, lowest - 1, -1):
                if cut[j] and model_ends_sentence(text, positions[j]):
                    e = j
                    break
        pieces: list[tuple[int, int]] = []
        while True:
            lo = 0 if s == 0 else positions[s]
            hi = len(text) if e == n_tokens else positions[e]
            r = stripped(lo, hi)
            if r is None:
                break
            if count(text[r[0] : r[1]]) <= max_tokens:
                pieces = [r]
                break
            smaller = [j for j in range(s + 1, e) if cut[j]]
            if not smaller:
                for a, b in model_cluster_pieces(text, r[0], r[1], count, max_tokens):
                    piece = stripped(a, b)
                    if piece is not None:
                        pieces.append(piece)
                break
            e = smaller[-1]
        for a, b in pieces:
            if not out or b > out[-1][1]:
                out.append((a, b, count(text[a:b]) > max_tokens))
        if e == n_tokens:
            return out
        s = last_cut(s + 1, max(e - overlap, s + 1))


def model_best_section(
    sections: list[tuple[int, int, str]], a: int, b: int
) -> tuple[str | None, float]:
    """Count each section's characters in ``[a, b)`` one by one; the first largest wins."""
    best_label: str | None = None
    best = 0
    for start, end, label in sections:
        inside = sum(1 for i in range(a, b) if start <= i < end)
        if inside > best:
            best, best_label = inside, label
    return best_label, (best / (b - a) if best else 0.0)


# --- seed 001: retrieval metrics and fair gold (issue 6, rules EVAL-*) ----------------------


def recall_at_k_model(
    answers: dict[str, list[str]], queries: list[tuple[str, frozenset[str]]], k: int
) -> Fraction:
    """Seed 001 read literally, with only the first k answers counted: hits / questions."""
    hits = 0
    for question, gold in queries:
        found = False
        for chunk_id in answers[question][:k]:
            if chunk_id in gold:
                found = True
        if found:
            hits += 1
    return Fraction(hits, len(queries))


def mrr_model(
    answers: dict[str, list[str]], queries: list[tuple[str, frozenset[str]]], k: int
) -> Fraction:
    """Exact mean of 1/rank of the first gold id among the first k answers (0 if none)."""
    total = Fraction(0)
    for question, gold in queries:
        for position, chunk_id in enumerate(answers[question][:k], start=1):
            if chunk_id in gold:
                total += Fraction(1, position)
                break
    return total / len(queries)


def answers_model(
    doc_id: str, start: int, end: int, span_doc: str, span_start: int, span_end: int, share: float
) -> bool:
    """Count the span's characters that lie in the region, one by one."""
    if doc_id != span_doc:
        return False
    covered = 0
    for i in range(span_start, span_end):
        if start <= i < end:
            covered += 1
    return covered >= 1 and covered >= share * (span_end - span_start)


def token_windows_model(text: str, size: int, overlap: int) -> list[list[str]]:
    """Word windows of ``size`` stepping by ``size - overlap`` until one holds the last word."""
    words = text.split()
    out: list[list[str]] = []
    i = 0
    while i < len(words):
        out.append(words[i : i + size])
        if i + size >= len(words):
            break
        i += size - overlap
    return out


# --- chunk records and documents (docs/spec/records.md) -------------------------------------


@functools.lru_cache(maxsize=8)
def _top_level_cached(source: str) -> list[tuple[str, int, int, str, int]]:
    """:func:`model_top_level`, once per source (a property asks it for every record)."""
    return model_top_level(source)


@functools.lru_cache(maxsize=8)
def _lines_cached(source: str) -> list[tuple[int, int]]:
    """:func:`model_lines`, once per source."""
    return model_lines(source)


def model_line_of(source: str, offset: int) -> int:
    """The 0-based MD-2 line holding ``source[offset]``: the last line starting at or before
    it (a line's break belongs to it)."""
    return max(n for n, (start, _) in enumerate(_lines_cached(source)) if start <= offset)


def model_record_path(
    source: str, input_format: str, blocks: list[dict[str, object]] | None, start: int
) -> list[str]:
    """RECORD-12: the MD-7 stack over every heading whose line starts at or before ``start``.

    Markdown asks markdown-it (a heading starts at its first line); plain text has no
    headings; JSON blocks start where their text starts in ``"\\n\\n".join(texts)``.
    """
    stack: list[tuple[int, str]] = []
    if input_format == "markdown":
        line = model_line_of(source, start)
        for kind, first, _, title, level in _top_level_cached(source):
            if kind == "heading_open" and first <= line:
                stack = [entry for entry in stack if entry[0] < level]  # pop equal or deeper
                stack.append((level, title))
        return [title for _, title in stack]
    offset = 0
    for block in blocks or []:
        text = str(block["text"])
        if block["kind"] == "heading" and offset <= start:
            level = int(str(block["level"]))
            stack = [entry for entry in stack if entry[0] < level]
            stack.append((level, text))
        offset += len(text) + 2
    return [title for _, title in stack]


def model_record_pages(pages: list[str], start: int, end: int) -> tuple[int, int]:
    """SOURCE-4, PAGE-11: the pages of the first and last character of ``[start, end)``; a
    separator (None in :func:`model_page_of`) ends, so belongs to, the page before it."""
    owner = model_page_of(pages)

    def page(i: int) -> int:
        if owner[i] is None:
            return sum(1 for j in range(i) if owner[j] is None) + 1
        found = owner[i]
        assert found is not None
        return found

    return page(start), page(max(start, end - 1))


def model_render_title(title: str, heading_path: list[str]) -> str:
    """RECORD-9 literally: drop a first heading equal to the title, join with " > "."""
    path = heading_path[1:] if heading_path and heading_path[0] == title else heading_path
    out = title
    for heading in path:
        out = out + " > " + heading
    return out


# --- chunk_table (docs/spec/scale.md) -------------------------------------------------------


def model_chunk_table(
    documents: list[dict[str, object]], options: dict[str, object]
) -> list[dict[str, object]]:
    """The rows of chunk_table, by a plain loop over chunk_document (SCALE-1..SCALE-7)."""
    from chunkspec import chunk_document, document_from_bytes

    chunk_options = {k: v for k, v in options.items() if k not in ("max_bytes", "input_format")}
    cap = options.get("max_bytes")
    rows: list[dict[str, object]] = []
    for document in documents:
        doc_id = str(document["doc_id"])
        source = str(document["source"] or "")
        data = document["bytes"]
        assert isinstance(data, bytes)
        name = source if source else doc_id
        error = None
        records = []
        if isinstance(cap, int) and len(data) > cap:
            error = f"{name}: {len(data)} bytes is over max_bytes ({cap})"
        else:
            try:
                read = document_from_bytes(
                    data,
                    doc_id=doc_id,
                    source=source,
                    input_format=document["input_format"] or options.get("input_format"),  # type: ignore[arg-type]
                    name=name,
                )
                if read.text.strip():
                    records = chunk_document(read, **chunk_options)  # type: ignore[arg-type]
            except ValueError as exc:  # InputError, or a ValueError from a bad JSON block
                error = (
                    str(exc)
                    if type(exc).__name__ == "InputError"
                    else (f"{name}: {type(exc).__name__}: {exc}")
                )
            if error is None and not records:
                error = f"{name}: no text to chunk"
        if error is not None:
            row: dict[str, object] = dict.fromkeys(_OUTPUT_FIELDS)
            row.update(doc_id=doc_id, source=source, error=" ".join(error.split()))
            rows.append(row)
        else:
            for record in records:  # META-6: metadata as JSON text, sorted keys, no spaces
                data = record.to_dict()
                text = json.dumps(
                    data["metadata"], sort_keys=True, separators=(",", ":"), ensure_ascii=False
                )
                rows.append({**data, "metadata": text, "error": None})
    return rows


_OUTPUT_FIELDS = (
    "id",
    "doc_id",
    "index",
    "text",
    "start",
    "end",
    "tokens",
    "counter",
    "content_hash",
    "kind",
    "heading_path",
    "parent_id",
    "page_start",
    "page_end",
    "section",
    "prefix",
    "oversized",
    "title",
    "source",
    "strategy",
    "metadata",
    "key",  # SCALE-12: null on error rows
    "error",
)


def span_scores_model(
    retrieved: list[tuple[str, int, int]], gold: list[tuple[str, int, int]]
) -> tuple[Fraction, Fraction, Fraction]:
    """Recall, precision, IoU by listing every covered character as a set member (EVAL-32)."""
    r = {(d, i) for d, s, e in retrieved for i in range(s, e)}
    g = {(d, i) for d, s, e in gold for i in range(s, e)}
    both = len(r & g)
    precision = Fraction(both, len(r)) if r else Fraction(0)
    return Fraction(both, len(g)), precision, Fraction(both, len(r | g))


def precision_omega_model(
    chunks: list[tuple[str, int, int]], answers: list[list[tuple[str, int, int]]]
) -> Fraction:
    """Best IoU over the answers of the chunks sharing a character with that answer."""
    best = Fraction(0)
    for answer in answers:
        g = {(d, i) for d, s, e in answer for i in range(s, e)}
        oracle = [c for c in chunks if {(c[0], i) for i in range(c[1], c[2])} & g]
        best = max(best, span_scores_model(oracle, answer)[2])
    return best


def model_view_coverage(length: int, spans: list[tuple[int, int]]) -> list[list[int]]:
    """For each offset of the text, the positions of the spans holding it (VIEW-2)."""
    return [[p for p, (s, e) in enumerate(spans) if s <= i < e] for i in range(length)]


def model_view_bin(tokens: int, top: int) -> int:
    """The histogram bin of ``tokens``: the first ``i`` with ``tokens * 8 <= (i+1) * top``."""
    if tokens > top:
        return 8
    return next(i for i in range(8) if tokens * 8 <= (i + 1) * top)


# --- SIZE-3 to SIZE-5: merging small chunks -------------------------------------------------


def model_merge_small(
    count: Callable[[int, int], int],
    n: int,
    is_heading: Callable[[int], bool],
    min_tokens: int,
    max_tokens: int,
    joins: Callable[[list[int], int], bool],
    glued: Callable[[int], bool],
    whole: Callable[[int], bool] = lambda k: False,
) -> list[list[int]]:
    """Group spans ``0..n-1`` into runs as SIZE-3 and SIZE-4 say, read literally.

    ``count(i, j)`` is the tokens of the span from span ``i``'s start to span ``j``'s end;
    ``whole(k)``: span ``k`` is a table or code block kept whole (SIZE-11).
    """

    def tokens(run: list[int]) -> int:
        return count(run[0], run[-1])

    def is_open(run: list[int]) -> bool:
        return all(is_heading(i) for i in run) or tokens(run) < min_tokens

    def with_child(k: int) -> list[int]:
        taken = [k]
        while taken[-1] + 1 < n and glued(taken[-1]):
            taken.append(taken[-1] + 1)
        return taken

    first_pass: list[list[int]] = []
    k = 0
    while k < n:
        run = [k]
        k += 1
        while k < n and is_open(run) and joins(run, k):
            taken = with_child(k)
            over = all(is_heading(i) for i in run) and whole(taken[-1])
            if count(run[0], taken[-1]) > max_tokens and not (
                over and count(taken[-1], taken[-1]) > max_tokens
            ):
                break
            run = run + taken
            k = taken[-1] + 1
        first_pass.append(run)
    runs: list[list[int]] = []
    for run in first_pass:
        if (
            runs
            and is_open(run)
            and joins(runs[-1], run[0])
            and not glued(run[-1])
            and count(runs[-1][0], run[-1]) <= max_tokens
        ):
            runs[-1] = runs[-1] + run
        else:
            runs.append(run)
    return runs


# --- stable chunk keys and change sets (docs/spec/incremental.md) ----------------------------


def _model_h(text: str) -> str:
    """HASH-1, spelled out: SHA-256 of the UTF-8 bytes, lowercase hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def model_chunk_keys(records: list[dict[str, object]]) -> list[str]:
    """KEY-1..KEY-3 read literally: one document's records (as JSON objects) -> their keys.

    The occurrence number is found by counting, for every record, the earlier records of
    the list with the same heading path and content hash.
    """
    keys = []
    for position, record in enumerate(records):
        path: list[object] = list(record["heading_path"])  # type: ignore[call-overload]
        occurrence = 0
        for earlier in records[:position]:
            earlier_path: list[object] = list(earlier["heading_path"])  # type: ignore[call-overload]
            if earlier_path == path and earlier["content_hash"] == record["content_hash"]:
                occurrence += 1
        fingerprint = (
            _model_h("chunkspec-key/1")
            + _model_h(str(record["strategy"]))
            + _model_h(str(record["counter"]))
        )
        path_digest = _model_h("".join(_model_h(str(heading)) for heading in path))
        keys.append(
            _model_h(
                fingerprint
                + _model_h(str(record["doc_id"]))
                + path_digest
                + str(record["content_hash"])
                + _model_h(str(occurrence))
            )
        )
    return keys


def model_change_set(
    old: dict[str, list[dict[str, object]]], new: dict[str, list[dict[str, object]]]
) -> list[tuple[str, str, str, str | None]]:
    """INCR-6, INCR-7 read literally: (scope, change, doc_id, key) of every change, as a
    sorted list (the order is INCR-6's, checked separately)."""
    out: list[tuple[str, str, str, str | None]] = []
    for doc_id in set(old) | set(new):
        if doc_id not in old:
            state = "added"
        elif doc_id not in new:
            state = "removed"
        else:
            state = "unchanged" if old[doc_id] == new[doc_id] else "changed"
        out.append(("document", state, doc_id, None))
        before = {r["key"]: r for r in old.get(doc_id, []) if r.get("error") is None}
        after = {r["key"]: r for r in new.get(doc_id, []) if r.get("error") is None}
        for key in set(before) | set(after):
            if key not in before:
                change = "added"
            elif key not in after:
                change = "removed"
            elif before[key] == after[key]:
                change = "unchanged"
            else:
                change = "updated"
            out.append(("chunk", change, doc_id, str(key)))
    return sorted(out, key=lambda item: (item[0], item[1], item[2], item[3] or ""))
