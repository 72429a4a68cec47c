"""Composition root of the registration service: build(settings, bus=None, clock=None) -> Service."""

from __future__ import annotations

import logging

from gomoku_shared import idempotency
from gomoku_shared.auth import KeyRing
from gomoku_shared.clock import Clock
from gomoku_shared.event_access import EventAccessDirectory
from gomoku_shared.loops import idle
from gomoku_shared.messaging.bus import EventBus
from gomoku_shared.service import Service, runtime_for
from gomoku_shared.settings import ServiceSettings
from gomoku_shared.throttle import FailureThrottle

from .adapters import orm
from .adapters.orm import metadata
from .adapters.protection import DataProtector
from .config import RegistrationSettings
from .domain.documents import DocumentLimits
from .entrypoints import consumers
from .entrypoints.api import create_api
from .service_layer.people_registry import link_stored_people
from .service_layer.retention import purge_documents
from .service_layer.sealing import rekey, seal_birth_dates
from .service_layer.state import RegistrationState

NAME = "registration"
log = logging.getLogger("registration")
#: how often the documents whose retention ended are looked for
PURGE_EVERY_S = 3600.0


def build(settings: ServiceSettings, *, bus: EventBus | None = None, clock: Clock | None = None) -> Service:
    config = RegistrationSettings.from_shared(settings)
    runtime = runtime_for(NAME, config, metadata, bus=bus, clock=clock)
    # DATA_KEY encrypts personal data; required when the service runs distributed (AMQP_URL set),
    # else the embedded mode keeps a random key of its own in DATA_DIR
    context = RegistrationState(
        DataProtector.from_settings(
            config.data_key,
            distributed=config.distributed,
            data_dir=config.data_dir,
            previous=config.data_key_previous,
        ),
        clock=runtime.clock,
        documents=DocumentLimits(config.document_max_bytes, config.document_entry_bytes),
        document_retention_days=config.document_retention_days,
        # wrong secret-link tokens: throttled by the figures of wrong API keys
        link_throttle=FailureThrottle(config.credential_throttle()),
    )
    consumers.register(runtime, context)

    @runtime.background
    async def protect_stored_data() -> None:
        # rows migrated from before birth dates were encrypted (revision 0010), and after a key
        # rotation rows under DATA_KEY_PREVIOUS: both are read as they are meanwhile, so a
        # failure here only leaves them for the next start; then (issue 32) the people stored
        # before the registry are linked to its people
        try:
            await seal_birth_dates(runtime, context.protector)
            await rekey(runtime, context.protector)
            await link_stored_people(runtime, context.protector)
        except Exception:  # noqa: BLE001 - the next start tries again
            log.exception("encrypting the stored personal data under DATA_KEY failed")

    @runtime.background
    async def delete_old_documents() -> None:
        # issue 34: documents whose retention after their event ended, once an hour
        while True:
            try:
                await purge_documents(runtime, context.protector)
            except Exception:  # noqa: BLE001 - the next round tries again
                log.exception("deleting the documents whose retention ended failed")
            if await idle(runtime.stopping, PURGE_EVERY_S):
                return

    app = create_api(
        runtime,
        KeyRing(config.api_keys),
        context,
        idempotency.for_runtime(runtime, orm.idempotency_keys),
        EventAccessDirectory.on_table(runtime.sessionmaker, orm.event_access),  # issue 29
    )
    return Service(NAME, runtime, app)
