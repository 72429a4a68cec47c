"""Issue 29, partner apps per event, over a real socket: registration served as its own process
(the docker-compose.yml command) on PostgreSQL + RabbitMQ. The event's organiser (here the
operator's key) chooses partner 2; partner 1's static key is then refused registering (403
partner_not_chosen, in words) while partner 2 registers; the choice and the event's owner go out
on the broker as event.access_changed; choosing every partner again lets partner 1 in."""

from __future__ import annotations

import httpx

from gomoku_shared.contracts import decode
from gomoku_shared.messaging.rabbit import RabbitEventBus
from gomoku_shared.testing.bus import eventually

from .compose_commands import LocalCompose

KEYS = "op-key=operator,p1-key=partner:partner-1,p2-key=partner:partner-2"
OP, P1, P2 = ({"x-api-key": k} for k in ("op-key", "p1-key", "p2-key"))
SZ_OPEN = "2022-10-26T10:00:00+08:00"


def _entry(n: int) -> dict:
    return {
        "stage": "online",
        "section_id": "men-free",
        "player": {
            "name": f"Player {n}",
            "gender": "male",
            "birth_date": "1990-05-05",
            "id_number": f"44030119900505{n:04d}",
        },
        "evidence": [{"kind": "household_registration", "document_ref": f"HK-{n:06d}", "region": "Shenzhen"}],
        "insurance": {"confirmed": True, "document_ref": f"POL-{n:06d}"},
    }


async def test_issue29_partner_apps_chosen_per_event_served(fresh_database, amqp_url, bus_namespace, tmp_path):
    """Issue 29 (partner apps per event), served on PostgreSQL + RabbitMQ: PUT the partner list,
    an unchosen static partner key gets 403 partner_not_chosen registering, the chosen one 201;
    event.access_changed on the broker for the creation and each change."""
    url = await fresh_database()
    stack = LocalCompose(
        database_urls={"registration": url},
        amqp_url=amqp_url,
        namespace=bus_namespace,
        log_dir=tmp_path,
        extra_env={"API_KEYS": KEYS, "CLOCK": "fake", "CLOCK_START": SZ_OPEN, "DATA_KEY": "partner-apps-key"},
    )
    observer = RabbitEventBus(amqp_url, namespace=bus_namespace)
    seen: list = []

    async def observe(message) -> None:
        envelope = decode(message)
        if envelope.type == "event.access_changed":
            seen.append(envelope.payload)

    await observer.start()
    await observer.subscribe("observer", ["#"], observe)
    try:
        proc = await stack.serve("registration")
        async with httpx.AsyncClient(base_url=proc.url, timeout=30) as http:
            body = {"preset_id": "sz-2022", "event_code": "sz-apps", "organisation": "org-a"}
            r = await http.post("/v1/events", headers=OP, json=body)
            assert r.status_code == 201 and r.json()["organisation"] == "org-a", r.text

            r = await http.put("/v1/events/sz-apps/partners", headers=OP, json={"partners": ["partner-2"]})
            assert r.status_code == 200 and r.json()["partners"] == ["partner-2"], r.text
            r = await http.post("/v1/events/sz-apps/entries", headers=P1, json=_entry(1))
            assert r.status_code == 403, r.text
            error = r.json()["error"]
            assert error["code"] == "partner_not_chosen" and error["details"]["words"]["zh"], error
            r = await http.post("/v1/events/sz-apps/entries", headers=P2, json=_entry(2))
            assert r.status_code == 201, r.text

            r = await http.put("/v1/events/sz-apps/partners", headers=OP, json={"partners": None})
            assert r.status_code == 200 and r.json()["partners"] is None, r.text
            r = await http.post("/v1/events/sz-apps/entries", headers=P1, json=_entry(3))
            assert r.status_code == 201, r.text
            shown = (await http.get("/v1/events/sz-apps/partners", headers=OP)).json()
            assert [c["chosen_by"] for c in shown["choices"]] == ["operator:k1", "operator:k1"]

        await eventually(lambda: len(seen) >= 3, "three event.access_changed", timeout=30)
        assert [(p.event_code, p.organisation, p.partners) for p in seen] == [
            ("sz-apps", "org-a", None),
            ("sz-apps", "org-a", ["partner-2"]),
            ("sz-apps", "org-a", None),
        ]
        assert "Traceback" not in (tmp_path / "registration.log").read_text()
    finally:
        stack.stop_all()
        await observer.delete_declared()
        await observer.close()
