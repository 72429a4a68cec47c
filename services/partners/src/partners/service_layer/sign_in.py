"""Staff sign-in (issue 29): a login and a password (and a TOTP code once the person enabled
it) open a session; its refresh token gets new access tokens with the roles as they are then;
signing out ends it, signing out everywhere ends them all and revokes the person's tokens.

A wrong login, a wrong password and a disabled account get the same answer after the same
work (an unknown login is checked against a dummy hash). The access token is the staff token
every service verifies (``gomoku_shared.tokens``), signed with the service's current key.
"""

from __future__ import annotations

import asyncio
import hmac
from dataclasses import replace
from datetime import timedelta
from typing import Any

from gomoku_shared.auth import Principal
from gomoku_shared.errors import ServiceError

from ..adapters.staff_repository import StaffRepository
from ..domain import passwords
from ..domain.claims import staff_claims
from ..domain.staff import Account, normalise_login, refused
from . import staff_views as views
from .ambient import Units, unit_of_work
from .staff_base import StaffBase, account_label, person_required


def sign_in_failed() -> ServiceError:
    return refused(
        "sign_in_failed",
        401,
        "登录名或密码不正确。",
        "The sign-in name or the password is not right.",
    )


def session_ended() -> ServiceError:
    return refused(
        "session_ended",
        401,
        "登录已失效（已退出、账号已停用或已过期），请重新登录。",
        "The session has ended (signed out, account disabled or expired): sign in again.",
    )


