"""A document's pages and the text they join to (rule PAGE-2): the page model that readers
(``_pdf``, ``_documents``) and the page chunker share."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .._core._validate import require_int, require_str, require_text
from .._errors import ArgumentTypeError, ArgumentValueError

__all__ = ["PAGE_SEPARATOR", "Page", "checked_pages", "join_pages"]

#: The character between pages in ``full_text`` (rule PAGE-2): form feed, U+000C.
PAGE_SEPARATOR = "\f"


@dataclass(frozen=True, slots=True)
class Page:
    """One page of a document: its 1-based ``number`` and its extracted ``text``."""

    number: int
    text: str


def checked_pages(pages: object) -> list[Page]:
    """Validate ``pages`` (all ``str`` or all ``Page``) and return them as ``Page`` objects."""
    if isinstance(pages, (str, bytes)) or not isinstance(pages, Sequence):
        raise ArgumentTypeError("pages", "a sequence of str or of Page", pages)
    result: list[Page] = []
    kinds: set[type] = set()
    for i, item in enumerate(pages):
        if isinstance(item, str):
            page = Page(i + 1, item)
            kinds.add(str)
        elif isinstance(item, Page):
            page = item
            kinds.add(Page)
            require_int(f"pages[{i}].number", page.number, minimum=1)
            require_str(f"pages[{i}].text", page.text)
            if result and page.number <= result[-1].number:
                raise ArgumentValueError(
                    f"pages[{i}].number",
                    f"must be greater than the previous page's ({result[-1].number}): "
                    "pages must be in increasing order",
                    page.number,
                )
        else:
            raise ArgumentTypeError(f"pages[{i}]", "a str or a Page", item)
        if len(kinds) > 1:
            raise ArgumentTypeError(f"pages[{i}]", "of the same kind as pages[0]", item)
        name = f"pages[{i}]" if isinstance(item, str) else f"pages[{i}].text"
        require_text(name, page.text)
        if PAGE_SEPARATOR in page.text:
            raise ArgumentValueError(
                name, "must not contain a form feed (U+000C), the page separator", page.text
            )
        result.append(page)
    return result


def join_pages(pages: Sequence[str] | Sequence[Page]) -> str:
    """Return ``full_text == "\\f".join(page texts)``, the text chunk offsets index (PAGE-2)."""
    return PAGE_SEPARATOR.join(p.text for p in checked_pages(pages))
