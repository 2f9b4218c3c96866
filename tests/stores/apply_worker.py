"""``python -m tests.stores.apply_worker RESULT ADDRESS CACHE``: one apply, to be killed.

The kill-and-rerun trials (test_apply.py, STORE-5) start this, kill it at a random moment
and run it again; small batches give the kill many places to land.
"""

from __future__ import annotations

import sys
import time

from chunkspec.stores import apply_result, open_store
from tests.stores.store_rows import embedder


def main() -> None:
    """Say ``ready`` once the store is open, apply, then say ``applied SECONDS``."""
    result, address, cache = sys.argv[1:4]
    store = open_store(address)
    print("ready", flush=True)
    started = time.perf_counter()
    try:
        apply_result(result, store, embedder(), cache=cache, batch_size=4)
    finally:
        store.close()
    print(f"applied {time.perf_counter() - started:.6f}", flush=True)


if __name__ == "__main__":
    main()
