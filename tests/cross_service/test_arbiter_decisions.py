"""One truth for every result (issue 12): an arbiter's result entered in pairing, a correction of
it, an adjudication in gameplay and a double forfeit end identically in gameplay, pairing and
awards — on SQLite + the in-memory bus, and on PostgreSQL + RabbitMQ in process and as served
processes reached over real sockets.

Rules: PAIR-11 (the arbiter enters and corrects results), PLAY-4 (arbiter decision ends a game),
PAIR-6 / PLAY-7 (absent players forfeit; both absent: a double forfeit, 0:0, no draw),
AWD-8 (a correction republishes, the new publication supersedes the old one)."""

from __future__ import annotations

from gomoku_shared.contracts.common import ClockSpec, Entrant, Ruleset, SectionRules
from gomoku_shared.contracts.events import EventConfigured, SectionClosed
from gomoku_sim.consistency import check

from .trio import ARB, PA, PLAYED, postgres_trio, served_trio, sqlite_trio

EV = "EV"
SEC = f"/v1/events/{EV}/sections/open"


def _configured() -> EventConfigured:
    from registration import presets

    config = presets.load("da-2023")
    return EventConfigured(event_code=EV, name=config.name, preset_id="da-2023", config=config.model_dump(mode="json"))


def _closed() -> SectionClosed:
    rules = SectionRules(
        rounds=1,
        ruleset=Ruleset(track="free"),
        clock=ClockSpec(kind="sudden_death", base_s=900),
        tiebreaks=["points", "buchholz", "median_buchholz", "wins"],
    )
    entrants = [
        Entrant(entrant_id=f"p{i}", name=f"Player {i}", gender="male", rating=2000 - i, partner_id="pa")
        for i in range(1, 7)
    ]
    return SectionClosed(
        event_code=EV, stage="main", section_id="open", name="Open", status="ready", rules=rules, entrants=entrants
    )


async def _game(trio, gid: str) -> dict:
    return (await trio.call("GET", "gameplay", f"/v1/games/{gid}")).json()


async def _publications(trio) -> list[dict]:
    r = await trio.call("GET", "awards", f"/v1/events/{EV}/sections/open/publications")
    return r.json()["publications"] if r.status_code == 200 else []


async def _awards_points(trio) -> dict[str, float]:
    rows = (await trio.call("GET", "awards", f"/v1/events/{EV}/sections/open/standings")).json()["rows"]
    return {r["entrant_id"]: r["points"] for r in rows}


