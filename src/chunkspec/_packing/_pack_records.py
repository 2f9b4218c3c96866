"""``pack_records``: pack scored records into a budget as cited, merged passages (CTX rules)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from .._core._validate import require_int, require_real, require_str
from .._counters._builtin import TokenCounter, WhitespaceCounter
from .._counters._registry import counter_from_name, counter_name, measure_of, resolve_counter
from .._errors import ArgumentTypeError, ArgumentValueError
from .._records._record import ChunkRecord
from ._access import Principal, may_read
from ._context import PackedContext, Passage, passage_label, render_passages

__all__ = ["ORDERS", "pack_records", "reads_a_file", "verbatim"]

#: The passage orders (CTX-10): by document and position, or by score alone.
ORDERS = ("reading", "score")

#: Strategies whose text is not ``prefix + source[start:end]`` (RECORD-3, RECORD-11).
_NOT_VERBATIM = frozenset({"recursive"})


def verbatim(record: ChunkRecord) -> bool:
    """True if the record's text is ``prefix + source[start:end]`` exactly (CTX-4)."""
    return record.strategy.partition(":")[0] not in _NOT_VERBATIM


@dataclass(slots=True)
class _Open:
    """A passage being built: its span, text over the span, members and first pick."""

    doc_id: str
    start: int
    end: int
    prefix: str
    body: str  # source[start:end] when verbatim; the record's whole text otherwise
    verbatim: bool
    first: int  # rank of its first picked record (CTX-10)
    score: float
    members: tuple[int, ...] = field(default_factory=tuple)


