"""Signed list cursors: a ``next_cursor`` is the page's last sort key with an HMAC, so a cursor
no page gave out (made up, or one given out and then changed) is refused, 400 ``bad_cursor``.

The key is the service's: HMAC-SHA256 of ``CURSOR_SECRET`` (or, when that is unset, of
``DATA_KEY``, which every replica of a deployment already shares) and the service's name, so
every replica of a service accepts the cursors of the others, and one service's cursors are
not another's. Without either secret (development, tests) a fixed, public default is used:
such cursors are as good as unsigned. ``CursorKeyMiddleware`` makes the key of the app that
answers the current one for the request (the embedded mode serves every service in one process).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
from contextvars import ContextVar
from typing import Any

from .errors import ServiceError

#: the development default; a deployment sets CURSOR_SECRET or DATA_KEY
DEV_SECRET = "gomoku-development-cursor-secret"
_MAC_BYTES = 16


def cursor_key(secret: str, service: str) -> bytes:
    """The signing key of ``service``'s cursors."""
    return hmac.new((secret or DEV_SECRET).encode(), f"cursor:{service}".encode(), hashlib.sha256).digest()


_DEFAULT_KEY = cursor_key("", "")
_KEY: ContextVar[bytes | None] = ContextVar("cursor_key", default=None)


class CursorKeyMiddleware:
    """Signs and checks the cursors of one app's requests with that app's key."""

    def __init__(self, app: Any, key: bytes) -> None:
        self.app = app
        self.key = key

    async def __call__(self, scope, receive, send):
        token = _KEY.set(self.key)
        try:
            return await self.app(scope, receive, send)
        finally:
            _KEY.reset(token)


def bad_cursor() -> ServiceError:
    return ServiceError(
        "bad_cursor", "cursor is not one a page gave out (next_cursor)", {"param": "cursor"}, status=400
    )


def _mac(payload: bytes) -> bytes:
    return hmac.new(_KEY.get() or _DEFAULT_KEY, payload, hashlib.sha256).digest()[:_MAC_BYTES]


def sign(payload: bytes) -> str:
    """An opaque base64url cursor (no padding) carrying ``payload``."""
    return base64.urlsafe_b64encode(_mac(payload) + payload).decode().rstrip("=")


def unsign(cursor: str) -> bytes:
    """The payload of a cursor ``sign`` made with the current key; 400 ``bad_cursor`` otherwise."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
    except (binascii.Error, ValueError):
        raise bad_cursor() from None
    mac, payload = raw[:_MAC_BYTES], raw[_MAC_BYTES:]
    if len(mac) < _MAC_BYTES or not payload or not hmac.compare_digest(mac, _mac(payload)):
        raise bad_cursor()
    return payload
