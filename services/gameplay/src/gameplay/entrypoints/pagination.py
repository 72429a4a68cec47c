"""Opaque list cursors: the sort key of the last item of a page, base64url-encoded."""

from __future__ import annotations

import base64
import binascii

from gomoku_shared.errors import ServiceError

MAX_KEY = 200


def cursor_of(last_key: str | None) -> str | None:
    if last_key is None:
        return None
    return base64.urlsafe_b64encode(last_key.encode()).decode().rstrip("=")


def after(cursor: str | None) -> str | None:
    """The key a page continues after; 400 ``bad_cursor`` for anything no page gave out."""
    if cursor is None:
        return None
    try:
        key = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        key = ""
    # keys are printable identifiers; anything else (a NUL the database refuses) was made up
    if not key.isprintable() or not key or len(key) > MAX_KEY:
        raise ServiceError(
            "bad_cursor", "cursor is not one a page gave out (next_cursor)", {"param": "cursor"}, status=400
        )
    return key
