"""A spectator's clocks right from the moment the live page loads, in Chromium: a page opened
40 s (of the simulation clock) into a player's think shows that player's clock 40 s lower than
at the last move, not as it was then (ADR 0010, "The clocks as of a page's load").

SZ 2022's online qualifier, one section of eight on free rules, round 1 live; a first spectator
keeps the game followed (its view held by the portal, as of the last move), the simulation clock
moves on, a second spectator opens the page. The embedded runner's pages read the services'
clock, so no real time has to pass."""

from __future__ import annotations

import re
from datetime import datetime

import httpx
from browser_kit import attribute_at_least, chromium_page, registered_event, until

from gomoku_sim.client import Platform
from gomoku_sim.driver import EventDriver
from gomoku_sim.form_entries import acting_role

#: seconds of the simulation clock between the last move and the second spectator's arrival
LATE_S = 40
SIZES = {"men-free": 8, "women-free": 0, "junior-boys-free": 0, "junior-girls-free": 0}
SIZES |= {"men-pro": 0, "women-pro": 0, "junior-boys-pro": 0, "junior-girls-pro": 0}


async def _round_one_live(base: str) -> tuple[Platform, EventDriver, str]:
    """The online qualifier registered and closed, round 1 at its start: (platform, driver, a game)."""
    platform, driver = await registered_event(base, "sz-2022", seed=3, sizes=SIZES)
    await driver.check_in_and_close(driver.config.stages[0].id)

    async def games() -> list[dict]:
        return await driver.active_games()

    live = await until("round 1 to be paired", games)
    await driver.clock.set(max(datetime.fromisoformat(str(g["starts_at"])) for g in live))
    return platform, driver, live[0]["game_id"]


async def _first_move(driver: EventDriver, platform: Platform, game_id: str) -> int:
    """Both players join and black places the first stone (the bots would play the game out);
    returns the number of moves."""
    game = await platform.get("gameplay", f"/v1/games/{game_id}")
    for player in (game["black"], game["white"]):
        role = acting_role(driver.form_entrants, player)
        await platform.post("gameplay", f"/v1/games/{game_id}/join", {"player_id": player}, role=role)
    role = acting_role(driver.form_entrants, game["black"])
    await platform.post("gameplay", f"/v1/games/{game_id}/move", {"player_id": game["black"], "point": "h8"}, role=role)
    return 1


def _seconds(text: str) -> int:
    """A clock's text (``m:ss`` or ``h:mm:ss``) in seconds."""
    parts = [int(part) for part in text.strip().split(":")]
    return sum(part * 60**power for power, part in enumerate(reversed(parts)))


async def test_a_page_opened_during_a_think_shows_the_running_clock_as_of_now(served):
    platform, driver, game_id = await _round_one_live(served)
    try:
        async with chromium_page() as (first, problems):
            await first.goto(f"{served}/games/{game_id}")  # the game followed from here on
            await first.wait_for_timeout(300)  # its stream is open
            moves = await _first_move(driver, platform, game_id)
            await attribute_at_least(first, "#board-wrap .game-status", "data-moves", moves, timeout_s=30)
            game = await platform.get("gameplay", f"/v1/games/{game_id}")
            at_move, running, other = game["clocks"], "white", "black"
            assert game["mode"] == "online" and game["status"] == "active" and at_move["running"] == running, game
            await driver.clock.advance(LATE_S)
            now = (await platform.get("gameplay", f"/v1/games/{game_id}"))["clocks"]
            assert now[f"{running}_ms"] == at_move[f"{running}_ms"] - LATE_S * 1000
            # the board is drawn from the view held since the move: its clocks as of then
            board = httpx.get(f"{served}/games/{game_id}/board", timeout=30).text
            held = re.search(rf'data-colour="{running}" data-ms="(\d+)"', board)
            assert held and int(held.group(1)) == at_move[f"{running}_ms"], board[:400]

            async with chromium_page() as (late, late_problems):
                await late.goto(f"{served}/games/{game_id}")
                clock = late.locator(f'#board-wrap .clock[data-colour="{running}"] .time')
                due = now[f"{running}_ms"] // 1000

                async def corrected() -> bool:
                    return _seconds(await clock.inner_text()) <= due

                # the stream's first message sets it (the page counts down from there, never up)
                await until("the running clock as of now", corrected, timeout_s=10)
                waiting = late.locator(f'#board-wrap .clock[data-colour="{other}"] .time')
                assert _seconds(await waiting.inner_text()) == now[f"{other}_ms"] // 1000
                assert late_problems == []
            assert problems == []
    finally:
        await platform.aclose()
