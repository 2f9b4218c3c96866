"""The ``pack_records`` op of the kit (CONF-3; CTX rules).

Op, vectors, generator and rule checks of the packer; nothing is imported here.
"""
