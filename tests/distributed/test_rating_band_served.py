"""Issue 32 rating band over a real socket: registration served as its own process (the
docker-compose.yml command) on PostgreSQL and RabbitMQ. Two players of an organisation are
registered (registry people); the organisation's rating list arrives on the broker
(``ratings.published``, as awards publishes it); in the organisation's next event, whose
``men-free`` admits ratings under 1600 only (a test configuration: no preset has bands), the
player rated 1720 is refused by the band and the one rated 1480 admitted."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

import httpx

from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.contracts.season_events import PublishedRating, RatingsPublished
from gomoku_shared.messaging.rabbit import RabbitEventBus

from .compose_commands import LocalCompose

KEYS = "op-key=operator,p1-key=partner:partner-1"
OP, P1 = {"x-api-key": "op-key"}, {"x-api-key": "p1-key"}
#: SZ 2022: registration open (十三(二): 10-25 to 10-31)
SZ_OPEN = "2022-10-26T10:00:00+08:00"
ORG = "org-band"
NAMES = ("李明", "王芳")
RATED = {"李明": 1720, "王芳": 1480}
BAND = {"stages": {"online": {"sections": {"men-free": {"rating_band": {"under": 1600}}}}}}


def entry(n: int) -> dict:
    player = {"name": NAMES[n], "gender": "male", "birth_date": "1990-05-05", "id_number": f"44030419900506{n:03d}1"}
    return {
        "stage": "online",
        "section_id": "men-free",
        "player": player,
        "evidence": [{"kind": "household_registration", "document_ref": f"HK-{n}", "region": "Shenzhen"}],
        "insurance": {"confirmed": True, "document_ref": f"POL-{n}"},
    }


async def until(predicate, what: str, timeout: float = 60.0) -> Any:
    async with asyncio.timeout(timeout):
        while not (value := await predicate()):
            await asyncio.sleep(0.2)
        return value


async def test_issue32_an_entry_outside_the_rating_band_is_refused_served(
    fresh_database, amqp_url, bus_namespace, tmp_path
):
    """Issue 32 rating band: the published rating judged at entry, over HTTP on PostgreSQL."""
    stack = LocalCompose(
        database_urls={"registration": await fresh_database()},
        amqp_url=amqp_url,
        namespace=bus_namespace,
        log_dir=tmp_path,
        extra_env={"API_KEYS": KEYS, "CLOCK": "fake", "CLOCK_START": SZ_OPEN, "RELAY_POLL_S": "0.2"},
    )
    publisher = RabbitEventBus(amqp_url, namespace=bus_namespace)
    try:
        await stack.serve("registration")
        await publisher.start()
        async with httpx.AsyncClient(base_url=stack.procs["registration"].url, timeout=30) as reg:
            body = {"preset_id": "sz-2022", "event_code": "sz-first", "organisation": ORG}
            assert (await reg.post("/v1/events", headers=OP, json=body)).status_code == 201
            for n in range(2):
                made = await reg.post("/v1/events/sz-first/entries", headers=P1, json=entry(n))
                assert made.status_code == 201, made.text
            people = (await reg.get(f"/v1/organisations/{ORG}/people", headers=OP)).json()["people"]
            registry = {p["name"]: p["person_id"] for p in people}
            listed = [
                PublishedRating(registry_id=registry[name], rating=rating, rd=70.0, provisional=False)
                for name, rating in RATED.items()
            ]
            payload = RatingsPublished(organisation=ORG, period="2022-09", people=listed)
            at = datetime.fromisoformat(SZ_OPEN)
            await publisher.publish([encode(envelope_for(payload, correlation_id=f"ratings:{ORG}", occurred_at=at))])

            # registration consumes the list asynchronously: each try is the rated player's entry
            # in a new banded event of the organisation, until the band refuses it
            tries: list[str] = []

            async def refused_by_band() -> dict | None:
                code = f"sz-band{len(tries)}"
                tries.append(code)
                made = await reg.post(
                    "/v1/events",
                    headers=OP,
                    json={"preset_id": "sz-2022", "event_code": code, "organisation": ORG, "overrides": BAND},
                )
                assert made.status_code == 201, made.text
                answer = await reg.post(f"/v1/events/{code}/entries", headers=P1, json=entry(0))
                assert answer.status_code == 201, answer.text
                return answer.json() if answer.json()["status"] == "refused" else None

            refused = await until(refused_by_band, "an entry refused by the rating band", timeout=30)
            code = tries[-1]
            shown = await reg.get(f"/v1/events/{code}/entries/{refused['entry_id']}", headers=OP)
            assert shown.status_code == 200, shown.text
            band = [d for d in shown.json()["decisions"] if d["rule"] == "RATING-BAND"]
            assert [(d["clause"], d["outcome"]) for d in band] == [("men-free/rating_band", "refused")]
            assert "1720" in band[0]["reason"] and "under 1600" in band[0]["reason"]

            admitted = await reg.post(f"/v1/events/{code}/entries", headers=P1, json=entry(1))
            assert admitted.status_code == 201, admitted.text
            assert admitted.json()["status"].startswith("accepted")  # the evidence may still wait (REG-18)
    finally:
        await publisher.close()
        stack.stop_all()
