"""Issue 34: where a registrant's documents are kept — the `DocumentStore` port.

The service layer gives a store a document's metadata (`domain.documents.DocumentRecord`) and its checked bytes
in clear; the store keeps the bytes encrypted at rest (the PostgreSQL adapter,
`adapters.document_store`, with AES-256-GCM under DATA_KEY) and gives them back in clear to a
caller the service layer has already authorised. Another store (an object store such as S3)
implements the same methods: it would keep the ciphertext as the object and the metadata in the
service's database, so that lists and retention never read an object (docs/privacy.md).
"""

from __future__ import annotations

from datetime import date
from typing import Protocol

from ..domain.documents import DocumentRecord


class DocumentStore(Protocol):
    async def put(self, record: DocumentRecord, data: bytes) -> None:
        """Keep `data` (encrypted at rest) with its metadata."""

    async def list_of_entry(self, event_code: str, entry_id: str) -> list[DocumentRecord]:
        """An entry's documents, oldest first."""

    async def list_of_event(self, event_code: str) -> list[DocumentRecord]:
        """Every document of an event, oldest first (the arbiter's review page)."""

    async def bytes_of_entry(self, event_code: str, entry_id: str) -> int:
        """The bytes an entry's documents take (its cap)."""

    async def list_of_unit(self, event_code: str, unit_id: str) -> list[DocumentRecord]:
        """A delegation's documents, oldest first."""

    async def bytes_of_unit(self, event_code: str, unit_id: str) -> int:
        """The bytes a delegation's documents take (its cap)."""

    async def get(self, event_code: str, document_id: str) -> tuple[DocumentRecord, bytes] | None:
        """A document's metadata and its bytes in clear, or None."""

    async def set_review_state(self, event_code: str, evidence_id: str, state: str) -> None:
        """The review state of the documents of an evidence record (its decision)."""

    async def delete_due(self, today: date) -> int:
        """Delete every document whose retention ended before `today`; how many."""
