"""Issue 33: a followed game's view is brought up to date by its stream's move events instead of
being read from gameplay after every change, and is then the view gameplay answers — checked
move by move against gameplay's own answer, the portal served on a real socket and its viewer an
SSE client (the fan-out tests' kit); an event it cannot apply (a draw offer, the game's end, a
gap in sequence numbers) has the view read again."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import httpx
from test_spectator_fanout import _events, _until, served  # noqa: F401  # served: the fixture

from portal import live, wall_boards
from portal.fanout import FeedHub
from portal.followed_view import applied

GAME = "EV.main.S1.r1.p1.g1"
VIEW_KEY = {"x-api-key": "view-key"}
KEYS = {"b1": "pa-key", "w1": "pb-key", "b3": "pa-key", "w3": "pb-key"}

#: black makes five on row 8; white offers a draw on the way, which black's next move declines
PLAY = [
    ("b1", "move", "h8"),
    ("w1", "move", "h9"),
    ("b1", "move", "i8"),
    ("w1", "draw", "offer"),
    ("w1", "move", "i9"),
    ("b1", "move", "J8"),  # as a client may write it: gameplay and the portal both read it as j8
    ("w1", "move", "j9"),
    ("b1", "move", "k8"),
    ("w1", "move", "a1"),
    ("b1", "move", "l8"),  # five: the game ends
]


async def _act(gameplay: httpx.AsyncClient, player: str, kind: str, what: str) -> None:
    body = {"player_id": player, "point": what} if kind == "move" else {"player_id": player, "action": what}
    r = await gameplay.post(f"/v1/games/{GAME}/{kind}", json=body, headers={"x-api-key": KEYS[player]})
    assert r.status_code == 200, r.text


@contextlib.asynccontextmanager
async def _one_viewer(base: str, game: str = GAME) -> AsyncIterator[tuple[httpx.AsyncClient, list[dict]]]:
    """A spectator on ``game``'s stream through the served portal, attached and its board loaded;
    the client and the messages it has read."""
    seen: list[dict] = []
    ready = asyncio.Event()
    async with httpx.AsyncClient(timeout=httpx.Timeout(30.0)) as client:
        reader = asyncio.create_task(_events(client, f"{base}/games/{game}/events", seen, ready))
        try:
            await asyncio.wait_for(ready.wait(), 20)

            async def watching() -> bool:
                return (await client.get(f"{base}/live/stats")).json()["viewers"] == 1

            await _until("the viewer to be attached", watching)
            assert (await client.get(f"{base}/games/{game}/board")).status_code == 200
            yield client, seen
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, httpx.HTTPError):
                await reader


async def test_a_followed_games_view_follows_its_moves_events_and_equals_gameplays_answer(served):  # noqa: F811
    base, gameplay, _counting, _by_round, server = served
    hub = server.config.app.state.hub
    async with _one_viewer(base) as (client, seen):
        feed = hub.feeds[GAME]
        reads = []
        for player, kind, what in PLAY:
            await _act(gameplay, player, kind, what)
            answer = await gameplay.get(f"/v1/games/{GAME}", headers=VIEW_KEY)
            assert answer.status_code == 200
            expected: dict[str, Any] = answer.json()

            async def stored(seq: int = expected["seq"]) -> bool:
                return feed.last_seq >= seq

            await _until(f"event {expected['seq']} to reach the portal", stored)
            before = hub.views_read
            board = await client.get(f"{base}/games/{GAME}/board")
            assert board.status_code == 200
            reads.append(hub.views_read - before)
            assert await feed.view() == expected, (player, kind, what)
    # read again only after the draw offer; every move was applied to the view held, but the last
    # (the game's end: its viewer's stream ended with it, and the view above was read)
    assert reads[:-1] == [0, 0, 0, 1, 0, 0, 0, 0, 0]
    assert expected["status"] == "finished" and expected["draw_offer_by"] is None
    assert hub.stats()["views_applied"] == 8
    # a guessed game id: the page says not found, and nothing is followed for it
    async with httpx.AsyncClient(timeout=httpx.Timeout(10.0)) as client:
        guessed = await client.get(f"{base}/games/EV.main.S1.r1.p9.g1")
    assert guessed.status_code == 404 and "EV.main.S1.r1.p9.g1" not in hub.feeds


PROFESSIONAL = "EV.main.S1.r1.p3.g1"
#: PLAY-2's opening (Sosei, two offers, the first chosen), then moves until black's j8 is a
#: double three (PLAY-3): each white move's event says black's forbidden points
PROFESSIONAL_PLAY: list[tuple[str, str, dict[str, Any]]] = [
    ("b3", "opening", {"stones": ["h8", "h9", "j10"], "n": 2}),
    ("w3", "swap", {"swap": False}),
    ("w3", "move", {"point": "a1"}),
    ("b3", "offers", {"points": ["j9", "l12"]}),
    ("w3", "choose", {"point": "j9"}),
    ("w3", "move", {"point": "a2"}),
    ("b3", "move", {"point": "i8"}),
    ("w3", "move", {"point": "a3"}),  # j8 is now a double three for black
    ("b3", "move", {"point": "c3"}),
    ("w3", "move", {"point": "a4"}),
]


async def test_a_professional_games_view_follows_white_moves_with_black_forbidden_points(served):  # noqa: F811
    """PLAY-3 through the served portal: every move of the play phase is applied to the view held,
    white's included (black's forbidden points come in its event), and equals gameplay's answer."""
    base, gameplay, _counting, _by_round, server = served
    hub = server.config.app.state.hub
    async with _one_viewer(base, PROFESSIONAL) as (client, _seen):
        feed = hub.feeds[PROFESSIONAL]
        reads, forbidden = [], []
        for player, kind, body in PROFESSIONAL_PLAY:
            r = await gameplay.post(
                f"/v1/games/{PROFESSIONAL}/{kind}",
                json={"player_id": player, **body},
                headers={"x-api-key": KEYS[player]},
            )
            assert r.status_code == 200, r.text
            expected: dict[str, Any] = (await gameplay.get(f"/v1/games/{PROFESSIONAL}", headers=VIEW_KEY)).json()

            async def stored(seq: int = expected["seq"]) -> bool:
                return feed.last_seq >= seq

            await _until(f"event {expected['seq']} to reach the portal", stored)
            before = hub.views_read
            assert (await client.get(f"{base}/games/{PROFESSIONAL}/board")).status_code == 200
            reads.append(hub.views_read - before)
            forbidden.append(expected["forbidden"])
            assert await feed.view() == expected, (player, kind, body)
    # the opening's steps are read again (moves 4 and 6 too: their phases are the opening's); each
    # move of the play phase is applied, white's with the forbidden points its event names
    assert reads == [1, 1, 1, 1, 1, 1, 0, 0, 0, 0], str(reads)
    assert forbidden[7].get("j8") == "double_three" and forbidden[8] == {}


