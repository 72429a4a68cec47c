"""Issue 32 in Chromium: the live game page names each player beside their current title
("张三 · 初段" / "1-dan") as the section's pages do, at 390 px in Chinese and 1366 px in English,
and the board drawn again after a move still does (the titles are kept per round, ADR 0010).

DA 2023's open section of six, round 2 live; its players hold titles from an earlier season —
the grants a past event left, written into awards' table as such."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from browser_kit import (
    OUT,
    attribute_at_least,
    chromium_page,
    console_signed_in,
    first_round_played,
    move_in,
    registered_da_event,
    settle,
)

SHOTS = Path(os.environ.get("SHOTS_DIR") or OUT)
VIEWS = ((390, "zh"), (1366, "en"))
SAID = {"zh": "初段", "en": "1-dan"}


def _earlier_grants(data_dir: Path, org: str, people: list[dict]) -> None:
    """What a past event (``earlier``) left in awards' title grants: 1d for each of ``people``."""
    with sqlite3.connect(data_dir / "awards.sqlite", timeout=30) as db:
        db.executemany(
            "INSERT INTO title_grants (event_code, section_id, person_id, organisation, title, place, granted_on, name)"
            " VALUES ('earlier', 'open', ?, ?, '1d', ?, '2022-08-22', ?)",
            [(p["registry_id"], org, n, p["name"]) for n, p in enumerate(people, 1)],
        )


async def test_issue32_a_live_game_names_its_players_beside_their_titles(served, tmp_path):
    platform, driver, game_id = await first_round_played(served)
    try:
        game = await platform.get("gameplay", f"/v1/games/{game_id}")
        org = (await platform.get("registration", f"/v1/events/{driver.code}"))["organisation"]
        section = await platform.get("pairing", f"/v1/events/{driver.code}/sections/open")
        players = [e for e in section["entrants"] if e["entrant_id"] in (game["black"], game["white"])]
        assert len(players) == 2 and all(p.get("registry_id") for p in players)
        _earlier_grants(tmp_path, org, players)
        await settle()
        SHOTS.mkdir(parents=True, exist_ok=True)
        for width, lang in VIEWS:
            async with chromium_page() as (page, problems):
                await page.set_viewport_size({"width": width, "height": 900})
                await page.goto(f"{served}/games/{game_id}?lang={lang}")
                shown = await page.locator("#board-wrap .game-status").inner_text()
                for p in players:
                    assert f"{p['name']} · {SAID[lang]}" in shown, (shown, p["name"])
                assert await page.evaluate("document.documentElement.scrollWidth") <= width + 1
                await page.screenshot(path=str(SHOTS / f"live-game-{lang}-{width}.png"), full_page=True)
                # a move: the live page draws the board again, the titles still beside the names
                moves = await move_in(driver, platform, game_id)
                await attribute_at_least(page, "#board-wrap .game-status", "data-moves", moves, timeout_s=30)
                shown = await page.locator("#board-wrap .game-status").inner_text()
                assert all(f"{p['name']} · {SAID[lang]}" in shown for p in players), shown
                await page.screenshot(path=str(SHOTS / f"live-game-moved-{lang}-{width}.png"), full_page=True)
                assert problems == []
    finally:
        await platform.aclose()


async def test_issue32_the_consoles_entries_name_each_player_beside_their_title(served, tmp_path):
    """The staff console's entries: each entrant's current title beside the name (one lookup for
    the page's people), at 390 px in Chinese and 1366 px in English."""
    platform, driver = await registered_da_event(served, seed=5, sizes={"open": 4, "junior": 0, "public": 0})
    try:
        code = driver.code
        org = (await platform.get("registration", f"/v1/events/{code}"))["organisation"]
        entries = (await platform.get("registration", f"/v1/events/{code}/entries", role="arbiter"))["entries"]
        people = [p for e in entries for p in e["players"] if p.get("registry_id")]
        assert people, "staff read each player's registry person"
        titled = people[:2]
        _earlier_grants(tmp_path, org, titled)
        await settle()
        for width, lang in VIEWS:
            async with chromium_page() as (page, problems):
                await page.set_viewport_size({"width": width, "height": 900})
                await console_signed_in(page, served, f"/staff/events/{code}/entries")
                await page.goto(f"{served}/staff/events/{code}/entries?lang={lang}")
                rows = await page.locator("table.entries tbody tr").all_inner_texts()
                for p in titled:
                    assert any(f"{p['name']} · {SAID[lang]}" in r for r in rows), (p["name"], rows)
                untitled = [p for p in people if p not in titled]
                assert all(f"{p['name']} ·" not in " ".join(rows) for p in untitled)
                assert await page.evaluate("document.documentElement.scrollWidth") <= width + 1
                await page.screenshot(path=str(SHOTS / f"console-entries-{lang}-{width}.png"), full_page=True)
                assert problems == []
    finally:
        await platform.aclose()
