"""Issue 34: who may add documents to an entry, and who may read one — the one place a new kind
of principal (a registrant's secret link) is admitted.

Staff are checked per event by their route (the `evidence.review` action, 403 `not_your_event`
otherwise) before these run; here staff may act on every entry of that event."""

from __future__ import annotations

from gomoku_shared.auth import Principal

from ..adapters.repository import EntryMeta
from ..domain.documents import DocumentRecord


def uploader_of(principal: Principal) -> tuple[str, str]:
    """Who uploads, as a document keeps it: the principal's kind and id (never a name)."""
    if principal.role == "partner":
        return "partner", principal.partner_id or principal.key_id
    if principal.role == "registrant":
        return "registrant", f"entry:{principal.entry_id}"
    if principal.role == "delegation":
        return "delegation", f"unit:{principal.unit_id}"
    return "staff", principal.actor_id


def may_add_documents(principal: Principal, entry_id: str, entry: EntryMeta) -> bool:
    """The partner that registered the entry, staff (whoever may add evidence to it today), or the
    registrant whose secret link proves this very entry."""
    if principal.is_staff:
        return True
    if principal.role == "registrant":
        return principal.entry_id is not None and principal.entry_id == entry_id
    return principal.role == "partner" and entry.partner_id == principal.partner_id


def may_add_unit_documents(principal: Principal, unit_id: str) -> bool:
    """A delegation's documents: staff, or the leader whose secret link proves this very unit."""
    if principal.is_staff:
        return True
    return principal.role == "delegation" and principal.unit_id is not None and principal.unit_id == unit_id


def may_read_document(principal: Principal, record: DocumentRecord) -> bool:
    """Staff holding the review action on the event (checked by the route), the registrant of the
    document's entry (its link proves that entry alone), the leader of the document's delegation
    (its link proves that unit alone), or the uploader."""
    if principal.role == "registrant":
        return principal.entry_id is not None and principal.entry_id == record.entry_id
    if principal.role == "delegation":
        return principal.unit_id is not None and principal.unit_id == record.unit_id
    return principal.is_staff or uploader_of(principal) == (record.uploaded_by_kind, record.uploaded_by_id)