def pack_records(
    records: Iterable[ChunkRecord],
    scores: Iterable[float],
    budget: int,
    *,
    min_score: float = 0.35,
    counter: str | TokenCounter | None = None,
    encoding_file: str | None = None,
    order: str = "reading",
    principal: Principal | None = None,
    titles: bool = False,
    expand: float | None = None,
    trim: bool = True,
) -> PackedContext:
    """Pack the best-scored records into ``budget`` tokens of rendered context (CTX-1..CTX-20).

    Records the ``principal`` may not read are withheld (CTX-13), and so is a record whose
    labels cannot be read, for every principal: its id is listed in the result's
    ``unreadable_labels`` (TRUST-10); records of one document must name one source and
    agree where they overlap (TRUST-12), and a counter that reads a file comes from
    ``counter`` only, never from the records (TRUST-13); the rest are walked best
    score first (ties by id) down to ``min_score`` (CTX-6); a record whose text is already
    packed is skipped (CTX-7); one whose span overlaps or touches a passage of its document
    merges into it (CTX-2); one that would take the rendered context over ``budget`` tokens
    of ``counter`` (the records' own counter by default) is skipped and the walk goes on
    (CTX-8); ``encoding_file`` is the tiktoken rank file that builds a ``tiktoken:`` counter,
    given or the records', offline (COUNT-9). Passages are headed by their ``[key]`` alone,
    or ``[key] title > headings`` with ``titles=True``, in reading order or score order
    (CTX-9, CTX-10, CTX-17). With ``expand``, once that share of a section's records is
    packed, the rest of the section is tried all at once (CTX-18). With ``trim`` (the
    default), the first record that fits only in part is packed up to its last word that
    fits (CTX-19).
    """
    items, values = _checked(records, scores)
    require_int("budget", budget, minimum=0)
    require_real("min_score", min_score)
    chosen: object = order  # checked at run time whatever the static type says
    if not isinstance(chosen, str) or chosen not in ORDERS:
        raise ArgumentValueError("order", f"must be one of {', '.join(ORDERS)}", order)
    if principal is not None and not isinstance(principal, Principal):
        raise ArgumentTypeError("principal", "a Principal or None", principal)
    flag: object = titles
    if not isinstance(flag, bool):
        raise ArgumentTypeError("titles", "a bool", flag)
    cutting: object = trim
    if not isinstance(cutting, bool):
        raise ArgumentTypeError("trim", "a bool", cutting)
    if expand is not None:
        require_real("expand", expand)
        if not 0 < expand <= 1:
            raise ArgumentValueError("expand", "must be in (0, 1] or None", expand)
    allowed, unreadable = _access(items, principal)
    # CTX-14: what the reader may not read has no say in the checks either.
    visible = [(i, record) for i, record in enumerate(items) if allowed[i]]
    measure, name = _counter(counter, visible, encoding_file)
    _check_documents(visible)
    ranks = sorted(range(len(items)), key=lambda i: (-values[i], items[i].id))  # CTX-6
    sections = _sections(visible) if expand is not None else {}
    tried: set[tuple[str, tuple[str, ...]]] = set()
    passages: list[_Open] = []
    hashes: set[str] = set()
    text, tokens = "", 0
    for rank, i in enumerate(ranks):
        if values[i] < min_score:
            break  # CTX-6: the walk is in score order, so nothing later gets in
        record = items[i]
        if not allowed[i] or record.content_hash in hashes:
            continue  # CTX-13 withheld; CTX-7 the same text is already packed
        trial = _place(passages, record, i, rank, values[i])
        if trial is None:
            continue  # CTX-4: overlaps a passage it cannot merge with
        rendered = _render(_layout(trial, order), items, titles)
        if rendered != text:  # CTX-8: count the rendered whole
            counted = measure.count(rendered)
            if counted > budget:
                if not trim or trial[-1].members != (i,) or not trial[-1].verbatim:
                    continue  # CTX-8: skip what does not fit and keep going
                trim = False  # CTX-19: one trimmed passage a context, a new one alone
                cut = _trimmed(trial, order, items, titles, measure, budget)
                if cut is None:
                    continue
                trial, text, tokens = cut
            else:
                text, tokens = rendered, counted
        passages = trial
        hashes.add(record.content_hash)
        key = (record.doc_id, record.heading_path)
        if expand is None or key not in sections or key in tried:
            continue
        members = sections[key]
        packed = {m for p in passages for m in p.members}
        if sum(1 for m in members if m in packed) < max(2, math.ceil(expand * len(members))):
            continue
        tried.add(key)  # CTX-18: one try per section, all of its other records at once
        grown, added = passages, set(hashes)
        for m in members:
            if m in packed or items[m].content_hash in added:
                continue
            step = _place(grown, items[m], m, rank, values[m])
            if step is not None:
                grown = step
                added.add(items[m].content_hash)
        if grown is passages:
            continue
        rendered = _render(_layout(grown, order), items, titles)
        if rendered == text:
            passages, hashes = grown, added  # covered records only: nothing new to count
            continue
        counted = measure.count(rendered)
        if counted <= budget:  # CTX-8: the whole section's rendering, or nothing of it
            passages, hashes, text, tokens = grown, added, rendered, counted
    layout = _layout(passages, order)
    return PackedContext(
        text,
        tokens,
        budget,
        name,
        order,
        tuple(_passage(str(n), p, items) for n, p in enumerate(layout, 1)),
        allowed.count(False),
        titles,
        unreadable,
    )


def _access(
    items: list[ChunkRecord], principal: Principal | None
) -> tuple[list[bool], tuple[str, ...]]:
    """Who may read each record (CTX-13), and the ids of records whose labels cannot be
    read: withheld from every principal, none included (TRUST-10)."""
    allowed: list[bool] = []
    unreadable: list[str] = []
    for record in items:
        verdict = may_read(_labels(record), principal)
        allowed.append(verdict is True)
        if verdict is None:
            unreadable.append(record.id)
    return allowed, tuple(unreadable)


