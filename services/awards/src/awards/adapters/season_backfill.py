"""Issue 32: the season's rows stored before migration 0008 name no event person (``player_id``,
``first_player``, ``second_player`` NULL), so a split in the registry could not move them. These
reads and writes find such rows and fill them from the section's stored result."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.engine import Row
from sqlalchemy.ext.asyncio import AsyncSession

from .orm import rated_games, section_results, title_grants


class SeasonBackfill:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def unkeyed_grants(self, organisation: str, event_codes: Sequence[str]) -> list[Row[Any]]:
        g = title_grants.c
        query = select(title_grants).where(
            g.organisation == organisation, g.event_code.in_(list(event_codes)), g.player_id.is_(None)
        )
        return list((await self.session.execute(query)).all())

    async def unkeyed_games(self, organisation: str, event_codes: Sequence[str]) -> list[Row[Any]]:
        t = rated_games.c
        query = select(rated_games).where(
            t.organisation == organisation,
            t.event_code.in_(list(event_codes)),
            or_(t.first_player.is_(None), t.second_player.is_(None)),
        )
        return list((await self.session.execute(query)).all())

    async def current_payload(self, event_code: str, section_id: str) -> str | None:
        """The section.completed payload (JSON) of the section's latest revision, if kept."""
        r = section_results.c
        latest = select(func.max(r.revision)).where(r.event_code == event_code, r.section_id == section_id)
        query = select(r.payload).where(
            r.event_code == event_code, r.section_id == section_id, r.revision == latest.scalar_subquery()
        )
        return (await self.session.execute(query)).scalar_one_or_none()

    async def key_grant(self, event_code: str, section_id: str, person_id: str, player_id: str) -> None:
        g = title_grants.c
        await self.session.execute(
            update(title_grants)
            .where(g.event_code == event_code, g.section_id == section_id, g.person_id == person_id)
            .where(g.player_id.is_(None))
            .values(player_id=player_id)
        )

    async def key_game(self, event_code: str, section_id: str, pairing_id: str, values: dict[str, str]) -> None:
        t = rated_games.c
        await self.session.execute(
            update(rated_games)
            .where(t.event_code == event_code, t.section_id == section_id, t.pairing_id == pairing_id)
            .values(values)
        )

    async def unkeyed_of(self, organisation: str, person_id: str, event_codes: Sequence[str]) -> int:
        """How many of the person's rows in these events still name no event person."""
        g, t = title_grants.c, rated_games.c
        events = list(event_codes)
        grants = select(func.count()).where(
            g.organisation == organisation, g.event_code.in_(events), g.person_id == person_id, g.player_id.is_(None)
        )
        games = select(func.count()).where(
            t.organisation == organisation,
            t.event_code.in_(events),
            or_(
                (t.first_id == person_id) & t.first_player.is_(None),
                (t.second_id == person_id) & t.second_player.is_(None),
            ),
        )
        return int((await self.session.execute(grants)).scalar_one()) + int(
            (await self.session.execute(games)).scalar_one()
        )
