"""What the partners service does: partner accounts, credentials, tokens, signing keys.

Every change and every use of a credential writes an audit row in the same transaction; a
revocation emits ``partner.credentials_revoked`` through the outbox in that transaction too.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import Any

from gomoku_shared.contracts.events import PartnerCredentialsRevoked, PartnerRegistered
from gomoku_shared.errors import Conflict, NotFound, Unprocessable
from gomoku_shared.runtime import ServiceRuntime
from gomoku_shared.tokens import LEEWAY_S

from ..adapters.repository import PartnerRepository, StoredKey
from ..adapters.signing import KeyVault
from ..domain import secret_hash
from ..domain.claims import access_claims
from ..domain.model import Credential, Kind, Partner, PartnerRuleError, RateLimit, allowed_scopes, grant, new_partner
from . import views
from .ambient import Units, unit_of_work
from .unit_of_work import PartnersUnitOfWork

#: (secret, stored hash) -> whether they match
Verify = Callable[[str, str], bool]


class OAuthError(Exception):
    """RFC 6749 §5.2: ``error`` code, its description and the HTTP status."""

    def __init__(self, error: str, description: str, status: int = 400, retry_after_s: int = 0) -> None:
        super().__init__(description)
        self.error = error
        self.description = description
        self.status = status
        #: seconds for the Retry-After header of a throttled request (429)
        self.retry_after_s = retry_after_s


@dataclass
class PartnerService:
    runtime: ServiceRuntime
    vault: KeyVault
    token_ttl_s: int
    default_grace_s: int
    default_rate: RateLimit
    #: checks a client secret against a stored hash (scrypt; a test counts its calls)
    verify_secret: Verify = secret_hash.verify_secret
    #: a staff member's access token's lifetime (issue 29): revoked people are listed as long
    staff_token_ttl_s: int = 600
    #: one first signing key per process, not one per concurrent request
    _key_lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def _now(self):
        return self.runtime.clock.now()

    # ------------------------------------------------------------------ partners
    async def create_partner(
        self,
        units: Units,
        actor: str,
        partner_id: str,
        name: str,
        kind: Kind,
        scopes: list[str],
        rate: RateLimit | None,
    ) -> dict[str, Any]:
        async with units.transaction() as uow:
            repo = uow.partners
            if await repo.partner(partner_id) is not None:
                raise Conflict("partner_exists", f"a partner {partner_id!r} exists already")
            partner = _ruled(
                lambda: new_partner(partner_id, name, kind, scopes, rate or self.default_rate, self._now())
            )
            await repo.add_partner(partner)
            await self._audit(
                uow, repo, actor, "partner.created", partner_id=partner_id, details=views.partner(partner)
            )
            uow.emit(
                PartnerRegistered(partner_id=partner_id, name=name, role=partner.role, scopes=sorted(partner.scopes))
            )
        return views.partner(partner)

    async def update_partner(
        self,
        units: Units,
        actor: str,
        partner_id: str,
        *,
        name: str | None,
        scopes: list[str] | None,
        rate: RateLimit | None,
    ) -> dict[str, Any]:
        async with units.transaction() as uow:
            repo = uow.partners
            partner = await self._partner(repo, partner_id, for_update=True)
            changed = replace(
                partner,
                name=name if name is not None else partner.name,
                scopes=_ruled(lambda: allowed_scopes(partner.kind, scopes)) if scopes is not None else partner.scopes,
                rate_limit=rate or partner.rate_limit,
            )
            await repo.save_partner(changed)
            await self._audit(
                uow, repo, actor, "partner.updated", partner_id=partner_id, details=views.partner(changed)
            )
        return views.partner(changed)

    async def partner(self, partner_id: str) -> dict[str, Any]:
        async with unit_of_work(self.runtime) as uow:
            repo = uow.partners
            partner = await self._partner(repo, partner_id)
            creds = await repo.credentials_of(partner_id)
        return {**views.partner(partner), "credentials": [views.credential(c) for c in creds]}

    async def partners(self) -> dict[str, Any]:
        async with unit_of_work(self.runtime) as uow:
            found = await uow.partners.partners()
        return {"items": [views.partner(p) for p in found]}

    # ------------------------------------------------------------------ credentials
    async def issue_credential(self, units: Units, actor: str, partner_id: str, label: str) -> dict[str, Any]:
        secret = secret_hash.new_secret()
        hashed = await asyncio.to_thread(secret_hash.hash_secret, secret)
        async with units.transaction() as uow:
            repo = uow.partners
            partner = await self._partner(repo, partner_id)
            if partner.status != "active":
                raise Conflict("partner_suspended", "the partner is suspended")
            credential = Credential(secret_hash.new_client_id(), partner_id, label, hashed, "active", self._now())
            await repo.add_credential(credential)
            await self._audit(
                uow, repo, actor, "credential.issued", partner_id=partner_id, client_id=credential.client_id
            )
        return {**views.credential(credential), "client_secret": secret}

    async def rotate_credential(self, units: Units, actor: str, client_id: str, grace_s: int | None) -> dict[str, Any]:
        secret = secret_hash.new_secret()
        hashed = await asyncio.to_thread(secret_hash.hash_secret, secret)
        grace = timedelta(seconds=self.default_grace_s if grace_s is None else grace_s)
        async with units.transaction() as uow:
            repo = uow.partners
            current = await self._credential(repo, client_id, for_update=True)
            rotated = _ruled(lambda: current.rotated(hashed, self._now(), grace), status=409)
            await repo.save_credential(rotated)
            await self._audit(
                uow,
                repo,
                actor,
                "credential.rotated",
                partner_id=rotated.partner_id,
                client_id=client_id,
                details={"grace_s": int(grace.total_seconds())},
            )
        return {**views.credential(rotated), "client_secret": secret}

    async def revoke_credential(self, units: Units, actor: str, client_id: str, reason: str) -> dict[str, Any]:
        async with units.transaction() as uow:
            repo = uow.partners
            current = await self._credential(repo, client_id, for_update=True)
            revoked = _ruled(lambda: current.revoked(self._now()), status=409)
            await repo.save_credential(revoked)
            await self._audit(
                uow,
                repo,
                actor,
                "credential.revoked",
                partner_id=revoked.partner_id,
                client_id=client_id,
                details={"reason": reason},
            )
            assert revoked.revoked_at is not None
            uow.emit(
                PartnerCredentialsRevoked(
                    partner_id=revoked.partner_id, client_ids=[client_id], revoked_at=revoked.revoked_at, reason=reason
                )
            )
        # this process's own verifier need not wait for the broadcast
        self.runtime.tokens.revoke([client_id], revoked.revoked_at.timestamp())
        return views.credential(revoked)

    async def revocations(self) -> dict[str, Any]:
        """Clients revoked, or of a partner suspended, recently enough that a token of theirs may
        still be unexpired: the verifiers refuse their tokens issued until then."""
        since = self._now() - timedelta(seconds=self.token_ttl_s + LEEWAY_S)
        async with unit_of_work(self.runtime) as uow:
            repo = uow.partners
            found = await repo.revoked_since(since)
            for client, at in (await repo.suspended_since(since)).items():
                found[client] = max(at, found.get(client, at))
            # people whose tokens were revoked (sign-out everywhere, disabled, a role removed)
            staff_since = self._now() - timedelta(seconds=self.staff_token_ttl_s + LEEWAY_S)
            found.update(await uow.staff.revoked_since(staff_since))
        return {"revoked": {client: at.timestamp() for client, at in sorted(found.items())}}

    # ------------------------------------------------------------------ tokens
    async def issue_token(self, units: Units, client_id: str, secret: str, requested: list[str]) -> dict[str, Any]:
        """RFC 6749 §4.4.3: an access token for a client that authenticated with its secret.
        A refusal is audited (for a known client) and raised after the audit is committed."""
        refusal: OAuthError | None = None
        async with units.transaction() as uow:
            repo = uow.partners
            now = self._now()
            credential = await repo.credential(client_id, for_update=True)
            if credential is None:
                # the same scrypt work as for a known client: the refusal's time tells nothing
                await asyncio.to_thread(self.verify_secret, secret, secret_hash.dummy_hash())
                raise OAuthError("invalid_client", "unknown client or wrong secret", 401)
            which = await _matching(credential, secret, now, self.verify_secret)
            # locked: a suspension either commits first (refused here) or dates itself after this token
            partner = await repo.partner(credential.partner_id, for_update=True)
            if which is None or partner is None:
                refusal = OAuthError("invalid_client", "unknown client or wrong secret", 401)
                reason = "revoked" if credential.status == "revoked" else "wrong_secret"
            else:
                try:
                    scopes = grant(partner, requested)
                except PartnerRuleError as exc:
                    code = "invalid_scope" if exc.code == "invalid_scope" else "unauthorized_client"
                    refusal = OAuthError(code, exc.message, 400)
                    reason = exc.code
            if refusal is not None:
                await self._audit(
                    uow,
                    repo,
                    f"client:{client_id}",
                    "token.refused",
                    outcome="refused",
                    partner_id=credential.partner_id,
                    client_id=client_id,
                    details={"reason": reason, "requested": requested},
                )
            else:
                assert partner is not None
                key = await self._signing_key(repo)
                token_id = secrets.token_urlsafe(12)
                claims = access_claims(
                    partner, credential, scopes, now, self.token_ttl_s, token_id, after=partner.suspended_at
                )
                token = self.vault.sign(claims, key.kid, key.private_key_enc)
                await repo.save_credential(credential.used(now))
                await self._audit(
                    uow,
                    repo,
                    f"client:{client_id}",
                    "token.issued",
                    partner_id=partner.partner_id,
                    client_id=client_id,
                    details={"scopes": sorted(scopes), "jti": token_id, "kid": key.kid, "secret": which},
                )
        if refusal is not None:
            raise refusal
        return {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": self.token_ttl_s,
            "scope": " ".join(sorted(scopes)),
        }

    # ------------------------------------------------------------------ signing keys
    async def jwks(self) -> dict[str, Any]:
        async with self._key_lock, unit_of_work(self.runtime) as uow:
            repo = uow.partners
            await self._signing_key(repo)  # the key that will sign is published before it signs
            keys = await repo.signing_keys(published_at=self._now())
        return {"keys": [k.public_jwk for k in keys]}

    async def ensure_signing_key(self) -> None:
        async with self._key_lock, unit_of_work(self.runtime) as uow:
            await self._signing_key(uow.partners)

    async def rotate_signing_key(self, units: Units, actor: str) -> dict[str, Any]:
        """A new key signs from now on; the old ones stay in the JWKS until the tokens they
        signed have expired (plus the verifiers' leeway)."""
        async with units.transaction() as uow:
            repo = uow.partners
            key = await self._new_key(repo)
            now = self._now()
            retired = await repo.retire_signing_keys(
                except_kid=key.kid, at=now, published_until=now + timedelta(seconds=self.token_ttl_s + 2 * LEEWAY_S)
            )
            await self._audit(uow, repo, actor, "signing_key.rotated", details={"kid": key.kid, "retired": retired})
        return {"kid": key.kid, "retired": retired}

    async def signing_key(self, repo: PartnerRepository) -> StoredKey:
        """The key that signs now (staff tokens are signed with it too)."""
        return await self._signing_key(repo)

    async def _signing_key(self, repo: PartnerRepository) -> StoredKey:
        keys = await repo.signing_keys(published_at=self._now())
        signing = [k for k in keys if k.retired_at is None]
        return signing[0] if signing else await self._new_key(repo)

    async def _new_key(self, repo: PartnerRepository) -> StoredKey:
        kid, sealed, public = self.vault.new_key()
        key = StoredKey(kid, sealed, public, self._now())
        await repo.add_signing_key(key)
        return key

    # ------------------------------------------------------------------ audit
    async def audit_page(
        self, *, partner_id: str | None, client_id: str | None, cursor: int | None, limit: int
    ) -> dict[str, Any]:
        async with unit_of_work(self.runtime) as uow:
            rows = await uow.partners.audit_page(
                partner_id=partner_id, client_id=client_id, after=cursor, limit=limit + 1
            )
        more = len(rows) > limit
        rows = rows[:limit]
        return {
            "items": [views.audit(r) for r in rows],
            "next_cursor": str(rows[-1]["id"]) if more and rows else None,
        }

    async def _audit(
        self,
        uow: PartnersUnitOfWork,
        repo: PartnerRepository,
        actor: str,
        action: str,
        *,
        outcome: str = "ok",
        partner_id: str | None = None,
        client_id: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        await repo.audit(
            at=self._now(),
            actor=actor,
            action=action,
            outcome=outcome,
            partner_id=partner_id,
            client_id=client_id,
            details=details,
            correlation_id=uow.correlation_id,
        )

    async def _partner(self, repo: PartnerRepository, partner_id: str, *, for_update: bool = False) -> Partner:
        partner = await repo.partner(partner_id, for_update=for_update)
        if partner is None:
            raise NotFound("partner_not_found", f"no partner {partner_id!r}")
        return partner

    async def _credential(self, repo: PartnerRepository, client_id: str, *, for_update: bool = False) -> Credential:
        credential = await repo.credential(client_id, for_update=for_update)
        if credential is None:
            raise NotFound("credential_not_found", f"no credential {client_id!r}")
        return credential


async def _matching(credential: Credential, secret: str, now, verify: Verify) -> str | None:
    """Which secret matched: "current", "previous" (within the rotation grace) or None. scrypt
    takes tens of milliseconds by design: it runs in a thread, not on the event loop. A revoked
    credential is checked against the dummy hash: its refusal costs the same work."""
    accepted = credential.hashes_accepted(now)
    if not accepted:
        await asyncio.to_thread(verify, secret, secret_hash.dummy_hash())
    for name, stored in zip(("current", "previous"), accepted):
        if await asyncio.to_thread(verify, secret, stored):
            return name
    return None


def _ruled(build, status: int = 422):
    try:
        return build()
    except PartnerRuleError as exc:
        if status == 409:
            raise Conflict(exc.code, exc.message) from None
        raise Unprocessable(exc.code, exc.message) from None
