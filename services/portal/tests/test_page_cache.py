"""The pages' read cache (docs/adr/0010-portal-page-cache.md): an unchanged section is answered
304 by pairing and its pages are drawn once, and a corrected result (PAIR-11) shows on the very
next page load — standings, the round's results, the cross table and the printout."""

from __future__ import annotations

import functools

import httpx
import pytest

from gomoku_sim.bots import BotPolicy
from gomoku_sim.client import Keys
from gomoku_sim.driver import EventDriver, RunSpec
from gomoku_sim.stack import embedded_stack

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow

SECTION = "open"


async def _paired(platform, base: str) -> bool:
    from gomoku_sim.client import ApiError

    try:
        return int((await platform.get("pairing", base)).get("current_round") or 0) >= 1
    except ApiError as exc:
        if exc.status != 404:
            raise
        return False


@pytest.fixture
async def event(tmp_path):
    """A DA 2023 open section of 6; the arbiter enters round 1's results (the first player wins)."""
    async with embedded_stack(tmp_path / "data") as stack:
        spec = RunSpec(
            preset_id="da-2023",
            seed=3,
            sizes={"open": 6, "junior": 0, "public": 0},
            rounds=3,
            policy=BotPolicy(),
            progress=False,
            wait_timeout_s=240,
        )
        driver = EventDriver(stack.platform, stack.clock, stack.quiet, spec)
        await driver.create_event()
        await driver.create_units()
        await driver.register()
        await driver.verify_evidence()
        await driver.check_in_and_close(driver.config.stages[0].id)
        base = f"/v1/events/{driver.code}/sections/{SECTION}"
        await driver.wait_for("round 1 paired", functools.partial(_paired, stack.platform, base))
        rnd = await stack.platform.get("pairing", f"{base}/rounds/1")
        for board in rnd["pairings"]:
            if board.get("second") and not board.get("result"):
                await _enter(stack.platform, driver.code, board["pairing_id"], "first_wins")
        await stack.quiet()
        yield stack, driver.code


async def _enter(platform, code: str, pairing_id: str, result: str) -> None:
    """The arbiter's result, naming the result's revision as the round's read shows it."""
    base = f"/v1/events/{code}/sections/{SECTION}/rounds/1"
    shown = next(p for p in (await platform.get("pairing", base))["pairings"] if p["pairing_id"] == pairing_id)
    body = {"pairing_id": pairing_id, "result": result, "expected_revision": shown["revision"]}
    await platform.post("pairing", f"{base}/results", body, role="arbiter")


def _shown(points: float) -> str:
    """A score as the round's table writes it (section.html)."""
    return str(round(points, 1)).replace(".0", "")


def _points_of(standings: dict, entrant: str) -> float:
    return next(row["points"] for row in standings["standings"] if row["entrant_id"] == entrant)


async def test_pairing_answers_304_until_the_section_changes(event):
    """PAIR-11: the section's ETag changes with a result, so a kept answer is never served stale."""
    stack, code = event
    pairing_app = stack.extras["suite"].services["pairing"].app
    path = f"/v1/events/{code}/sections/{SECTION}/standings"
    headers = {"x-api-key": Keys().operator}
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=pairing_app), base_url="http://p") as client:
        first = await client.get(path, headers=headers)
        tag = first.headers["etag"]
        again = await client.get(path, headers={**headers, "if-none-match": tag})
        assert again.status_code == 304 and again.headers["etag"] == tag
        rnd = (await stack.platform.get("pairing", f"/v1/events/{code}/sections/{SECTION}/rounds/1"))["pairings"]
        board = next(p for p in rnd if p.get("second"))
        await _enter(stack.platform, code, board["pairing_id"], "second_wins")
        changed = await client.get(path, headers={**headers, "if-none-match": tag})
        assert changed.status_code == 200 and changed.headers["etag"] != tag
        assert _points_of(changed.json(), board["second"]) > _points_of(first.json(), board["second"])
        # another route's ETag is its own: the standings' tag does not validate the cross table
        cross = f"/v1/events/{code}/sections/{SECTION}/crosstable"
        other = await client.get(cross, headers={**headers, "if-none-match": changed.headers["etag"]})
        assert other.status_code == 200


