"""HTML documents (docs/spec/html.md, rules HTML-1..HTML-24): bytes to text, a browser's way.

One stage a module: ``_encoding`` (bytes to markup, HTML-2), ``_elements`` (what each element
is: block, inline, never text, furniture; HTML-5..HTML-12), ``_align`` (where each text node's
characters sit in the markup, HTML-19), ``_writer`` (CSS white-space and line breaks, the
blocks; HTML-4, HTML-6..HTML-9), ``_render`` (the tree walk, title and metadata; HTML-13,
HTML-14), ``_markup_map`` (text offsets to markup offsets, HTML-18..HTML-21) and ``_docx``
(Word files through mammoth, HTML-23).
"""
