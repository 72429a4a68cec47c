"""Issue 34: a delegation's documents (NY 十二(一), DA 十(一)1, NT 十(一)1: the unit sends its
stamped entry form, the ID-card and insurance scans and a screenshot of the payment). Its leader
uploads them by the delegation's secret link, optionally naming a person of its own roster; the
content checks, the caps (the unit's bytes capped as an entry's are), the record, the encryption
and the reading back are every uploader's (`documents`). Authorisation is `document_access`'s, the one place for every uploader.

Nothing here logs a document, its name or who uploaded it by name."""

from __future__ import annotations

from typing import Any

from gomoku_shared.auth import Principal
from gomoku_shared.errors import NotFound, Unprocessable

from ..adapters.repositories import Repositories
from ..domain.documents import CheckedDocument, DelegationDocumentKind
from .command import EventCommand
from .document_access import may_add_unit_documents, may_read_document
from .documents import document_view, store


async def add_unit_document(
    cmd: EventCommand,
    unit_id: str,
    kind: DelegationDocumentKind,
    person_id: str | None,
    checked: CheckedDocument,
) -> dict[str, Any]:
    """Store a checked document of a delegation the caller may act for (another: 404), about one of
    its roster's people if named (another delegation's: 422), within the unit's cap."""
    link = await cmd.uow.delegation_links.of_holder(cmd.code, unit_id)
    if link is None or not may_add_unit_documents(cmd.principal, unit_id):
        raise NotFound("unknown_unit", f"no delegation {unit_id!r}")
    if person_id is not None:
        ours = {p.get("person_id") for p in (link.roster or {}).get("people", [])}
        if person_id not in ours:
            raise Unprocessable("document_person_not_of_delegation", "the person is not one of this delegation's")
    return await store(cmd, checked, kind.value, unit_id=unit_id, person_id=person_id)


async def unit_documents(repos: Repositories, principal: Principal, code: str, unit_id: str) -> list[dict[str, Any]]:
    """A delegation's documents the caller may read (metadata only)."""
    found = await repos.documents.list_of_unit(code, unit_id)
    return [document_view(r) for r in found if may_read_document(principal, r)]
