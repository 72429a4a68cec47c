"""Reads and writes of the season's tables (issue 32): title grants, rated games, rating lists
and title ladders, by organisation and registry person."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Row
from sqlalchemy.ext.asyncio import AsyncSession

from gomoku_shared.event_access import EventAccessStore
from gomoku_shared.staff_roles import DEFAULT_ORGANISATION

from .orm import event_access, rated_games, rating_lists, title_grants, title_ladders


class SeasonRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def lock_organisation(self, organisation: str) -> None:
        """Serialise the changes of one organisation's records until the transaction ends: two
        events' sections completing at once would otherwise each replace the lists from the
        games they saw (PostgreSQL: an advisory lock; SQLite serialises every writer anyway)."""
        if self.session.get_bind().dialect.name == "postgresql":
            await self.session.execute(
                select(func.pg_advisory_xact_lock(func.hashtext(f"awards-season:{organisation}")))
            )

    async def organisation(self, event_code: str) -> str:
        """The event's owner (event.access_changed); events from before organisations: the default."""
        access = await EventAccessStore(event_access).get(self.session, event_code)
        return access.organisation if access is not None else DEFAULT_ORGANISATION

    async def ladder(self, organisation: str) -> list[str] | None:
        row = (
            await self.session.execute(
                select(title_ladders.c.titles).where(title_ladders.c.organisation == organisation)
            )
        ).first()
        return None if row is None else list(json.loads(row.titles))

    async def save_ladder(self, organisation: str, titles: Sequence[str]) -> None:
        await self.session.execute(delete(title_ladders).where(title_ladders.c.organisation == organisation))
        await self.session.execute(
            insert(title_ladders).values(organisation=organisation, titles=json.dumps(list(titles)))
        )

    # ---- writes: a section's grants and games are replaced whole (AWD-8)

    async def replace_section(
        self, event_code: str, section_id: str, grants: Sequence[dict[str, Any]], games: Sequence[dict[str, Any]]
    ) -> None:
        for table in (title_grants, rated_games):
            await self.session.execute(
                delete(table).where(table.c.event_code == event_code, table.c.section_id == section_id)
            )
        base = {"event_code": event_code, "section_id": section_id}
        if grants:
            await self.session.execute(insert(title_grants), [{**base, **g} for g in grants])
        if games:
            await self.session.execute(insert(rated_games), [{**base, **g} for g in games])

    async def replace_lists(self, organisation: str, rows: Sequence[dict[str, Any]]) -> None:
        await self.session.execute(delete(rating_lists).where(rating_lists.c.organisation == organisation))
        if rows:
            await self.session.execute(
                insert(rating_lists), [{"organisation": organisation, **r} for r in ranked(rows)]
            )

    async def move_event(self, event_code: str, organisation: str) -> set[str]:
        """File the event's grants and games under ``organisation``; the organisations whose
        games moved away (their lists need computing again)."""
        t = rated_games.c
        query = select(t.organisation).where(t.event_code == event_code, t.organisation != organisation).distinct()
        left = {r.organisation for r in (await self.session.execute(query)).all()}
        for table in (title_grants, rated_games):
            await self.session.execute(
                update(table)
                .where(table.c.event_code == event_code, table.c.organisation != organisation)
                .values(organisation=organisation)
            )
        return left

    # ---- reads

    async def section_has_games(self, event_code: str, section_id: str) -> bool:
        t = rated_games.c
        query = select(t.pairing_id).where(t.event_code == event_code, t.section_id == section_id).limit(1)
        return (await self.session.execute(query)).first() is not None

    async def games(self, organisation: str) -> list[Row[Any]]:
        t = rated_games.c
        query = (
            select(rated_games)
            .where(t.organisation == organisation)
            .order_by(t.played_on, t.event_code, t.section_id, t.round, t.pairing_id)
        )
        return list((await self.session.execute(query)).all())

    async def grants(self, organisation: str, person_id: str) -> list[Row[Any]]:
        t = title_grants.c
        query = select(title_grants).where(t.organisation == organisation, t.person_id == person_id)
        return list((await self.session.execute(query)).all())

    async def organisation_grants(self, organisation: str) -> list[Row[Any]]:
        """Every grant of the organisation (a rating list names each person's title)."""
        query = select(title_grants).where(title_grants.c.organisation == organisation)
        return list((await self.session.execute(query)).all())

    async def person_games(self, organisation: str, person_id: str) -> list[Row[Any]]:
        """The person's rated games, either side (a history page's games and results)."""
        t = rated_games.c
        query = (
            select(rated_games)
            .where(t.organisation == organisation, (t.first_id == person_id) | (t.second_id == person_id))
            .order_by(t.played_on, t.event_code, t.section_id, t.round, t.pairing_id)
        )
        return list((await self.session.execute(query)).all())

    async def person_ratings(self, organisation: str, person_id: str) -> list[Row[Any]]:
        t = rating_lists.c
        query = select(rating_lists).where(t.organisation == organisation, t.person_id == person_id).order_by(t.period)
        return list((await self.session.execute(query)).all())

    async def periods(self, organisation: str) -> list[str]:
        """Each period with a list: one step along the key (organisation, period, …) per period,
        not a pass over every row of every list (a GROUP BY read them all: bench.history_page)."""
        t = rating_lists.c
        first = select(func.min(t.period).label("period")).where(t.organisation == organisation)
        found = first.cte("periods", recursive=True)
        later = select(func.min(t.period)).where(t.organisation == organisation, t.period > found.c.period)
        found = found.union_all(select(later.scalar_subquery()).where(found.c.period.is_not(None)))
        query = select(found.c.period).where(found.c.period.is_not(None)).order_by(found.c.period)
        return [r.period for r in (await self.session.execute(query)).all()]

    async def rating_list(self, organisation: str, period: str, initial: str | None = None) -> list[Row[Any]]:
        """The period's list by place; ``initial``: only the names starting with it (case aside),
        read along ``ix_rating_lists_initial`` — the rows found, however long the list."""
        t = rating_lists.c
        query = select(rating_lists).where(t.organisation == organisation, t.period == period)
        if initial is not None:
            query = query.where(t.initial == initial.casefold())
        return list((await self.session.execute(query.order_by(t.rank))).all())

    async def list_length(self, organisation: str, period: str) -> int:
        """How many people the period's list has: its last place (one step along ``ix_rating_lists_rank``)."""
        t = rating_lists.c
        # the last place read off the end of the key (a max() was planned over the initial's index)
        query = select(t.rank).where(t.organisation == organisation, t.period == period)
        return int((await self.session.execute(query.order_by(t.rank.desc()).limit(1))).scalar() or 0)

    # ---- issue 32: a merge or split in the registry re-keys the records

    async def rekey_people(self, organisation: str, old_ids: Sequence[str], new_id: str) -> int:
        """Every grant and game of ``old_ids`` becomes ``new_id``'s (a merge); how many rows moved.
        A grant of both in one section (one human entered twice) stays where it is: the kept
        person's own counts, and a split can still tell them apart."""
        ids = [i for i in old_ids if i != new_id]
        if not ids:
            return 0
        g, kept = title_grants.c, title_grants.alias("kept").c
        both = (
            select(kept.person_id)
            .where(kept.event_code == g.event_code, kept.section_id == g.section_id, kept.person_id == new_id)
            .correlate(title_grants)
            .exists()
        )
        moved = (
            await self.session.execute(
                update(title_grants)
                .where(g.organisation == organisation, g.person_id.in_(ids), ~both)
                .values(person_id=new_id)
            )
        ).rowcount  # type: ignore[attr-defined]
        t = rated_games.c
        for side in ("first_id", "second_id"):
            column = t[side]
            result = await self.session.execute(
                update(rated_games).where(t.organisation == organisation, column.in_(ids)).values({side: new_id})
            )
            moved += result.rowcount  # type: ignore[attr-defined]
        return int(moved)

    async def rekey_players(self, organisation: str, players: Sequence[tuple[str, str]], new_id: str) -> int:
        """The rows of these event people (event code, player id) become ``new_id``'s (a split),
        whoever held them; how many rows moved."""
        moved = 0
        g, t = title_grants.c, rated_games.c
        for event_code, player_id in players:
            result = await self.session.execute(
                update(title_grants)
                .where(
                    g.organisation == organisation,
                    g.event_code == event_code,
                    g.player_id == player_id,
                    g.person_id != new_id,
                )
                .values(person_id=new_id)
            )
            moved += result.rowcount  # type: ignore[attr-defined]
            for side, player in (("first_id", t.first_player), ("second_id", t.second_player)):
                result = await self.session.execute(
                    update(rated_games)
                    .where(
                        t.organisation == organisation,
                        t.event_code == event_code,
                        player == player_id,
                        t[side] != new_id,
                    )
                    .values({side: new_id})
                )
                moved += result.rowcount  # type: ignore[attr-defined]
        return int(moved)


def name_initial(name: str) -> str:
    """The first character of a name, case folded (masked names show it: "张**", "L**")."""
    return name.strip()[:1].casefold()


def ranked(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each row with its place in its period's list (rating, highest first; person id on a
    tie) and its name's initial, kept so a search by initial need not read the whole list."""
    order = sorted(rows, key=lambda r: (r["period"], -r["rating"], r["person_id"]))
    places: dict[str, int] = {}
    out = []
    for row in order:
        places[row["period"]] = places.get(row["period"], 0) + 1
        out.append({**row, "rank": places[row["period"]], "initial": name_initial(row["name"])})
    return out
