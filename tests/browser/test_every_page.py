"""Issue 28: every public page of the SZ 2022 qualifier and the NT 2023 team championship, in
Chinese and in English, on a 390 × 844 phone — home, event, each played section's pairings,
standings, cross table and a player's page (in a team section: the team's page, a team player's
page and a search finding a team's player by name), the awards, a round's live wall, a game
page, a replay, a player search and the schedule's calendar — must be

(a) in the page's language: on a Chinese page no Latin word of 3 letters or more that is not a
    person's, unit's or team's name, the event's code or an abbreviation of ``ALLOWED_LATIN``;
    on an English page no Chinese character outside those names;
(b) in the event's own time zone: no "UTC", no ISO time ending in "Z" or "+00:00" in the text;
(c) as wide as the phone: ``document.documentElement.scrollWidth`` ≤ 390 (a wide table scrolls
    inside its own box, the page does not).

One served platform per demo, one browser for both languages."""

from __future__ import annotations

import re
from typing import Any

import httpx
from browser_kit import OUT, chromium_page, platform_at

from gomoku_sim.client import ApiError

PHONE = {"width": 390, "height": 844}
#: the fields of the services' answers that hold a person's, a unit's or a team's name
NAME_FIELDS = ("name", "unit", "unit_name", "team_name", "recipient_name")
#: Latin a Chinese page may show besides names and codes: short abbreviations people read as
#: they are, and names of products
ALLOWED_LATIN = {
    "PDF",  # the printouts' links (打印 PDF)
    "APP",  # SZ 五: the online qualifier's platform, 弈客五子棋APP
    "PSQ",  # a game record's formats to download (the replay page)
    "JSON",
}
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")
HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
#: a time said in UTC: the word, an ISO time in Zulu, or a +00:00 offset
UTC_TIME = re.compile(r"\bUTC\b|\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z\b|\+00:00")


def _outside_language(text: str, lang: str, names: list[str], code: str) -> list[str]:
    """The words of ``text`` in the other language, once the names and the code are left out."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    text = text.replace(code, " ")
    if lang == "zh":
        return sorted({w for w in LATIN_WORD.findall(text) if w not in ALLOWED_LATIN})
    return sorted({m.group(0) for m in HAN.finditer(text)})


def test_the_checks_catch_what_they_must():
    """The walk's patterns: they find English words on a Chinese page and Chinese on an English
    one, spare names, the code and the allowed abbreviations, and find times in UTC."""
    names = ["张伟", "Wu Feng", "深圳市"]
    assert _outside_language("第 1 轮 Men, free rules 张伟", "zh", names, "sz1") == ["Men", "free", "rules"]
    assert _outside_language("张伟 Wu Feng 深圳市 sz1 打印 PDF 弈客五子棋APP 第 2 轮", "zh", names, "sz1") == []
    assert _outside_language("Round 2: 张伟 (深圳市) 男子组", "en", names, "sz1") == ["子", "男", "组"]
    assert UTC_TIME.search("公布于 2022-11-05 01:00 UTC") and UTC_TIME.search("at 2022-11-05T01:00:00Z")
    assert UTC_TIME.search("2022-11-05T09:00:00+00:00")
    assert not UTC_TIME.search("2022年11月5日 09:00（北京时间）") and not UTC_TIME.search(
        "5 Nov 2022, 09:00 (Beijing time)"
    )


async def _names(platform: Any, code: str, sections: list[str]) -> list[str]:
    """Every entrant's (player's or team's) and unit's name of the played sections."""
    names: set[str] = set()
    for sid in sections:
        section = await platform.get("pairing", f"/v1/events/{code}/sections/{sid}")
        names |= _names_in(section.get("entrants", []))
    for sid in sections:  # the players of teams (best boards) and the awards' names
        try:
            awards = await platform.get("awards", f"/v1/events/{code}/sections/{sid}/awards")
        except ApiError:  # a section without a publication
            continue
        for value in awards.values():
            names.update(_names_in(value) if isinstance(value, list) else ())
    event = await platform.get("registration", f"/v1/events/{code}")
    # a row's "name" may be its section's (a team ranking's): never a name to leave out
    sections_named = {x for st in event["stages"] for sec in st["sections"] for x in (sec["name"], sec.get("name_zh"))}
    return [n for n in names if n.strip() and n not in sections_named]


def _names_in(rows: list[Any]) -> set[str]:
    """The people's, units' and teams' names in the rows of an awards answer (not the section's own)."""
    found: set[str] = set()
    for row in rows:
        if isinstance(row, dict):
            found.update(str(row[k]) for k in NAME_FIELDS if isinstance(row.get(k), str))
            for value in row.values():
                found |= _names_in(value) if isinstance(value, list) else set()
    return found


async def _pages(platform: Any, code: str) -> tuple[list[str], list[str]]:
    """The public pages to walk, and the played sections' ids."""
    listed = await platform.get("pairing", f"/v1/events/{code}/sections")
    sections = [s["section_id"] for s in listed["sections"]]
    assert sections, "the demo played no section"
    pages = ["/", f"/?q={code}", f"/events/{code}", f"/events/{code}/awards"]
    game_id = wall = None
    for sid in sections:
        base = f"/events/{code}/sections/{sid}"
        section = await platform.get("pairing", f"/v1/events/{code}/sections/{sid}")
        entrants = section.get("entrants", [])
        pages.append(base)
        if entrants:  # a section cancelled for want of entries has nothing more to show
            pages += [f"{base}/standings", f"{base}/crosstable", f"{base}/players/{entrants[0]['entrant_id']}"]
        members = (entrants[0].get("members") or []) if entrants else []
        if members:  # a team section: the team's page, a team player's page, a search by a player's name
            pages += [f"{base}/teams/{entrants[0]['entrant_id']}", f"{base}/players/{members[-1]['player_id']}"]
            pages.append(f"/events/{code}/players?q={members[-1]['name'][:2]}")
        rounds = int(section.get("current_round") or 0)
        if game_id is None and rounds:
            games = (await platform.get("gameplay", f"/v1/rounds/{code}/{sid}/{rounds}/games")).get("games", [])
            if games:
                game_id, wall = games[0]["game_id"], f"{base}/rounds/{rounds}/wall"
        if entrants and len(pages) < 8:  # a player search by the first character of a name
            pages.append(f"/events/{code}/players?q={entrants[0]['name'][:1]}")
    assert game_id and wall, "the demo has no game to show"
    pages += [wall, f"/games/{game_id}", f"/games/{game_id}/replay"]
    # the played sections' pages at least: a walk that found next to nothing proves nothing
    assert len(pages) >= 12, pages
    return pages, sections


