"""Opaque list cursors: the sort key of the last item of a page, signed by the service
(``gomoku_shared.cursors``: a made-up or changed cursor is 400 ``bad_cursor``)."""

from __future__ import annotations

from gomoku_shared.cursors import bad_cursor, sign, unsign

MAX_KEY = 200


def cursor_of(last_key: str | None) -> str | None:
    if last_key is None:
        return None
    return sign(last_key.encode())


def after(cursor: str | None) -> str | None:
    """The key a page continues after; 400 ``bad_cursor`` for anything no page gave out."""
    if cursor is None:
        return None
    try:
        key = unsign(cursor).decode()
    except UnicodeDecodeError:
        key = ""
    # keys are printable identifiers; anything else (a NUL the database refuses) was made up
    if not key.isprintable() or not key or len(key) > MAX_KEY:
        raise bad_cursor()
    return key
