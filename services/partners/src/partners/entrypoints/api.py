"""HTTP API of the partners service."""

from __future__ import annotations

from fastapi import FastAPI

from gomoku_shared.auth import KeyRing
from gomoku_shared.runtime import ServiceRuntime
from gomoku_shared.service import service_app
from gomoku_shared.throttle import FailureThrottle

from ..service_layer.ambient import Units
from ..service_layer.handlers import Services
from ..service_layer.keyed_requests import KeyedRequests
from ..service_layer.token_throttle import TokenThrottle
from . import oauth, offboarding, operators, organisations, staff, webhooks
from .webhook_docs import add_webhooks


def create_api(
    runtime: ServiceRuntime, keyring: KeyRing, services: Services, units: Units, *, keyed_requests: KeyedRequests
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
    # the writes: commands run by the service layer's handlers (entrypoints/commanding.py)
    app.state.units = units
    app.state.services = services
    # the reads: the service objects' queries
    app.state.partners = services.accounts
    app.state.webhooks = services.webhooks
    app.state.offboarding = services.offboarding
    app.state.keyed_requests = keyed_requests  # Idempotency-Key of every POST (entrypoints/keyed.py)
    app.state.token_throttle = TokenThrottle.default()  # failed client authentications (oauth.py)
    app.state.organisations = services.organisations
    app.state.staff_sessions = services.sessions
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
