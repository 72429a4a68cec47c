"""Issue 34: a registrant sends a document from their page (``/entry/{token}``) through the
secret link's upload (``link_upload``); the page lists its kind, time and review state only."""

from __future__ import annotations

from typing import Any

from fastapi import Request

from . import i18n
from .link_upload import MAX_BYTES, LinkUpload, link_headers
from .site import Site

#: the kinds a registrant may send (words: ``document_kind.*``), in the list's order
KINDS = (
    "household_registration",
    "residence_permit",
    "student_status",
    "social_insurance",
    "id_card",
    "grade_certificate",
    "insurance_policy",
    "payment_screenshot",
)
UPLOAD = LinkUpload(
    "registrant_upload",
    "/entry",
    "/v1/registrant/documents",
    "x-registrant-token",
    KINDS,
    field="evidence_id",
    sent_flag="sent",
)
install = UPLOAD.install


async def page_parts(site: Site, request: Request, token: str, entry: dict[str, Any]) -> dict[str, Any]:
    """The registrant's page's documents part (``upload``) and the link's ``token`` for its form;
    the query says the last upload's answer (``sent=1`` or ``refused=<code>``)."""
    sent, refused = request.query_params.get("sent") == "1", request.query_params.get("refused", "")[:60]
    upload = await upload_view(site, request, token, entry, sent=sent, refused=refused)
    return {"upload": upload, "token": token}


async def upload_view(
    site: Site, request: Request, token: str, entry: dict[str, Any], *, sent: bool, refused: str
) -> dict[str, Any]:
    """What the page's documents part shows: the documents sent (kind, time, review state; newest
    first), the kinds to choose from, the pending evidence an upload joins, the last answer."""
    r = await site.upstream.clients["registration"].get(
        "/v1/registrant/documents", headers=link_headers(site, request, "x-registrant-token", token)
    )
    documents = r.json()["documents"] if r.status_code == 200 else []
    pending = [ev for ev in entry["evidence"] if ev["status"] == "pending"]
    refusal = f"refusal.{refused}" if refused and i18n.known(f"refusal.{refused}") else None
    return {
        "documents": sorted(documents, key=lambda d: d["uploaded_at"], reverse=True),
        "kinds": KINDS,
        "pending": pending,
        "chosen_kind": pending[0]["kind"] if pending and pending[0]["kind"] in KINDS else KINDS[0],
        "sent": sent and not refused,
        "refusal": refusal or ("refusal.document_not_sent" if refused else None),
        "max_mb": MAX_BYTES // (1024 * 1024),
        "form_token": UPLOAD.form_token(site, token),
    }
