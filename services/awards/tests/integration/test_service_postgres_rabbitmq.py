"""The awards service against the real PostgreSQL and RabbitMQ (issue 7, AWD-4, AWD-8).

A DA `section.completed` yields `awards.published` with the right amounts (a woman in the
overall top 8 gets both prizes, a shared place is split); a corrected standing (revision 2)
republishes with the previous publication superseded; a redelivered or repeated event
changes nothing.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from awards_kit import completed, configured, da_open, ranked

from awards.bootstrap import build
from gomoku_shared.contracts import decode, encode, envelope_for
from gomoku_shared.contracts.envelope import Payload
from gomoku_shared.messaging.bus import Message
from gomoku_shared.messaging.rabbit import RabbitEventBus
from gomoku_shared.migrate import upgrade_async
from gomoku_shared.settings import ServiceSettings
from gomoku_shared.testing.bus import eventually


@pytest.fixture
async def running(request, fresh_database, amqp_url, bus_namespace) -> AsyncIterator[tuple]:
    url = await fresh_database()
    settings = ServiceSettings(
        DATABASE_URL=url,
        AMQP_URL=amqp_url,
        BUS_NAMESPACE=bus_namespace,
        CONSUMER_PREFETCH=getattr(request, "param", 1),
        RELAY_POLL_S=0.05,
    )
    await upgrade_async("awards", settings.database_url)
    service = build(settings)
    observer = RabbitEventBus(amqp_url, namespace=bus_namespace)
    seen: list[Message] = []

    async def record(message: Message) -> None:
        seen.append(message)

    await observer.start()
    await observer.subscribe("observer", ["awards.published", "qualifiers.selected"], record, prefetch=1)
    try:
        async with service.running():
            transport = httpx.ASGITransport(app=service.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://awards") as client:
                yield service, observer, seen, client
            await service.runtime.bus.delete_declared()
    finally:
        await observer.delete_declared()
        await observer.close()


def _published(seen: list[Message], section_id: str) -> list:
    return [
        p
        for p in (decode(m).payload for m in seen if m.routing_key == "awards.published")
        if p.section_id == section_id
    ]


def _amounts(pub) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in pub.prizes:
        out.setdefault(line["entrant_id"], []).append(line["amount"])
    return out


async def _send(bus: RabbitEventBus, payload: Payload):
    env = envelope_for(payload, correlation_id=payload.event_code)  # type: ignore[attr-defined]
    await bus.publish([encode(env)])
    return env


async def test_awd4_awd8_da_section_published_corrected_and_idempotent(running):
    service, bus, seen, client = running
    await _send(bus, configured("da-2023"))
    first = await _send(bus, completed("da-2023", "open", da_open(), name="Open"))
    await eventually(lambda: len(_published(seen, "open")) == 1, "awards.published for open")
    [pub] = _published(seen, "open")
    amounts = _amounts(pub)
    assert (pub.revision, pub.supersedes, pub.source_revision, pub.currency) == (1, None, 1, "CNY")
    assert amounts["o1"] == ["10000.00"]
    assert amounts["o3"] == ["5000.00", "2000.00"]  # AWD-4 combinable women's prize (兼得)
    assert amounts["o7"] == amounts["o8"] == ["3500.00"]  # places 7–8 shared: (4000 + 3000) / 2
    assert amounts["o10"] == ["1000.00"] and amounts["o11"] == ["1000.00"]

    # AWD-8 correction: o7 alone 7th, o8 8th
    corrected = da_open()
    corrected[6] = corrected[6].model_copy(update={"place": 7, "shared": False})
    corrected[7] = corrected[7].model_copy(update={"place": 8, "shared": False})
    second = await _send(bus, completed("da-2023", "open", corrected, revision=2, name="Open"))
    await eventually(lambda: len(_published(seen, "open")) == 2, "the corrected publication")
    republished = _published(seen, "open")[1]
    assert (republished.revision, republished.supersedes, republished.source_revision) == (2, 1, 2)
    assert _amounts(republished)["o7"] == ["4000.00"] and _amounts(republished)["o8"] == ["3000.00"]
    history = (await client.get("/v1/events/da-2023/sections/open/publications")).json()["publications"]
    assert [(h["publication"]["revision"], h["publication"]["superseded"]) for h in history] == [(1, True), (2, False)]
    old = (await client.get("/v1/events/da-2023/sections/open/prizes", params={"revision": 1})).json()
    assert {r["amount"] for r in old["rows"] if r["entrant_id"] in ("o7", "o8")} == {"3500.00"}

    # redelivered events (same ids) and an identical republish (new id) change nothing; a
    # later event of another section proves they were handled (one consumer, FIFO queue)
    await bus.publish([encode(first), encode(second)])
    await _send(bus, completed("da-2023", "open", corrected, revision=2, name="Open"))
    await _send(bus, completed("da-2023", "public", ranked(9, "p"), name="Public"))
    await eventually(lambda: len(_published(seen, "public")) == 1, "awards.published for public")
    assert [p.revision for p in _published(seen, "open")] == [1, 2]
    history = (await client.get("/v1/events/da-2023/publications")).json()["publications"]
    assert [(h["publication"]["section_id"], h["publication"]["revision"]) for h in history] == [
        ("open", 1),
        ("open", 2),
        ("public", 1),
    ]
    status = (await client.get("/v1/events/da-2023")).json()
    assert {s["section_id"]: s["latest_result_revision"] for s in status["sections"]} == {"open": 2, "public": 1}


@pytest.mark.parametrize("running", [8], indirect=True)
async def test_awd6_sources_completing_at_once_still_score_the_team(running):
    """AWD-6 on PostgreSQL with concurrent consumers: both SZ final sections complete at the same
    time; the per-event lock makes the second handler see the first, so the team is scored once."""
    service, bus, seen, client = running
    await _send(bus, configured("sz-2022"))
    await eventually(lambda: _config_stored(client), "the configuration")
    men = completed("sz-2022", "final-men", ranked(6, "m", gender="male", units=["A", "B", "C"]), stage="final")
    women = completed("sz-2022", "final-women", ranked(5, "w", gender="female", units=["C", "B", "A"]), stage="final")
    await bus.publish([encode(envelope_for(p, correlation_id="sz-2022")) for p in (men, women)])
    await eventually(lambda: len(_published(seen, "mixed-team")) == 1, "the mixed team ranking")
    await eventually(lambda: len(_published(seen, "final-women")) == 1, "both sections")
    [team] = _published(seen, "mixed-team")
    # A: 1+4+3 = 8, B: 2+5+2 = 9, C: 3+6+1 = 10
    assert [(r["unit_id"], r["place"]) for r in team.team_ranking] == [("A", 1), ("B", 2), ("C", 3)]
    body = (await client.get("/v1/events/sz-2022/teams/mixed-team")).json()
    assert body["status"] == "published" and body["publication"]["revision"] == 1


async def _config_stored(client: httpx.AsyncClient) -> bool:
    r = await client.get("/v1/events/sz-2022")
    return r.status_code == 200 and r.json()["configured"]
