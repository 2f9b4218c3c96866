"""Token counters: the pluggable measure of size that every chunker with a budget takes.

Two protocols (docs/spec/windows.md, rules COUNT-1 .. COUNT-8):

* ``TokenCounter``: ``count(text) -> int``, the minimal protocol every chunker accepts.
* ``TokenSpanCounter``: a ``TokenCounter`` that also says where each token lies,
  ``token_spans(text) -> list[tuple[int, int]]`` with ``len(token_spans(text)) ==
  count(text)`` (rule COUNT-2). Windows over tokens need it: they cut the *source* at token
  starts, so provenance is exact and no decode step can mangle a split character.
"""

from __future__ import annotations

import itertools
import operator
import os
import re
from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from .._core._subwords import subword_count, subword_spans, subword_starts
from .._core._tokens import WHITESPACE
from .._core._units import has_cluster_script, unit_count, unit_spans
from .._core._validate import require_int, require_str, require_text
from .._core._word_count import word_count
from .._errors import ArgumentTypeError, ArgumentValueError

if TYPE_CHECKING:
    import tiktoken
    import tokenizers

__all__ = [
    "CharEstimateCounter",
    "HuggingFaceCounter",
    "TiktokenCounter",
    "TokenCounter",
    "TokenSpanCounter",
    "UnicodeCounter",
    "WhitespaceCounter",
    "checked_starts",
]


@runtime_checkable
class TokenCounter(Protocol):
    """Anything that counts the tokens of a text: ``count(text) -> int`` (COUNT rules)."""

    def count(self, text: str) -> int:
        """Return the number of tokens in ``text``."""
        ...


@runtime_checkable
class TokenSpanCounter(TokenCounter, Protocol):
    """A counter that also locates its tokens: ``len(token_spans(t)) == count(t)`` (COUNT-2).

    Each span is ``(start, end)``, character offsets (code points) into ``text`` with
    ``0 <= start <= end <= len(text)`` and starts non-decreasing (rule COUNT-3).
    """

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        """Return the character span of every token of ``text``, in order."""
        ...


#: A run of ``str.isspace()`` characters, captured so ``split`` keeps it (rule COUNT-4).
_SPACE_RUN = re.compile("([" + re.escape("".join(sorted(WHITESPACE))) + "]+)")


class WhitespaceCounter:
    """``len(text.split())`` (rules TOK-1, COUNT-4); the default everywhere.

    Its tokens are the maximal runs of non-whitespace (``str.isspace``) characters, so
    ``[text[a:b] for a, b in token_spans(text)] == text.split()`` (rule COUNT-4).
    """

    name = "whitespace"

    def count(self, text: str) -> int:
        """Return the number of whitespace-separated words in ``text``."""
        return word_count(require_str("text", text))  # len(text.split()) (TRUST-51)

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        """Return the span of every maximal run of non-whitespace characters."""
        # split() with a captured separator alternates word, space, word, ...; the running
        # sum of the part lengths gives every boundary without a Python-level loop.
        parts = _SPACE_RUN.split(require_str("text", text))
        bounds = [0, *itertools.accumulate(map(len, parts))]
        spans = list(zip(bounds[0::2], bounds[1::2], strict=True))
        if spans and spans[-1][0] == spans[-1][1]:
            spans.pop()
        if spans and spans[0][0] == spans[0][1]:
            del spans[0]
        return spans

    def __repr__(self) -> str:
        return "WhitespaceCounter()"


class UnicodeCounter:
    """Units that exist in every script (rules SCRIPT-1..SCRIPT-3, COUNT-11).

    Whitespace words, except that each grapheme cluster of a script written without
    spaces (Han, kana, Hangul, Thai, Lao, Khmer, Myanmar) is a unit of its own: on text
    of scripts that use spaces it counts exactly as :class:`WhitespaceCounter`, and on
    Chinese a budget of 512 is 512 ideographs, not one "word".
    """

    name = "unicode"

    def count(self, text: str) -> int:
        """Return the number of units of ``text`` (SCRIPT-3)."""
        return unit_count(require_str("text", text))

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        """Return the span of every unit (SCRIPT-3)."""
        return unit_spans(require_str("text", text))

    def __repr__(self) -> str:
        return "UnicodeCounter()"


class SubwordCounter:
    """An estimate of subword tokens in every script (rules SCRIPT-30..SCRIPT-35, COUNT-12).

    Measured to stay within 1.5x of ``cl100k_base``, ``o200k_base`` and all-MiniLM-L6-v2's
    WordPiece on every chunk of real text in 29 languages, code, minified files and base64,
    where whitespace words undercount up to 470x (docs/spec/scripts.md, "Measured"). ASCII
    letters count a unit per started five of a case piece, digits per started three, other
    ASCII characters one each; a non-ASCII grapheme cluster one per code point, two or
    three in the scripts tokenizers spend more on; a word that starts a line one more.
    ``count(text) == len(token_spans(text))``; a heavy cluster's span repeats (COUNT-3).
    """

    name = "subword"

    def count(self, text: str) -> int:
        """Return the number of units of ``text`` (SCRIPT-30..SCRIPT-33)."""
        return subword_count(require_str("text", text))

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        """Return the span of every unit, a heavy cluster's once per weight (SCRIPT-32)."""
        return subword_spans(require_str("text", text))

    def __repr__(self) -> str:
        return "SubwordCounter()"


