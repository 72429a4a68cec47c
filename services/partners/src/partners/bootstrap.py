"""Composition root of the partners service: build(settings, bus=None, clock=None) -> Service."""

from __future__ import annotations

from typing import Any

from gomoku_shared import idempotency
from gomoku_shared.auth import KeyRing
from gomoku_shared.clock import Clock
from gomoku_shared.messaging.bus import EventBus
from gomoku_shared.service import Service, runtime_for
from gomoku_shared.settings import ServiceSettings

from .adapters.orm import idempotency_keys, metadata
from .adapters.signing import KeyVault, master_secret
from .adapters.webhook_sender import WebhookSender
from .config import PartnersSettings
from .domain.model import RateLimit
from .domain.webhook_targets import TargetPolicy
from .domain.webhooks import RetrySchedule, WebhookLimits
from .entrypoints import consumers
from .entrypoints.api import create_api
from .service_layer.accounts import PartnerService
from .service_layer.ambient import Units
from .service_layer.handlers import Services
from .service_layer.keyed_requests import KeyedRequests
from .service_layer.offboarding import Offboarding
from .service_layer.organisations import Organisations
from .service_layer.sign_in import StaffSessions
from .service_layer.staff_base import StaffSettings
from .service_layer.webhooks import WebhookService

NAME = "partners"


def build(settings: ServiceSettings, *, bus: EventBus | None = None, clock: Clock | None = None) -> Service:
    config = PartnersSettings.from_shared(settings)
    # the signing keys are sealed under PARTNERS_KEY: required distributed (AMQP_URL set), a
    # random secret of its own in DATA_DIR in the embedded mode
    vault = KeyVault(master_secret(config.partners_key, distributed=bool(config.amqp_url), data_dir=config.data_dir))
    runtime = runtime_for(NAME, config, metadata, bus=bus, clock=clock)
    partners = PartnerService(
        runtime,
        vault,
        token_ttl_s=config.access_token_ttl_s,
        default_grace_s=config.credential_grace_s,
        default_rate=RateLimit(config.rate_limit_quota, config.rate_limit_window_s),
        staff_token_ttl_s=config.staff_token_ttl_s,
    )
    staff_settings = StaffSettings(
        token_ttl_s=config.staff_token_ttl_s,
        session_ttl_s=config.staff_session_ttl_s,
        invitation_ttl_s=config.invitation_ttl_s,
    )
    staff_admin = Organisations(runtime, vault, partners, staff_settings)
    staff_sessions = StaffSessions(runtime, vault, partners, staff_settings)

    async def own_keys() -> dict[str, Any]:
        return {**(await partners.jwks()), **(await partners.revocations())}

    # this service verifies tokens with its own keys, read in-process
    runtime.tokens.use_fetch(own_keys)

    @runtime.background
    async def signing_key() -> None:
        await partners.ensure_signing_key()

    sender = WebhookSender(config.webhook_timeout_s, TargetPolicy(allow_loopback=config.webhook_allow_loopback))
    limits = WebhookLimits(
        max_subscriptions=config.webhook_max_subscriptions,
        partner_in_flight=config.webhook_partner_in_flight,
        worker_in_flight=config.webhook_worker_in_flight,
        breaker_after=config.webhook_breaker_after,
        breaker_pause_s=config.webhook_breaker_pause_s,
    )
    webhooks = WebhookService(
        runtime,
        sender,
        RetrySchedule.parse(config.webhook_retry_schedule_s),
        disable_after=config.webhook_disable_after,
        secret_grace_s=config.webhook_secret_grace_s,
        vault=vault,
        limits=limits,
    )
    units = Units(runtime)
    services = Services(partners, Offboarding(runtime, vault), staff_admin, staff_sessions, webhooks)
    consumers.register(runtime, units, services)
    runtime.on_stop(sender.close)

    @runtime.background
    async def webhook_worker() -> None:
        await webhooks.run(config.webhook_poll_s, runtime.stopping)

    app = create_api(
        runtime,
        KeyRing(config.api_keys),
        services,
        units,
        keyed_requests=KeyedRequests(runtime, idempotency.for_runtime(runtime, idempotency_keys), vault),
    )
    return Service(NAME, runtime, app, extras={"partners": partners, "key_source": own_keys, "webhooks": webhooks})
