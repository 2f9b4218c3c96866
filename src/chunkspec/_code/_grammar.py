"""The tree-sitter parser of a language, from the grammar wheels the ``code`` extra installs.

CODE-2: no grammar is downloaded, built or looked up at run time; a missing wheel is an
:class:`~chunkspec.InputError`-free ``ValueError`` naming the extra, raised before any text is
split. Parsers are made once per process and language.
"""

from __future__ import annotations

import functools
import importlib
from typing import Any

from .._errors import ArgumentValueError
from ._languages import LANGUAGES

__all__ = ["parser_for"]


@functools.cache
def parser_for(language: str) -> Any:
    """Return a ``tree_sitter.Parser`` for ``language`` (a name in :data:`LANGUAGES`)."""
    entry = LANGUAGES.get(language)
    if entry is None:
        raise ArgumentValueError("language", f"must be one of {', '.join(LANGUAGES)}", language)
    try:
        tree_sitter = importlib.import_module("tree_sitter")
        grammar = importlib.import_module(entry.module)
    except ImportError as error:
        raise ArgumentValueError(
            "strategy",
            f"code needs tree-sitter and the {language} grammar: pip install 'chunkspec[code]' "
            f"({error.name} is missing)",
            "code",
        ) from None
    return tree_sitter.Parser(tree_sitter.Language(getattr(grammar, entry.function)()))
