"""The chunk record and everything that makes or compares it (docs/spec/records.md).

Holds ``ChunkRecord`` and its fields (RECORD), ``chunk_document`` (the one loop from a
strategy's spans to records), the stable chunk keys (KEY), the output rows of a corpus
run with their error rows (SCALE), the change set between two results (INCR) and the
record's JSON Schema.

May import ``_chunkers`` and everything below it (``_text``, ``_counters``, ``_core``,
``_errors``); never packing, the evaluation, the boundaries or the command line
(import-linter's layers contract, pyproject.toml).
"""
