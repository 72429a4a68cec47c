"""Issue 34: a registrant sends a document from their page (``/entry/{token}``): a plain
multipart form (no script: the in-app browsers of WeChat articles), forwarded to registration
with the link's token, which checks the content and keeps it encrypted.

The token in the path is the secret that admits the post; the form also carries a token of its
own (the link's token signed with the portal's secret), so that only a page this portal drew
can make a registrant's browser upload. The document is never shown publicly: the page lists its kind,
time and review state only."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import RedirectResponse, Response
from starlette.datastructures import UploadFile

from gomoku_shared.client_address import TrustedProxies

from . import i18n, read_cache
from .site import Site

#: the most a photo or a PDF may take (registration holds its own limit; this one stops a large
#: body before it is forwarded)
MAX_BYTES = 8 * 1024 * 1024
#: what the form's fields and boundaries add around the file
OVERHEAD = 64 * 1024
#: the form token's key when the portal has no session secret configured (it lasts as the process)
PROCESS_KEY = secrets.token_bytes(32)
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


def install(app: FastAPI, site: Site) -> None:
    proxies = TrustedProxies(site.settings.forwarded_allow_ips)

    @app.post("/entry/{token}/documents", name="registrant_upload")
    async def registrant_upload(request: Request, token: str) -> Response:
        read_cache.note_unkeyed()
        lang = site.lang_of(request)
        back = f"/entry/{token}?lang={lang}"
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_BYTES + OVERHEAD:
            return RedirectResponse(f"{back}&refused=document_too_large#documents", status_code=303)
        sent = await request.form(max_files=1, max_fields=5)
        if not hmac.compare_digest(str(sent.get("form_token", "")), form_token(site, token)):
            return RedirectResponse(f"{back}&refused=csrf#documents", status_code=303)
        refused = await forward(site, token, sent, proxies.client(request.scope))
        suffix = f"&refused={refused}" if refused else "&sent=1"
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
    evidence_id = str(sent.get("evidence_id", ""))
    if evidence_id:
        fields["evidence_id"] = evidence_id
    headers = {"x-registrant-token": token}
    if client:
        headers["x-forwarded-for"] = client
    upload = {"file": ("document", data, file.content_type or "application/octet-stream")}
    r = await site.upstream.clients["registration"].post(
        "/v1/registrant/documents", headers=headers, data=fields, files=upload
    )
    if r.status_code == 201:
        return None
    try:
        code = str(r.json()["error"]["code"])
    except (ValueError, KeyError, TypeError):
        code = ""
    return code if code.replace("_", "").isalnum() else "document_not_sent"


def form_token(site: Site, token: str) -> str:
    """The upload form's own token: the link's token signed with the portal's secret, so that only
    a page this portal drew can post (the pages send no Referer, and an Origin of "null")."""
    key = site.settings.session_secret.encode() or PROCESS_KEY
    return hmac.new(key, b"registrant-upload:" + token.encode(), hashlib.sha256).hexdigest()


async def page_parts(site: Site, request: Request, token: str, entry: dict[str, Any]) -> dict[str, Any]:
    """The registrant's page's documents part (``upload``) and the link's ``token`` for its form;
    the query says the last upload's answer (``sent=1`` or ``refused=<code>``)."""
    sent, refused = request.query_params.get("sent") == "1", request.query_params.get("refused", "")[:60]
    return {"upload": await upload_view(site, token, entry, sent=sent, refused=refused), "token": token}


async def upload_view(site: Site, token: str, entry: dict[str, Any], *, sent: bool, refused: str) -> dict[str, Any]:
    """What the page's documents part shows: the documents sent (kind, time, review state; newest
    first), the kinds to choose from, the pending evidence an upload joins, the last answer."""
    r = await site.upstream.clients["registration"].get(
        "/v1/registrant/documents", headers={"x-registrant-token": token}
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
        "form_token": form_token(site, token),
    }
