"""The Markdown op family of the kit: ``split_markdown`` and ``heading_aware`` (CONF-3; MD and
HEAD rules).

Holds the ops (``_markdown_ops``, with the oracle's answer to them), their vectors from the
goldens (``_markdown_vectors``), their generated cases (``_markdown_generate``) and their
blame (``_markdown_blame``). It may import the library's layers below the kit and the kit's
wire floor (``_wire``, ``_compare``); never the framework (``_oracle``, ``_runner``...) nor
another family. Nothing is imported here.
"""
