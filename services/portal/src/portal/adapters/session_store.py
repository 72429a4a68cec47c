"""Where staff sessions live: in the process (one portal process: the embedded mode, a single
replica) or in the portal's PostgreSQL table (several replicas behind the gateway: a sign-in on
one is honoured by every other, a sign-out ends it on all of them). ADR 0009.

A person's session (issue 29) also has ``sealed_person``: their access and refresh tokens and
their roles, sealed with the session secret as the key is; a refresh of the access token
``update`` rewrites the row."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Protocol

from sqlalchemy import delete, insert, select, update

from gomoku_shared.db import make_engine

from .orm import staff_sessions


class Row:
    def __init__(self, session_id: str, sealed_key: str, role: str, csrf: str, expires_at: float) -> None:
        self.session_id, self.sealed_key, self.role, self.csrf, self.expires_at = (
            session_id,
            sealed_key,
            role,
            csrf,
            expires_at,
        )
        #: a person's tokens and roles, sealed (None: an API key's session)
        self.sealed_person: str | None = None


class SessionStore(Protocol):
    async def put(self, row: Row) -> None: ...
    async def get(self, session_id: str, now: float) -> Row | None: ...
    async def update(self, session_id: str, sealed_key: str, sealed_person: str | None) -> None: ...
    async def delete(self, session_id: str) -> None: ...
    async def aclose(self) -> None: ...


class MemoryStore:
    """One process only: a restart or another replica does not know these sessions."""

    def __init__(self) -> None:
        self._rows: dict[str, Row] = {}

    async def put(self, row: Row) -> None:
        now = time.time()
        for sid in [sid for sid, r in self._rows.items() if r.expires_at < now]:
            del self._rows[sid]
        self._rows[row.session_id] = row

    async def get(self, session_id: str, now: float) -> Row | None:
        row = self._rows.get(session_id)
        if row is not None and row.expires_at < now:
            del self._rows[session_id]
            return None
        return row

    async def update(self, session_id: str, sealed_key: str, sealed_person: str | None) -> None:
        row = self._rows.get(session_id)
        if row is not None:
            row.sealed_key, row.sealed_person = sealed_key, sealed_person

    async def delete(self, session_id: str) -> None:
        self._rows.pop(session_id, None)

    async def aclose(self) -> None:
        self._rows.clear()


def _at(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, UTC)


class SqlStore:
    """The ``staff_sessions`` table of the portal's database (``PORTAL_DATABASE_URL``)."""

    def __init__(self, url: str) -> None:
        self._engine = make_engine(url, pool_size=3)

    async def put(self, row: Row) -> None:
        async with self._engine.begin() as conn:
            # expired sessions go when someone signs in (never on a page view)
            await conn.execute(delete(staff_sessions).where(staff_sessions.c.expires_at < datetime.now(UTC)))
            await conn.execute(
                insert(staff_sessions).values(
                    session_id=row.session_id,
                    sealed_key=row.sealed_key,
                    sealed_person=row.sealed_person,
                    role=row.role,
                    csrf=row.csrf,
                    created_at=datetime.now(UTC),
                    expires_at=_at(row.expires_at),
                )
            )

    async def get(self, session_id: str, now: float) -> Row | None:
        async with self._engine.connect() as conn:
            found = (
                await conn.execute(
                    select(staff_sessions).where(
                        staff_sessions.c.session_id == session_id, staff_sessions.c.expires_at >= _at(now)
                    )
                )
            ).first()
        if found is None:
            return None
        row = Row(found.session_id, found.sealed_key, found.role, found.csrf, found.expires_at.timestamp())
        row.sealed_person = found.sealed_person
        return row

    async def update(self, session_id: str, sealed_key: str, sealed_person: str | None) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(
                update(staff_sessions)
                .where(staff_sessions.c.session_id == session_id)
                .values(sealed_key=sealed_key, sealed_person=sealed_person)
            )

    async def delete(self, session_id: str) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(delete(staff_sessions).where(staff_sessions.c.session_id == session_id))

    async def aclose(self) -> None:
        await self._engine.dispose()
