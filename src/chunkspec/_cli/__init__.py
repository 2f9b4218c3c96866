"""The ``chunkspec`` command line: the subcommands and the flags, inputs, output and
signals they share.

Every subcommand module (``_split``, ``_chunk``, ``_window``, ``_pages``, ``_ingest``,
``_pack``, ``_view``, ``_diff``, ``_eval``, ``_vectors``, ``_conformance``) exposes
``register(subparsers)``, which adds its parser and sets ``run`` (a function of the parsed
arguments returning an exit status) as a default; the other modules are what they share.
Errors become one line on stderr and exit status 2, never a traceback (rule CLI-1).

May import every layer below it and the public modules; nothing in the package imports
it, the façade included (import-linter's layers and cli-is-a-leaf contracts,
pyproject.toml).
"""

from ._main import main, program

__all__ = ["main", "program"]
