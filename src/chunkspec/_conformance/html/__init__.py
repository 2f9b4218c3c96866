"""The HTML op family of the kit: ``read_html`` (HTML-1..HTML-21; CONF-3).

Holds the op and its vectors (``_html_ops``, the cases in ``data/read_html.json``), its
generated broken-markup cases (``_html_generate``) and its blame (``_html_blame``: models of
the classic mistakes of a port's reader, the rules' own checks, and the rule a differing
part of the page pins down). It may import the library's layers below the kit and the kit's
wire floor; never the framework nor another family. Nothing is imported here.
"""