def _trimmed(
    trial: list[_Open],
    order: str,
    items: list[ChunkRecord],
    titles: bool,
    measure: TokenCounter,
    budget: int,
) -> tuple[list[_Open], str, int] | None:
    """CTX-19: the passages with the new last one cut at its longest word end that fits.

    Word ends are WS-1's; the cut is found by bisection, which is the longest fitting one
    for a counter whose count never falls as text grows (whitespace, chars{N}).
    """
    last = trial[-1]
    ends = [b for _, b in _WORDS.token_spans(last.body) if b < len(last.body)]

    def attempt(k: int) -> tuple[list[_Open], str, int] | None:
        cut = replace(last, end=last.start + ends[k], body=last.body[: ends[k]])
        passages = [*trial[:-1], cut]
        rendered = _render(_layout(passages, order), items, titles)
        counted = measure.count(rendered)
        return (passages, rendered, counted) if counted <= budget else None

    best: tuple[list[_Open], str, int] | None = None
    low, high = -1, len(ends)  # attempt(low) fits (or low is -1); attempt(high) does not
    while high - low > 1:
        middle = (low + high) // 2
        found = attempt(middle)
        if found is None:
            high = middle
        else:
            low, best = middle, found
    return best


_WORDS = WhitespaceCounter()


def _sections(
    visible: list[tuple[int, ChunkRecord]],
) -> dict[tuple[str, tuple[str, ...]], list[int]]:
    """CTX-18: the readable records of each section (document and non-empty heading path),
    by position."""
    sections: dict[tuple[str, tuple[str, ...]], list[int]] = {}
    for index, record in visible:
        if record.heading_path:
            sections.setdefault((record.doc_id, record.heading_path), []).append(index)
    items = dict(visible)
    for members in sections.values():
        members.sort(key=lambda m: (items[m].start, items[m].end, items[m].index, m))
    return sections


def _checked(
    records: Iterable[ChunkRecord], scores: Iterable[float]
) -> tuple[list[ChunkRecord], list[float]]:
    """The records and scores as lists, checked item by item (CTX-15)."""
    given: object = records
    if isinstance(given, (str, bytes)) or not isinstance(given, Iterable):
        raise ArgumentTypeError("records", "an iterable of ChunkRecord", given)
    items = list(records)
    for index, item in enumerate(items):
        if not isinstance(item, ChunkRecord):
            raise ArgumentTypeError(f"records[{index}]", "a ChunkRecord", item)
    numbers: object = scores
    if isinstance(numbers, (str, bytes)) or not isinstance(numbers, Iterable):
        raise ArgumentTypeError("scores", "an iterable of numbers", numbers)
    values = [require_real(f"scores[{i}]", s) for i, s in enumerate(scores)]
    if len(values) != len(items):
        raise ArgumentValueError(
            "scores", f"must hold one score per record ({len(items)})", len(values)
        )
    return items, values


def _counter(
    counter: str | TokenCounter | None,
    visible: list[tuple[int, ChunkRecord]],
    encoding_file: str | None = None,
) -> tuple[TokenCounter, str]:
    """The counter that measures the rendered context, and its name (CTX-8); a ``tiktoken:``
    name is built from ``encoding_file`` when one is given (COUNT-9)."""
    if encoding_file is not None:
        require_str("encoding_file", encoding_file)
        if counter is not None and not isinstance(counter, str):
            raise ArgumentValueError(
                "encoding_file",
                "applies to a tiktoken counter name, not a counter object "
                f"({type(counter).__name__})",
                encoding_file,
            )
    if counter is None:
        names = {r.counter for _, r in visible}
        if len(names) > 1 and len({measure_of(n) for n in names}) == 1:  # CTX-8
            names = {measure_of(next(iter(names)))}
        if len(names) > 1:
            at, first = visible[0]
            index, other = next((i, r) for i, r in visible if r.counter != first.counter)
            raise ArgumentValueError(
                f"records[{index}].counter",
                f"differs from records[{at}]'s {first.counter!r}; pass counter= to measure "
                "the context",
                other.counter,
            )
        counter = names.pop() if names else "whitespace"
        if reads_a_file(counter):  # TRUST-13: a record's counter never opens a file
            index, record = next((i, r) for i, r in visible if r.counter == counter)
            raise ArgumentValueError(
                f"records[{index}].counter",
                "reads a file, and a record may not choose one (TRUST-13): pass the counter "
                "as counter= (on the command line, --counter NAME)",
                record.counter,
            )
    if isinstance(counter, str):
        if encoding_file is not None:  # COUNT-9: applies to tiktoken names only
            return resolve_counter(counter, encoding_file=encoding_file), counter
        return counter_from_name(counter), counter
    if not callable(getattr(counter, "count", None)):
        raise ArgumentTypeError("counter", "a counter name or an object with count", counter)
    return counter, counter_name(counter)


