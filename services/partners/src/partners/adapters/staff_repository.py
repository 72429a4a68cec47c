"""Organisations, staff accounts, their roles, invitations and sessions in the service's
database (issue 29): the only module that builds their statements."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from gomoku_shared.event_access import EventAccessStore

from ..domain.staff import Account, Invitation, Organisation, Roles, roles_from_pairs
from . import orm

#: event_code of a role held in the whole organisation
ORG_WIDE = ""


def _account(row: Any) -> Account:
    return Account(
        account_id=row.account_id,
        login=row.login,
        name=row.name,
        password_hash=row.password_hash,
        disabled=bool(row.disabled),
        created_at=row.created_at,
        totp_secret=row.totp_secret,
        totp_enabled=bool(row.totp_enabled),
        tokens_revoked_at=row.tokens_revoked_at,
    )


def _invitation(row: Any) -> Invitation:
    stored = json.loads(row.roles)
    roles = Roles(frozenset(stored.get("roles", [])), {k: frozenset(v) for k, v in stored.get("events", {}).items()})
    return Invitation(
        invitation_id=row.invitation_id,
        token_hash=row.token_hash,
        kind=row.kind,
        org_id=row.org_id,
        login=row.login,
        name=row.name,
        roles=roles,
        created_by=row.created_by,
        created_at=row.created_at,
        expires_at=row.expires_at,
        account_id=row.account_id,
        used_at=row.used_at,
    )


class StaffRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session
        self.access = EventAccessStore(orm.event_access)

    # ------------------------------------------------------------------ organisations
    async def organisation(self, org_id: str) -> Organisation | None:
        row = (
            await self.session.execute(select(orm.organisations).where(orm.organisations.c.org_id == org_id))
        ).first()
        return Organisation(row.org_id, row.name, row.name_zh, row.created_at) if row else None

    async def organisations(self, only: list[str] | None = None) -> list[Organisation]:
        stmt = select(orm.organisations).order_by(orm.organisations.c.org_id)
        if only is not None:
            stmt = stmt.where(orm.organisations.c.org_id.in_(only))
        rows = await self.session.execute(stmt)
        return [Organisation(r.org_id, r.name, r.name_zh, r.created_at) for r in rows]

    async def add_organisation(self, org: Organisation) -> None:
        await self.session.execute(
            insert(orm.organisations).values(
                org_id=org.org_id, name=org.name, name_zh=org.name_zh, created_at=org.created_at
            )
        )

    async def event_owners(self, codes: list[str]) -> dict[str, str | None]:
        """The organisation that owns each event (None: not heard of)."""
        owners: dict[str, str | None] = dict.fromkeys(codes)
        for code in codes:
            access = await self.access.get(self.session, code)
            if access is not None:
                owners[code] = access.organisation
        return owners

    async def record_access(self, code: str, organisation: str, partners: list[str] | None, at: datetime) -> bool:
        return await self.access.record(self.session, code, organisation, partners, at)

    # ------------------------------------------------------------------ accounts
    async def account(self, account_id: str, *, for_update: bool = False) -> Account | None:
        stmt = select(orm.staff_accounts).where(orm.staff_accounts.c.account_id == account_id)
        if for_update:
            stmt = stmt.with_for_update()
        row = (await self.session.execute(stmt)).first()
        return _account(row) if row else None

    async def account_by_login(self, login: str, *, for_update: bool = False) -> Account | None:
        stmt = select(orm.staff_accounts).where(orm.staff_accounts.c.login == login)
        if for_update:
            stmt = stmt.with_for_update()
        row = (await self.session.execute(stmt)).first()
        return _account(row) if row else None

    async def add_account(self, account: Account) -> None:
        await self.session.execute(insert(orm.staff_accounts).values(**_account_row(account)))

    async def save_account(self, account: Account) -> None:
        await self.session.execute(
            update(orm.staff_accounts)
            .where(orm.staff_accounts.c.account_id == account.account_id)
            .values(**_account_row(account))
        )

    async def accounts_in(self, org_id: str) -> list[Account]:
        """The accounts holding a role in the organisation or one of its events."""
        grants = orm.staff_grants
        ids = select(grants.c.account_id).where(grants.c.org_id == org_id).distinct()
        rows = await self.session.execute(
            select(orm.staff_accounts)
            .where(orm.staff_accounts.c.account_id.in_(ids))
            .order_by(orm.staff_accounts.c.name, orm.staff_accounts.c.account_id)
        )
        return [_account(r) for r in rows]

    async def revoked_since(self, since: datetime) -> dict[str, datetime]:
        """``acct:<id>`` -> when its tokens were last revoked, for revocations at or after ``since``."""
        t = orm.staff_accounts
        rows = await self.session.execute(
            select(t.c.account_id, t.c.tokens_revoked_at).where(
                t.c.tokens_revoked_at.is_not(None), t.c.tokens_revoked_at >= since
            )
        )
        return {f"acct:{r.account_id}": r.tokens_revoked_at for r in rows}

    # ------------------------------------------------------------------ roles
    async def roles(self, account_id: str) -> dict[str, Roles]:
        """Organisation -> the account's roles there."""
        grants = orm.staff_grants
        rows = await self.session.execute(
            select(grants.c.org_id, grants.c.event_code, grants.c.role).where(grants.c.account_id == account_id)
        )
        pairs: dict[str, list[tuple[str | None, str]]] = {}
        for row in rows:
            pairs.setdefault(row.org_id, []).append((row.event_code or None, row.role))
        return {org: roles_from_pairs(found) for org, found in pairs.items()}

    async def set_roles(self, account_id: str, org_id: str, roles: Roles) -> None:
        grants = orm.staff_grants
        await self.session.execute(delete(grants).where(grants.c.account_id == account_id, grants.c.org_id == org_id))
        rows = [
            {"account_id": account_id, "org_id": org_id, "event_code": code or ORG_WIDE, "role": role}
            for code, role in sorted(roles.pairs(), key=lambda pair: (pair[0] or "", pair[1]))
        ]
        if rows:
            await self.session.execute(insert(grants), rows)

    async def admins(self, org_id: str) -> list[str]:
        """The enabled accounts that administer the organisation (locked: a concurrent removal waits)."""
        grants, accounts = orm.staff_grants, orm.staff_accounts
        rows = await self.session.execute(
            select(accounts.c.account_id)
            .join(grants, grants.c.account_id == accounts.c.account_id)
            .where(
                grants.c.org_id == org_id,
                grants.c.event_code == ORG_WIDE,
                grants.c.role == "admin",
                accounts.c.disabled.is_(False),
            )
            .order_by(accounts.c.account_id)
            .with_for_update(of=accounts)
        )
        return [r.account_id for r in rows]

    # ------------------------------------------------------------------ invitations
    async def add_invitation(self, invitation: Invitation) -> None:
        await self.session.execute(
            insert(orm.staff_invitations).values(
                invitation_id=invitation.invitation_id,
                token_hash=invitation.token_hash,
                kind=invitation.kind,
                org_id=invitation.org_id,
                login=invitation.login,
                name=invitation.name,
                roles=json.dumps(invitation.roles.as_json(), sort_keys=True, separators=(",", ":")),
                account_id=invitation.account_id,
                created_by=invitation.created_by,
                created_at=invitation.created_at,
                expires_at=invitation.expires_at,
                used_at=None,
            )
        )

    async def invitation(self, token_hash: str, *, for_update: bool = False) -> Invitation | None:
        stmt = select(orm.staff_invitations).where(orm.staff_invitations.c.token_hash == token_hash)
        if for_update:
            stmt = stmt.with_for_update()
        row = (await self.session.execute(stmt)).first()
        return _invitation(row) if row else None

    async def use_invitation(self, invitation_id: str, at: datetime) -> None:
        t = orm.staff_invitations
        await self.session.execute(update(t).where(t.c.invitation_id == invitation_id).values(used_at=at))

    # ------------------------------------------------------------------ sessions
    async def add_session(
        self, session_id: str, account_id: str, refresh_hash: str, created_at: datetime, expires_at: datetime
    ) -> None:
        await self.session.execute(
            insert(orm.staff_sessions).values(
                session_id=session_id,
                account_id=account_id,
                refresh_hash=refresh_hash,
                created_at=created_at,
                expires_at=expires_at,
                ended_at=None,
            )
        )

    async def live_session(self, session_id: str, now: datetime) -> tuple[str, str] | None:
        """(account id, refresh hash) of a session neither ended nor expired."""
        t = orm.staff_sessions
        row = (
            await self.session.execute(
                select(t.c.account_id, t.c.refresh_hash).where(
                    t.c.session_id == session_id, t.c.ended_at.is_(None), t.c.expires_at > now
                )
            )
        ).first()
        return (row.account_id, row.refresh_hash) if row else None

    async def end_session(self, session_id: str, at: datetime) -> None:
        t = orm.staff_sessions
        await self.session.execute(
            update(t).where(t.c.session_id == session_id, t.c.ended_at.is_(None)).values(ended_at=at)
        )

    async def end_sessions(self, account_id: str, at: datetime) -> int:
        t = orm.staff_sessions
        result = await self.session.execute(
            update(t).where(t.c.account_id == account_id, t.c.ended_at.is_(None)).values(ended_at=at)
        )
        return int(getattr(result, "rowcount", 0) or 0)


def _account_row(account: Account) -> dict[str, Any]:
    return {
        "account_id": account.account_id,
        "login": account.login,
        "name": account.name,
        "password_hash": account.password_hash,
        "disabled": account.disabled,
        "totp_secret": account.totp_secret,
        "totp_enabled": account.totp_enabled,
        "created_at": account.created_at,
        "tokens_revoked_at": account.tokens_revoked_at,
    }
