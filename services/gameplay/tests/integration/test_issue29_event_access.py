"""Issue 29 in the gameplay service, in process on PostgreSQL (gameplay's kit on the in-memory
bus): each event's owner and chosen partner apps arrive as ``event.access_changed``; the staff
routes act only in their organisation's events and in the roles people hold there (a recorder
records and enters slips, nothing else); a slip is confirmed by another person than the one who
entered it; a partner app the organiser did not choose cannot act in the event's games.

People sign in with staff tokens (``gomoku_shared.testing.people.StaffTokens``); the arbiters'
API keys of the time before staff accounts act in their own organisation only."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from gameplay_kit import START, Harness, pairing, round_paired

from gameplay.domain.game_ids import game_id_for
from gomoku_shared.contracts.events import EventAccessChanged
from gomoku_shared.settings import ServiceSettings
from gomoku_shared.testing.people import StaffTokens

KEYS = "op-key=operator,arb-a=arbiter:orgA,arb-b=arbiter:orgB,pa-key=partner:pa,pb-key=partner:pb,pn-key=partner:pn"
OP = {"x-api-key": "op-key"}
ARB_A = {"x-api-key": "arb-a"}
ARB_B = {"x-api-key": "arb-b"}
PA = {"x-api-key": "pa-key"}
PB = {"x-api-key": "pb-key"}
NEXT_DAY = START + timedelta(days=1)
SLIP = {"result": "black", "reason": "five"}


def game(event: str, rnd: int = 1, pairing_id: str = "p1") -> str:
    return f"{event}.main.S1.r{rnd}.{pairing_id}.g1"


def paired(event: str, *, rnd: int = 1, mode: str = "offline", starts_at=START):
    two = (pairing("p1", "alice", "bob"), pairing("p2", "carol", "dave"))
    return round_paired(*two, rnd=rnd, mode=mode, starts_at=starts_at).model_copy(update={"event_code": event})


def access(event: str, organisation: str, partners: list[str] | None = None, *, at=START) -> EventAccessChanged:
    return EventAccessChanged(event_code=event, organisation=organisation, partners=partners, changed_at=at)


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def person(gp, name: str, **roles) -> str:
    """A staff token issued as of the service's (fake) clock."""
    return gp.people.token(name, issued_at=gp.clock.now().timestamp(), **roles)


def refused(response, status: int, code: str) -> dict:
    assert response.status_code == status and response.json()["error"]["code"] == code, response.text
    details = response.json()["error"]["details"]
    assert set(details["words"]) == {"zh", "en"} and all(details["words"].values()), details
    return details


@pytest.fixture
async def gp(fresh_database):
    settings = ServiceSettings(DATABASE_URL=await fresh_database(), AMQP_URL=None, API_KEYS=KEYS)
    async with Harness(settings) as harness:
        harness.people = StaffTokens()
        harness.people.install(harness.service.app.state.keyring)
        yield harness


async def _two_organisations(gp) -> None:
    """EV belongs to organisation A, EVB to B; each has an offline round under way and one
    scheduled for tomorrow (the early starts)."""
    await gp.publish(access("EV", "orgA"))
    await gp.publish(access("EVB", "orgB"))
    for event in ("EV", "EVB"):
        await gp.publish(paired(event))
        await gp.publish(paired(event, rnd=2, starts_at=NEXT_DAY))


