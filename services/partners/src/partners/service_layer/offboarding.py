"""Offboarding: operators suspend and resume a partner and manage any partner's subscriptions.

A suspension refuses the partner's tokens in every service at once: it is announced as
``partner.credentials_revoked`` for every credential of the partner (the broadcast every replica
follows), and the verifiers refuse the tokens issued until then. No token is issued while it
lasts, and its webhooks stop (``adapters/partner_standing.py``). Resuming lets it obtain new
tokens; the ones issued before the suspension stay refused. Every step is audited with the
operator and the reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gomoku_shared.contracts.events import PartnerCredentialsRevoked
from gomoku_shared.errors import Conflict, NotFound
from gomoku_shared.runtime import ServiceRuntime

from ..adapters.repository import PartnerRepository
from ..adapters.signing import KeyVault
from ..adapters.webhook_repository import WebhookRepository
from ..domain.model import Partner, PartnerRuleError
from ..domain.webhooks import Subscription
from . import views, webhook_views
from .ambient import Units, unit_of_work
from .unit_of_work import PartnersUnitOfWork


def _conflict(exc: PartnerRuleError) -> Conflict:
    return Conflict(exc.code, exc.message)


@dataclass
class Offboarding:
    runtime: ServiceRuntime
    vault: KeyVault

    def _now(self):
        return self.runtime.clock.now()

    # ------------------------------------------------------------------ partners
    async def suspend(self, units: Units, actor: str, partner_id: str, reason: str) -> dict[str, Any]:
        async with units.transaction() as uow:
            repo = uow.partners
            partner = await _partner(repo, partner_id)
            now = self._now()  # read once the row is locked: a token issued meanwhile is older
            try:
                suspended = partner.suspended(now)
            except PartnerRuleError as exc:
                raise _conflict(exc) from None
            await repo.save_partner(suspended)
            clients = [c.client_id for c in await repo.credentials_of(partner_id) if c.status == "active"]
            await _audit(uow, repo, actor, "partner.suspended", partner_id, {"reason": reason, "client_ids": clients})
            if clients:
                uow.emit(
                    PartnerCredentialsRevoked(
                        partner_id=partner_id, client_ids=clients, revoked_at=now, reason=f"suspended: {reason}"
                    )
                )
        # this process's own verifier need not wait for the broadcast
        self.runtime.tokens.revoke(clients, now.timestamp())
        return views.partner(suspended)

    async def resume(self, units: Units, actor: str, partner_id: str, reason: str) -> dict[str, Any]:
        async with units.transaction() as uow:
            repo = uow.partners
            partner = await _partner(repo, partner_id)
            try:
                resumed = partner.resumed()
            except PartnerRuleError as exc:
                raise _conflict(exc) from None
            await repo.save_partner(resumed)
            await _audit(uow, repo, actor, "partner.resumed", partner_id, {"reason": reason})
        return views.partner(resumed)

    # ------------------------------------------------------------------ subscriptions
    async def subscriptions(self, partner_id: str) -> dict[str, Any]:
        async with unit_of_work(self.runtime) as uow:
            await _partner(uow.partners, partner_id, lock=False)
            found = await uow.webhooks(self.vault).subscriptions_of(partner_id)
        return {"items": [_view(s) for s in found]}

    async def disable(
        self, units: Units, actor: str, partner_id: str, subscription_id: str, reason: str
    ) -> dict[str, Any]:
        async with units.transaction() as uow:
            hooks = uow.webhooks(self.vault)
            sub = await _subscription(hooks, partner_id, subscription_id)
            try:
                changed = sub.disabled_by_operator(actor, reason, self._now())
            except PartnerRuleError as exc:
                raise _conflict(exc) from None
            await hooks.save_subscription(changed)
            details = {"subscription_id": subscription_id, "reason": reason}
            await _audit(uow, uow.partners, actor, "subscription.disabled", partner_id, details)
        return _view(changed)

    async def enable(self, units: Units, actor: str, partner_id: str, subscription_id: str) -> dict[str, Any]:
        async with units.transaction() as uow:
            hooks = uow.webhooks(self.vault)
            sub = await _subscription(hooks, partner_id, subscription_id)
            changed = sub.enabled()
            await hooks.save_subscription(changed)
            details = {"subscription_id": subscription_id}
            await _audit(uow, uow.partners, actor, "subscription.enabled", partner_id, details)
        return _view(changed)


def _view(sub: Subscription) -> dict[str, Any]:
    return {**webhook_views.subscription(sub), "partner_id": sub.partner_id, "disabled_by": sub.disabled_by}


async def _partner(repo: PartnerRepository, partner_id: str, *, lock: bool = True) -> Partner:
    partner = await repo.partner(partner_id, for_update=lock)
    if partner is None:
        raise NotFound("partner_not_found", f"no partner {partner_id!r}")
    return partner


async def _subscription(hooks: WebhookRepository, partner_id: str, subscription_id: str) -> Subscription:
    sub = await hooks.subscription(subscription_id, for_update=True)
    if sub is None or sub.partner_id != partner_id or sub.status == "deleted":
        raise NotFound("subscription_not_found", f"no subscription {subscription_id!r} of partner {partner_id!r}")
    return sub


async def _audit(
    uow: PartnersUnitOfWork, repo: PartnerRepository, actor: str, action: str, partner_id: str, details: dict[str, Any]
) -> None:
    await repo.audit(
        at=uow.clock.now(),
        actor=actor,
        action=action,
        partner_id=partner_id,
        details=details,
        correlation_id=uow.correlation_id,
    )
