"""Appeals end to end (AWD-10, NY 十(四)): a unit's appeal recorded with the 500 CNY fee, a
rejected appeal keeping the result and refunding nothing, an upheld one whose changed result goes
through the arbiter's path — gameplay's game corrected, pairing's standings and awards' publication
republished with revision + 1 and ``supersedes`` (AWD-8). On SQLite + the in-memory bus, on
PostgreSQL + RabbitMQ in process, and against served processes over real sockets."""

from __future__ import annotations

from gomoku_shared.contracts.common import AppealTerms, ClockSpec, Entrant, Ruleset, SectionRules
from gomoku_shared.contracts.events import EventConfigured, SectionClosed
from gomoku_sim.consistency import check

from .trio import ARB, PA, PLAYED, postgres_trio, served_trio, sqlite_trio

EV = "EV"
SEC = f"/v1/events/{EV}/sections/open"


def _ny_terms() -> AppealTerms:
    """NY's appeal terms as registration sends them with section.closed (the preset's values)."""
    from registration import presets

    return AppealTerms(**presets.load("ny-2022").appeal_terms())


def _configured() -> EventConfigured:
    from registration import presets

    config = presets.load("da-2023")  # its section "open" ranks the players for awards
    return EventConfigured(event_code=EV, name=config.name, preset_id="da-2023", config=config.model_dump(mode="json"))


def _closed() -> SectionClosed:
    rules = SectionRules(
        rounds=1,
        ruleset=Ruleset(track="free"),
        clock=ClockSpec(kind="sudden_death", base_s=900),
        tiebreaks=["points", "buchholz", "median_buchholz", "wins"],
    )
    entrants = [
        Entrant(
            entrant_id=f"p{i}",
            name=f"Player {i}",
            gender="male",
            rating=2000 - i,
            partner_id="pa",
            unit=f"Unit {i}",
            attributes={"unit_id": f"u{i}"},
        )
        for i in range(1, 7)
    ]
    return SectionClosed(
        event_code=EV,
        stage="main",
        section_id="open",
        name="Open",
        status="ready",
        rules=rules,
        entrants=entrants,
        appeals=_ny_terms(),
    )


def _appeal(unit_id: str, pairing_id: str, fee_fen: int) -> dict:
    return {
        "unit_id": unit_id,
        "signatory_role": "coach",
        "signatory_name": "李教练",
        "grounds": "the result slip was signed before the game ended",
        "round": 1,
        "pairing_id": pairing_id,
        "fee_fen": fee_fen,
        "payment_reference": "cash receipt 7",
    }


async def _publications(trio) -> list[dict]:
    r = await trio.call("GET", "awards", f"/v1/events/{EV}/sections/open/publications")
    return r.json()["publications"] if r.status_code == 200 else []


async def _publications_n(trio, n: int):
    pubs = await _publications(trio)
    return pubs if len(pubs) >= n else None


async def _points(trio, service: str) -> dict[str, float]:
    if service == "awards":
        rows = (await trio.call("GET", "awards", f"/v1/events/{EV}/sections/open/standings")).json()["rows"]
    else:
        rows = (await trio.call("GET", "pairing", f"{SEC}/standings")).json()["standings"]
    return {r["entrant_id"]: r["points"] for r in rows}


async def _game_of(trio, pairing_id: str, winner: str | None = None):
    listed = (await trio.call("GET", "gameplay", "/v1/games", params={"event_code": EV})).json()["games"]
    game = next((g for g in listed if g["pairing_id"] == pairing_id), None)
    if game is None:
        return None
    game = (await trio.call("GET", "gameplay", f"/v1/games/{game['game_id']}")).json()
    return game if game.get("status") == "finished" and (winner is None or game["winner"] == winner) else None


