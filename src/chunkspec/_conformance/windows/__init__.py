"""The window op family of the kit: ``token_windows``, ``chunk_pages`` and ``split_sentences``
(CONF-3; TOKWIN, PAGE and SENT rules).

Holds the ops (``_windows_ops``), their vectors from the goldens (``_windows_vectors``),
their generated cases (``_windows_generate``) and their blame (``_windows_blame``). It may
import the library's layers below the kit, the kit's wire floor and the ``records`` family
(the record object); never the framework nor another family. Nothing is imported here.
"""