async def test_issue_29_an_arbiter_acts_on_their_organisations_events_only(gp):
    """Issue 29, "an arbiter of organisation A gets 403 not_your_event on slips, confirmation,
    early start of a game of organisation B's event and succeeds on A's"; the audits name the
    person."""
    await _two_organisations(gp)
    li = bearer(person(gp, "Li Lei", orgs={"orgA": ["arbiter"]}))
    wang = bearer(person(gp, "Wang Fang", orgs={"orgA": ["chief_arbiter"]}))
    api = gp.api

    # B's own arbiter key enters B's slip; A's arbiter can neither enter, confirm nor except there
    assert (await api.post(f"/v1/games/{game('EVB')}/slips", SLIP, headers=ARB_B)).status_code == 200
    refused(await api.post(f"/v1/games/{game('EVB', pairing_id='p2')}/slips", SLIP, headers=li), 403, "not_your_event")
    refused(
        await api.post(f"/v1/games/{game('EVB')}/slips", {**SLIP, "confirms": 1}, headers=li), 403, "not_your_event"
    )
    early = {"reason": "both players agreed to play early"}
    refused(await api.post(f"/v1/games/{game('EVB', 2)}/early-start", early, headers=li), 403, "not_your_event")
    refused(await api.get(f"/v1/games/{game('EVB', 2)}/early-start", headers=li), 403, "not_your_event")
    refused(await api.get("/v1/events/EVB/record-flags", headers=li), 403, "not_your_event")
    # so can A's arbiter key of the time before staff accounts
    refused(
        await api.post(f"/v1/games/{game('EVB')}/slips", {**SLIP, "confirms": 1}, headers=ARB_A), 403, "not_your_event"
    )
    adjudicate = {"result": "black", "reason": "white left the hall"}
    refused(await api.post(f"/v1/games/{game('EVB')}/adjudicate", adjudicate, headers=li), 403, "not_your_event")
    assert [s["status"] for s in (await api.get(f"/v1/games/{game('EVB')}/slips")).json()["slips"]] == ["pending"]
    # a game no event knows: 404 as before
    missing = await api.post("/v1/games/NOPE.main.S1.r1.p1.g1/slips", SLIP, headers=li)
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "game_not_found", missing.text

    # on A's games they act, and the slips and the exception name them
    assert (await api.post(f"/v1/games/{game('EV')}/slips", SLIP, headers=li)).status_code == 200
    confirmed = await api.post(f"/v1/games/{game('EV')}/slips", {**SLIP, "confirms": 1}, headers=wang)
    assert confirmed.status_code == 200 and confirmed.json()["game"]["status"] == "finished", confirmed.text
    slips = confirmed.json()["slips"]
    assert [s["entered_by_name"] for s in slips] == ["Li Lei", "Wang Fang"]
    assert (
        all(s["entered_by_id"].startswith("acct:") for s in slips)
        and slips[0]["entered_by_id"] != slips[1]["entered_by_id"]
    )
    allowed = await api.post(f"/v1/games/{game('EV', 2)}/early-start", early, headers=li)
    assert allowed.status_code == 201, allowed.text
    assert allowed.json()["allowed_by_name"] == "Li Lei" and allowed.json()["allowed_by_id"].startswith("acct:")
    audit = await api.get(f"/v1/games/{game('EV', 2)}/early-start", headers=wang)
    assert audit.status_code == 200 and audit.json()["exception"] == allowed.json(), audit.text
    assert (await api.get("/v1/events/EV/record-flags", headers=li)).status_code == 200
    # the operator's keys act on every event
    assert (await api.post(f"/v1/games/{game('EVB', pairing_id='p2')}/slips", SLIP, headers=OP)).status_code == 200


