"""The metadata keys that decide who may read a record (CTX-13, TRUST-3), in one place.

The packer's access check (``_packing/_access.py``) reads them from a record's metadata;
the front-matter reader (``_text/_front_matter.py``) refuses a document that sets one in a
form it cannot read (TRUST-3). Both import them from here, the lowest layer.
"""

from __future__ import annotations

__all__ = ["ACCESS_KEYS", "LABELS_KEY", "TENANT_KEY"]

#: The metadata key naming the tenant a record belongs to (HEAD-9's ``tenant_id``).
TENANT_KEY = "tenant_id"

#: The metadata key listing the labels a reader must hold (HEAD-9's ``acl_labels``).
LABELS_KEY = "acl_labels"

#: Every access key, in the order errors name them (TRUST-3).
ACCESS_KEYS = (TENANT_KEY, LABELS_KEY)
