"""Delete now the registrants' documents whose retention has ended (issue 34; the service also
does it by itself once an hour). Run with the service's settings (DATABASE_URL, DATA_KEY):

    python -m registration.purge_documents
"""

from __future__ import annotations

import asyncio

from gomoku_shared.messaging.memory import InMemoryEventBus
from gomoku_shared.service import runtime_for

from .adapters.orm import metadata
from .adapters.protection import DataProtector
from .config import RegistrationSettings
from .service_layer.retention import purge_documents


async def main() -> int:
    config = RegistrationSettings()
    # no events are sent: a bus of its own that is never started
    runtime = runtime_for("registration", config, metadata, bus=InMemoryEventBus())
    protector = DataProtector.from_settings(
        config.data_key, distributed=config.distributed, data_dir=config.data_dir, previous=config.data_key_previous
    )
    try:
        return await purge_documents(runtime, protector)
    finally:
        await runtime.engine.dispose()


if __name__ == "__main__":  # pragma: no cover
    print(f"deleted {asyncio.run(main())} documents whose retention ended")
