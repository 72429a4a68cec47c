"""What the staff use cases share (issue 29): who acts and whether they administer an
organisation, the audit of a change, and the revocation of a person's tokens.

A person's tokens are revoked by the broadcast partner credentials use
(``partner.credentials_revoked`` naming ``acct:<account id>``, through the outbox in the
change's transaction) and by ``/v1/revocations`` (the account's ``tokens_revoked_at``): every
replica of every service refuses the tokens issued until then.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from gomoku_shared.auth import Principal
from gomoku_shared.contracts.events import PartnerCredentialsRevoked
from gomoku_shared.errors import ServiceError
from gomoku_shared.runtime import ServiceRuntime
from gomoku_shared.tokens import ACCOUNT_PREFIX

from ..adapters.signing import KeyVault
from ..adapters.staff_repository import StaffRepository
from ..domain.staff import Account, refused
from .accounts import PartnerService
from .unit_of_work import PartnersUnitOfWork

#: the partner_id of a revocation that names people, not a partner's clients
STAFF_REVOCATION_PARTNER = "staff"


@dataclass(frozen=True)
class StaffSettings:
    token_ttl_s: int = 600
    session_ttl_s: int = 43200
    invitation_ttl_s: int = 7 * 86400


def actor_label(principal: Principal) -> str:
    """Who acted, in the audit: the person's name and account, or the API key's role and id."""
    if principal.person is not None:
        return f"{principal.actor} ({principal.actor_id})"[:200]
    return f"{principal.role}:{principal.key_id}"


def account_label(account: Account) -> str:
    """A person acting on their own account (accepting a link, signing in), in the audit."""
    return f"{account.name} (acct:{account.account_id})"[:200]


def is_platform_operator(principal: Principal) -> bool:
    return principal.role == "operator" and principal.person is None


def check_administers(principal: Principal, org_id: str) -> None:
    """The platform operator's keys, or a person who is an ``admin`` of the organisation."""
    if is_platform_operator(principal):
        return
    person = principal.person
    if person is not None and "admin" in person.orgs.get(org_id, frozenset()):
        return
    raise refused(
        "not_your_organisation",
        403,
        "只有本组织的组织管理员（或平台运营方）才能管理它的工作人员。",
        "Only the organisation's administrators (or the platform operator) manage its staff.",
        organisation=org_id,
    )


def person_required(principal: Principal) -> str:
    """The account id of a signed-in person (an API key has none)."""
    if principal.person is None:
        raise refused(
            "staff_account_required",
            403,
            "这项操作需要以工作人员账号登录。",
            "Sign in with a staff account to do this.",
        )
    return principal.person.account_id


def organisation_not_found(org_id: str) -> ServiceError:
    return refused(
        "organisation_not_found",
        404,
        f"没有组织 {org_id}。",
        f"There is no organisation {org_id}.",
        organisation=org_id,
    )


def account_not_found(account_id: str) -> ServiceError:
    return refused(
        "account_not_found",
        404,
        "本组织没有这个工作人员账号。",
        "The organisation has no such staff account.",
        account_id=account_id,
    )


@dataclass
class StaffBase:
    runtime: ServiceRuntime
    vault: KeyVault
    partners: PartnerService
    settings: StaffSettings

    def now(self) -> datetime:
        return self.runtime.clock.now()

    async def audit(
        self,
        uow: PartnersUnitOfWork,
        actor: str,
        action: str,
        *,
        account_id: str | None = None,
        outcome: str = "ok",
        details: dict[str, Any] | None = None,
    ) -> None:
        """An audit row in the change's transaction (``client_id``: the person it concerns)."""
        await uow.partners.audit(
            at=self.now(),
            actor=actor,
            action=action,
            outcome=outcome,
            client_id=f"{ACCOUNT_PREFIX}{account_id}" if account_id else None,
            details=details,
            correlation_id=uow.correlation_id,
        )

    async def revoke_tokens(
        self, uow: PartnersUnitOfWork, repo: StaffRepository, account: Account, reason: str, *, end_sessions: bool
    ) -> Account:
        """Every token of the person issued until now is refused by every service; with
        ``end_sessions`` their sessions end too (no refresh)."""
        now = self.now()
        revoked = replace(account, tokens_revoked_at=now)
        await repo.save_account(revoked)
        if end_sessions:
            await repo.end_sessions(account.account_id, now)
        client = f"{ACCOUNT_PREFIX}{account.account_id}"
        uow.emit(
            PartnerCredentialsRevoked(
                partner_id=STAFF_REVOCATION_PARTNER, client_ids=[client], revoked_at=now, reason=reason
            )
        )
        # this process's own verifier need not wait for the broadcast
        self.runtime.tokens.revoke([client], now.timestamp())
        return revoked
