"""Issue 34: a document sent from a page reached by a secret link (a registrant's entry, a
delegation): a plain multipart form (no script: the in-app browsers of WeChat articles),
forwarded to registration with the link's token, which checks the content and keeps it
encrypted. The token in the path is the secret that admits the post; the form also carries a
token of its own (the link's token signed with the portal's secret), so that only a page this
portal drew can make the browser upload. The document is never shown publicly."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.datastructures import UploadFile

from gomoku_shared.client_address import TrustedProxies

from . import read_cache
from .site import Site

#: the most a photo or a PDF may take (registration holds its own limit; this one stops a large
#: body before it is forwarded)
MAX_BYTES = 8 * 1024 * 1024
#: what the form's fields and boundaries add around the file
OVERHEAD = 64 * 1024
#: the form token's key when the portal has no session secret configured (it lasts as the process)
PROCESS_KEY = secrets.token_bytes(32)


def link_headers(site: Site, request: Request, header: str, token: str) -> dict[str, str]:
    """A secret link's token for registration, with the person's address forwarded: registration
    throttles wrong tokens per address, so that a guesser never slows the people behind the portal."""
    headers = {header: token}
    client = TrustedProxies(site.settings.forwarded_allow_ips).client(request.scope)
    if client:
        headers["x-forwarded-for"] = client
    return headers


async def read_by_link(site: Site, request: Request, path: str, header: str, token: str) -> tuple[Any, int]:
    """Registration's answer to a read by a secret link (None unless 200) and its status."""
    r = await site.upstream.clients["registration"].get(path, headers=link_headers(site, request, header, token))
    return (r.json() if r.status_code == 200 else None), r.status_code


def link_refused(site: Site, request: Request, status: int, unknown_key: str) -> HTMLResponse:
    """The page of a link registration did not take: the wait when the person's address sent too
    many wrong links (429), else the link is not valid (404)."""
    if status == 429:
        return site.render(request, "error.html", status=429, message_key="entry.too_many_tries")
    return site.render(request, "error.html", status=404, message_key=unknown_key)


@dataclass(frozen=True)
class LinkUpload:
    """One kind of link's upload: where its page is, where registration takes the file, the
    header its token travels in, the kinds it may send and the one optional field it names."""

    name: str
    page: str
    api_path: str
    token_header: str
    kinds: tuple[str, ...]
    #: the form's optional field forwarded as is (the evidence a file is for, the person it is about)
    field: str
    #: the page's query flag saying the last upload was stored
    sent_flag: str

    def install(self, app: FastAPI, site: Site) -> None:
        proxies = TrustedProxies(site.settings.forwarded_allow_ips)

        async def upload(request: Request, token: str) -> Response:
            read_cache.note_unkeyed()
            back = f"{self.page}/{token}?lang={site.lang_of(request)}"
            declared = request.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > MAX_BYTES + OVERHEAD:
                return RedirectResponse(f"{back}&refused=document_too_large#documents", status_code=303)
            sent = await request.form(max_files=1, max_fields=5)
            if not hmac.compare_digest(str(sent.get("form_token", "")), self.form_token(site, token)):
                return RedirectResponse(f"{back}&refused=csrf#documents", status_code=303)
            refused = await self.forward(site, token, sent, proxies.client(request.scope))
            suffix = f"&refused={refused}" if refused else f"&{self.sent_flag}=1"
            return RedirectResponse(f"{back}{suffix}#documents", status_code=303)

        app.add_api_route(f"{self.page}/{{token}}/documents", upload, methods=["POST"], name=self.name)

    async def forward(self, site: Site, token: str, sent: Any, client: str | None) -> str | None:
        """Send the file to registration with the token; the refusal's code, or None when stored."""
        file, kind = sent.get("file"), str(sent.get("kind", ""))
        if not isinstance(file, UploadFile) or not file.filename:
            return "document_empty"
        if kind not in self.kinds:
            return "document_kind_missing"
        data = await file.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            return "document_too_large"
        fields = {"kind": kind}
        extra = str(sent.get(self.field, ""))
        if extra:
            fields[self.field] = extra
        headers = {self.token_header: token}
        if client:
            headers["x-forwarded-for"] = client
        upload = {"file": ("document", data, file.content_type or "application/octet-stream")}
        r = await site.upstream.clients["registration"].post(self.api_path, headers=headers, data=fields, files=upload)
        if r.status_code == 201:
            return None
        try:
            code = str(r.json()["error"]["code"])
        except (ValueError, KeyError, TypeError):
            code = ""
        return code if code.replace("_", "").isalnum() else "document_not_sent"

    def form_token(self, site: Site, token: str) -> str:
        """The upload form's own token: the link's token signed with the portal's secret, so that
        only a page this portal drew can post (the pages send no Referer, and an Origin of "null")."""
        key = site.settings.session_secret.encode() or PROCESS_KEY
        return hmac.new(key, f"{self.name}:".encode() + token.encode(), hashlib.sha256).hexdigest()