class StaffSessions(StaffBase):
    async def sign_in(self, units: Units, login: str, password: str, totp: str | None) -> dict[str, Any]:
        """The tokens of a new session, or 401 ``sign_in_failed`` / ``totp_required``. The
        refusal is audited (for a known account) and raised after the audit is committed."""
        try:
            normalised: str | None = normalise_login(login)
        except ServiceError:
            normalised = None
        refusal: ServiceError | None = None
        async with units.transaction() as uow:
            repo = uow.staff
            account = await repo.account_by_login(normalised) if normalised else None
            stored = account.password_hash if account is not None else passwords.dummy_hash()
            matches = await asyncio.to_thread(passwords.verify_password, password, stored)
            if account is None:
                raise sign_in_failed()
            reason = "disabled" if account.disabled else None if matches else "wrong_password"
            if reason is None and account.totp_enabled:
                reason = self._second_factor(account, totp)
            if reason is not None:
                refusal = _totp_required() if reason == "totp_required" else sign_in_failed()
                await self.audit(
                    uow,
                    account_label(account),
                    "staff.sign_in_refused",
                    account_id=account.account_id,
                    outcome="refused",
                    details={"reason": reason},
                )
            else:
                answer = await self._open_session(uow, repo, account)
        if refusal is not None:
            raise refusal
        return answer

    def _second_factor(self, account: Account, code: str | None) -> str | None:
        if not code:
            return "totp_required"
        assert account.totp_secret is not None
        secret = self.vault.open_secret(account.totp_secret)
        return None if passwords.totp_matches(secret, code.strip(), self.now()) else "wrong_totp"

    async def _open_session(self, uow, repo: StaffRepository, account: Account) -> dict[str, Any]:
        refresh = passwords.new_token()
        session_id = passwords.new_id("ses-")
        now = self.now()
        expires = now + timedelta(seconds=self.settings.session_ttl_s)
        await repo.add_session(session_id, account.account_id, passwords.token_hash(refresh), now, expires)
        token = await self._access_token(uow, repo, account)
        await self.audit(
            uow,
            account_label(account),
            "staff.signed_in",
            account_id=account.account_id,
            details={"session_id": session_id},
        )
        return {
            **token,
            "session_id": session_id,
            "refresh_token": refresh,
            "session_expires_at": expires.isoformat(),
            "account": {"account_id": account.account_id, "name": account.name, "login": account.login},
        }

    async def _access_token(self, uow, repo: StaffRepository, account: Account) -> dict[str, Any]:
        roles = await repo.roles(account.account_id)
        key = await self.partners.signing_key(uow.partners)
        claims = staff_claims(
            account.account_id,
            account.name,
            roles,
            self.now(),
            self.settings.token_ttl_s,
            passwords.new_id(""),
            after=account.tokens_revoked_at,
        )
        token = self.vault.sign(claims, key.kid, key.private_key_enc)
        return {"access_token": token, "token_type": "Bearer", "expires_in": self.settings.token_ttl_s}

    async def _session_account(self, repo: StaffRepository, session_id: str, refresh_token: str) -> Account:
        live = await repo.live_session(session_id, self.now())
        if live is None:
            raise session_ended()
        account_id, stored_hash = live
        if not hmac.compare_digest(stored_hash, passwords.token_hash(refresh_token)):
            raise session_ended()
        account = await repo.account(account_id)
        if account is None or account.disabled:
            raise session_ended()
        return account

    async def refresh(self, units: Units, session_id: str, refresh_token: str) -> dict[str, Any]:
        """A new access token with the person's roles as they are now."""
        async with units.transaction() as uow:
            repo = uow.staff
            account = await self._session_account(repo, session_id, refresh_token)
            token = await self._access_token(uow, repo, account)
        return {**token, "session_id": session_id}

    async def sign_out(self, units: Units, session_id: str, refresh_token: str) -> dict[str, Any]:
        async with units.transaction() as uow:
            repo = uow.staff
            account = await self._session_account(repo, session_id, refresh_token)
            await repo.end_session(session_id, self.now())
            await self.audit(
                uow,
                account_label(account),
                "staff.signed_out",
                account_id=account.account_id,
                details={"session_id": session_id},
            )
        return {"session_id": session_id, "ended": True}

    async def sign_out_everywhere(self, units: Units, principal: Principal) -> dict[str, Any]:
        """Every session ends and every service refuses the person's tokens at once."""
        account_id = person_required(principal)
        async with units.transaction() as uow:
            repo = uow.staff
            account = await self._account(repo, account_id, lock=True)
            ended = await repo.end_sessions(account_id, self.now())
            account = await self.revoke_tokens(uow, repo, account, "signed_out_everywhere", end_sessions=False)
            await self.audit(
                uow,
                account_label(account),
                "staff.signed_out_everywhere",
                account_id=account_id,
                details={"sessions": ended},
            )
        assert account.tokens_revoked_at is not None
        return {
            "revoked": f"acct:{account_id}",
            "revoked_at": account.tokens_revoked_at.isoformat(),
            "sessions_ended": ended,
        }

    async def _account(self, repo: StaffRepository, account_id: str, *, lock: bool = False) -> Account:
        account = await repo.account(account_id, for_update=lock)
        if account is None or account.disabled:
            raise session_ended()
        return account

    async def me(self, principal: Principal) -> dict[str, Any]:
        """The person's account, their organisations (with names) and roles, as they are now."""
        account_id = person_required(principal)
        async with unit_of_work(self.runtime) as uow:
            repo = uow.staff
            account = await self._account(repo, account_id)
            roles = await repo.roles(account_id)
            orgs = await repo.organisations(sorted(roles))
        held = views.held(roles)
        return {
            "account": views.account(account),
            "organisations": [
                {**views.organisation(org), "roles": held["organisations"].get(org.org_id, [])} for org in orgs
            ],
            "events": held["events"],
        }

    # ------------------------------------------------------------------ TOTP
    async def totp_start(self, units: Units, principal: Principal) -> dict[str, Any]:
        account_id = person_required(principal)
        secret = passwords.new_totp_secret()
        async with units.transaction() as uow:
            repo = uow.staff
            account = await self._account(repo, account_id, lock=True)
            if account.totp_enabled:
                raise refused(
                    "totp_already_enabled",
                    409,
                    "这个账号已启用动态验证码。",
                    "This account uses one-time codes already.",
                )
            await repo.save_account(replace(account, totp_secret=self.vault.seal_secret(secret)))
            await self.audit(uow, account_label(account), "staff.totp_started", account_id=account_id)
        return {"secret": secret, "otpauth_uri": passwords.totp_uri(secret, account.login)}

    async def totp_confirm(self, units: Units, principal: Principal, code: str) -> dict[str, Any]:
        account_id = person_required(principal)
        async with units.transaction() as uow:
            repo = uow.staff
            account = await self._account(repo, account_id, lock=True)
            if account.totp_secret is None or account.totp_enabled:
                raise refused(
                    "totp_not_started",
                    409,
                    "请先获取动态验证码的密钥。",
                    "Start the one-time code set-up first (POST /v1/staff/totp).",
                )
            if not passwords.totp_matches(self.vault.open_secret(account.totp_secret), code.strip(), self.now()):
                raise refused(
                    "totp_wrong_code",
                    422,
                    "动态验证码不正确，请核对手机时间后重试。",
                    "The one-time code is not right: check the phone's clock and try again.",
                )
            account = replace(account, totp_enabled=True)
            await repo.save_account(account)
            await self.audit(uow, account_label(account), "staff.totp_enabled", account_id=account_id)
        return views.account(account)


def _totp_required() -> ServiceError:
    return refused(
        "totp_required",
        401,
        "请输入身份验证器应用中的动态验证码。",
        "Enter the one-time code of your authenticator app.",
    )
