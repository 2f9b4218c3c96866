"""The bottom layer: seed 000's algorithms and the values every other layer shares.

Holds ``Chunk``, ``split_section`` and ``assemble`` (docs/spec.md), their helpers (words,
tokens, graphemes, units, hashing), argument checks, the read-only ``Metadata`` (META) and
the strict JSON loader (TRUST-2). It may import only ``_errors`` and ``_version``
(import-linter's layers contract, pyproject.toml).
"""
