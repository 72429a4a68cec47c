"""Idempotency-Key: the same key and body from the same principal replays the stored response."""
from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession

from gomoku_shared.auth import Principal
from gomoku_shared.errors import Conflict

from . import orm


def principal_key(p: Principal) -> str:
    return f"{p.role}:{p.partner_id or '-'}:{p.key_id}"


async def lookup(session: AsyncSession, principal: Principal, key: str, request_hash: str
                 ) -> tuple[int, Any] | None:
    row = (await session.execute(sa.select(orm.idempotency_keys).where(
        orm.idempotency_keys.c.principal == principal_key(principal), orm.idempotency_keys.c.key == key))).first()
    if row is None:
        return None
    if row.request_hash != request_hash:
        raise Conflict("idempotency_key_reused", "this Idempotency-Key was used with another request")
    return row.status_code, row.response


async def remember(session: AsyncSession, principal: Principal, key: str, request_hash: str, status: int,
                   response: Any, now: datetime) -> None:
    await session.execute(sa.insert(orm.idempotency_keys).values(
        principal=principal_key(principal), key=key, request_hash=request_hash, status_code=status,
        response=response, created_at=now))