class CharEstimateCounter:
    """An estimate: one token per ``chars_per_token`` characters, rounded up (COUNT-5).

    ``count(text) == ceil(len(text) / chars_per_token)`` (rule COUNT-5); the tokens are the
    consecutive blocks ``text[k*c:(k+1)*c]``, so a window of ``n`` ``chars4`` tokens
    is ``n * 4`` characters.
    """

    name = "chars4"

    def __init__(self, chars_per_token: int = 4) -> None:
        self.chars_per_token = require_int("chars_per_token", chars_per_token, minimum=1)

    def count(self, text: str) -> int:
        """Return ``ceil(len(text) / chars_per_token)``."""
        c = self.chars_per_token
        return (len(require_str("text", text)) + c - 1) // c

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        """Return the blocks ``(k*c, min((k+1)*c, len(text)))``."""
        n = len(require_str("text", text))
        c = self.chars_per_token
        spans = list(zip(range(0, n, c), range(c, n + c, c), strict=True))
        if spans:
            spans[-1] = (spans[-1][0], n)  # the last block may be short
        return spans

    def __repr__(self) -> str:
        return f"CharEstimateCounter(chars_per_token={self.chars_per_token})"


#: The bytes that continue a UTF-8 sequence (10xxxxxx); deleting them leaves one byte a char.
_CONTINUATION = bytes(range(0x80, 0xC0))


def _missing(extra: str, module: str) -> ImportError:
    """Return the ImportError raised when an optional dependency is absent."""
    return ImportError(f"{module} is not installed: pip install 'chunkspec[{extra}]'")


class TiktokenCounter:
    """OpenAI BPE tokens via ``tiktoken`` (extra ``chunkspec[tiktoken]``), rule COUNT-6.

    ``count(text) == len(encoding.encode_ordinary(text))``: text that looks like a special
    token (``"<|endoftext|>"``) is counted as ordinary text, never rejected. ``encoding`` is
    a name (``"cl100k_base"``, resolved by ``tiktoken.get_encoding``, which needs the cached
    file or network once) or a ``tiktoken.Encoding`` object.

    Offline, give the encoding's rank file (``cl100k_base.tiktoken``, the file tiktoken
    downloads) as ``encoding_file``: the encoding ``encoding`` names is built from it, the
    file checked against the SHA-256 tiktoken pins (COUNT-9). Without it, an encoding that
    is neither cached nor downloadable is a one-line ValueError naming ``encoding`` (COUNT-10).
    """

    name = "tiktoken"

    def __init__(
        self,
        encoding: str | tiktoken.Encoding = "cl100k_base",
        *,
        encoding_file: str | os.PathLike[str] | None = None,
    ) -> None:
        try:
            import tiktoken
        except ImportError:
            raise _missing("tiktoken", "tiktoken") from None
        from ._tiktoken_files import encoding_from_file, load_encoding

        if encoding_file is not None:
            if not isinstance(encoding, str):
                raise ArgumentTypeError(
                    "encoding", "an encoding name (str) with encoding_file", encoding
                )
            self.encoding = encoding_from_file(encoding, encoding_file)
        elif isinstance(encoding, str):
            self.encoding = load_encoding(encoding)
        elif isinstance(encoding, tiktoken.Encoding):
            self.encoding = encoding
        else:
            raise ArgumentTypeError("encoding", "a str or a tiktoken.Encoding", encoding)

    def count(self, text: str) -> int:
        """Return the number of BPE tokens of ``text`` (special tokens not recognised)."""
        return len(self.encoding.encode_ordinary(require_text("text", text)))

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        """Return each token's character span; a token that splits a character covers it.

        A token's bytes may start or end inside a multi-byte character: its span then starts
        at that character (floor) and ends after it (ceiling), so spans of neighbours can
        share one character (rule COUNT-7).
        """
        tokens = self.encoding.encode_ordinary(require_text("text", text))
        spans: list[tuple[int, int]] = []
        chars = 0  # characters whose lead byte lies in the tokens seen so far
        for piece in self.encoding.decode_tokens_bytes(tokens):
            start = chars - 1 if piece and 0x80 <= piece[0] < 0xC0 else chars
            chars += len(piece.translate(None, _CONTINUATION))
            spans.append((start, chars))
        return spans

    def __repr__(self) -> str:
        return f"TiktokenCounter({self.encoding.name!r})"


