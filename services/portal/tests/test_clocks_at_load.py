"""A spectator's clocks right from the moment the page loads: the page (and its board) is drawn
from the view the portal holds, whose clocks are as of the game's last change, and the page counts
the running clock down from its own load; so a viewer's stream starts with the clocks as of now
(``clocks_now``) — the running one less the time since gameplay read them, the other as it was.
Served portal, real services on a fake clock moved between the move and the viewer's arrival.
(Followed one stream per game, gameplay's stream also sends its clocks each second, which would
come right after; its round streams, the default, send none: there the stream's first message is
all that corrects the page.)"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from datetime import UTC, datetime
from typing import Any

import httpx
from test_followed_view import FREE_VIEW, GAME, VIEW_KEY, RoundStream, _act, _one_viewer, _stored
from test_spectator_fanout import KEYS, _events, _until, served  # noqa: F401  # served: the fixture

from gomoku_shared.clock import FakeClock
from gomoku_shared.embedded import EmbeddedSuite
from gomoku_shared.settings import ServiceSettings
from portal import live
from portal.clocks_now import as_of, clock_event
from portal.fanout import FeedHub
from portal.followed_view import applied

OTHER = "EV.main.S1.r1.p2.g1"
#: how long after the last move the late viewer comes
LATE_S = 40


async def _gameplay_clocks(gameplay: httpx.AsyncClient, game_id: str) -> dict[str, Any]:
    answer = await gameplay.get(f"/v1/games/{game_id}", headers=VIEW_KEY)
    assert answer.status_code == 200
    return answer.json()["clocks"]


@contextlib.asynccontextmanager
async def _stream(url: str):
    """The messages of an SSE stream as they come (a list read in the background)."""
    seen: list[dict] = []
    ready = asyncio.Event()
    async with httpx.AsyncClient(timeout=httpx.Timeout(30.0)) as client:
        reader = asyncio.create_task(_events(client, url, seen, ready))
        try:
            await asyncio.wait_for(ready.wait(), 20)
            yield seen
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, httpx.HTTPError):
                await reader


def _shown_ms(board_html: str, colour: str) -> int:
    found = re.search(rf'data-colour="{colour}" data-ms="(\d+)"', board_html)
    assert found, board_html[:400]
    return int(found.group(1))


async def test_a_late_viewers_stream_starts_with_the_running_clock_less_the_time_since_the_last_move(
    served,  # noqa: F811
):
    base, gameplay, _counting, _by_round, server = served
    hub = server.config.app.state.hub
    async with _one_viewer(base) as (client, _seen):
        await _act(gameplay, "b1", "move", "h8")  # white's clock runs from here
        moved = await gameplay.get(f"/v1/games/{GAME}", headers=VIEW_KEY)
        await _until("the move to reach the portal", _stored(hub.feeds[GAME], moved.json()["seq"]))
        at_move = moved.json()["clocks"]
        assert at_move["running"] == "white"
        hub.clock.advance(LATE_S)  # the services' clock and the portal's: one FakeClock
        now = await _gameplay_clocks(gameplay, GAME)
        assert now["white_ms"] == at_move["white_ms"] - LATE_S * 1000 and now["black_ms"] == at_move["black_ms"]
        # the page is drawn from the view held since the move: its clocks are as of the move
        board = (await client.get(f"{base}/games/{GAME}/board")).text
        assert _shown_ms(board, "white") == at_move["white_ms"]
        since = moved.json()["seq"]
        async with _stream(f"{base}/games/{GAME}/events?since={since}") as late:
            await _until("the late viewer's first message", lambda: _some(late))
            first = late[0]
    # first of all, the clocks as of now: white's 40 s lower, black's unchanged — gameplay's own
    assert first["kind"] == "clock" and first["game_id"] == GAME and "seq" not in first
    assert first["data"] == {"clocks": now, "status": "active"}
    assert first["data"]["clocks"]["white_ms"] == at_move["white_ms"] - LATE_S * 1000


async def _some(messages: list[dict]) -> bool:
    return bool(messages)


async def test_the_walls_stream_starts_with_each_games_clocks_as_of_now(served):  # noqa: F811
    base, gameplay, _counting, by_round, server = served
    hub = server.config.app.state.hub
    async with _one_viewer(base):
        await _act(gameplay, "b1", "move", "h8")
        seq = (await gameplay.get(f"/v1/games/{GAME}", headers=VIEW_KEY)).json()["seq"]
        await _until("the move to reach the portal", _stored(hub.feeds[GAME], seq))
        # the wall loaded: its boards read (and kept while the round is followed, ``wall_boards``)
        site = server.config.app.state.site
        assert len((await live._round_boards(site, ("EV", "S1", 1)))["games"]) == 3
        hub.clock.advance(LATE_S)
        expected = {game_id: await _gameplay_clocks(gameplay, game_id) for game_id in (GAME, OTHER)}
        async with _stream(f"{base}/events/EV/sections/S1/rounds/1/events") as seen:

            async def clocks_sent() -> bool:
                # the game followed holds its view; the others' clocks come from the round's boards
                # kept for its wall (one stream per game: no boards kept, its view never read)
                return sum(1 for m in seen if m["kind"] == "clock") == (3 if by_round else 1)

            await _until("the clocks of the games", clocks_sent)
    assert seen[0]["kind"] == "state"
    clocks = {m["game_id"]: m["data"]["clocks"] for m in seen if m["kind"] == "clock"}
    assert clocks[GAME] == expected[GAME] and clocks[GAME]["running"] == "white"
    if by_round:  # black of the other game has been thinking since the round started
        assert clocks[OTHER] == expected[OTHER] and clocks[OTHER]["running"] == "black"


NOW = 1_800_000_000_000
READ = {**FREE_VIEW, "starts_at": None, "clocks": {**FREE_VIEW["clocks"], "at_ms": NOW - 12_345}}


def test_the_running_clock_is_lower_by_the_time_since_it_was_read_and_floored_at_zero():
    assert as_of(READ, NOW) == {"black_ms": 600_000 - 12_345, "white_ms": 600_000, "running": "black", "at_ms": NOW}
    assert as_of(READ, NOW + 600_000)["black_ms"] == 0  # type: ignore[index]
    # a clock set to run from the round's scheduled start, still ahead, waits for it
    ahead = datetime.fromtimestamp((NOW + 60_000) / 1000, tz=UTC).isoformat()
    assert as_of({**READ, "starts_at": ahead}, NOW)["black_ms"] == 600_000  # type: ignore[index]
    started = datetime.fromtimestamp((NOW - 2_000) / 1000, tz=UTC).isoformat()
    assert as_of({**READ, "starts_at": started}, NOW)["black_ms"] == 600_000 - 2_000  # type: ignore[index]
    # read on another clock (the services' simulation clock, not this process's): nothing said
    assert as_of(READ, NOW + 700_000) is None and as_of(READ, NOW - 12_345 - 70_000) is None
    # nothing to say: not said when read (an older gameplay), not playing, over the board
    assert as_of(FREE_VIEW, NOW) is None
    assert as_of({**READ, "status": "finished"}, NOW) is None
    assert as_of({**READ, "mode": "offline"}, NOW) is None
    assert clock_event("g1", (FREE_VIEW, None), 5, NOW) is None


def test_the_newest_view_that_shows_the_last_event_gives_the_clocks():
    older = {**READ, "seq": 4, "clocks": {**READ["clocks"], "at_ms": NOW}}
    wire = clock_event("g1", (older, READ), 5, NOW)
    assert wire is not None and wire.startswith(b"event: clock\ndata: ") and b"\nid:" not in wire
    message = json.loads(wire.decode().split("data: ", 1)[1])
    assert message["data"]["clocks"]["black_ms"] == 600_000 - 12_345  # READ's: ``older`` misses event 5
    assert clock_event("g1", (older, None), 5, NOW) is None


def test_a_move_applied_to_the_view_held_keeps_its_clocks_read_at_the_events_time():
    clocks = {"black_ms": 598_000, "white_ms": 600_000, "running": "white"}
    data = {"action": "move", "player_id": "b", "point": "j8", "moves": 3, "clocks": clocks}
    view = applied(READ, {"seq": 6, "kind": "action", "data": data, "at_ms": NOW - 5})
    assert view is not None and view["clocks"] == {**clocks, "at_ms": NOW - 5}
    # an event that does not say its time: the view does not either (no clock sent from it)
    view = applied(READ, {"seq": 6, "kind": "action", "data": data})
    assert view is not None and "at_ms" not in view["clocks"]


async def test_a_viewer_joining_a_followed_game_gets_its_clocks_as_of_the_hubs_now_first():
    stream, clock = RoundStream(), FakeClock(datetime.fromtimestamp(NOW / 1000, tz=UTC))
    hub = FeedHub(lambda game_id, since: contextlib.nullcontext(), _no_read, round_opener=stream.open, clock=clock)
    hub.expect("g1", ("EV", "S1", 1), dict(READ, game_id="g1"))
    clock.advance(30)
    watching = hub.watch("g1", 5, ("EV", "S1", 1))
    first = await asyncio.wait_for(anext(watching), 5)
    message = json.loads(first.decode().split("data: ", 1)[1])
    assert message["kind"] == "clock" and message["data"]["status"] == "active"
    assert message["data"]["clocks"]["black_ms"] == 600_000 - 12_345 - 30_000
    assert message["data"]["clocks"]["white_ms"] == 600_000
    await watching.aclose()
    await hub.aclose()


async def _no_read(game_id: str) -> dict[str, Any]:
    raise AssertionError(f"{game_id}: the view held is enough")


def test_the_embedded_process_reads_live_clocks_on_the_services_clock(tmp_path):
    clock = FakeClock()
    suite = EmbeddedSuite(ServiceSettings(DATA_DIR=str(tmp_path), API_KEYS=KEYS, LOG_JSON=False), clock=clock)
    assert suite.app.router.default.state.hub.clock is clock  # type: ignore[attr-defined]  # the pages' app
