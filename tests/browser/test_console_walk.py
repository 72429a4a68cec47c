"""Issue 28, item 6: a walk of every staff console page of the NT 2023 team championship and the
DA 2023 open as each demo staff role (``gomoku_sim.demo_staff``: one account per role), in Chinese
and in English on a 390 × 844 phone. From the console's home and the event's page it follows
every console link the person is shown (of a section's rounds the last, with its slips) and
fails on

(a) an internal id on the page: a pairing id ("r3.b3", "r2.m1.b2"), an entrant or player id, a
    section's or stage's slug ("mixed-team");
(b) words of the other language: on a Chinese page a Latin word that is not a name (a player's,
    a unit's, a team's, the signed-in person's), the event's code or an allowed abbreviation; on
    an English page a Chinese character outside those names;
(c) a dash where a player's name belongs on a team board (the round's player cells, the slips'
    black and white);
(d) a page wider than the phone.

A page the role may not open answers 403 in words: it is walked like any other."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import httpx
from browser_kit import IDS, OUT, browser_or_fail, chromium_page, event_played, team_event_played
from test_every_page import _names, _outside_language

from gomoku_shared.staff_roles import ROLE_WORDS
from gomoku_sim.client import Keys
from gomoku_sim.demo_staff import create_demo_staff

PHONE = {"width": 390, "height": 844}
#: a team board's player said as a dash: the slips' "黑方 —" / "White —" before the next part
NO_PLAYER = re.compile(r"(?:黑方|白方|Black|White) —(?=\s*(?:—|·|$))", re.M)


async def _people(served: str, platform: Any, code: str) -> list[str]:
    """The names on the console's pages: the entrants', players', units' and teams' (pairing, the
    awards, registration's entries and units)."""
    sections = [s["section_id"] for s in (await platform.get("pairing", f"/v1/events/{code}/sections"))["sections"]]
    names = set(await _names(platform, code, sections))
    entries = (await platform.get("registration", f"/v1/events/{code}/entries", role="arbiter"))["entries"]
    for e in entries:
        names.update(p["name"] for p in e.get("players", []))
        names.update(x for x in (e.get("team_name"), (e.get("unit") or {}).get("name")) if x)
    units = (await platform.get("registration", f"/v1/events/{code}/units", role="arbiter"))["units"]
    names.update(u["name"] for u in units if u.get("name"))
    return sorted(names)


def _slugs(event: dict[str, Any]) -> list[str]:
    """The event's stage and section ids that read as slugs (never on a page)."""
    ids = {st["id"] for st in event["stages"]} | {sec["id"] for st in event["stages"] for sec in st["sections"]}
    return sorted(i for i in ids if "-" in i)


def _wanted(path: str, code: str, last_round: dict[str, int]) -> bool:
    """A console link of this event (or the console's home) to walk: not a printout, not signing
    in or out, not the entries of a stage chosen again (the entries page is its first stage's);
    of a section's rounds the last one (every round is drawn by the same page)."""
    if not path.startswith("/staff") or path.endswith(".pdf") or "/sign-" in path or "stage=" in path:
        return False
    if path.startswith("/staff/events/") and not path.startswith(f"/staff/events/{code}"):
        return False
    found = re.search(r"/sections/([^/]+)/rounds/(\d+)", path)
    return not found or int(found.group(2)) == last_round.get(found.group(1), 1)


