"""``python -m chunkspec``: the same as the ``chunkspec`` command."""

from ._cli import program

program()
