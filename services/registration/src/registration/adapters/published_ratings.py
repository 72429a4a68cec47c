"""Issue 32 (ADR 0012): the latest rating list awards published for each organisation
(``ratings.published``), kept to seed entries: each registry person's published rating travels
with their entries (the TRF rating column). Only the newest publication is kept; an older one
arriving late changes nothing."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession


def declare_published_ratings(md: sa.MetaData, ts: sa.types.TypeEngine) -> tuple[sa.Table, sa.Table]:
    """The two tables on ``md`` (``ts``: the service's time type): one row per organisation
    (which publication is kept) and its people's lines."""
    publications = sa.Table(
        "rating_publications",
        md,
        sa.Column("organisation", sa.String(64), primary_key=True),
        #: the latest list's period (YYYY-MM); None: the organisation has no list
        sa.Column("period", sa.String(7), nullable=True),
        #: when awards published it (the envelope's time): a later one replaces it
        sa.Column("published_at", ts, nullable=False),
    )
    ratings = sa.Table(
        "published_ratings",
        md,
        sa.Column("organisation", sa.String(64), primary_key=True),
        sa.Column("registry_id", sa.String(40), primary_key=True),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("provisional", sa.Boolean, nullable=False),
    )
    return publications, ratings


class PublishedRatingRepository:
    def __init__(self, session: AsyncSession, publications: sa.Table, ratings: sa.Table) -> None:
        self.session = session
        self.publications = publications
        self.table = ratings

    async def replace(
        self, organisation: str, period: str | None, people: Sequence[dict[str, Any]], published_at: datetime
    ) -> bool:
        """Keep this list unless a newer one is kept already; whether it was kept."""
        p = self.publications
        query = sa.select(p.c.published_at).where(p.c.organisation == organisation).with_for_update()
        kept = (await self.session.execute(query)).scalar_one_or_none()
        if kept is not None and kept > published_at:
            return False
        if kept is None:
            await self.session.execute(
                sa.insert(p).values(organisation=organisation, period=period, published_at=published_at)
            )
        else:
            await self.session.execute(
                sa.update(p).where(p.c.organisation == organisation).values(period=period, published_at=published_at)
            )
        await self.session.execute(sa.delete(self.table).where(self.table.c.organisation == organisation))
        if people:
            await self.session.execute(sa.insert(self.table), [{"organisation": organisation, **r} for r in people])
        return True

    async def has_list(self, organisation: str) -> bool:
        """Whether the organisation has published ratings at all (most commands need not look)."""
        t = self.table.c
        query = sa.select(t.registry_id).where(t.organisation == organisation).limit(1)
        return (await self.session.execute(query)).first() is not None

    async def ratings(self, organisation: str, registry_ids: Iterable[str]) -> dict[str, int]:
        """The published rating of each of these registry people who has one."""
        ids = sorted(set(registry_ids))
        if not ids:
            return {}
        t = self.table.c
        query = sa.select(t.registry_id, t.rating).where(t.organisation == organisation, t.registry_id.in_(ids))
        return {rid: rating for rid, rating in (await self.session.execute(query)).all()}