def reads_a_file(name: str) -> bool:
    """True for a counter name whose counter is built from a file the name gives
    (``huggingface:PATH``): such a counter comes from the caller, never a record (TRUST-13)."""
    return name.partition(":")[0] == "huggingface"


def _check_documents(visible: list[tuple[int, ChunkRecord]]) -> None:
    """TRUST-12: readable records of one document name one source; CTX-4: verbatim ones
    agree on every character they share. Errors name both records and both sources."""
    items = dict(visible)
    first: dict[str, int] = {}
    for index, record in visible:
        at = first.setdefault(record.doc_id, index)
        if items[at].source != record.source:
            other = items[at]
            raise ArgumentValueError(
                f"records[{index}].source",
                f"(record {record.id!r}) differs from source {other.source!r} of record "
                f"{other.id!r}, both of document {record.doc_id!r}: one document has one "
                "source (TRUST-12)",
                record.source,
            )
    by_doc: dict[str, list[int]] = {}
    for index, record in visible:
        if not verbatim(record):
            continue
        if len(record.text) - len(record.prefix) != record.end - record.start:
            raise ArgumentValueError(
                f"records[{index}].text",
                f"is not prefix + source[{record.start}:{record.end}] (RECORD-3)",
                record.text,
            )
        by_doc.setdefault(record.doc_id, []).append(index)
    for doc_id, indexes in by_doc.items():
        indexes.sort(key=lambda i: (items[i].start, items[i].end))
        start, body = -1, ""
        for n, index in enumerate(indexes):
            record = items[index]
            mine = record.text[len(record.prefix) :]
            end = start + len(body)
            if start < 0 or record.start > end:
                start, body = record.start, mine
                continue
            shared = min(end, record.end) - record.start
            if body[record.start - start :][:shared] != mine[:shared]:
                other = _disagreeing(record, [items[k] for k in indexes[:n]])
                raise ArgumentValueError(
                    f"records[{index}].text",
                    f"(record {record.id!r}, source {record.source!r}) disagrees with record "
                    f"{other.id!r} (source {other.source!r}) of document {doc_id!r} where "
                    "their spans overlap: one document has one text (CTX-4, TRUST-12)",
                    record.text,
                )
            if record.end > end:
                body += mine[end - record.start :]


def _disagreeing(record: ChunkRecord, earlier: list[ChunkRecord]) -> ChunkRecord:
    """The earlier record whose text differs from ``record``'s at a shared offset."""
    mine = record.text[len(record.prefix) :]
    for other in earlier:
        theirs = other.text[len(other.prefix) :]
        for at in range(max(record.start, other.start), min(record.end, other.end)):
            if mine[at - record.start] != theirs[at - other.start]:
                return other
    return earlier[-1]  # unreachable: the merged body is made of the earlier records' texts


def _labels(record: ChunkRecord) -> Mapping[str, object]:
    """The record's access labels: its ``metadata`` (META-1; CTX-13 reads two keys)."""
    return record.metadata


