"""Security headers on every answer of a served process (every service, the portal, the embedded
runner): pure ASGI, so the lean lanes that answer in front of a service's middleware get them too.

* ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer`` everywhere;
* ``Strict-Transport-Security`` when the request came over TLS: the server's own scheme, or
  ``X-Forwarded-Proto: https`` from the gateway that terminated TLS (a browser ignores the header
  on a plain-http answer, RFC 6797 §8.1, so a client sending that header gains nothing);
* a JSON answer gets ``Content-Security-Policy: default-src 'none'; frame-ancestors 'none'``:
  nothing it holds may run or be framed, should a browser ever render it. Pages set their own
  policy (the portal's ``pages_csp``); FastAPI's ``/docs`` pages, which load their scripts from a
  CDN, keep none; files (PDF, CSV, records) keep none, so a browser's own viewer shows them.

A header the app already set is left as it is.
"""

from __future__ import annotations

from typing import Any

#: a year: what browsers' preload lists ask for; no includeSubDomains (the operator's domain may
#: hold other sites that are not ours to move to https)
HSTS = b"max-age=31536000"
JSON_POLICY = b"default-src 'none'; frame-ancestors 'none'"
EVERYWHERE: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)


def over_tls(scope: Any) -> bool:
    """Whether the client reached us over TLS: here, or at the gateway that forwarded it."""
    if scope.get("scheme") in ("https", "wss"):
        return True
    for name, value in scope.get("headers", ()):
        if name == b"x-forwarded-proto":
            return value.split(b",")[0].strip().lower() == b"https"
    return False


def with_security_headers(scope: Any, headers: Any) -> list[tuple[bytes, bytes]]:
    """An answer's headers with the ones above added where the app did not set them."""
    out = list(headers)
    present = {name.lower() for name, _ in out}
    out += [pair for pair in EVERYWHERE if pair[0] not in present]
    if b"strict-transport-security" not in present and over_tls(scope):
        out.append((b"strict-transport-security", HSTS))
    if b"content-security-policy" not in present:
        kind = next((value for name, value in out if name.lower() == b"content-type"), b"")
        if b"json" in kind:
            out.append((b"content-security-policy", JSON_POLICY))
    return out


class SecurityHeaders:
    """Pure ASGI middleware: ``with_security_headers`` on every HTTP answer."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def _send(message):
            if message["type"] == "http.response.start":
                message["headers"] = with_security_headers(scope, message.get("headers", ()))
            await send(message)

        return await self.app(scope, receive, _send)
