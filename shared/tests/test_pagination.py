"""Cursor pagination of the list endpoints (issue 14, the contract): pages in a stable order,
none repeated or skipped, even when the list changes between two pages; a made-up cursor is a
400 ``bad_cursor``; no ``limit`` is the whole list (``/v1`` changes only additively)."""

from __future__ import annotations

import pytest

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
