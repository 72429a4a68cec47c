"""HTTP API of the partners service."""

from __future__ import annotations

from fastapi import FastAPI

from gomoku_shared.auth import KeyRing
from gomoku_shared.idempotency import IdempotencyStore
from gomoku_shared.runtime import ServiceRuntime
from gomoku_shared.service import service_app

from ..adapters.signing import KeyVault
from ..service_layer.handlers import PartnerService
from ..service_layer.offboarding import Offboarding
from ..service_layer.token_throttle import TokenThrottle
from ..service_layer.webhooks import WebhookService
from . import oauth, offboarding, operators, webhooks
from .webhook_docs import add_webhooks


def create_api(
    runtime: ServiceRuntime,
    keyring: KeyRing,
    partners: PartnerService,
    webhook_service: WebhookService,
    *,
    offboarding_service: Offboarding,
    idempotency: IdempotencyStore,
    vault: KeyVault,
) -> FastAPI:
    app = service_app(
        runtime,
        keyring,
        title="Gomoku partners service",
        description=(
            "Partner accounts and their OAuth client credentials (managed by operators), the "
            "client-credentials grant that issues access tokens, the public keys that verify "
            "them (JWKS), an audit of every use, and the partners' webhook subscriptions with their "
            "signed deliveries (Standard Webhooks)."
        ),
    )
    app.state.partners = partners
    app.state.webhooks = webhook_service
    app.state.offboarding = offboarding_service
    app.state.idempotency = idempotency  # Idempotency-Key of every POST (entrypoints/keyed.py)
    app.state.vault = vault
    app.state.token_throttle = TokenThrottle.default()  # failed client authentications (oauth.py)
    app.include_router(oauth.router)
    app.include_router(operators.router)
    app.include_router(offboarding.router)
    app.include_router(webhooks.router)
    add_webhooks(app)  # what partners receive: the OpenAPI 3.1 webhooks section
    return app
