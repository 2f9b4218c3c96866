"""The chunkers: each turns a read document into spans (heading-aware, structural,
recursive, window, pages), with the size rules they share (SIZE) and their options.

May import ``_text``, ``_counters``, ``_core`` and ``_errors``; never records, packing or the
command line (import-linter's layers contract, pyproject.toml).
"""
