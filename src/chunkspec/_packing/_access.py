"""Who may read a record: a principal's tenant and labels against the record's (CTX-13)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .._core._access_keys import LABELS_KEY, TENANT_KEY
from .._core._validate import require_text
from .._errors import ArgumentTypeError

__all__ = ["LABELS_KEY", "TENANT_KEY", "Principal", "may_read", "readable"]


@dataclass(frozen=True, slots=True)
class Principal:
    """The caller a context is packed for: the labels it holds and its tenant (CTX-13).

    ``labels`` is any iterable of str (kept as a frozenset); ``tenant`` a str or None.
    """

    labels: frozenset[str] = frozenset()
    tenant: str | None = None

    def __init__(self, labels: Iterable[str] = (), tenant: str | None = None) -> None:
        if isinstance(labels, (str, bytes)) or not isinstance(labels, Iterable):
            raise ArgumentTypeError("principal.labels", "an iterable of str", labels)
        held = frozenset(require_text("principal.labels[...]", label) for label in labels)
        if tenant is not None:
            require_text("principal.tenant", tenant)
        object.__setattr__(self, "labels", held)
        object.__setattr__(self, "tenant", tenant)


def readable(argument: str, labels: Mapping[str, object], principal: Principal | None) -> bool:
    """True if ``principal`` may read a record whose metadata is ``labels`` (CTX-13).

    A set ``tenant_id`` (not None) must equal the principal's tenant; every one of the
    ``acl_labels`` (a list of str; None or empty asks for none) must be held by the
    principal. With no principal, only a record that asks for neither is readable. A
    ``tenant_id`` that is not a str, or ``acl_labels`` that are not a list of str, raise
    TypeError naming ``argument``: a malformed label never reads as no label.
    """
    tenant = labels.get(TENANT_KEY)
    if tenant is not None and not isinstance(tenant, str):
        raise ArgumentTypeError(f"{argument}[{TENANT_KEY!r}]", "a str or None", tenant)
    wanted = labels.get(LABELS_KEY)
    needed: frozenset[str] = frozenset()
    if wanted is not None:
        if isinstance(wanted, (str, bytes)) or not isinstance(wanted, (list, tuple)):
            raise ArgumentTypeError(f"{argument}[{LABELS_KEY!r}]", "a list of str", wanted)
        if not all(isinstance(label, str) for label in wanted):
            raise ArgumentTypeError(f"{argument}[{LABELS_KEY!r}]", "a list of str", wanted)
        needed = frozenset(wanted)
    if tenant is None and not needed:
        return True
    if principal is None:
        return False  # CTX-13: default deny when a record asks for a tenant or labels
    if tenant is not None and principal.tenant != tenant:
        return False
    return needed <= principal.labels


def may_read(labels: Mapping[str, object], principal: Principal | None) -> bool | None:
    """:func:`readable` for a packer: None when the labels cannot be read (TRUST-10), so the
    record is withheld from every principal, none included, and named; never an error."""
    try:
        return readable("metadata", labels, principal)
    except ArgumentTypeError:  # a malformed label never reads as no label
        return None
