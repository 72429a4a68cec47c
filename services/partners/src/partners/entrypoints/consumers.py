"""Integration events the partners service consumes: each becomes webhook deliveries."""

from __future__ import annotations

from typing import Any

from gomoku_shared.contracts import Envelope
from gomoku_shared.runtime import ServiceRuntime, UnitOfWork
from gomoku_shared.topology import CONSUMES as TOPOLOGY

from ..service_layer.webhooks import WebhookService

#: the event types this service consumes: its queue's in the topology (ARCHITECTURE §1), those
#: partners can subscribe to, and playoff.required (who plays the playoff games); entry.accepted /
#: entry.refused are the ``entry.decided`` webhook
CONSUMES = TOPOLOGY["partners"]


def register(runtime: ServiceRuntime, webhooks: WebhookService) -> None:
    """Attach the handler of CONSUMES to ``runtime``."""

    @runtime.on(*CONSUMES)
    async def on_event(uow: UnitOfWork, env: Envelope[Any]) -> None:
        await webhooks.on_event(uow, env)