async def _scenario(trio) -> None:
    await trio.send(_configured())
    await trio.send(_closed())
    rnd = await trio.until(lambda: _round(trio), "round 1 paired")
    b1, b2, b3 = rnd["pairings"]
    await trio.until(lambda: _games_listed(trio, 3), "round 1 in gameplay")
    for board in (b1, b2, b3):
        r = await trio.call(
            "POST",
            "pairing",
            f"{SEC}/rounds/1/results",
            headers=ARB,
            json={"pairing_id": board["pairing_id"], "result": "first_wins", "note": "result slip"},
        )
        assert r.status_code == 200, r.text
    await trio.until(lambda: _publications(trio), "awards published")
    expected = {b["first"]: 2 for b in (b1, b2, b3)} | {b["second"]: 0 for b in (b1, b2, b3)}
    assert await _points(trio, "awards") == expected
    loser_unit = f"u{b1['second'][1:]}"

    # AWD-10, NY 十(四): the fee is 500 CNY; staff record the appeal, partners cannot
    url = f"{SEC}/appeals"
    r = await trio.call("POST", "pairing", url, headers=ARB, json=_appeal(loser_unit, b1["pairing_id"], 49_900))
    assert r.status_code == 422 and r.json()["error"]["code"] == "wrong_fee", r.text
    r = await trio.call("POST", "pairing", url, headers=PA, json=_appeal(loser_unit, b1["pairing_id"], 50_000))
    assert r.status_code == 403
    first = await trio.call("POST", "pairing", url, headers=ARB, json=_appeal(loser_unit, b2["pairing_id"], 50_000))
    assert first.status_code == 200, first.text

    # rejected: the result stands, nothing is refunded, nothing is republished
    r = await trio.call(
        "POST",
        "pairing",
        f"{url}/{first.json()['appeal_id']}/decision",
        headers=ARB,
        json={"upheld": False, "reasons": "the slip matches the game record"},
    )
    assert r.status_code == 200 and (r.json()["refund_fen"], r.json()["result_changed"]) == (0, False), r.text
    assert len(await _publications(trio)) == 1
    assert await _points(trio, "pairing") == expected

    # upheld with a changed result: the arbiter's path republishes everywhere (AWD-8)
    second = await trio.call("POST", "pairing", url, headers=ARB, json=_appeal(loser_unit, b1["pairing_id"], 50_000))
    assert second.status_code == 200, second.text
    r = await trio.call(
        "POST",
        "pairing",
        f"{url}/{second.json()['appeal_id']}/decision",
        headers=ARB,
        json={
            "upheld": True,
            "reasons": "the game record shows white's five",
            "result": "second_wins",
            "expected_revision": second.json()["pairing_revision"],
        },
    )
    assert r.status_code == 200, r.text
    assert (r.json()["status"], r.json()["refund_fen"], r.json()["result_changed"]) == ("upheld", 50_000, True)
    pubs = await trio.until(lambda: _publications_n(trio, 2), "the corrected publication")
    assert pubs[-1]["publication"]["supersedes"] == pubs[0]["publication"]["revision"]
    game = await trio.until(lambda: _game_of(trio, b1["pairing_id"], b1["second"]), "board 1 corrected in gameplay")
    assert (game["result"], game["reason"]) == ("white", "arbiter")
    corrected = {**expected, b1["first"]: 0, b1["second"]: 2}
    assert await _points(trio, "pairing") == corrected
    assert await _points(trio, "awards") == corrected
    sections = (await trio.call("GET", "pairing", f"/v1/events/{EV}/sections")).json()["sections"]
    assert sections[0]["revision"] == 2
    listed = (await trio.call("GET", "pairing", f"/v1/events/{EV}/appeals", headers=ARB)).json()["appeals"]
    assert [(a["status"], a["refund_fen"]) for a in listed] == [("rejected", 0), ("upheld", 50_000)]
    (await check(trio, EV, parts=("games", "awards"))).assert_consistent()


async def _round(trio):
    r = await trio.call("GET", "pairing", f"{SEC}/rounds/1")
    return r.json() if r.status_code == 200 and len(r.json()["pairings"]) == 3 else None


async def _games_listed(trio, n: int) -> bool:
    listed = (await trio.call("GET", "gameplay", "/v1/games", params={"event_code": EV})).json()["games"]
    return len(listed) >= n


async def test_awd10_awd8_appeals_on_sqlite(tmp_path):
    async with sqlite_trio(tmp_path) as trio:
        await _scenario(trio)


async def test_awd10_awd8_appeals_on_postgres_rabbitmq(fresh_database, amqp_url, bus_namespace):
    urls = {name: await fresh_database() for name in PLAYED}
    async with postgres_trio(urls, amqp_url, bus_namespace) as trio:
        await _scenario(trio)


async def test_awd10_awd8_appeals_served_processes(fresh_database, amqp_url, bus_namespace, tmp_path):
    urls = {name: await fresh_database() for name in PLAYED}
    async with served_trio(urls, amqp_url, bus_namespace, tmp_path / "logs") as trio:
        await _scenario(trio)
