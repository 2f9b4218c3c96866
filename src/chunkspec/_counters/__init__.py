"""Token counters: the built-in ones, the dictionary-word counter, tiktoken encoding files and
the registry that builds a counter from its name (COUNT, SCRIPT rules).

May import ``_core`` and ``_errors`` only (import-linter's layers contract, pyproject.toml).
"""
