"""Issue 32 (ADR 0012): the latest rating list leaves awards as ``ratings.published`` whenever an
organisation's lists are replaced, so that registration seeds entries by it (the TRF rating
column; Swiss start order). Only the latest period matters for seeding."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gomoku_shared.contracts.season_events import PublishedRating, RatingsPublished

#: the unit of work's ``emit`` (None: publish nothing, e.g. a benchmark or a read)
Emit = Callable[..., Any] | None


def latest_list(organisation: str, rows: list[dict[str, Any]]) -> RatingsPublished:
    """The latest period's people of ``rows`` (every period's list, ``season.list_rows``);
    no rows: an organisation without a list (its games were all withdrawn)."""
    if not rows:
        return RatingsPublished(organisation=organisation, period=None, people=[])
    period = max(r["period"] for r in rows)
    people = sorted(
        (
            PublishedRating(
                registry_id=r["person_id"],
                rating=round(r["rating"]),
                rd=round(r["rd"], 2),
                provisional=r["provisional"],
            )
            for r in rows
            if r["period"] == period
        ),
        key=lambda p: p.registry_id,
    )
    return RatingsPublished(organisation=organisation, period=period, people=people)


def publish_latest(emit: Callable[..., Any], organisation: str, rows: list[dict[str, Any]]) -> None:
    """Emit the latest list. Not a content-derived event id: a list may come back to what it
    was (a correction undone), and that later publication must not be dropped as a duplicate;
    registration keeps the newest by the envelope's time."""
    emit(latest_list(organisation, rows), correlation_id=f"ratings:{organisation}")
