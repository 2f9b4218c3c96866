"""The ``chunkspec`` command line: the subcommands and the flags, inputs, output and
signals they share.

Every subcommand is one module ``_NAME_command`` (``split``, ``pack``, ``chunk``,
``window``, ``pages``, ``view``, ``ingest``, ``diff``, ``vectors``, ``conformance``,
``eval``) exposing ``register(subparsers)``, which adds its parser and sets ``run`` (a
function of the parsed arguments returning an exit status) as a default; ``_main`` builds
the parser and runs it, and the other modules are what the commands share (the chunking
flags, inputs, output, signals). Errors become one line on stderr and exit status 2, never
a traceback (rule CLI-1). A command is argument parsing over the library: the corpus
engine is ``chunkspec._corpus`` (``chunkspec.ingest``).

May import every layer below it and the public modules; nothing in the package imports
it, the façade included (import-linter's layers and cli-is-a-leaf contracts,
pyproject.toml).
"""

from ._main import main, program

__all__ = ["main", "program"]