async def test_a_corrected_result_shows_on_the_next_page_load(event):
    """PAIR-11: the arbiter corrects a result; the next load of every public page shows it, though
    the page before it was served from the cache."""
    stack, code = event
    portal = stack.extras["suite"].app.router.default
    pages = portal.state.site.pages
    rnd = (await stack.platform.get("pairing", f"/v1/events/{code}/sections/{SECTION}/rounds/1"))["pairings"]
    board = next(p for p in rnd if p.get("second"))
    site = f"/events/{code}/sections/{SECTION}"
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=stack.extras["suite"].app), base_url="http://t"
    ) as c:
        before = (await c.get(f"{site}/standings?lang=en")).text
        hits = pages.kept.hits
        assert (await c.get(f"{site}/standings?lang=en")).text == before
        assert pages.kept.hits == hits + 1, "an unchanged section's page is served from the cache"
        # round 1: every first player won; the correction gives board 1 to its second player
        rounds_before = (await c.get(site)).text
        pdf_before = (await c.get(f"{site}/standings.pdf")).content
        await _enter(stack.platform, code, board["pairing_id"], "second_wins")
        after = (await c.get(f"{site}/standings?lang=en")).text
        assert after != before
        table = await stack.platform.get("pairing", f"/v1/events/{code}/sections/{SECTION}/standings")
        assert _points_of(table, board["second"]) > _points_of(table, board["first"])
        row_of_second = next(r for r in after.split("<tr>") if board["second"] in r)
        first_row = after.split("<tbody>")[1].split("</tr>")[0]
        assert row_of_second.split("</tr>")[0] in after and table["standings"][0]["name"] in first_row
        corrected = next(
            p
            for p in (await stack.platform.get("pairing", f"/v1/events/{code}/sections/{SECTION}/rounds/1"))["pairings"]
            if p["pairing_id"] == board["pairing_id"]
        )
        score = f"{_shown(corrected['first_points'])} : {_shown(corrected['second_points'])}"
        rounds_after = (await c.get(site)).text
        assert rounds_after != rounds_before and score in rounds_after and score not in rounds_before
        cross = (await c.get(f"{site}/crosstable")).text
        assert cross != "" and (await c.get(f"{site}/standings.pdf")).content != pdf_before


def _tiles(page: str) -> dict[str, str]:
    """The wall's tiles by game id (wall.html)."""
    tiles = {}
    for part in page.split('<div class="tile" id="tile-')[1:]:
        game_id = part.split('data-game="', 1)[1].split('"', 1)[0]
        tiles[game_id] = part.split('<div class="tile" id=', 1)[0]
    return tiles


async def test_the_wall_shows_every_board_of_the_round_from_one_conditional_read(event):
    """The board wall reads all of a round's boards from gameplay at once; an unchanged round is
    answered 304, and a corrected result (PAIR-11) shows on the next load of the wall."""
    stack, code = event
    portal = stack.extras["suite"].app.router.default
    upstream = portal.state.site.upstream
    games = (await stack.platform.get("gameplay", f"/v1/rounds/{code}/{SECTION}/1/games"))["games"]
    assert games and all(g["status"] == "finished" for g in games)
    wall = f"/events/{code}/sections/{SECTION}/rounds/1/wall?lang=en"
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=stack.extras["suite"].app), base_url="http://t"
    ) as c:
        first = await c.get(wall)
        assert first.status_code == 200
        tiles = _tiles(first.text)
        assert sorted(tiles) == sorted(g["game_id"] for g in games)
        for game in games:
            tile = tiles[game["game_id"]]
            assert f'data-seq="{game["seq"]}"' in tile and 'data-status="finished"' in tile
            assert 'class="tile-result"' in tile
        kept = [key for key in upstream.answers.items if key[1].endswith(f"/rounds/{code}/{SECTION}/1/boards")]
        assert len(kept) == 1, "the boards answer is kept with its ETag"
        tag = upstream.answers.items[kept[0]].etag
        assert _tiles((await c.get(wall)).text) == tiles
        assert upstream.answers.items[kept[0]].etag == tag, "an unchanged round: 304, the same answer"
        rnd = (await stack.platform.get("pairing", f"/v1/events/{code}/sections/{SECTION}/rounds/1"))["pairings"]
        board = next(p for p in rnd if p.get("second"))
        await _enter(stack.platform, code, board["pairing_id"], "second_wins")
        await stack.quiet()
        corrected = next(
            g
            for g in (await stack.platform.get("gameplay", f"/v1/rounds/{code}/{SECTION}/1/games"))["games"]
            if g["pairing_id"] == board["pairing_id"]
        )
        assert corrected["winner"] == board["second"]
        after = _tiles((await c.get(wall)).text)
        assert upstream.answers.items[kept[0]].etag != tag
        assert after[corrected["game_id"]] != tiles[corrected["game_id"]]
        assert {k: v for k, v in after.items() if k != corrected["game_id"]} == {
            k: v for k, v in tiles.items() if k != corrected["game_id"]
        }
