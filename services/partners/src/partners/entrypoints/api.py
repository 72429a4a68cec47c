"""HTTP API of the partners service."""

from __future__ import annotations

from fastapi import FastAPI

from gomoku_shared.auth import KeyRing
from gomoku_shared.runtime import ServiceRuntime
from gomoku_shared.service import service_app
from gomoku_shared.throttle import FailureThrottle

from ..service_layer.handlers import PartnerService
from ..service_layer.keyed_requests import KeyedRequests
from ..service_layer.offboarding import Offboarding
from ..service_layer.organisations import Organisations
from ..service_layer.sign_in import StaffSessions
from ..service_layer.token_throttle import TokenThrottle
from ..service_layer.webhooks import WebhookService
from . import oauth, offboarding, operators, organisations, staff, webhooks
from .webhook_docs import add_webhooks


def create_api(
    runtime: ServiceRuntime,
    keyring: KeyRing,
    partners: PartnerService,
    webhook_service: WebhookService,
    *,
    offboarding_service: Offboarding,
    keyed_requests: KeyedRequests,
    staff_admin: Organisations,
    staff_sessions: StaffSessions,
) -> FastAPI:
    app = service_app(
        runtime,
        keyring,
        title="Gomoku partners service",
        description=(
            "Partner accounts and their OAuth client credentials (managed by operators), the "
            "client-credentials grant that issues access tokens, the public keys that verify "
            "them (JWKS), an audit of every use, and the partners' webhook subscriptions with their "
            "signed deliveries (Standard Webhooks); organisations and the staff accounts of the people "
            "who run their events (invitations, roles per organisation and per event, sign-in with a "
            "password and an optional TOTP code, staff access tokens every service verifies)."
        ),
    )
    app.state.partners = partners
    app.state.webhooks = webhook_service
    app.state.offboarding = offboarding_service
    app.state.keyed_requests = keyed_requests  # Idempotency-Key of every POST (entrypoints/keyed.py)
    app.state.token_throttle = TokenThrottle.default()  # failed client authentications (oauth.py)
    app.state.organisations = staff_admin
    app.state.staff_sessions = staff_sessions
    # failed staff sign-ins and link tries, per address and per login (the API keys' figures)
    app.state.staff_throttle = FailureThrottle(runtime.settings.credential_throttle())
    app.include_router(oauth.router)
    app.include_router(operators.router)
    app.include_router(offboarding.router)
    app.include_router(webhooks.router)
    app.include_router(organisations.router)
    app.include_router(staff.router)
    add_webhooks(app)  # what partners receive: the OpenAPI 3.1 webhooks section
    return app
