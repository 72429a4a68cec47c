"""Reads and writes of the awards tables, on one AsyncSession (inside a unit of work)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, delete, func, insert, select, true, update
from sqlalchemy.engine import Row
from sqlalchemy.ext.asyncio import AsyncSession

from .orm import event_configs, publications, qualifier_selections, section_results, team_rankings


def canonical(value: Any) -> str:
    """Canonical JSON text: equal content ⇔ equal bytes (sorted keys, no spaces)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class Publication:
    event_code: str
    section_id: str
    stage: str
    kind: str
    revision: int
    supersedes: int | None
    superseded: bool
    superseded_by: int | None
    source_revision: int | None
    payload: dict[str, Any]
    document: dict[str, Any]
    published_at: datetime
    payload_text: str
    document_text: str

    @classmethod
    def from_row(cls, row: Row[Any]) -> Publication:
        return cls(
            row.event_code,
            row.section_id,
            row.stage,
            row.kind,
            row.revision,
            row.supersedes,
            bool(row.superseded),
            row.superseded_by,
            row.source_revision,
            json.loads(row.payload),
            json.loads(row.document),
            _utc(row.published_at),
            row.payload,
            row.document,
        )


def _utc(value: datetime) -> datetime:
    # SQLite hands back naive datetimes; every time stored here is UTC
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


class AwardsRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    # ------------------------------------------------------------------ events
    async def lock_event(self, event_code: str) -> None:
        """Serialise every change of one event: its row, created if missing, locked FOR UPDATE
        (PostgreSQL; SQLite serialises writers anyway). Team scores read several sections, so two
        sections of one event completing at once must not both see the other one missing."""
        dialect = self.session.get_bind().dialect.name
        if dialect == "postgresql":
            from sqlalchemy.dialects.postgresql import insert as upsert
        else:
            from sqlalchemy.dialects.sqlite import insert as upsert  # type: ignore[assignment]
        await self.session.execute(upsert(event_configs).values(event_code=event_code).on_conflict_do_nothing())
        await self.session.execute(
            select(event_configs.c.event_code).where(event_configs.c.event_code == event_code).with_for_update()
        )

    async def save_config(
        self, event_code: str, name: str, preset_id: str, config: dict[str, Any], now: datetime
    ) -> bool:
        """Store the configuration; False if the stored one is identical."""
        text = canonical(config)
        current = await self.session.scalar(
            select(event_configs.c.config).where(event_configs.c.event_code == event_code)
        )
        if current == text:
            return False
        await self.session.execute(
            update(event_configs)
            .where(event_configs.c.event_code == event_code)
            .values(name=name, preset_id=preset_id, config=text, received_at=now)
        )
        return True

    async def config(self, event_code: str) -> dict[str, Any] | None:
        text = await self.session.scalar(select(event_configs.c.config).where(event_configs.c.event_code == event_code))
        return json.loads(text) if text else None

    async def event(self, event_code: str) -> Row[Any] | None:
        return (
            await self.session.execute(select(event_configs).where(event_configs.c.event_code == event_code))
        ).first()

    # ------------------------------------------------------------------ section results
    async def add_result(
        self,
        event_code: str,
        section_id: str,
        revision: int,
        stage: str,
        name: str,
        kind: str,
        payload: dict[str, Any],
        now: datetime,
    ) -> str:
        """Store one revision: "added", "same" (already stored, identical) or "conflict"
        (already stored with other content: the first one stays, deterministic)."""
        text = canonical(payload)
        existing = await self.session.scalar(
            select(section_results.c.payload).where(
                section_results.c.event_code == event_code,
                section_results.c.section_id == section_id,
                section_results.c.revision == revision,
            )
        )
        if existing is not None:
            return "same" if existing == text else "conflict"
        await self.session.execute(
            insert(section_results).values(
                event_code=event_code,
                section_id=section_id,
                revision=revision,
                stage=stage,
                name=name,
                kind=kind,
                payload=text,
                received_at=now,
            )
        )
        return "added"

    async def current_result(self, event_code: str, section_id: str) -> Row[Any] | None:
        return (
            await self.session.execute(
                select(section_results)
                .where(section_results.c.event_code == event_code, section_results.c.section_id == section_id)
                .order_by(section_results.c.revision.desc())
                .limit(1)
            )
        ).first()

    async def current_results(self, event_code: str) -> dict[str, Row[Any]]:
        latest = (
            select(section_results.c.section_id, func.max(section_results.c.revision).label("rev"))
            .where(section_results.c.event_code == event_code)
            .group_by(section_results.c.section_id)
            .subquery()
        )
        rows = (
            await self.session.execute(
                select(section_results)
                .join(
                    latest,
                    and_(
                        section_results.c.section_id == latest.c.section_id, section_results.c.revision == latest.c.rev
                    ),
                )
                .where(section_results.c.event_code == event_code)
                .order_by(section_results.c.section_id)
            )
        ).all()
        return {r.section_id: r for r in rows}

    # ------------------------------------------------------------------ publications
    async def current_publication(self, event_code: str, section_id: str) -> Publication | None:
        row = (
            await self.session.execute(
                select(publications)
                .where(publications.c.event_code == event_code, publications.c.section_id == section_id)
                .order_by(publications.c.revision.desc())
                .limit(1)
            )
        ).first()
        return Publication.from_row(row) if row else None

    async def publication(self, event_code: str, section_id: str, revision: int) -> Publication | None:
        row = (
            await self.session.execute(
                select(publications).where(
                    publications.c.event_code == event_code,
                    publications.c.section_id == section_id,
                    publications.c.revision == revision,
                )
            )
        ).first()
        return Publication.from_row(row) if row else None

    async def publications(self, event_code: str, section_id: str | None = None) -> list[Publication]:
        query = select(publications).where(publications.c.event_code == event_code)
        if section_id is not None:
            query = query.where(publications.c.section_id == section_id)
        rows = (await self.session.execute(query.order_by(publications.c.section_id, publications.c.revision))).all()
        return [Publication.from_row(r) for r in rows]

    async def add_publication(
        self,
        *,
        event_code: str,
        section_id: str,
        stage: str,
        kind: str,
        revision: int,
        supersedes: int | None,
        source_revision: int | None,
        payload_text: str,
        document_text: str,
        now: datetime,
    ) -> None:
        if supersedes is not None:
            await self.session.execute(
                update(publications)
                .where(
                    publications.c.event_code == event_code,
                    publications.c.section_id == section_id,
                    publications.c.revision == supersedes,
                )
                .values(superseded=True, superseded_by=revision)
            )
        await self.session.execute(
            insert(publications).values(
                event_code=event_code,
                section_id=section_id,
                stage=stage,
                kind=kind,
                revision=revision,
                supersedes=supersedes,
                superseded=False,
                superseded_by=None,
                source_revision=source_revision,
                payload=payload_text,
                document=document_text,
                published_at=now,
            )
        )

    # ------------------------------------------------------------------ team rankings
    async def replace_team_ranking(
        self, event_code: str, team_section_id: str, rows: list[dict[str, Any]], publication_revision: int
    ) -> None:
        await self.session.execute(
            delete(team_rankings).where(
                team_rankings.c.event_code == event_code, team_rankings.c.team_section_id == team_section_id
            )
        )
        if rows:
            await self.session.execute(
                insert(team_rankings),
                [
                    {
                        "event_code": event_code,
                        "team_section_id": team_section_id,
                        "position": i,
                        "publication_revision": publication_revision,
                        **r,
                    }
                    for i, r in enumerate(rows, 1)
                ],
            )

    async def team_ranking(self, event_code: str, team_section_id: str | None = None) -> list[Row[Any]]:
        query = select(team_rankings).where(team_rankings.c.event_code == event_code)
        if team_section_id is not None:
            query = query.where(team_rankings.c.team_section_id == team_section_id)
        return list(
            (
                await self.session.execute(query.order_by(team_rankings.c.team_section_id, team_rankings.c.position))
            ).all()
        )

    # ------------------------------------------------------------------ qualifiers
    async def selections(self, event_code: str, section_id: str | None = None) -> list[Row[Any]]:
        query = select(qualifier_selections).where(qualifier_selections.c.event_code == event_code)
        if section_id is not None:
            query = query.where(qualifier_selections.c.section_id == section_id)
        return list(
            (
                await self.session.execute(
                    query.order_by(qualifier_selections.c.section_id, qualifier_selections.c.target_section_id)
                )
            ).all()
        )

    async def save_selection(self, values: dict[str, Any], *, exists: bool) -> None:
        key = (
            qualifier_selections.c.event_code == values["event_code"],
            qualifier_selections.c.section_id == values["section_id"],
            qualifier_selections.c.target_section_id == values["target_section_id"],
        )
        if exists:
            await self.session.execute(update(qualifier_selections).where(*key).values(**values))
        else:
            await self.session.execute(insert(qualifier_selections).values(**values))

    async def drop_selections(self, event_code: str, section_id: str, keep_targets: set[str]) -> None:
        await self.session.execute(
            delete(qualifier_selections).where(
                qualifier_selections.c.event_code == event_code,
                qualifier_selections.c.section_id == section_id,
                qualifier_selections.c.target_section_id.not_in(sorted(keep_targets)) if keep_targets else true(),
            )
        )