FREE_VIEW: dict[str, Any] = {
    "seq": 5,
    "status": "active",
    "phase": "play",
    "mode": "online",
    "rules": {"track": "free"},
    "black": "b",
    "white": "w",
    "to_act": "b",
    "moves": ["h8", "h9"],
    "board": [{"point": "h8", "colour": "black"}, {"point": "h9", "colour": "white"}],
    "forbidden": {},
    "draw_offer_by": None,
    "clocks": {"black_ms": 600000, "white_ms": 600000, "running": "black"},
}
CLOCKS = {"black_ms": 598000, "white_ms": 600000, "running": "white"}


def _move(player: str, point: str, seq: int = 6, plies: int = 3) -> dict[str, Any]:
    data = {"action": "move", "player_id": player, "point": point, "moves": plies, "clocks": CLOCKS}
    return {"seq": seq, "kind": "action", "data": data}


def test_a_plain_move_is_applied_to_the_view():
    view = applied(FREE_VIEW, _move("b", "j8"))
    assert view is not None and view is not FREE_VIEW
    assert view["seq"] == 6 and view["moves"] == ["h8", "h9", "j8"] and view["to_act"] == "w"
    assert view["board"][-1] == {"point": "j8", "colour": "black"} and view["clocks"] == CLOCKS
    assert FREE_VIEW["moves"] == ["h8", "h9"]  # the view given is left as it was (pages share it)