async def _walk(served: str, platform: Any, code: str, demo: str) -> list[str]:
    """Every problem of every page, as "lang path: what" lines (empty: the walk passed)."""
    pages, sections = await _pages(platform, code)
    names = await _names(platform, code, sections)
    problems: list[str] = []
    async with chromium_page() as (page, errors):
        await page.set_viewport_size(PHONE)
        for lang in ("zh", "en"):
            for path in pages:
                joiner = "&" if "?" in path else "?"
                answer = await page.goto(f"{served}{path}{joiner}lang={lang}", wait_until="load")
                where = f"{lang} {path}"
                if answer is None or answer.status != 200:
                    problems.append(f"{where}: status {answer.status if answer else None}")
                    continue
                width = await page.evaluate("document.documentElement.scrollWidth")
                if width > PHONE["width"]:
                    problems.append(f"{where}: {width} px wide at {PHONE['width']} px")
                    await page.screenshot(path=str(OUT / f"wide-{demo}-{lang}-{len(problems)}.png"))
                # the switch to the other language is in the other language by design
                text = await page.evaluate(
                    "(() => { document.querySelectorAll('a.lang').forEach(a => a.remove());"
                    " return document.title + '\\n' + document.body.innerText; })()"
                )
                if other := _outside_language(text, lang, names, code):
                    problems.append(f"{where}: other language {other[:12]}")
                if found := UTC_TIME.findall(text):
                    problems.append(f"{where}: time in UTC {found[:3]}")
        problems += [f"browser: {e}" for e in errors]
    async with httpx.AsyncClient(base_url=served, timeout=30) as client:
        for lang in ("zh", "en"):
            calendar = await client.get(f"/events/{code}/schedule.ics", params={"lang": lang})
            assert calendar.status_code == 200, calendar.text[:200]
            unfolded = calendar.text.replace("\r\n ", "")
            said = "\n".join(
                line.split(":", 1)[1].replace("\\,", ",")
                for line in unfolded.splitlines()
                if line.startswith(("SUMMARY", "DESCRIPTION", "X-WR-CALNAME", "LOCATION"))
            )
            if other := _outside_language(said, lang, names, code):
                problems.append(f"{lang} schedule.ics: other language {other[:12]}")
            if found := UTC_TIME.findall(said):
                problems.append(f"{lang} schedule.ics: time in UTC {found[:3]}")
    return problems


async def test_every_public_page_of_the_sz_qualifier_in_one_language_its_zone_and_a_phone(sz_served):
    """SZ 2022 (sections merged or cancelled as its regulation says when too few enter): issue 28's walk of every page."""
    served, code = sz_served
    platform = platform_at(served)
    try:
        problems = await _walk(served, platform, code, "sz")
    finally:
        await platform.aclose()
    assert problems == [], "\n".join(problems)


async def test_every_public_page_of_the_nt_team_championship_in_one_language_its_zone_and_a_phone(nt_served):
    """NT 2023 team championship (4 teams, 3 boards, 3 rounds): issue 28's walk of every page,
    the team's and a team player's pages among them; the player search finds every team's players
    by name (PAIR-9 members), each with their team and linked to their own page."""
    served, code = nt_served
    platform = platform_at(served)
    try:
        problems = await _walk(served, platform, code, "nt")
        section = await platform.get("pairing", f"/v1/events/{code}/sections/mixed-team")
    finally:
        await platform.aclose()
    assert problems == [], "\n".join(problems)
    async with httpx.AsyncClient(base_url=served, timeout=30) as client:
        for team in section["entrants"]:
            for member in team["members"]:
                found = await client.get(f"/events/{code}/players", params={"q": member["name"]})
                assert found.status_code == 200
                link = f'href="/events/{code}/sections/mixed-team/players/{member["player_id"]}"'
                row = found.text[found.text.index(link) :].split("</tr>", 1)[0]
                assert member["name"] in row and team["name"] in row, row
