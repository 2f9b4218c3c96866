"""The source code op family of the kit: ``chunk_code`` (CODE-1..CODE-11; CONF-3).

Holds the op and its vectors (``_code_ops``, the cases in ``data/chunk_code.json``), its
generated programs (``_code_generate``) and its blame (``_code_blame``: models of a port's
classic mistakes, the rules' own checks, and the rule a differing field names). It may import
the library's layers below the kit and the kit's wire floor; never the framework nor another
family. Nothing is imported here.
"""
