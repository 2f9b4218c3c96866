"""The cyclic garbage collector paused while one document is chunked (docs/performance.md).

Chunking a document allocates millions of small objects that form no reference cycle
(spans, blocks, records). CPython's collector walks every live object at each full
collection, and those start part-way through a big document, so a 4x longer document cost
5x the time; with the collector paused for the call the cost is linear (4.05x from 4 to 16
MiB of Markdown). Reference counting still frees everything as usual; the collector runs
again, as before, after the call.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["collector_paused"]


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic collector for the block; leave it as it was found."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
