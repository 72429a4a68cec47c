"""One harness for the service tests: a service built by its own bootstrap, migrated and
started, an observer recording what it publishes, and an HTTP client on its app.

By default the service runs on the in-memory bus (its settings decide the database: SQLite
for the fast tests); give ``bus`` and ``observer_bus`` (RabbitMQ) for the integration tests.
Each service's kit (``services/<service>/tests/<service>_kit.py``) subclasses
``ServiceHarness`` with the builders and helpers of that service only.

The names are the same in every kit:
- ``send(payload)`` puts an event on the bus as another service would; ``publish(payload)``
  sends it and waits until the service is quiet (``settle()``);
- ``events(type)`` are the recorded envelopes, ``payloads(type)`` their payloads;
- ``wait_for(predicate, what=...)`` polls a condition.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Sequence
from typing import Any, Self

import httpx

from ..clock import FakeClock
from ..contracts import decode, encode, envelope_for
from ..contracts.envelope import Envelope, Payload
from ..messaging.bus import EventBus, Message
from ..messaging.memory import InMemoryEventBus, settle
from ..migrate import upgrade_async
from ..service import Builder, Service
from ..settings import ServiceSettings

#: default bound for waits; generous for a loaded CI machine, never reached when green
WAIT_S = 60.0


class ServiceHarness:
    """A running service (built by its ``bootstrap.build``), its bus and what it published."""

    def __init__(
        self,
        build: Builder,
        settings: ServiceSettings,
        *,
        bus: EventBus | None = None,
        observer_bus: EventBus | None = None,
        clock: FakeClock | None = None,
        observe: Sequence[str] = ("#",),
        raise_app_exceptions: bool = True,
    ) -> None:
        self.settings = settings
        self.clock: FakeClock = clock or FakeClock()
        self.service: Service = build(settings, bus=bus, clock=self.clock)
        self.name = self.service.name
        self.bus: EventBus = self.service.runtime.bus
        self.observer_bus: EventBus = observer_bus or self.bus
        self.observe = list(observe)
        self.raise_app_exceptions = raise_app_exceptions
        self.messages: list[Message] = []
        self._client: httpx.AsyncClient | None = None

    @property
    def client(self) -> httpx.AsyncClient:
        if self._client is None:
            raise RuntimeError("start() the harness before its client is used")
        return self._client

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> Self:
        await upgrade_async(self.name, self.settings.database_url_for(self.name))

        async def record(message: Message) -> None:
            self.messages.append(message)

        await self.observer_bus.start()
        # the observer subscribes before the service starts, so it sees every event
        await self.observer_bus.subscribe("observer", self.observe, record, prefetch=1)
        await self.service.runtime.start()
        transport = httpx.ASGITransport(app=self.service.app, raise_app_exceptions=self.raise_app_exceptions)
        self._client = httpx.AsyncClient(transport=transport, base_url=f"http://{self.name}")
        return self

    async def stop(self) -> None:
        if self._client is not None:
            await self._client.aclose()
        await self.service.runtime.stop()
        if self.observer_bus is not self.bus or not self.service.runtime.owns_bus:
            await self.observer_bus.close()

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *_exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------------ events in
    def envelope(
        self, payload: Payload, *, event_id: uuid.UUID | None = None, correlation_id: str | None = None
    ) -> Envelope[Any]:
        """``payload`` as another service would publish it now (by the harness's clock)."""
        return envelope_for(
            payload,
            correlation_id=correlation_id or getattr(payload, "event_code", None) or "test",
            occurred_at=self.clock.now(),
            event_id=event_id,
        )

    async def send(
        self, payload: Payload, *, event_id: uuid.UUID | None = None, correlation_id: str | None = None
    ) -> Envelope[Any]:
        """Put one event on the bus (through the observer's connection, as another service would)."""
        envelope = self.envelope(payload, event_id=event_id, correlation_id=correlation_id)
        await self.observer_bus.publish([encode(envelope)])
        return envelope

    async def send_all(self, payloads: Sequence[Payload]) -> None:
        """Several events in one publish (their order kept)."""
        await self.observer_bus.publish([encode(self.envelope(payload)) for payload in payloads])

    async def publish(self, payload: Payload, *, correlation_id: str | None = None) -> Envelope[Any]:
        """``send`` and wait until the service is quiet."""
        envelope = await self.send(payload, correlation_id=correlation_id)
        await self.settle()
        return envelope

    # ------------------------------------------------------------------ waiting
    async def settle(self, timeout: float = WAIT_S) -> None:
        """Until the service is quiet. In-memory bus: no outbox row pending and no message
        queued or in a handler. RabbitMQ: no outbox row pending and nothing new observed for
        a few polls (the broker has no "queue empty" signal to wait on)."""
        if isinstance(self.bus, InMemoryEventBus):
            await settle(self.bus, [self.service.runtime.relay], rounds=200)
            return
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        last_seen, quiet_polls = -1, 0
        while loop.time() < end:
            await asyncio.sleep(0.05)
            seen = len(self.messages)
            pending = await self.service.runtime.relay.publish_pending()
            quiet_polls = quiet_polls + 1 if (seen == last_seen and pending == 0) else 0
            last_seen = seen
            if quiet_polls >= 6:
                return
        raise AssertionError(f"{self.name} did not become quiet in {timeout}s")

    async def wait_for(self, predicate: Callable[[], Any], *, what: str = "condition", timeout: float = WAIT_S) -> None:
        """Poll a (sync) predicate until it is truthy; AssertionError after ``timeout`` s."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not predicate():
            if loop.time() > end:
                raise AssertionError(f"timed out waiting for {what}")
            await asyncio.sleep(0.02)

    # ------------------------------------------------------------------ events out
    def events(self, event_type: str | None = None, section_id: str | None = None) -> list[Envelope[Any]]:
        """What the service published (as the observer received it), optionally of one type
        and one section."""
        envelopes = [decode(message) for message in self.messages]
        return [
            envelope
            for envelope in envelopes
            if (event_type is None or envelope.type == event_type)
            and (section_id is None or getattr(envelope.payload, "section_id", None) == section_id)
        ]

    def payloads(self, event_type: str | None = None, section_id: str | None = None) -> list[Any]:
        return [envelope.payload for envelope in self.events(event_type, section_id)]


__all__ = ["WAIT_S", "ServiceHarness"]