async def test_issue_29_a_recorder_records_and_enters_slips_nothing_else(gp):
    """Issue 29, "a recorder records moves and enters a slip but gets 403 role_not_held
    confirming it or starting early"."""
    await _two_organisations(gp)
    zhao = bearer(person(gp, "Zhao Min", events={"EV": ["recorder"]}))
    li = bearer(person(gp, "Li Lei", orgs={"orgA": ["arbiter"]}))
    api, g1, g2 = gp.api, game("EV"), game("EV", pairing_id="p2")

    # the live recorder: the recorder issues the game's secret and records the moves
    issued = await api.post(f"/v1/games/{g1}/recorder", headers=zhao)
    assert issued.status_code == 201, issued.text
    secret = {"X-Recorder-Secret": issued.json()["recorder_secret"]}
    for step, point in enumerate(["h8", "h9"], start=1):
        recorded = await api.post(
            f"/v1/games/{g1}/recorded", {"kind": "move", "point": point, "step": step}, headers=secret
        )
        assert recorded.status_code == 200 and recorded.json()["flag"] is None, recorded.text
    assert (await api.game(g1))["moves"] == ["h8", "h9"]
    # a record entered after the game, and a slip
    entered = await api.post(f"/v1/games/{g2}/record-entries", {"moves": ["h8", "h9", "h10"]}, headers=zhao)
    assert entered.status_code == 201, entered.text
    assert (await api.post(f"/v1/games/{g1}/slips", SLIP, headers=zhao)).status_code == 200
    assert (await api.post(f"/v1/games/{g2}/slips", SLIP, headers=li)).status_code == 200

    # nothing else: confirming (another's slip or their own), early starts, decisions, full reads
    for gid in (g1, g2):
        details = refused(
            await api.post(f"/v1/games/{gid}/slips", {**SLIP, "confirms": 1}, headers=zhao), 403, "role_not_held"
        )
        assert details["needs"] == ["arbiter", "chief_arbiter"] and details["holds"] == ["recorder"]
    early = {"reason": "both players agreed to play early"}
    refused(await api.post(f"/v1/games/{game('EV', 2)}/early-start", early, headers=zhao), 403, "role_not_held")
    refused(await api.get(f"/v1/games/{game('EV', 2)}/early-start", headers=zhao), 403, "role_not_held")
    refused(
        await api.post(f"/v1/games/{g1}/adjudicate", {"result": "black", "reason": "r"}, headers=zhao),
        403,
        "role_not_held",
    )
    refused(
        await api.post(f"/v1/games/{g2}/record-entries/1/accept", {"note": "fine"}, headers=zhao), 403, "role_not_held"
    )
    refused(await api.get("/v1/events/EV/record-flags", headers=zhao), 403, "role_not_held")
    # and only in their event
    refused(await api.post(f"/v1/games/{game('EVB')}/slips", SLIP, headers=zhao), 403, "not_your_event")
    # the arbiter confirms the recorder's slip
    confirmed = await api.post(f"/v1/games/{g1}/slips", {**SLIP, "confirms": 1}, headers=li)
    assert confirmed.status_code == 200 and confirmed.json()["game"]["status"] == "finished", confirmed.text
    # a staff account on a route for partner apps and the operator: refused
    refused(await api.act(game("EV"), "join", "alice", headers=li), 403, "staff_account_not_allowed")


async def test_issue_29_a_slip_is_confirmed_by_another_person(gp):
    """Issue 29, "the same person entering and confirming -> 409 same_person_confirms, another
    arbiter confirms -> 200"; the same holds for an API key."""
    await _two_organisations(gp)
    account = "li-lei"
    li = bearer(person(gp, "Li Lei", orgs={"orgA": ["arbiter"]}, account_id=account))
    li_again = bearer(person(gp, "Li Lei", events={"EV": ["chief_arbiter"]}, account_id=account))
    wang = bearer(person(gp, "Wang Fang", events={"EV": ["arbiter"]}))
    api, g1, g2 = gp.api, game("EV"), game("EV", pairing_id="p2")

    assert (await api.post(f"/v1/games/{g1}/slips", SLIP, headers=li)).status_code == 200
    for same in (li, li_again):  # another token of the same person is the same person
        details = refused(
            await api.post(f"/v1/games/{g1}/slips", {**SLIP, "confirms": 1}, headers=same), 409, "same_person_confirms"
        )
        assert details["slip"] == 1 and details["entered_by"] == "Li Lei"
    confirmed = await api.post(f"/v1/games/{g1}/slips", {**SLIP, "confirms": 1}, headers=wang)
    assert confirmed.status_code == 200 and confirmed.json()["game"]["status"] == "finished", confirmed.text
    assert [(s["entered_by_name"], s["entered_by_id"]) for s in confirmed.json()["slips"]][0] == (
        "Li Lei",
        "acct:li-lei",
    )

    # an arbiter's API key: the key is the person
    assert (await api.post(f"/v1/games/{g2}/slips", SLIP, headers=ARB_A)).status_code == 200
    refused(
        await api.post(f"/v1/games/{g2}/slips", {**SLIP, "confirms": 1}, headers=ARB_A), 409, "same_person_confirms"
    )
    assert (await api.post(f"/v1/games/{g2}/slips", {**SLIP, "confirms": 1}, headers=OP)).status_code == 200


