"""Issue 34: guessing registrants' links through the portal is throttled per person's address. An
address that sent wrong links (the figures of wrong API keys, here one free and a lockout at the
second) gets, for the right link too, a page saying in words to try again later (429), at 390 px
in Chinese and 1366 px in English; the parent, from their own address, still reads the entry."""

from __future__ import annotations

import httpx
import pytest
from browser_kit import OUT, chromium_page, serve_embedded
from test_entry_form import DESKTOP, PHONE, _boy, _sz_event

SHOTS = OUT / "link-guessing"
GUESSER = {"X-Forwarded-For": "198.51.100.23"}
WAIT = {"zh": "请过一会儿再打开链接", "en": "open your link again in a while"}


@pytest.fixture
def served_strict(tmp_path):
    """The embedded platform with a strict throttle: one free wrong link, locked out at the second."""
    strict = {"CREDENTIAL_FREE_FAILURES": "1", "CREDENTIAL_LOCKOUT_AFTER": "2", "CREDENTIAL_LOCKOUT_S": "900"}
    yield from serve_embedded(tmp_path, strict)


async def test_issue_34_an_address_guessing_links_waits_and_the_parent_reads_on(served_strict):
    served = served_strict
    code, _clock = await _sz_event(served)
    async with httpx.AsyncClient(timeout=30) as http:
        made = await http.post(f"{served}/registration/v1/events/{code}/public-entries", json=_boy(1))
        assert made.status_code == 201, made.text
        token = made.json()["token"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    async with chromium_page() as (page, problems):
        for i in range(2):  # the free wrong link and the one that locks the address out
            wrong = await page.request.get(f"{served}/entry/{'g' * 40}{i:03d}", headers=GUESSER)
            assert wrong.status == 404
        await page.set_extra_http_headers(GUESSER)
        for viewport, lang in ((PHONE, "zh"), (DESKTOP, "en")):
            await page.set_viewport_size(viewport)
            answer = await page.goto(f"{served}/entry/{token}?lang={lang}")
            assert answer is not None and answer.status == 429
            main = await page.inner_text("main")
            assert WAIT[lang] in main and token not in main and "too_many" not in main, main
            await page.screenshot(path=str(SHOTS / f"{viewport['width']}-{lang}-wait.png"), full_page=True)
        await page.set_extra_http_headers({})  # the parent, from their own address
        answer = await page.goto(f"{served}/entry/{token}?lang=zh")
        assert answer is not None and answer.status == 200
        assert "已接受（待审材料）" in await page.inner_text("main")
        # the browser reports each 429 page it loaded as a console error, and only those
        assert problems and all("429" in p for p in problems), problems