async def _scenario(trio) -> None:
    await trio.send(_configured())
    await trio.send(_closed())
    games = await trio.until(lambda: _games_when(trio, 3), "round 1 in gameplay")
    rnd = (await trio.call("GET", "pairing", f"{SEC}/rounds/1")).json()
    b1, b2, b3 = rnd["pairings"]
    g1, g2, g3 = (games[p["pairing_id"]] for p in (b1, b2, b3))

    # PAIR-11: the arbiter enters board 1's result while its game is still waiting
    r = await trio.call(
        "POST",
        "pairing",
        f"{SEC}/rounds/1/results",
        headers=ARB,
        json={"pairing_id": b1["pairing_id"], "result": "first_wins", "note": "opponent disqualified"},
    )
    assert r.status_code == 200, r.text
    g = await trio.until(lambda: _finished(trio, g1), "board 1 closed in gameplay")
    assert (g["result"], g["reason"], g["winner"]) == ("black", "arbiter", b1["first"])
    # no late join, move or resignation changes a decided game: a clear 409
    for what, body in (
        ("join", {"player_id": b1["second"]}),
        ("move", {"player_id": b1["first"], "point": "h8"}),
        ("resign", {"player_id": b1["first"]}),
    ):
        r = await trio.call("POST", "gameplay", f"/v1/games/{g1}/{what}", headers=PA, json=body)
        assert r.status_code == 409 and r.json()["error"]["code"] == "game_over", (what, r.text)

    # PLAY-4: board 3 is adjudicated in gameplay after both joined; pairing scores it
    for p in (b3["first"], b3["second"]):
        assert (
            await trio.call("POST", "gameplay", f"/v1/games/{g3}/join", headers=PA, json={"player_id": p})
        ).status_code == 200
    r = await trio.call(
        "POST",
        "gameplay",
        f"/v1/games/{g3}/adjudicate",
        headers=ARB,
        json={"result": "white", "reason": "illegal device"},
    )
    assert r.status_code == 200, r.text

    # PAIR-6 / PLAY-7: nobody joins board 2; past the no-show limit it is a double forfeit
    await trio.advance(16 * 60)
    assert (await trio.call("POST", "gameplay", "/v1/ops/sweep")).status_code == 200
    g = await trio.until(lambda: _finished(trio, g2), "board 2 double forfeit")
    assert (g["result"], g["winner"], g["double_forfeit"]) == ("double_forfeit", None, True)
    assert (await _game(trio, g1))["result"] == "black"  # the sweep left the decided game alone

    await trio.until(lambda: _publications(trio), "awards published")
    rnd = (await trio.call("GET", "pairing", f"{SEC}/rounds/1")).json()
    by = {p["pairing_id"]: p for p in rnd["pairings"]}
    assert (by[b1["pairing_id"]]["result"], by[b1["pairing_id"]]["result_source"]) == ("first_wins", "arbiter")
    assert (
        by[b2["pairing_id"]]["result"],
        by[b2["pairing_id"]]["first_points"],
        by[b2["pairing_id"]]["second_points"],
    ) == ("double_forfeit", 0, 0)
    assert by[b3["pairing_id"]]["result"] == "second_wins"
    expected = {b1["first"]: 2, b1["second"]: 0, b2["first"]: 0, b2["second"]: 0, b3["first"]: 0, b3["second"]: 2}
    pairing_points = {
        r["entrant_id"]: r["points"]
        for r in (await trio.call("GET", "pairing", f"{SEC}/standings")).json()["standings"]
    }
    assert pairing_points == expected  # the arbiter's result counted once, no draw anywhere
    assert await _awards_points(trio) == expected
    (await check(trio, EV, parts=("games", "awards"))).assert_consistent()

    # issue 27 finding 9: a correction decided on the result before the arbiter's (revision 0)
    # is refused with the current result, and changes nothing anywhere
    seen = by[b1["pairing_id"]]["revision"]
    assert seen == 1
    correction = {"pairing_id": b1["pairing_id"], "result": "second_wins", "note": "appeal upheld"}
    r = await trio.call(
        "POST", "pairing", f"{SEC}/rounds/1/results", headers=ARB, json={**correction, "expected_revision": 0}
    )
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale_revision", r.text
    current = r.json()["error"]["details"]["current"]
    assert (current["result"], current["revision"], current["result_source"]) == ("first_wins", 1, "arbiter")

    # AWD-8: the arbiter corrects board 1 after the section completed: pairing republishes,
    # awards supersede the first publication, and gameplay's game shows the corrected result
    r = await trio.call(
        "POST",
        "pairing",
        f"{SEC}/rounds/1/results",
        headers=ARB,
        json={**correction, "expected_revision": seen},
    )
    assert r.status_code == 200 and r.json()["changed"] is True and r.json()["revision"] == seen + 1
    pubs = await trio.until(lambda: _publications_n(trio, 2), "the corrected publication")
    assert pubs[-1]["publication"]["supersedes"] == pubs[0]["publication"]["revision"]
    g = await trio.until(lambda: _winner(trio, g1, b1["second"]), "board 1 corrected in gameplay")
    assert (g["result"], g["reason"], g["outcome"]) == ("white", "arbiter", {"first_points": 0, "second_points": 2})
    corrected = {**expected, b1["first"]: 0, b1["second"]: 2}
    assert await _awards_points(trio) == corrected
    report = await check(trio, EV, parts=("games", "awards"))
    report.assert_consistent()
    assert report.checked["pairings"] == 3 and report.checked["standings rows"] == 6


async def _games_when(trio, n: int):
    listed = (await trio.call("GET", "gameplay", "/v1/games", params={"event_code": EV})).json()["games"]
    return {g["pairing_id"]: g["game_id"] for g in listed} if len(listed) >= n else None


async def _finished(trio, gid: str):
    g = await _game(trio, gid)
    return g if g.get("status") == "finished" else None


async def _winner(trio, gid: str, winner: str):
    g = await _game(trio, gid)
    return g if g.get("winner") == winner else None


async def _publications_n(trio, n: int):
    pubs = await _publications(trio)
    return pubs if len(pubs) >= n else None


async def test_pair11_play7_awd8_arbiter_results_agree_everywhere_on_sqlite(tmp_path):
    async with sqlite_trio(tmp_path) as trio:
        await _scenario(trio)


async def test_pair11_play7_awd8_arbiter_results_agree_everywhere_on_postgres_rabbitmq(
    fresh_database, amqp_url, bus_namespace
):
    urls = {name: await fresh_database() for name in PLAYED}
    async with postgres_trio(urls, amqp_url, bus_namespace) as trio:
        await _scenario(trio)


async def test_pair11_play7_awd8_arbiter_results_agree_everywhere_served_processes(
    fresh_database, amqp_url, bus_namespace, tmp_path
):
    urls = {name: await fresh_database() for name in PLAYED}
    async with served_trio(urls, amqp_url, bus_namespace, tmp_path / "logs") as trio:
        await _scenario(trio)
