"""Issue 34: a delegation's leader sends its documents from the delegation's page
(``/delegation/{token}``; NY 十二(一), DA 十(一)1, NT 十(一)1: the stamped entry form, ID-card and
insurance scans, the payment's screenshot). A plain multipart form, as the registrant's
(`registrant_upload`): forwarded to registration with the link's token, which checks the content
and keeps it encrypted; the form carries a token of its own (the link's token signed with the
portal's secret). The page lists what was sent by kind, person, time and review state, never
the document itself."""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import RedirectResponse, Response
from starlette.datastructures import UploadFile

from gomoku_shared.client_address import TrustedProxies

from . import i18n, read_cache
from .registrant_upload import MAX_BYTES, OVERHEAD, PROCESS_KEY
from .site import Site

#: the kinds a delegation may send (words: ``document_kind.*``), in the list's order
KINDS = ("stamped_entry_form", "payment_screenshot", "id_card", "insurance_policy", "other")


def install(app: FastAPI, site: Site) -> None:
    proxies = TrustedProxies(site.settings.forwarded_allow_ips)

    @app.post("/delegation/{token}/documents", name="delegation_upload")
    async def delegation_upload(request: Request, token: str) -> Response:
        read_cache.note_unkeyed()
        back = f"/delegation/{token}?lang={site.lang_of(request)}"
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_BYTES + OVERHEAD:
            return RedirectResponse(f"{back}&refused=document_too_large#documents", status_code=303)
        sent = await request.form(max_files=1, max_fields=5)
        if not hmac.compare_digest(str(sent.get("form_token", "")), form_token(site, token)):
            return RedirectResponse(f"{back}&refused=csrf#documents", status_code=303)
        refused = await forward(site, token, sent, proxies.client(request.scope))
        suffix = f"&refused={refused}" if refused else "&doc_sent=1"
        return RedirectResponse(f"{back}{suffix}#documents", status_code=303)


async def forward(site: Site, token: str, sent: Any, client: str | None) -> str | None:
    """Send the file to registration with the token; the refusal's code, or None when stored."""
    file, kind = sent.get("file"), str(sent.get("kind", ""))
    if not isinstance(file, UploadFile) or not file.filename:
        return "document_empty"
    if kind not in KINDS:
        return "document_kind_missing"
    data = await file.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        return "document_too_large"
    fields = {"kind": kind}
    person_id = str(sent.get("person_id", ""))
    if person_id:
        fields["person_id"] = person_id
    headers = {"x-delegation-token": token}
    if client:
        headers["x-forwarded-for"] = client
    upload = {"file": ("document", data, file.content_type or "application/octet-stream")}
    r = await site.upstream.clients["registration"].post(
        "/v1/delegation/documents", headers=headers, data=fields, files=upload
    )
    if r.status_code == 201:
        return None
    try:
        code = str(r.json()["error"]["code"])
    except (ValueError, KeyError, TypeError):
        code = ""
    return code if code.replace("_", "").isalnum() else "document_not_sent"


def form_token(site: Site, token: str) -> str:
    """The upload form's own token: the link's token signed with the portal's secret."""
    key = site.settings.session_secret.encode() or PROCESS_KEY
    return hmac.new(key, b"delegation-upload:" + token.encode(), hashlib.sha256).hexdigest()


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
        "form_token": form_token(site, token),
    }