def test_what_cannot_be_applied_exactly_is_said():
    five = {
        **FREE_VIEW,
        "moves": ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4"],
        "board": [
            {"point": p, "colour": "black" if i % 2 == 0 else "white"}
            for i, p in enumerate(["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4"])
        ],
    }
    professional = {**FREE_VIEW, "rules": {"track": "professional"}, "to_act": "w"}
    forbidden = {**FREE_VIEW, "rules": {"track": "professional"}, "forbidden": {"j8": "double_three"}}
    assert applied(FREE_VIEW, _move("b", "j8", seq=7)) is None  # a gap: event 6 was missed
    assert applied(FREE_VIEW, _move("b", "j8", seq=5)) is None  # the view already shows event 5
    assert applied(FREE_VIEW, _move("w", "j8")) is None  # not white's turn
    assert applied(FREE_VIEW, _move("b", "h9")) is None  # an occupied point
    assert applied(FREE_VIEW, _move("b", "j8", plies=4)) is None  # the plies do not add up
    assert applied(five, _move("b", "l8", plies=9)) is None  # five in a row: the game ends
    assert applied(professional, _move("w", "j8")) is None  # black's forbidden points change, unsaid
    assert applied(forbidden, _move("b", "j8")) is None  # a point forbidden to black: it loses
    assert applied(forbidden, _move("b", "k8")) is not None  # white to move: no forbidden point
    assert applied(FREE_VIEW, {"seq": 6, "kind": "finished", "data": {}}) is None
    assert applied(FREE_VIEW, {**_move("b", "j8"), "data": {**_move("b", "j8")["data"], "action": "pass"}}) is None


def test_a_white_move_under_rules_forbidding_points_takes_black_forbidden_points_from_its_event():
    """PLAY-3: after white's move black is to move, and its forbidden points are the ones
    gameplay found and put in the move's event; without them (an older gameplay) it is read."""
    professional = {**FREE_VIEW, "rules": {"track": "professional"}, "to_act": "w"}
    message = _move("w", "j8")
    message["data"]["forbidden"] = {"k9": "double_three"}
    view = applied(professional, message)
    assert view is not None and view["forbidden"] == {"k9": "double_three"} and view["to_act"] == "b"
    assert view["forbidden"] is not message["data"]["forbidden"]  # its own copy
    message["data"]["forbidden"] = ["k9"]
    assert applied(professional, message) is None  # not the shape gameplay sends: read
    black = _move("b", "k8")
    black["data"]["forbidden"] = {"a1": "double_four"}  # said while white is to move: never so
    assert applied({**FREE_VIEW, "rules": {"track": "professional"}}, black)["forbidden"] == {}


class RoundStream:
    """A round's stream for a hub without a service: the texts put in ``sent``."""

    def __init__(self) -> None:
        self.sent: asyncio.Queue[str] = asyncio.Queue()
        self.opened = 0

    @contextlib.asynccontextmanager
    async def open(self, key: Any, since: int):
        self.opened += 1

        async def texts():
            while True:
                yield await self.sent.get()

        yield texts()


