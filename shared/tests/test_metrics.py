"""What operators read on every service's /metrics (issue 17, observability): requests by route
template, the outbox relay's lag, the consumer's work, dead letters."""

from __future__ import annotations

import re

import httpx
from sqlalchemy import MetaData

from gomoku_shared.contracts.events import QualifiersSelected
from gomoku_shared.messaging.memory import InMemoryEventBus
from gomoku_shared.runtime import ServiceRuntime
from gomoku_shared.service import Service
from gomoku_shared.settings import ServiceSettings
from gomoku_shared.web import create_app


def _sample(text: str, name: str, **labels: str) -> float:
    """The value of the series ``name`` with exactly these labels (fails when absent)."""
    for line in text.splitlines():
        match = re.match(rf"{re.escape(name)}\{{(.*)\}} (\S+)$", line)
        if match and dict(re.findall(r'(\w+)="([^"]*)"', match.group(1))) == labels:
            return float(match.group(2))
    raise AssertionError(f"no {name}{labels} in /metrics")


def _selected() -> QualifiersSelected:
    return QualifiersSelected(
        event_code="sz-2022",
        from_stage="online",
        to_stage="final",
        section_id="men",
        target_section_id="final-men",
        qualifiers=[],
    )


async def test_runtime_figures_follow_the_outbox_and_the_consumer(tmp_path):
    # its own SQLite file whatever DATABASE_URL says: a shared database's outbox holds other rows
    settings = ServiceSettings(
        DATA_DIR=str(tmp_path), DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/registration.sqlite", RELAY_POLL_S=0.05
    )
    bus = InMemoryEventBus()
    runtime = ServiceRuntime("registration", settings, MetaData(), bus=bus)
    handled: list[str] = []

    @runtime.on("qualifiers.selected")
    async def on_selected(_uow, envelope) -> None:
        handled.append(envelope.payload.section_id)

    async with runtime.engine.begin() as conn:
        await conn.run_sync(runtime.metadata.create_all)
    app = create_app("registration", title="t")
    Service("registration", runtime, app)  # wires the runtime's figures into the app's /metrics

    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://s") as client:
        async with runtime.transaction() as uow:
            envelope = uow.emit(_selected())
        text = (await client.get("/metrics")).text
        assert _sample(text, "gomoku_outbox_pending", service="registration") == 1
        assert _sample(text, "gomoku_outbox_oldest_pending_seconds", service="registration") >= 0

        await runtime.start()
        try:
            await runtime.relay.publish_pending()
            await bus.drain(timeout=10)
            # the same event again (a redelivery): the inbox skips it, the figures say so
            from gomoku_shared.contracts import encode

            await bus.publish([encode(envelope)])
            await bus.drain(timeout=10)
            text = (await client.get("/metrics")).text
        finally:
            await runtime.stop()
    assert handled == ["men"]
    assert _sample(text, "gomoku_outbox_pending", service="registration") == 0
    assert _sample(text, "gomoku_outbox_published_total", service="registration") == 1
    consumed = {"service": "registration", "type": "qualifiers.selected"}
    assert _sample(text, "gomoku_events_consumed_total", **consumed, outcome="handled") == 1
    assert _sample(text, "gomoku_events_consumed_total", **consumed, outcome="duplicate") == 1
    assert _sample(text, "gomoku_event_handling_seconds_total", **consumed, outcome="handled") > 0
    assert _sample(text, "gomoku_queue_ready_messages", service="registration") == 0
    assert _sample(text, "gomoku_dead_letters", service="registration") == 0


async def test_requests_are_counted_by_route_template_never_by_raw_path(tmp_path):
    """One series per route (`/items/{item_id}`), not per item; unmatched paths share one label,
    so probing random paths cannot grow the metrics without bound."""
    app = create_app("registration", title="t")

    @app.get("/items/{item_id}")
    async def item(item_id: str) -> dict[str, str]:
        return {"item": item_id}

    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://s") as client:
        for item_id in ("a", "b", "c"):
            assert (await client.get(f"/items/{item_id}")).status_code == 200
        for probe in ("/wp-admin", "/x/y/z"):
            assert (await client.get(probe)).status_code == 404
        text = (await client.get("/metrics")).text
    labels = {"service": "registration", "method": "GET"}
    assert _sample(text, "http_requests_total", **labels, route="/items/{item_id}", status="200") == 3
    assert _sample(text, "http_requests_total", **labels, route="<unmatched>", status="404") == 2
    assert "/items/a" not in text and "wp-admin" not in text