class HuggingFaceCounter:
    """Hugging Face ``tokenizers`` tokens (extra ``chunkspec[tokenizers]``), rule COUNT-8.

    ``count(text) == len(tokenizer.encode(text, add_special_tokens=False).ids)``. The
    tokenizer must not truncate or pad (that would change counts); build it in process or
    load a local ``tokenizer.json`` with ``tokenizers.Tokenizer.from_file``.
    """

    name = "huggingface"

    def __init__(self, tokenizer: tokenizers.Tokenizer) -> None:
        try:
            import tokenizers
        except ImportError:
            raise _missing("tokenizers", "tokenizers") from None
        if not isinstance(tokenizer, tokenizers.Tokenizer):
            raise ArgumentTypeError("tokenizer", "a tokenizers.Tokenizer", tokenizer)
        if tokenizer.truncation is not None:
            raise ArgumentValueError(
                "tokenizer", "must not truncate (call no_truncation() first)", tokenizer
            )
        if tokenizer.padding is not None:
            raise ArgumentValueError(
                "tokenizer", "must not pad (call no_padding() first)", tokenizer
            )
        self.tokenizer = tokenizer

    @classmethod
    def from_file(cls, path: str) -> HuggingFaceCounter:
        """Load a ``tokenizer.json``; the counter's record name is ``huggingface:{path}``."""
        try:
            from tokenizers import Tokenizer
        except ImportError:
            raise _missing("tokenizers", "tokenizers") from None
        counter = cls(Tokenizer.from_file(path))
        counter.name = f"huggingface:{path}"
        return counter

    def count(self, text: str) -> int:
        """Return the number of tokens, without special tokens."""
        text = require_text("text", text)
        return len(self.tokenizer.encode(text, add_special_tokens=False).ids)

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        """Return the tokenizer's character offsets for each token."""
        text = require_text("text", text)
        return list(self.tokenizer.encode(text, add_special_tokens=False).offsets)

    def __repr__(self) -> str:
        return f"HuggingFaceCounter({self.tokenizer!r})"


def checked_starts(counter: object, text: str) -> Sequence[int]:
    """Return the token starts of ``counter.token_spans(text)``, checking rule COUNT-3.

    The built-in whitespace, subword and character counters' starts are computed compactly
    (an array of machine integers, a range), never as a list of ``(start, end)`` pairs: a pair
    costs about 100 bytes a token, 30-40 times a text of short words (docs/performance.md).
    """
    if type(counter) is WhitespaceCounter:
        return _word_starts(require_str("text", text))
    if type(counter) is UnicodeCounter:
        return _word_starts(require_str("text", text), units=True)
    if type(counter) is CharEstimateCounter:
        return range(0, len(require_str("text", text)), counter.chars_per_token)
    if type(counter) is SubwordCounter:  # SCRIPT-30 holds by construction
        return subword_starts(require_str("text", text))
    if not isinstance(counter, TokenSpanCounter):
        raise ArgumentTypeError(
            "counter",
            "a TokenSpanCounter (count and token_spans; every built-in counter is one)",
            counter,
        )
    spans = counter.token_spans(text)
    if not spans:
        return []
    starts = list(map(operator.itemgetter(0), spans))
    ends = list(map(operator.itemgetter(1), spans))
    n = len(text)
    if (
        starts[0] < 0
        or max(ends) > n
        or not all(map(operator.le, starts, ends))
        or not all(map(operator.le, starts, starts[1:]))
    ):
        previous = 0
        for i, (a, b) in enumerate(spans):
            if not (previous <= a <= b <= n):
                raise ArgumentValueError(
                    "counter",
                    f"returned a bad token span {(a, b)} at token {i} for a text of length "
                    f"{n} (spans must lie in the text with starts non-decreasing)",
                    counter,
                )
            previous = a
    return starts


#: Characters of text whose word starts are found at once by :func:`_word_starts`.
_STARTS_PIECE = 1 << 16


def _word_starts(text: str, units: bool = False) -> array[int]:
    """``[a for a, _ in WhitespaceCounter().token_spans(text)]`` as an array (COUNT-4), or
    with ``units`` ``UnicodeCounter().token_spans(text)``'s starts (SCRIPT-3).

    The text is read a piece at a time, each piece ending after a whitespace character
    (or at the end), so that no word is cut and the split's parts of one piece only are
    alive at once. Units never cross whitespace, so a piece holding no character of a
    script written without spaces has its words as units; one that holds one is read by
    ``unit_spans``.
    """
    starts: array[int] = array("i" if len(text) < 1 << 31 else "q")
    n = len(text)
    at = 0
    while at < n:
        stop = min(at + _STARTS_PIECE, n)
        if stop < n:
            match = _SPACE_RUN.search(text, stop)
            stop = n if match is None else match.end()
        if units and has_cluster_script(text, at, stop):
            starts.extend(a for a, _ in unit_spans(text, at, stop))
            at = stop
            continue
        parts = _SPACE_RUN.split(text[at:stop])
        bounds = itertools.islice(itertools.accumulate(map(len, parts), initial=at), 0, None, 2)
        # parts alternate word, space, word...: the even bounds start the words (and there
        # is one bound more than parts, so the zip stops at the last word).
        starts.extend(start for start, word in zip(bounds, parts[0::2], strict=False) if word)
        at = stop
    return starts
