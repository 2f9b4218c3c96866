"""Token counters and their record names (docs/spec/windows.md, COUNT-*; RECORD-5).

A counter is any object with ``count`` and ``token_spans``; :func:`resolve_counter` turns a
name (``whitespace``, ``unicode``, ``dict``, ``chars{N}``, ``tiktoken:{encoding}``,
``huggingface:{path}``) into one. :class:`DictionaryCounter` (``dict``) needs the extra
``chunkspec[segment]``, imported only when one is built (SCRIPT-20..SCRIPT-26).
"""

from ._counters._builtin import (
    CharEstimateCounter,
    HuggingFaceCounter,
    TiktokenCounter,
    TokenCounter,
    TokenSpanCounter,
    UnicodeCounter,
    WhitespaceCounter,
)
from ._counters._dictionary import DictionaryCounter
from ._counters._registry import counter_from_name, counter_name, resolve_counter

__all__ = [
    "CharEstimateCounter",
    "DictionaryCounter",
    "HuggingFaceCounter",
    "TiktokenCounter",
    "TokenCounter",
    "TokenSpanCounter",
    "UnicodeCounter",
    "WhitespaceCounter",
    "counter_from_name",
    "counter_name",
    "resolve_counter",
]
