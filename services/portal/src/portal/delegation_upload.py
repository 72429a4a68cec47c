"""Issue 34: a delegation's leader sends its documents from the delegation's page
(``/delegation/{token}``; NY 十二(一), DA 十(一)1, NT 十(一)1: the stamped entry form, ID-card and
insurance scans, the payment's screenshot). A plain multipart form, as the registrant's
(`registrant_upload`): forwarded to registration with the link's token, which checks the content
and keeps it encrypted; the form carries a token of its own (the link's token signed with the
portal's secret). The page lists what was sent by kind, person, time and review state, never
the document itself."""

from __future__ import annotations

from typing import Any

from fastapi import Request

from . import i18n
from .link_upload import MAX_BYTES, LinkUpload
from .site import Site

#: the kinds a delegation may send (words: ``document_kind.*``), in the list's order
KINDS = ("stamped_entry_form", "payment_screenshot", "id_card", "insurance_policy", "other")
UPLOAD = LinkUpload(
    "delegation_upload",
    "/delegation",
    "/v1/delegation/documents",
    "x-delegation-token",
    KINDS,
    field="person_id",
    sent_flag="doc_sent",
)
install = UPLOAD.install


def upload_view(site: Site, request: Request, token: str, delegation: dict[str, Any]) -> dict[str, Any]:
    """What the page's documents part shows: the documents sent (newest first, each with the name of
    the person it is about), the kinds, the roster's players to choose from, the last answer."""
    sent, refused = request.query_params.get("doc_sent") == "1", request.query_params.get("refused", "")[:60]
    people = [p for p in delegation.get("people", []) if p.get("person_id")]
    names = {p["person_id"]: p.get("name", "") for p in people}
    documents = sorted(delegation.get("documents", []), key=lambda d: d["uploaded_at"], reverse=True)
    refusal = f"refusal.{refused}" if refused and i18n.known(f"refusal.{refused}") else None
    return {
        "documents": [{**d, "person_name": names.get(d.get("person_id") or "", "")} for d in documents],
        "kinds": KINDS,
        "people": people,
        "sent": sent and not refused,
        "refusal": refusal or ("refusal.document_not_sent" if refused else None),
        "max_mb": MAX_BYTES // (1024 * 1024),
        "form_token": UPLOAD.form_token(site, token),
    }
