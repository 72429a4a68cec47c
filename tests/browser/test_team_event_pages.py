"""A team championship on the public pages (issue 28), in a real Chromium: NT 2023's mixed team
section, 4 teams of 3 boards, 3 rounds played to its awards (``team_event_played``).

Every page names the people and teams where it used to say "—": the section page shows each
round as its matches (PAIR-9: the two teams, game points and match points, then each board's
players by name and colour), the board wall, a game page and its replay name both players with
their team and the match, a team's page lists its players by board and its matches, the standings
name and link the teams, the awards' best boards (AWD-7) link each player to their page. At 1366 px
and 390 px, in Chinese and English. Screenshots go to test-output/browser/ (git-ignored)."""

from __future__ import annotations

from typing import Any

from browser_kit import OUT, chromium_page, platform_at

SID = "mixed-team"
WIDTHS = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
WORDS = {
    "zh": {
        "game_points": "局分",
        "match_points": "次分",
        "team": "队伍",
        "black": "执黑",
        "black_word": "黑方",
        "white_word": "白方",
    },
    "en": {
        "game_points": "Game points",
        "match_points": "Match points",
        "team": "Team",
        "black": "black",
        "black_word": "Black",
        "white_word": "White",
    },
}


def _num(value: Any) -> str:
    f = float(value)
    return str(int(f)) if f == int(f) else str(f)


async def _facts(platform: Any, code: str) -> dict[str, Any]:
    """What the services answer: the teams with their players, the rounds with their matches."""
    section = await platform.get("pairing", f"/v1/events/{code}/sections/{SID}")
    rounds = [await platform.get("pairing", f"/v1/events/{code}/sections/{SID}/rounds/{n}") for n in (1, 2, 3)]
    teams = {e["entrant_id"]: e for e in section["entrants"]}
    players = {m["player_id"]: (m, e) for e in section["entrants"] for m in e["members"]}
    return {"teams": teams, "players": players, "rounds": rounds}


async def _width(page: Any) -> int:
    return int(await page.evaluate("document.documentElement.scrollWidth"))


