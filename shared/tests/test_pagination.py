"""Cursor pagination of the list endpoints (issue 14, the contract): pages in a stable order,
none repeated or skipped, even when the list changes between two pages; a made-up cursor is a
400 ``bad_cursor``; no ``limit`` is the whole list (``/v1`` changes only additively)."""

from __future__ import annotations

import base64
import json

import pytest

from gomoku_shared.cursors import CursorKeyMiddleware, cursor_key
from gomoku_shared.errors import ServiceError
from gomoku_shared.pagination import PageRequest, page, paged, sort_by


def _items(*ids: str) -> list[dict]:
    return [{"id": item, "section": item[0]} for item in ids]


def _walk(items: list[dict], limit: int) -> list[list[str]]:
    pages, cursor = [], None
    while True:
        found, cursor = page(items, sort_by("section", "id"), limit, cursor)
        pages.append([item["id"] for item in found])
        if cursor is None:
            return pages


def test_pages_cover_the_list_once_in_key_order():
    items = _items("b2", "a1", "c3", "a2", "b1")
    assert _walk(items, 2) == [["a1", "a2"], ["b1", "b2"], ["c3"]]
    assert _walk(items, 5) == [["a1", "a2", "b1", "b2", "c3"]]
    assert _walk([], 3) == [[]]


def test_an_item_added_between_pages_neither_repeats_nor_skips_the_others():
    items = _items("a1", "a2", "b1", "b2")
    first, cursor = page(items, sort_by("section", "id"), 2, None)
    items += _items("a0", "b0")  # one before the cursor, one after it
    rest, cursor = page(items, sort_by("section", "id"), 10, cursor)
    assert [i["id"] for i in first] == ["a1", "a2"]
    assert [i["id"] for i in rest] == ["b0", "b1", "b2"] and cursor is None


def test_without_a_limit_the_whole_list_is_one_page():
    answer = paged({"event_code": "e", "rows": _items("b1", "a1")}, "rows", sort_by("id"), PageRequest())
    assert answer == {"event_code": "e", "rows": _items("a1", "b1"), "next_cursor": None}


@pytest.mark.parametrize("cursor", ["not-base64!", "bm90IGpzb24", "e30", "W10", "W251bGxd"])
def test_a_cursor_no_page_gave_out_is_refused(cursor):
    with pytest.raises(ServiceError) as refused:
        page(_items("a1"), sort_by("id"), 1, cursor)
    assert refused.value.code == "bad_cursor" and refused.value.status == 400


def test_a_cursor_of_another_key_shape_is_refused_not_a_500():
    _first, cursor = page([{"id": 1}, {"id": 2}], sort_by("id"), 1, None)  # an integer key
    with pytest.raises(ServiceError) as refused:
        page(_items("a1", "b2"), sort_by("id"), 1, cursor)  # string keys
    assert refused.value.code == "bad_cursor"


def _forged(key: list) -> str:
    """A well-formed cursor as an unsigned implementation gave out: base64url of the JSON key."""
    return base64.urlsafe_b64encode(json.dumps(key).encode()).decode().rstrip("=")


def test_a_forged_well_formed_cursor_is_refused():
    """issue 27 finding 10: a cursor is signed; the JSON key it would carry is not enough."""
    with pytest.raises(ServiceError) as refused:
        page(_items("a1", "b2"), sort_by("id"), 1, _forged(["a1"]))
    assert refused.value.code == "bad_cursor" and refused.value.status == 400


def test_a_tampered_cursor_is_refused():
    """issue 27 finding 10: a given-out cursor with one byte of its key changed is refused."""
    _first, cursor = page(_items("a1", "b2", "c3"), sort_by("id"), 1, None)
    assert cursor is not None
    raw = bytearray(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    raw[-3] ^= 1
    tampered = base64.urlsafe_b64encode(bytes(raw)).decode().rstrip("=")
    with pytest.raises(ServiceError) as refused:
        page(_items("a1", "b2", "c3"), sort_by("id"), 1, tampered)
    assert refused.value.code == "bad_cursor"


async def test_a_cursor_is_the_signing_services_own():
    """issue 27 finding 10: replicas sharing a secret accept each other's cursors; another
    secret (or another service) does not."""
    items = _items("a1", "b2", "c3")

    async def first_page(key: bytes) -> str | None:
        cursor = None

        async def app(scope, receive, send):
            nonlocal cursor
            _rows, cursor = page(items, sort_by("id"), 1, None)

        await CursorKeyMiddleware(app, key)({}, None, None)
        return cursor

    async def next_page(key: bytes, cursor: str) -> list:
        rows: list = []

        async def app(scope, receive, send):
            rows.extend(page(items, sort_by("id"), 5, cursor)[0])

        await CursorKeyMiddleware(app, key)({}, None, None)
        return rows

    cursor = await first_page(cursor_key("s3cret", "registration"))
    assert cursor is not None
    assert [r["id"] for r in await next_page(cursor_key("s3cret", "registration"), cursor)] == ["b2", "c3"]
    for other in (cursor_key("other", "registration"), cursor_key("s3cret", "pairing")):
        with pytest.raises(ServiceError):
            await next_page(other, cursor)
