"""Partners, credentials, signing keys and the audit log in the service's database: the only
module that builds statements (the service layer asks these functions for records)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from gomoku_shared.db import select_for_update

from ..domain.model import Credential, Partner, RateLimit
from . import orm


def _partner(row: Any) -> Partner:
    return Partner(
        partner_id=row.partner_id,
        name=row.name,
        kind=row.kind,
        scopes=frozenset(row.scopes.split()),
        rate_limit=RateLimit(row.rate_quota, row.rate_window_s),
        status=row.status,
        created_at=row.created_at,
        suspended_at=row.suspended_at,
    )


def _partner_row(p: Partner) -> dict[str, Any]:
    return {
        "partner_id": p.partner_id,
        "name": p.name,
        "kind": p.kind,
        "scopes": " ".join(sorted(p.scopes)),
        "rate_quota": p.rate_limit.quota,
        "rate_window_s": p.rate_limit.window_s,
        "status": p.status,
        "created_at": p.created_at,
        "suspended_at": p.suspended_at,
    }


def _credential(row: Any) -> Credential:
    return Credential(
        client_id=row.client_id,
        partner_id=row.partner_id,
        label=row.label,
        secret_hash=row.secret_hash,
        status=row.status,
        created_at=row.created_at,
        previous_hash=row.previous_hash,
        previous_valid_until=row.previous_valid_until,
        rotated_at=row.rotated_at,
        revoked_at=row.revoked_at,
        last_used_at=row.last_used_at,
    )


def _credential_row(c: Credential) -> dict[str, Any]:
    return {
        "client_id": c.client_id,
        "partner_id": c.partner_id,
        "label": c.label,
        "secret_hash": c.secret_hash,
        "previous_hash": c.previous_hash,
        "previous_valid_until": c.previous_valid_until,
        "status": c.status,
        "created_at": c.created_at,
        "rotated_at": c.rotated_at,
        "revoked_at": c.revoked_at,
        "last_used_at": c.last_used_at,
    }


class PartnerRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    # ------------------------------------------------------------------ partners
    async def partner(self, partner_id: str, *, for_update: bool = False) -> Partner | None:
        where = orm.partners.c.partner_id == partner_id
        stmt = select(orm.partners).where(where)
        if for_update:
            result = await select_for_update(self.session, stmt, orm.partners, where)
        else:
            result = await self.session.execute(stmt)
        row = result.first()
        return _partner(row) if row else None

    async def partners(self) -> list[Partner]:
        rows = await self.session.execute(select(orm.partners).order_by(orm.partners.c.partner_id))
        return [_partner(r) for r in rows]

    async def add_partner(self, partner: Partner) -> None:
        await self.session.execute(insert(orm.partners).values(**_partner_row(partner)))

    async def save_partner(self, partner: Partner) -> None:
        values = _partner_row(partner)
        await self.session.execute(
            update(orm.partners).where(orm.partners.c.partner_id == partner.partner_id).values(**values)
        )

    # ------------------------------------------------------------------ credentials
    async def credential(self, client_id: str, *, for_update: bool = False) -> Credential | None:
        stmt = select(orm.credentials).where(orm.credentials.c.client_id == client_id)
        if for_update:
            stmt = stmt.with_for_update()
        row = (await self.session.execute(stmt)).first()
        return _credential(row) if row else None

    async def credentials_of(self, partner_id: str) -> list[Credential]:
        rows = await self.session.execute(
            select(orm.credentials)
            .where(orm.credentials.c.partner_id == partner_id)
            .order_by(orm.credentials.c.created_at, orm.credentials.c.client_id)
        )
        return [_credential(r) for r in rows]

    async def add_credential(self, credential: Credential) -> None:
        await self.session.execute(insert(orm.credentials).values(**_credential_row(credential)))

    async def save_credential(self, credential: Credential) -> None:
        await self.session.execute(
            update(orm.credentials)
            .where(orm.credentials.c.client_id == credential.client_id)
            .values(**_credential_row(credential))
        )

    async def revoked_since(self, since: datetime) -> dict[str, datetime]:
        rows = await self.session.execute(
            select(orm.credentials.c.client_id, orm.credentials.c.revoked_at).where(
                orm.credentials.c.status == "revoked", orm.credentials.c.revoked_at >= since
            )
        )
        return {r.client_id: r.revoked_at for r in rows}

    async def suspended_since(self, since: datetime) -> dict[str, datetime]:
        """The credentials of partners suspended at or after ``since`` -> when (the last suspension)."""
        c, p = orm.credentials, orm.partners
        rows = await self.session.execute(
            select(c.c.client_id, p.c.suspended_at)
            .join(p, p.c.partner_id == c.c.partner_id)
            .where(p.c.suspended_at.is_not(None), p.c.suspended_at >= since)
        )
        return {r.client_id: r.suspended_at for r in rows}

    # ------------------------------------------------------------------ audit
    async def audit(
        self,
        *,
        at: datetime,
        actor: str,
        action: str,
        outcome: str = "ok",
        partner_id: str | None = None,
        client_id: str | None = None,
        details: dict[str, Any] | None = None,
        correlation_id: str | None = None,
    ) -> None:
        await self.session.execute(
            insert(orm.audit_log).values(
                at=at,
                actor=actor,
                action=action,
                outcome=outcome,
                partner_id=partner_id,
                client_id=client_id,
                details=json.dumps(details or {}, sort_keys=True, separators=(",", ":")),
                correlation_id=correlation_id,
            )
        )

    async def audit_page(
        self, *, partner_id: str | None, client_id: str | None, after: int | None, limit: int
    ) -> list[dict[str, Any]]:
        """Newest first; ``after`` is the id of the last entry of the previous page."""
        t = orm.audit_log
        stmt = select(t).order_by(t.c.id.desc()).limit(limit)
        if partner_id is not None:
            stmt = stmt.where(t.c.partner_id == partner_id)
        if client_id is not None:
            stmt = stmt.where(t.c.client_id == client_id)
        if after is not None:
            stmt = stmt.where(t.c.id < after)
        rows = await self.session.execute(stmt)
        return [{**r._mapping, "details": json.loads(r.details)} for r in rows]

    # ------------------------------------------------------------------ signing keys
    async def signing_keys(self, *, published_at: datetime) -> list[StoredKey]:
        """Keys still in the JWKS at ``published_at``, the signing key first."""
        t = orm.signing_keys
        rows = await self.session.execute(
            select(t)
            .where((t.c.published_until.is_(None)) | (t.c.published_until > published_at))
            .order_by(t.c.retired_at.is_not(None), t.c.created_at.desc())
        )
        return [StoredKey(r.kid, r.private_key_enc, json.loads(r.public_jwk), r.created_at, r.retired_at) for r in rows]

    async def add_signing_key(self, key: StoredKey) -> None:
        await self.session.execute(
            insert(orm.signing_keys).values(
                kid=key.kid,
                private_key_enc=key.private_key_enc,
                public_jwk=json.dumps(key.public_jwk, sort_keys=True),
                created_at=key.created_at,
                retired_at=None,
                published_until=None,
            )
        )

    async def retire_signing_keys(self, *, except_kid: str, at: datetime, published_until: datetime) -> list[str]:
        t = orm.signing_keys
        rows = await self.session.execute(
            select(t.c.kid).where(t.c.retired_at.is_(None), t.c.kid != except_kid).with_for_update()
        )
        kids = [r.kid for r in rows]
        if kids:
            await self.session.execute(
                update(t).where(t.c.kid.in_(kids)).values(retired_at=at, published_until=published_until)
            )
        return kids


@dataclass(frozen=True)
class StoredKey:
    kid: str
    private_key_enc: str
    public_jwk: dict[str, Any]
    created_at: datetime
    retired_at: datetime | None = None
