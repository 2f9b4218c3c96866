"""Token counters and their record names (docs/spec/windows.md, COUNT-*; RECORD-5).

A counter is any object with ``count`` and ``token_spans``; :func:`resolve_counter` is the
one way to turn a name (``whitespace``, ``unicode``, ``subword``, ``dict``, ``chars{N}``,
``tiktoken:{encoding}``, ``huggingface:{path}``) into one, built once per process and name,
and :func:`counter_name` gives the name back. :class:`DictionaryCounter` (``dict``) needs
the extra ``chunkspec[segment]``, imported only when one is built (SCRIPT-20..SCRIPT-26).
"""

from ._counters._builtin import (
    CharEstimateCounter,
    HuggingFaceCounter,
    SubwordCounter,
    TiktokenCounter,
    TokenCounter,
    TokenSpanCounter,
    UnicodeCounter,
    WhitespaceCounter,
)
from ._counters._dictionary import DictionaryCounter
from ._counters._registry import counter_name, resolve_counter

__all__ = [
    "CharEstimateCounter",
    "DictionaryCounter",
    "HuggingFaceCounter",
    "SubwordCounter",
    "TiktokenCounter",
    "TokenCounter",
    "TokenSpanCounter",
    "UnicodeCounter",
    "WhitespaceCounter",
    "counter_name",
    "resolve_counter",
]
