"""The pages' Content-Security-Policy: scripts, styles and images only from this site's own
files (no inline script, style or event handler anywhere: the templates keep them in
``static/``), forms post only here. Staff pages may not be framed by any site (the console acts
with a person's own key: framing it would let a page elsewhere steer their clicks); public pages
may be (a live board shown on a club's site). Every other security header comes from
``gomoku_shared.headers``."""

from __future__ import annotations

from typing import Any

PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'"
)
STAFF_POLICY = PAGE_POLICY + "; frame-ancestors 'none'"
STAFF_PREFIX = "/staff"


def page_headers(path: str) -> list[tuple[bytes, bytes]]:
    """The policy headers of a page at ``path``."""
    if path == STAFF_PREFIX or path.startswith(STAFF_PREFIX + "/"):
        return [(b"content-security-policy", STAFF_POLICY.encode()), (b"x-frame-options", b"DENY")]
    return [(b"content-security-policy", PAGE_POLICY.encode())]


class PagePolicy:
    """Pure ASGI middleware: every HTML answer gets its page policy."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def _send(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                kind = next((value for name, value in headers if name.lower() == b"content-type"), b"")
                if kind.startswith(b"text/html"):
                    present = {name.lower() for name, _ in headers}
                    headers += [pair for pair in page_headers(scope.get("path", "")) if pair[0] not in present]
                    message["headers"] = headers
            await send(message)

        return await self.app(scope, receive, _send)
