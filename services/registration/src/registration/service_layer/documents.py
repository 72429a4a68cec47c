"""Issue 34: a registrant's documents — added to an entry after their content is checked, kept
encrypted by the `DocumentStore` (`uow.documents`), read by the arbiter who reviews the event's
evidence and by whoever uploaded them, and deleted a number of days after the event's last day.

Nothing here logs a document, its name or who uploaded it by name."""

from __future__ import annotations

import hashlib
import secrets
from datetime import date, timedelta
from typing import Any

from gomoku_shared.auth import Principal
from gomoku_shared.errors import NotFound, Unprocessable
from gomoku_shared.event_config import EventConfig

from ..adapters.repositories import Repositories
from ..domain.documents import CheckedDocument, DocumentKind, DocumentRecord, DocumentRefused
from .command import EventCommand
from .document_access import may_add_documents, may_read_document, uploader_of
from .state import RegistrationState


def delete_after(config: EventConfig, retention_days: int) -> date:
    """The day a document of the event is deleted after: its last day plus the retention."""
    return max(stage.ends_on for stage in config.stages) + timedelta(days=retention_days)


def document_view(record: DocumentRecord) -> dict[str, Any]:
    """A document's metadata as the API answers it (its bytes only by `GET .../documents/{id}`)."""
    return {
        "document_id": record.id,
        "entry_id": record.entry_id,
        "evidence_id": record.evidence_id,
        "kind": record.kind,
        "media_type": record.media_type,
        "size": record.size,
        "sha256": record.sha256,
        "uploaded_by": record.uploaded_by_kind,
        "uploaded_at": record.uploaded_at.isoformat(),
        "review_state": record.review_state,
        "delete_after": record.delete_after.isoformat(),
        "unit_id": record.unit_id,
        "person_id": record.person_id,
    }


async def add_document(
    cmd: EventCommand, entry_id: str, kind: DocumentKind, evidence_id: str | None, checked: CheckedDocument
) -> dict[str, Any]:
    """Store a checked document of one of the caller's entries (another's answers 404, as an
    unknown one), within the entry's cap."""
    meta = cmd.loaded.meta.get(entry_id)
    entry = cmd.reg.entries.get(entry_id)
    if entry is None or meta is None or not may_add_documents(cmd.principal, entry_id, meta):
        raise NotFound("unknown_entry", f"no entry {entry_id!r}")
    if evidence_id is None and cmd.principal.role == "registrant":
        evidence_id = await pending_evidence_for(cmd, list(entry.person_ids), kind)
    if evidence_id is not None:
        row = await cmd.uow.evidence.get(evidence_id)
        if row is None or row.event_code != cmd.code or row.person_id not in entry.person_ids:
            raise Unprocessable("evidence_not_of_entry", "the evidence record is not one of this entry's players'")
    return await store(cmd, checked, kind.value, entry_id=entry_id, evidence_id=evidence_id)


async def store(
    cmd: EventCommand,
    checked: CheckedDocument,
    kind: str,
    *,
    entry_id: str = "",
    evidence_id: str | None = None,
    unit_id: str | None = None,
    person_id: str | None = None,
) -> dict[str, Any]:
    """The one record of every uploaded document (an entry's evidence, a delegation's papers):
    who uploaded it, its digest, its review pending and the day it is deleted after; kept
    encrypted with its bytes, within its entry's (or its delegation's) cap. Answers its metadata."""
    limit = cmd.state.documents.max_bytes_per_entry
    if unit_id is not None:
        stored = await cmd.uow.documents.bytes_of_unit(cmd.code, unit_id)
    else:
        stored = await cmd.uow.documents.bytes_of_entry(cmd.code, entry_id)
    if stored + len(checked.data) > limit:
        raise _full(limit, delegation=unit_id is not None)
    kind_of_uploader, uploader_id = uploader_of(cmd.principal)
    record = DocumentRecord(
        id=f"doc-{secrets.token_hex(12)}",
        event_code=cmd.code,
        entry_id=entry_id,
        evidence_id=evidence_id,
        kind=kind,
        media_type=checked.media_type,
        size=len(checked.data),
        sha256=hashlib.sha256(checked.data).hexdigest(),
        uploaded_by_kind=kind_of_uploader,
        uploaded_by_id=uploader_id,
        uploaded_at=cmd.now,
        review_state="pending",
        delete_after=delete_after(cmd.config, cmd.state.document_retention_days),
        unit_id=unit_id,
        person_id=person_id,
    )
    await cmd.uow.documents.put(record, checked.data)
    return document_view(record)


def _full(limit: int, *, delegation: bool) -> DocumentRefused:
    """The 413 of a document over its entry's (delegation's) cap."""
    if delegation:
        return DocumentRefused(
            "document_delegation_full",
            f"a delegation's documents may take at most {limit} bytes",
            {"max_bytes_per_delegation": limit},
            status=413,
        )
    return DocumentRefused(
        "document_entry_full",
        f"an entry's documents may take at most {limit} bytes",
        {"max_bytes_per_entry": limit},
        status=413,
    )


async def pending_evidence_for(cmd: EventCommand, person_ids: list[str], kind: DocumentKind) -> str | None:
    """The entry's pending evidence of the document's kind (the form declared it, e.g. SZ's 户籍), so
    that a registrant's photo lands beside it in the arbiter's review; None when there is none."""
    rows = await cmd.uow.evidence.rows(cmd.code, person_ids)
    pending = [r for r in rows if r.status == "pending" and r.kind == kind.value]
    return pending[0].id if pending else None


async def entry_documents(
    repos: Repositories, _state: RegistrationState, principal: Principal, code: str, entry_id: str
) -> dict[str, Any]:
    """An entry's documents the caller may read (metadata only)."""
    found = await repos.documents.list_of_entry(code, entry_id)
    return {"documents": [document_view(r) for r in found if may_read_document(principal, r)]}


async def event_documents(
    repos: Repositories, _state: RegistrationState, principal: Principal, code: str
) -> dict[str, Any]:
    """The event's documents the caller may read (the arbiter's review page: all of them)."""
    found = await repos.documents.list_of_event(code)
    return {"documents": [document_view(r) for r in found if may_read_document(principal, r)]}


async def document_bytes(
    repos: Repositories, principal: Principal, code: str, document_id: str, unit_id: str | None = None
) -> tuple[DocumentRecord, bytes]:
    """A document's bytes for a caller who may read it (anyone else: 404, as an unknown one);
    with ``unit_id``, only that delegation's (another unit's: 404)."""
    found = await repos.documents.get(code, document_id)
    other_unit = found is not None and unit_id is not None and found[0].unit_id != unit_id
    if found is None or other_unit or not may_read_document(principal, found[0]):
        raise NotFound("unknown_document", f"no document {document_id!r}")
    return found