def _place(
    passages: list[_Open], record: ChunkRecord, index: int, rank: int, score: float
) -> list[_Open] | None:
    """New passages with ``record`` added (CTX-2 to CTX-4), or None when it cannot be added.

    A record inside a passage (CTX-3) comes out as the same span with one more member.
    """
    mine = verbatim(record)
    near: list[_Open] = []
    for p in passages:
        if p.doc_id != record.doc_id:
            continue
        if p.start < record.end and record.start < p.end:
            if not (mine and p.verbatim):
                return None  # CTX-4: a non-verbatim text never merges, nor is overlapped
            near.append(p)
        elif mine and p.verbatim and p.start <= record.end and record.start <= p.end:
            near.append(p)  # CTX-2: touching spans merge too
    body = record.text[len(record.prefix) :] if mine else record.text
    pieces = [(p.start, 0, p.prefix, p.body) for p in near]
    pieces.append((record.start, 1, record.prefix, body))
    pieces.sort(key=lambda piece: (piece[0], piece[1]))  # an equal start: the passage's prefix
    start, _, prefix, text = pieces[0]
    for at, _, _, more in pieces[1:]:  # CTX-3: the union, each character once
        covered = start + len(text)
        if at + len(more) > covered:
            text += more[covered - at :]
    merged = _Open(
        record.doc_id,
        start,
        start + len(text) if mine else record.end,
        prefix,
        text,
        mine,
        min([rank, *(p.first for p in near)]),
        max([score, *(p.score for p in near)]),
        tuple(sorted({index, *(m for p in near for m in p.members)})),
    )
    return [p for p in passages if all(p is not q for q in near)] + [merged]


def _layout(passages: list[_Open], order: str) -> list[_Open]:
    """The passages in rendered order (CTX-10)."""
    if order == "score":
        return sorted(passages, key=lambda p: p.first)
    first: dict[str, int] = {}
    for p in passages:
        first[p.doc_id] = min(first.get(p.doc_id, p.first), p.first)
    return sorted(passages, key=lambda p: (first[p.doc_id], p.start, p.first))


def _render(layout: list[_Open], items: list[ChunkRecord], titles: bool) -> str:
    """The context text of passages in rendered order (CTX-9, CTX-17)."""
    return render_passages(
        [
            (
                str(n),
                _label(p, items) if titles else None,
                p.prefix + p.body if p.verbatim else p.body,
            )
            for n, p in enumerate(layout, 1)
        ]
    )


def _heading_path(p: _Open, items: list[ChunkRecord]) -> tuple[str, ...]:
    """The headings every record of the passage sits under: their common prefix (CTX-9)."""
    paths = [items[m].heading_path for m in p.members]
    common = paths[0]
    for path in paths[1:]:
        n = 0
        while n < min(len(common), len(path)) and common[n] == path[n]:
            n += 1
        common = common[:n]
    return common


def _first_record(p: _Open, items: list[ChunkRecord]) -> ChunkRecord:
    """The record the passage starts with (its title and source name the passage)."""
    return min((items[m] for m in p.members), key=lambda r: (r.start, r.index, r.id))


def _label(p: _Open, items: list[ChunkRecord]) -> str:
    """The header text of a passage: its document title, then its heading path (CTX-9)."""
    return passage_label(_first_record(p, items).title, _heading_path(p, items))


def _passage(key: str, p: _Open, items: list[ChunkRecord]) -> Passage:
    """The finished passage with its provenance (CTX-11)."""
    members = sorted((items[m] for m in p.members), key=lambda r: (r.start, r.end, r.id))
    first = _first_record(p, items)
    starts = [r.page_start for r in members if r.page_start is not None]
    ends = [r.page_end for r in members if r.page_end is not None]
    return Passage(
        key,
        p.doc_id,
        first.source,
        first.title,
        p.start,
        p.end,
        min(starts) if starts else None,
        max(ends) if ends else None,
        _heading_path(p, items),
        tuple(r.id for r in members),
        p.prefix,
        p.prefix + p.body if p.verbatim else p.body,
        p.score,
        any(r.end > p.end for r in members),  # CTX-19
    )