async def test_issue_29_an_adjudication_names_the_arbiter(gp):
    """Issue 29: an arbiter's decision is logged with the person's name and id."""
    await gp.publish(access("EV", "orgA"))
    await gp.publish(paired("EV", mode="online"))
    li = bearer(person(gp, "Li Lei", orgs={"orgA": ["arbiter"]}, account_id="li-lei"))
    added = await gp.api.post(f"/v1/games/{game('EV')}/add-time", {"player_id": "alice", "seconds": 60}, headers=li)
    assert added.status_code == 200, added.text
    decided = await gp.api.post(
        f"/v1/games/{game('EV')}/adjudicate", {"result": "white", "reason": "a phone rang"}, headers=li
    )
    assert decided.status_code == 200 and decided.json()["status"] == "finished", decided.text
    events = await gp.service.extras["games"].views.events_since(game("EV"), 0)
    named = [(e["kind"], e["data"].get("by"), e["data"].get("by_id")) for e in events if e["data"].get("by")]
    assert named == [("time_added", "Li Lei", "acct:li-lei"), ("action", "Li Lei", "acct:li-lei")]


async def test_issue_29_a_partner_app_not_chosen_cannot_act_in_the_events_games(gp):
    """Issue 29, "a partner not chosen gets 403 on a move": the organiser chose pa, not pb; the
    check reads the in-process directory (no query per move); a later change admits pb."""
    await gp.publish(access("EV", "orgA", ["pa"]))
    await gp.publish(paired("EV", mode="online"))
    games = gp.service.extras["games"]
    reads = 0
    read = games.access._read

    async def counted(code):
        nonlocal reads
        reads += 1
        return await read(code)

    games.access._read = counted
    api, g1 = gp.api, game("EV")
    assert (await api.act(g1, "join", "alice", headers=PA)).status_code == 200
    refused(await api.act(g1, "join", "bob", headers=PB), 403, "partner_not_chosen")
    assert (await api.act(g1, "join", "bob", headers=OP)).status_code == 200
    for point in ("h8", "a1", "i8"):
        player = "alice" if point != "a1" else "bob"
        headers = PA if player == "alice" else OP
        assert (await api.act(g1, "move", player, headers=headers, point=point)).status_code == 200
    refused(await api.act(g1, "move", "bob", headers=PB, point="a2"), 403, "partner_not_chosen")
    refused(await api.act(g1, "draw", "bob", headers=PB, action="offer"), 403, "partner_not_chosen")
    keyed = {**PB, "Idempotency-Key": "bob-a2"}  # judged again on the database's state: the same answer
    refused(await api.act(g1, "move", "bob", headers=keyed, point="a2"), 403, "partner_not_chosen")
    assert reads == 1  # one read of the event's access, then the process's cache
    assert (await api.game(g1))["moves"] == ["h8", "a1", "i8"]

    # the organiser adds pb (a change that arrives late and older is ignored)
    await gp.publish(access("EV", "orgA", ["pa", "pb"], at=START + timedelta(minutes=5)))
    await gp.publish(access("EV", "orgA", ["pa"], at=START + timedelta(minutes=1)))
    assert (await api.act(g1, "move", "bob", headers=PB, point="a2")).status_code == 200
    assert (await api.game(g1))["moves"] == ["h8", "a1", "i8", "a2"]


async def test_issue_29_many_partner_actions_at_once_hold_one_connection_each(gp):
    """Issue 29: the partner check reads the game's event and the event's partner apps before a
    game is loaded (never a second connection while a transaction holds one): more first actions
    at once than the pool has connections (10 + 10) all answer."""
    await gp.publish(access("EV", "orgA", ["pa"]))
    many = [pairing(f"m{i:02d}", f"alice{i}", f"bob{i}") for i in range(32)]
    await gp.publish(round_paired(*many, rnd=3, starts_at=START))
    games = [game_id_for("EV", "main", "S1", 3, f"m{i:02d}", 1) for i in range(32)]
    joins = [gp.api.act(gid, "join", f"alice{i}", headers=PA) for i, gid in enumerate(games)]
    async with asyncio.timeout(25):  # under the pool's 30 s wait
        answers = await asyncio.gather(*joins)
    assert [a.status_code for a in answers] == [200] * 32, [a.text for a in answers if a.status_code != 200][:2]
    refusals = await asyncio.gather(*(gp.api.act(gid, "join", f"bob{i}", headers=PB) for i, gid in enumerate(games)))
    assert {a.json()["error"]["code"] for a in refusals} == {"partner_not_chosen"}
