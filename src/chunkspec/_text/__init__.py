"""Reading documents: bytes and files to text, front matter, Markdown blocks, pages, PDF,
sentences and lines (SOURCE, FM, MD, PAGE rules), and the regular-file reader that keeps
inputs inside the corpus (TRUST-31, TRUST-32).

May import ``_core`` and ``_errors`` only (import-linter's layers contract, pyproject.toml).
"""
