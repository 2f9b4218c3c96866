"""``python -m chunkspec``: the same as the ``chunkspec`` command."""

import sys

from ._cli import main

sys.exit(main())
