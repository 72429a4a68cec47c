"""Issue 32 in Chromium: the current title beside a person's name ("张三 · 二段" / "2-dan") on the
public pages, at 1366 and 390 px, in Chinese and English.

An individual section: DA 2023's junior section with six players, 3 rounds, whose places grant
titles (DA 九(三), AWD-5: 第1名 二段 … every junior a title); its standings name each beside
their title, the winner's 二段 / 2-dan. A team section: NT 2023's mixed team section (4 teams of
3 boards), whose players hold titles from an earlier season — the grants a past event left,
written into awards' table as such — on the team's page beside each player by board, on the
section's matches and on the event's awards page's link to the title certificates."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from browser_kit import OUT, chromium_page, event_played, settle, team_event_played, until

SHOTS = Path(os.environ.get("SHOTS_DIR") or OUT)
WIDTHS = (1366, 390)
#: an earlier season's titles of one team's three players, by board, and how each page says them
EARLIER = ("1d", "2k", "5k")
SAID = {"zh": ("初段", "二级", "五级"), "en": ("1-dan", "2-kyu", "5-kyu")}
WINNER = {"zh": "二段", "en": "2-dan"}


def _earlier_grants(data_dir: Path, org: str, members: list[dict]) -> None:
    """What a past event (``earlier``) left in awards' title grants for these players."""
    with sqlite3.connect(data_dir / "awards.sqlite", timeout=30) as db:
        db.executemany(
            "INSERT INTO title_grants (event_code, section_id, person_id, organisation, title, place, granted_on, name)"
            " VALUES ('earlier', 'junior', ?, ?, ?, ?, '2022-08-22', ?)",
            [(m["registry_id"], org, title, n, m["name"]) for n, (m, title) in enumerate(zip(members, EARLIER), 1)],
        )


async def _no_wider_than(page, width: int) -> None:
    assert await page.evaluate("document.documentElement.scrollWidth") <= width + 1, "wider than the screen"


async def test_issue32_titles_beside_names_on_standings_and_team_pages(served, tmp_path):
    # NT (June) before DA (August): the simulation clock only moves forward
    team_platform, team_driver = await team_event_played(served)
    team_code = team_driver.code
    team_org = (await team_platform.get("registration", f"/v1/events/{team_code}"))["organisation"]
    teams = (await team_platform.get("pairing", f"/v1/events/{team_code}/sections/mixed-team"))["entrants"]
    team = teams[0]
    members = sorted(team["members"], key=lambda m: m["board"])
    assert all(m["registry_id"] for m in members), "pairing names each team member's registry person"
    platform, driver = await event_played(served, sizes={"open": 0, "junior": 6, "public": 0})
    code = driver.code
    org = (await platform.get("registration", f"/v1/events/{code}"))["organisation"]
    section = await platform.get("pairing", f"/v1/events/{code}/sections/junior")
    people = ",".join(e["registry_id"] for e in section["entrants"])

    async def all_titled():
        held = await platform.get("awards", f"/v1/organisations/{org}/titles", params={"people": people})
        return held if len(held["people"]) == 6 else None

    await until("the juniors' titles", all_titled)
    _earlier_grants(tmp_path, team_org, members)
    await settle()
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        for width in WIDTHS:
            async with chromium_page() as (page, problems):
                await page.set_viewport_size({"width": width, "height": 900})
                for lang in ("zh", "en"):
                    # the standings: every junior beside their title, the winner's 二段 on the first row
                    await page.goto(f"{served}/events/{code}/sections/junior/standings?lang={lang}")
                    marks = await page.locator("table.standings tbody .held-title").all_inner_texts()
                    assert len(marks) == 6 and all(m.strip().startswith("·") for m in marks), marks
                    first_row = await page.locator("table.standings tbody tr").first.inner_text()
                    assert f"· {WINNER[lang]}" in first_row, first_row
                    await _no_wider_than(page, width)
                    await page.screenshot(path=str(SHOTS / f"standings-{lang}-{width}.png"), full_page=True)

                    # the team's page: each titled player by board with their title
                    team_page = f"{served}/events/{team_code}/sections/mixed-team/teams/{team['entrant_id']}"
                    await page.goto(f"{team_page}?lang={lang}")
                    rows = await page.locator("table.team-players tbody tr").all_inner_texts()
                    for member, said in zip(members, SAID[lang], strict=True):
                        row = next(r for r in rows if member["name"] in r)
                        assert f"{member['name']} · {said}" in row, (row, said)
                    await _no_wider_than(page, width)
                    await page.screenshot(path=str(SHOTS / f"team-{lang}-{width}.png"), full_page=True)

                    # the section's matches name the same players with their titles
                    await page.goto(f"{served}/events/{team_code}/sections/mixed-team?lang={lang}")
                    boards = " ".join(await page.locator("td.board-player").all_inner_texts())
                    assert f"{members[0]['name']} · {SAID[lang][0]}" in boards
                    await _no_wider_than(page, width)
                    await page.screenshot(path=str(SHOTS / f"team-matches-{lang}-{width}.png"), full_page=True)

                    # the awards page links the event's title certificates, a PDF
                    await page.goto(f"{served}/events/{code}/awards?lang={lang}")
                    link = await page.get_attribute("a.title-certificates-link", "href")
                    assert link == f"/events/{code}/title-certificates.pdf"
                    answer = await page.request.get(f"{served}{link}?lang={lang}")
                    assert answer.ok and answer.headers["content-type"] == "application/pdf"
                    assert (await answer.body()).startswith(b"%PDF")
                assert problems == []
    finally:
        await platform.aclose()
        await team_platform.aclose()