async def _walk_as(page: Any, served: str, code: str, role: str, lang: str, seen: dict[str, Any]) -> list[str]:
    """Every page the person is shown, from the home and the event's page; the problems found."""
    problems: list[str] = []
    todo, done = ["/staff", f"/staff/events/{code}"], set[str]()
    while todo and len(done) < 40:
        path = todo.pop(0)
        if path in done:
            continue
        done.add(path)
        joiner = "&" if "?" in path else "?"
        answer = await page.goto(f"{served}{path}{joiner}lang={lang}", wait_until="load")
        where = f"{role} {lang} {path}"
        if answer is None or answer.status not in (200, 403):
            problems.append(f"{where}: status {answer.status if answer else None}")
            continue
        text = await page.evaluate(
            "(() => { document.querySelectorAll('a.lang').forEach(a => a.remove());"
            " return document.title + '\\n' + document.body.innerText; })()"
        )
        if found := IDS.search(text):
            problems.append(f"{where}: id {found.group(0)}")
        if slugs := [s for s in seen["slugs"] if s in text]:
            problems.append(f"{where}: slugs {slugs}")
        if other := _outside_language(text, lang, seen["names"], code):
            problems.append(f"{where}: other language {other[:10]}")
        if NO_PLAYER.search(text):
            problems.append(f"{where}: a dash for a player on a board")
        if "/rounds/" in path and not path.endswith("/slips"):
            for cells in await page.locator("tr[data-pairing]").evaluate_all(
                "rows => rows.map(r => [...r.querySelectorAll('td')].slice(1, 3).map(c => c.innerText.trim()))"
            ):
                if "—" in cells:
                    problems.append(f"{where}: a dash for a player {cells}")
                    break
        width = await page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            problems.append(f"{where}: {width} px wide")
        shot = f"{lang}-{re.sub(r'[^a-z0-9]+', '-', path.replace(code, 'ev'))}"
        if shot not in seen["shots"]:  # one picture of each page in each language, for people to look at
            seen["shots"].add(shot)
            await page.screenshot(path=str(OUT / f"console-walk-{seen['demo']}-{shot}.png"), full_page=True)
        for href in await page.locator("main a[href], header a[href]").evaluate_all(
            "links => links.map(a => a.getAttribute('href'))"
        ):
            link = urlsplit(href)
            target = link.path + (f"?{link.query}" if link.query else "")
            if _wanted(target, code, seen["last_round"]) and target not in done:
                todo.append(target)
    seen["pages"] += len(done)
    return problems


async def test_issue28_every_console_page_of_nt_and_da_as_each_role_in_words_on_a_phone(served):
    """Issue 28 (PAIR-9 team boards, the console in people's words): NT 2023 and DA 2023, every
    demo role, zh and en at 390 px: no ids or slugs, one language, names on team boards, fits."""
    browser_or_fail()
    events = [await team_event_played(served), await event_played(served)]
    async with httpx.AsyncClient(timeout=30) as client:
        accounts = await create_demo_staff(client, f"{served}/partners", Keys().operator)
    problems: list[str] = []
    walks: list[dict[str, Any]] = []
    for platform, driver in events:
        code = driver.code
        event = await platform.get("registration", f"/v1/events/{code}")
        sections = (await platform.get("pairing", f"/v1/events/{code}/sections"))["sections"]
        walks.append(
            {
                "demo": code,
                "names": await _people(served, platform, code)
                + [f"Demo {ROLE_WORDS[a.role][1]}" for a in accounts]
                # the accounts' sign-in names (the organisation page lists them)
                + [a.login for a in accounts],
                "slugs": _slugs(event),
                "last_round": {s["section_id"]: int(s.get("current_round") or 1) for s in sections},
                "shots": set(),
                "pages": 0,
            }
        )
    async with chromium_page() as (page, errors):
        await page.set_viewport_size(PHONE)
        for account in accounts:  # signed in once: each event's pages in both languages
            await page.goto(f"{served}/staff/sign-in")
            await page.fill("input[name=login]", account.login)
            await page.fill("input[name=password]", account.password)
            await page.click("form[data-form=account-sign-in] button[type=submit]")
            await page.wait_for_selector("[data-who=person]")
            for seen in walks:
                for lang in ("zh", "en"):
                    problems += await _walk_as(page, served, seen["demo"], account.role, lang, seen)
            await page.click("form.sign-out[action='/staff/sign-out'] button")
            await page.wait_for_url("**/staff/sign-in**")
        problems += [f"browser: {e}" for e in errors if "403" not in e]
    for (
        seen
    ) in walks:  # each role walked its pages: far more than the event page alone (a walk of nothing proves nothing)
        assert seen["pages"] >= len(accounts) * 2 * 4, (seen["demo"], seen["pages"])
    assert problems == [], "\n".join(problems)