async def test_issue28_team_event_pages_name_teams_and_players_in_both_languages_at_both_widths(nt_served):
    """PAIR-9 / REG-9 / AWD-7 on the public pages of a team section: no "—" where a name belongs."""
    served, code = nt_served
    platform = platform_at(served)
    facts = await _facts(platform, code)
    teams, players = facts["teams"], facts["players"]
    assert len(teams) == 4 and len(players) == 12
    base = f"{served}/events/{code}/sections/{SID}"
    round_one = facts["rounds"][0]
    match = round_one["matches"][0]
    board_one = next(p for p in round_one["pairings"] if p["pairing_id"] == match["pairing_ids"][0])
    game_id = board_one["game_results"][0]["game_id"]
    game = await platform.get("gameplay", f"/v1/games/{game_id}")
    black, white = players[game["black"]], players[game["white"]]
    try:
        async with chromium_page() as (page, problems):
            for label, viewport in WIDTHS.items():
                await page.set_viewport_size(viewport)
                for lang, words in WORDS.items():
                    shot = f"team-{label}-{lang}"

                    # the section page: each round as its matches, each board with both players
                    await page.goto(f"{base}?lang={lang}")
                    assert await page.locator(".match").count() == 6  # 2 matches × 3 rounds
                    first = page.locator(f"#match-{match['match_id'].replace('.', '-')}")
                    head = await first.locator(".match-head").inner_text()
                    assert teams[match["first_team"]]["name"] in head and teams[match["second_team"]]["name"] in head
                    score = f"{_num(match['first_game_points'])} : {_num(match['second_game_points'])}"
                    assert score in head, (head, score)
                    facts_line = await first.locator(".match-facts").inner_text()
                    assert words["game_points"] in facts_line and words["match_points"] in facts_line
                    points = f"{_num(match['first_match_points'])} : {_num(match['second_match_points'])}"
                    assert points in facts_line, (facts_line, points)
                    cells = await page.locator("td.board-player").all_inner_texts()
                    assert len(cells) == 18 * 2 and all(c.strip() and "—" not in c for c in cells), cells
                    row = await first.locator("tbody tr").first.inner_text()
                    assert (
                        players[board_one["first"]][0]["name"] in row and players[board_one["second"]][0]["name"] in row
                    )
                    assert await first.locator("tbody tr").first.locator(".stone-icon.black").count() == 1
                    assert await page.locator(".match-boards tbody tr").count() == 18
                    if label == "phone":
                        assert await _width(page) <= 390, "the section page is wider than a phone"
                    else:
                        assert words["black"] in row
                    await page.screenshot(path=str(OUT / f"{shot}-section.png"), full_page=True)

                    # the board wall of round 1: every tile names both players and their teams' match
                    await page.goto(f"{base}/rounds/1/wall?lang={lang}")
                    who = await page.locator(".tile .who").all_inner_texts()
                    assert len(who) == 12 and all(w.strip() and w.strip() != "—" for w in who), who
                    match_lines = await page.locator(".tile-match").all_inner_texts()
                    assert len(match_lines) == 6 and all(
                        sum(t["name"] in m for t in teams.values()) == 2 for m in match_lines
                    ), match_lines
                    # the boards of one match say the same match, first-listed team first, with its score
                    assert match_lines[0].startswith(teams[match["first_team"]]["name"]) and score in match_lines[0]
                    await page.screenshot(path=str(OUT / f"{shot}-wall.png"), full_page=True)

                    # a game page: both players by name with their team, and the match
                    await page.goto(f"{served}/games/{game_id}?lang={lang}")
                    status = await page.locator(".game-status").first.inner_text()
                    assert black[0]["name"] in status and white[0]["name"] in status, status
                    assert black[1]["name"] in status and white[1]["name"] in status, status
                    assert "：—" not in status and ": —" not in status, status
                    team_match = await page.locator(".team-match").inner_text()
                    assert black[1]["name"] in team_match and white[1]["name"] in team_match
                    assert score in team_match and points in team_match, (team_match, score, points)
                    if label == "phone":
                        assert await _width(page) <= 390, "the game page is wider than a phone"
                    await page.screenshot(path=str(OUT / f"{shot}-game.png"), full_page=True)

                    # its replay
                    await page.goto(f"{served}/games/{game_id}/replay?lang={lang}")
                    names_line = await page.locator("main p.line").nth(1).inner_text()
                    assert black[0]["name"] in names_line and white[0]["name"] in names_line, names_line
                    assert await page.locator(".team-match").count() == 1
                    await page.screenshot(path=str(OUT / f"{shot}-replay.png"), full_page=True)

                    # a team's page, from the standings' link: its players by board, its matches
                    await page.goto(f"{base}/standings?lang={lang}")
                    standing_names = await page.locator("table.standings tbody td:nth-child(2)").all_inner_texts()
                    assert sorted(n.strip() for n in standing_names) == sorted(t["name"] for t in teams.values())
                    assert words["team"] in await page.locator("table.standings thead").inner_text()
                    winner = page.locator("table.standings tbody tr").first.locator("a")
                    await winner.click()
                    await page.wait_for_url("**/teams/**")
                    team_id = page.url.split("/teams/")[1].split("?")[0]
                    team = teams[team_id]
                    assert await page.locator("h2.team-name").inner_text() == team["name"]
                    roster = await page.locator("table.team-players tbody tr").all_inner_texts()
                    assert [r.split("\t")[:2] for r in roster] == [
                        [str(m["board"]), m["name"]] for m in team["members"]
                    ], roster
                    rows = await page.locator("table.team-matches tbody tr:not(.match-board)").all_inner_texts()
                    assert len(rows) == 3, rows
                    for rnd, text in zip(facts["rounds"], rows, strict=True):
                        played = next(m for m in rnd["matches"] if team_id in (m["first_team"], m["second_team"]))
                        mine = "first" if played["first_team"] == team_id else "second"
                        theirs = "second" if mine == "first" else "first"
                        assert teams[played[f"{theirs}_team"]]["name"] in text, text
                        got = f"{_num(played[f'{mine}_game_points'])} : {_num(played[f'{theirs}_game_points'])}"
                        assert got in text, (text, got)
                    if label == "phone":
                        assert await _width(page) <= 390, "the team page is wider than a phone"
                    await page.screenshot(path=str(OUT / f"{shot}-team.png"), full_page=True)

                    # the awards' best boards link each player to their page (team and board named)
                    await page.goto(f"{served}/events/{code}/awards?lang={lang}")
                    best = page.locator("#awards-mixed-team h3 + .scroll table").last
                    assert words["team"] in await best.locator("thead").inner_text()
                    links = best.locator("tbody a")
                    assert await links.count() == 3
                    name = (await links.first.inner_text()).strip()
                    await links.first.click()
                    await page.wait_for_url("**/players/**")
                    me, my_team = players[page.url.split("/players/")[1].split("?")[0]]
                    assert me["name"] == name
                    facts_text = await page.locator("dl.facts").inner_text()
                    assert my_team["name"] in facts_text and str(me["board"]) in facts_text, facts_text
                    by_round = await page.locator("table").first.locator("tbody tr").all_inner_texts()
                    assert len(by_round) == 3, by_round  # a board each round, with the colour played
                    colours = (WORDS[lang]["black_word"], WORDS[lang]["white_word"])
                    assert all(r.split("\t")[1] in colours for r in by_round), by_round
                    await page.screenshot(path=str(OUT / f"{shot}-player.png"), full_page=True)

                    # English pages in English, Chinese pages in Chinese (the new words)
                    await page.goto(f"{base}?lang={lang}")
                    body = await page.inner_text("main")
                    other = WORDS["en" if lang == "zh" else "zh"]
                    assert other["game_points"] not in body and other["match_points"] not in body
            assert problems == [], problems
    finally:
        await platform.aclose()
