"""Organisations and their staff (issue 29): the operator creates organisations; the operator
or an organisation's administrators invite people, set their roles, disable and enable their
accounts and send password-reset links. Every change is audited with who made it; a refusal
changes nothing."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from gomoku_shared.auth import Principal

from ..adapters.staff_repository import StaffRepository
from ..domain import passwords
from ..domain.staff import (
    Account,
    Invitation,
    InvitationKind,
    Organisation,
    Roles,
    check_administrators,
    check_password,
    invitation_not_found,
    normalise_login,
    refused,
    validated_roles,
)
from . import staff_views as views
from .ambient import Units, unit_of_work
from .staff_base import (
    StaffBase,
    account_label,
    account_not_found,
    actor_label,
    check_administers,
    is_platform_operator,
    organisation_not_found,
)
from .unit_of_work import PartnersUnitOfWork

ACCEPT_PATH = "/staff/invitations/"


class Organisations(StaffBase):
    # ------------------------------------------------------------------ organisations
    async def create(
        self, units: Units, principal: Principal, org_id: str, name: str, name_zh: str | None
    ) -> dict[str, Any]:
        async with units.transaction() as uow:
            repo = uow.staff
            if await repo.organisation(org_id) is not None:
                raise refused(
                    "duplicate_organisation",
                    409,
                    f"组织 {org_id} 已经存在。",
                    f"The organisation {org_id} exists already.",
                    organisation=org_id,
                )
            org = Organisation(org_id, name, name_zh, self.now())
            await repo.add_organisation(org)
            await self.audit(uow, actor_label(principal), "organisation.created", details=views.organisation(org))
        return views.organisation(org)

    async def listed(self, principal: Principal) -> dict[str, Any]:
        """The operator sees every organisation; a person those they hold a role in; an
        arbiter's API key its own."""
        only: list[str] | None = None
        if principal.person is not None:
            only = sorted(set(principal.person.orgs) | await self._orgs_of_events(principal))
        elif not is_platform_operator(principal):
            only = [principal.organisation or "default"]
        async with unit_of_work(self.runtime) as uow:
            found = await uow.staff.organisations(only)
        return {"items": [views.organisation(org) for org in found]}

    async def _orgs_of_events(self, principal: Principal) -> set[str]:
        assert principal.person is not None
        codes = sorted(principal.person.events)
        if not codes:
            return set()
        async with unit_of_work(self.runtime) as uow:
            owners = await uow.staff.event_owners(codes)
        return {owner for owner in owners.values() if owner}

    async def _organisation(self, repo: StaffRepository, org_id: str) -> Organisation:
        org = await repo.organisation(org_id)
        if org is None:
            raise organisation_not_found(org_id)
        return org

    async def _validated(self, repo: StaffRepository, org_id: str, roles: list[str], events: dict) -> Roles:
        owners = await repo.event_owners(sorted(events))
        return validated_roles(org_id, roles, events, owners)

    # ------------------------------------------------------------------ invitations
    async def invite(
        self,
        units: Units,
        principal: Principal,
        org_id: str,
        login: str,
        name: str,
        roles: list[str],
        events: dict[str, list[str]],
    ) -> dict[str, Any]:
        check_administers(principal, org_id)
        normalised = normalise_login(login)
        async with units.transaction() as uow:
            repo = uow.staff
            await self._organisation(repo, org_id)
            wanted = await self._validated(repo, org_id, roles, events)
            if wanted.empty:
                raise refused("no_roles", 422, "请至少授予一项职务。", "Grant at least one role.")
            answer = await self._link(uow, repo, principal, "invite", org_id, normalised, name, wanted, None)
        return answer

    async def reset_password(self, units: Units, principal: Principal, org_id: str, account_id: str) -> dict[str, Any]:
        check_administers(principal, org_id)
        async with units.transaction() as uow:
            repo = uow.staff
            account = await self._member(repo, org_id, account_id)
            answer = await self._link(
                uow, repo, principal, "reset", org_id, account.login, account.name, Roles(), account.account_id
            )
        return answer

    async def _link(
        self,
        uow,
        repo: StaffRepository,
        principal: Principal,
        kind: InvitationKind,
        org_id: str,
        login: str,
        name: str,
        roles: Roles,
        account_id: str | None,
    ) -> dict[str, Any]:
        token = passwords.new_token()
        now = self.now()
        invitation = Invitation(
            invitation_id=passwords.new_id("inv-"),
            token_hash=passwords.token_hash(token),
            kind=kind,
            org_id=org_id,
            login=login,
            name=name,
            roles=roles,
            created_by=actor_label(principal),
            created_at=now,
            expires_at=now + timedelta(seconds=self.settings.invitation_ttl_s),
            account_id=account_id,
        )
        await repo.add_invitation(invitation)
        details = {"invitation_id": invitation.invitation_id, "organisation": org_id, **roles.as_json()}
        action = "staff.invited" if kind == "invite" else "staff.password_reset_sent"
        await self.audit(uow, actor_label(principal), action, account_id=account_id, details=details)
        return {
            "invitation_id": invitation.invitation_id,
            "kind": kind,
            "token": token,
            "expires_at": invitation.expires_at.isoformat(),
            "accept_path": f"{ACCEPT_PATH}{token}",
        }

    async def invitation(self, token: str) -> dict[str, Any]:
        """What the accept page says: who is invited, by which organisation, for which roles."""
        async with unit_of_work(self.runtime) as uow:
            repo = uow.staff
            invitation = await repo.invitation(passwords.token_hash(token))
            if invitation is None:
                raise invitation_not_found()
            invitation.check_open(self.now())
            org = await self._organisation(repo, invitation.org_id)
            existing = await repo.account_by_login(invitation.login)
        return views.invitation(invitation, org, existing is not None)

    async def accept(self, units: Units, token: str, password: str) -> dict[str, Any]:
        """An invitation creates the account (or adds its roles to the account of that login,
        whose password must be given); a reset link sets the password and ends the person's
        sessions and tokens."""
        async with units.transaction() as uow:
            repo = uow.staff
            invitation = await repo.invitation(passwords.token_hash(token), for_update=True)
            if invitation is None:
                raise invitation_not_found()
            invitation.check_open(self.now())
            existing = await repo.account_by_login(invitation.login, for_update=True)
            if invitation.kind == "reset":
                account = await self._reset(uow, repo, invitation, existing, password)
            elif existing is not None:
                account = await self._join(uow, repo, invitation, existing, password)
            else:
                account = await self._new_account(uow, repo, invitation, password)
            await repo.use_invitation(invitation.invitation_id, self.now())
            roles = await repo.roles(account.account_id)
        return {"account": views.account(account), "kind": invitation.kind, **views.held(roles)}

    async def _new_account(self, uow, repo: StaffRepository, invitation: Invitation, password: str) -> Account:
        check_password(password, invitation.login)
        hashed = await asyncio.to_thread(passwords.hash_password, password)
        account = Account(passwords.new_id("acc-"), invitation.login, invitation.name, hashed, False, self.now())
        await repo.add_account(account)
        await repo.set_roles(account.account_id, invitation.org_id, invitation.roles)
        details = {"invitation_id": invitation.invitation_id, "organisation": invitation.org_id}
        await self.audit(
            uow, account_label(account), "staff.account_created", account_id=account.account_id, details=details
        )
        return account

    async def _join(
        self, uow, repo: StaffRepository, invitation: Invitation, account: Account, password: str
    ) -> Account:
        if not await asyncio.to_thread(passwords.verify_password, password, account.password_hash):
            raise refused(
                "sign_in_failed",
                401,
                "这个登录名已有账号：请输入该账号的密码以接受邀请。",
                "An account with this sign-in name exists: give its password to accept the invitation.",
            )
        held = (await repo.roles(account.account_id)).get(invitation.org_id, Roles())
        await repo.set_roles(account.account_id, invitation.org_id, held.merged(invitation.roles))
        details = {"invitation_id": invitation.invitation_id, "organisation": invitation.org_id}
        await self.audit(
            uow, account_label(account), "staff.roles_added", account_id=account.account_id, details=details
        )
        return account

    async def _reset(
        self, uow, repo: StaffRepository, invitation: Invitation, account: Account | None, password: str
    ) -> Account:
        if account is None or account.account_id != invitation.account_id:
            raise invitation_not_found()
        check_password(password, account.login)
        hashed = await asyncio.to_thread(passwords.hash_password, password)
        account = await self.revoke_tokens(
            uow, repo, replace(account, password_hash=hashed), "password_reset", end_sessions=True
        )
        details = {"invitation_id": invitation.invitation_id}
        await self.audit(
            uow, account_label(account), "staff.password_set", account_id=account.account_id, details=details
        )
        return account

    # ------------------------------------------------------------------ staff and roles
    async def staff(self, principal: Principal, org_id: str) -> dict[str, Any]:
        check_administers(principal, org_id)
        async with unit_of_work(self.runtime) as uow:
            repo = uow.staff
            await self._organisation(repo, org_id)
            items = []
            for account in await repo.accounts_in(org_id):
                held = (await repo.roles(account.account_id)).get(org_id, Roles())
                items.append({**views.account(account), **held.as_json()})
        return {"items": items}

    async def _member(self, repo: StaffRepository, org_id: str, account_id: str, *, lock: bool = False) -> Account:
        await self._organisation(repo, org_id)
        account = await repo.account(account_id, for_update=lock)
        if account is None or org_id not in await repo.roles(account_id):
            raise account_not_found(account_id)
        return account

    async def set_roles(
        self,
        units: Units,
        principal: Principal,
        org_id: str,
        account_id: str,
        roles: list[str],
        events: dict[str, list[str]],
    ) -> dict[str, Any]:
        check_administers(principal, org_id)
        async with units.transaction() as uow:
            repo = uow.staff
            account = await self._member(repo, org_id, account_id, lock=True)
            wanted = await self._validated(repo, org_id, roles, events)
            held = (await repo.roles(account_id)).get(org_id, Roles())
            await self._keep_an_admin(repo, org_id, account, still_admin="admin" in wanted.org_roles)
            await repo.set_roles(account_id, org_id, wanted)
            removed = held.pairs() - wanted.pairs()
            if removed:
                account = await self.revoke_tokens(uow, repo, account, "role_removed", end_sessions=False)
            details = {"organisation": org_id, "before": held.as_json(), "after": wanted.as_json()}
            await self.audit(uow, actor_label(principal), "staff.roles_set", account_id=account_id, details=details)
        return {**views.account(account), **wanted.as_json()}

    async def _keep_an_admin(self, repo: StaffRepository, org_id: str, account: Account, *, still_admin: bool) -> None:
        admins = await repo.admins(org_id)
        is_admin = account.account_id in admins
        others = len([a for a in admins if a != account.account_id])
        check_administrators(account.account_id, still_admin, others, is_admin=is_admin)

    async def set_disabled(
        self, units: Units, principal: Principal, org_id: str, account_id: str, disabled: bool
    ) -> dict[str, Any]:
        check_administers(principal, org_id)
        async with units.transaction() as uow:
            repo = uow.staff
            account = await self._member(repo, org_id, account_id, lock=True)
            if disabled:
                await self._keep_an_admin(repo, org_id, account, still_admin=False)
            account = replace(account, disabled=disabled)
            await repo.save_account(account)
            if disabled:
                account = await self.revoke_tokens(uow, repo, account, "account_disabled", end_sessions=True)
            action = "staff.disabled" if disabled else "staff.enabled"
            await self.audit(
                uow, actor_label(principal), action, account_id=account_id, details={"organisation": org_id}
            )
        return views.account(account)

    async def on_access_changed(
        self, uow: PartnersUnitOfWork, code: str, organisation: str, partners: list[str] | None, at: datetime
    ) -> bool:
        """Consumer of event.access_changed: who owns the event (roles on it are checked against it)."""
        return await uow.staff.record_access(code, organisation, partners, at)
