"""The packing op family of the kit: ``pack_records`` (CONF-3; CTX rules).

Holds the op and its vectors (``_packing_ops``), its generated cases (``_packing_generate``)
and the CTX rules' checks the blame uses (``_checks``). It may import the library's layers
below the kit, the kit's wire floor and the ``records`` family (the record object); never
the framework nor another family. Nothing is imported here.
"""