async def test_a_page_loaded_before_any_stream_starts_following_its_round_with_the_view_it_read():
    stream, fetched = RoundStream(), []

    async def fetch(game_id: str) -> dict[str, Any]:
        fetched.append(game_id)
        return dict(FREE_VIEW)

    hub = FeedHub(lambda game_id, since: contextlib.nullcontext(), fetch, linger_s=0.2, round_opener=stream.open)
    hub.expect("g1", ("EV", "S1", 1), dict(FREE_VIEW, game_id="g1"))
    feed = hub.feeds["g1"]
    assert feed.following and (await feed.view())["seq"] == 5
    move = _move("b", "j8")
    await stream.sent.put(json.dumps({"id": 9, "game_id": "g1", **move}))
    await _until("the move to reach the feed", _stored(feed, 6))
    view = await feed.view()
    assert view["moves"] == ["h8", "h9", "j8"] and fetched == []  # applied: gameplay not read
    assert stream.opened == 1
    await asyncio.sleep(0.4)  # no viewer came: the round is no longer followed
    assert hub.feeds == {} and hub.rounds == {}
    await hub.aclose()


def _stored(feed: Any, seq: int):
    async def probe() -> bool:
        return feed.last_seq >= seq

    return probe


async def test_a_followed_rounds_wall_takes_the_games_that_moved_from_their_feeds_and_equals_gameplays_boards(
    served,  # noqa: F811
):
    base, gameplay, _counting, by_round, server = served
    hub, site, key = server.config.app.state.hub, server.config.app.state.site, ("EV", "S1", 1)

    async def boards() -> list[dict[str, Any]]:
        r = await gameplay.get("/v1/rounds/EV/S1/1/boards", headers=VIEW_KEY)
        assert r.status_code == 200
        return r.json()["games"]

    async with _one_viewer(base) as (client, seen):
        assert (await live._round_boards(site, key))["games"] == await boards()  # read, kept
        for player, kind, what in PLAY[:3]:
            await _act(gameplay, player, kind, what)
        expected = await boards()
        last = {board["game_id"]: board["seq"] for board in expected}
        await _until("the moves to reach the portal", _stored(hub.feeds[GAME], last[GAME]))
        assert (await live._round_boards(site, key))["games"] == expected
        # followed by its round's stream: the game that moved was taken from its feed's view
        assert hub.walls_assembled == (1 if by_round else 0)
        if by_round:
            # kept boards older than MAX_AGE_S are read again (the clocks a wall is loaded with)
            hub.rounds[key].boards_read_at -= wall_boards.MAX_AGE_S
            assert (await live._round_boards(site, key))["games"] == await boards()
            assert hub.walls_assembled == 1
            assert (await live._round_boards(site, key))["games"] == await boards()
            assert hub.walls_assembled == 2  # just read: kept again
        # a move in a game whose view the portal does not hold: the boards are read again
        other = "EV.main.S1.r1.p2.g1"
        r = await gameplay.post(
            f"/v1/games/{other}/move", json={"player_id": "b2", "point": "a1"}, headers={"x-api-key": "pa-key"}
        )
        assert r.status_code == 200, r.text
        if by_round:
            await _until("the other game's move to reach the portal", _stored(hub.feeds[other], last[other] + 1))
        assert (await live._round_boards(site, key))["games"] == await boards()
        assert hub.walls_assembled == (2 if by_round else 0)


async def test_only_a_game_not_over_has_its_round_followed_from_its_page():
    class Gameplay:
        def __init__(self, status: str) -> None:
            self.status = status

        async def get(self, service: str, path: str) -> dict[str, Any]:
            return dict(FREE_VIEW, game_id="g1", event_code="EV", section_id="S1", round=1, status=self.status)

    for status, followed in (("active", [("g1", ("EV", "S1", 1))]), ("finished", [])):
        expected: list[tuple[str, Any]] = []
        hub = SimpleNamespace(feeds={}, expect=lambda game_id, key, view: expected.append((game_id, key)))
        site = SimpleNamespace(hub=hub, upstream=Gameplay(status))
        assert (await live._game_view(site, "g1"))["status"] == status  # type: ignore[arg-type]  # fakes
        assert expected == followed, status
