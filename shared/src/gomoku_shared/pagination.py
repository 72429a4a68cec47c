"""Cursor pagination of the list endpoints: ``limit``, ``cursor`` and ``next_cursor``.

Every list is given in a stable order, each item's sort key (unique within the list: it ends in
the item's id). A page holds up to ``limit`` items after the cursor's key; ``next_cursor`` is
the opaque (base64url) key of its last item when more follow, else null, signed by the service
(``gomoku_shared.cursors``: a made-up or changed cursor is 400 ``bad_cursor``). A list changing between
two pages neither repeats nor skips an item that was there throughout. Within ``/v1`` only
additive changes are made, so a request without ``limit`` still gets the whole list (one page,
``next_cursor`` null).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Query

from .api_docs import View
from .cursors import bad_cursor, sign, unsign

T = TypeVar("T")
PAGE_MAX = 500
CURSOR_MAX = 600

Limit = Annotated[
    int | None,
    Query(ge=1, le=PAGE_MAX, description="page size (the whole list, one page, when omitted)"),
]
Cursor = Annotated[
    str | None,
    Query(max_length=CURSOR_MAX, pattern=r"^[A-Za-z0-9_-]+$", description="`next_cursor` of the page before"),
]

SortKey = tuple[Any, ...]


class Paged(View):
    """A page of a list: ``next_cursor`` continues it (null: the last page)."""

    next_cursor: str | None = None


@dataclass(frozen=True)
class PageRequest:
    limit: int | None = None
    cursor: str | None = None


def _page_request(limit: Limit = None, cursor: Cursor = None) -> PageRequest:
    return PageRequest(limit, cursor)


#: a route's ``limit`` and ``cursor`` query parameters, as one argument
PageIn = Annotated[PageRequest, Depends(_page_request)]


def _encode(key: SortKey) -> str:
    return sign(json.dumps(list(key), separators=(",", ":")).encode())


def _decode(cursor: str) -> SortKey:
    try:
        key = json.loads(unsign(cursor))
    except (UnicodeDecodeError, ValueError):
        raise bad_cursor() from None
    if not isinstance(key, list) or not key or not all(isinstance(k, str | int) for k in key):
        raise bad_cursor()
    return tuple(key)


def page(
    items: Sequence[T], key: Callable[[T], SortKey], limit: int | None, cursor: str | None
) -> tuple[list[T], str | None]:
    """The page of ``items`` (in ``key`` order) after ``cursor``, and the next page's cursor."""
    ordered = sorted(items, key=key)
    if cursor is not None:
        after = _decode(cursor)
        try:
            ordered = [item for item in ordered if key(item) > after]
        except TypeError:  # a key of other types than this list's: not a cursor it gave out
            raise bad_cursor() from None
    if limit is None or len(ordered) <= limit:
        return ordered, None
    return ordered[:limit], _encode(key(ordered[limit - 1]))


def paged(answer: dict[str, Any], field: str, key: Callable[[Any], SortKey], request: PageRequest) -> dict[str, Any]:
    """``answer`` with its list ``field`` cut to the page, and ``next_cursor``."""
    items, next_cursor = page(answer[field], key, request.limit, request.cursor)
    return {**answer, field: items, "next_cursor": next_cursor}


def sort_by(*fields: str) -> Callable[[dict[str, Any]], SortKey]:
    """The sort key of a dict item: its ``fields`` in order (None sorts first, as "")."""

    def key(item: dict[str, Any]) -> SortKey:
        return tuple("" if item.get(name) is None else item[name] for name in fields)

    return key
