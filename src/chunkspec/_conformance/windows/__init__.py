"""The window op family of the kit: ``token_windows``, ``chunk_pages`` and
``split_sentences`` (CONF-3; TOKWIN, PAGE and SENT rules).

Holds the ops (``_ops``), their vectors from the goldens (``_vectors``), their generated
cases (``_generate``) and their blame (``_blame``). It may import the library's layers below
the kit, the kit's wire floor and the ``records`` family (the record object); never the
framework nor another family. Nothing is imported here.
"""
