"""Issue 29 in a real Chromium, against the embedded runner served over a socket: a used
invitation link says so in words (Chinese, 1366 px); a wrong password is refused in words, an
account with two-step sign-in is asked for its authenticator's code, and signs in with it
(English, 390 px). Screenshots go to /tmp/shots-portal/ and test-output/browser/."""

from __future__ import annotations

import shutil
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pyotp
from browser_kit import OUT, browser_or_fail, chromium_page

from gomoku_sim.client import Keys

SHOTS = Path("/tmp/shots-portal")
PASSWORD = "a long enough password"


async def _shot(page: Any, name: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(OUT / f"{name}.png"), full_page=True)
    SHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(OUT / f"{name}.png", SHOTS / f"{name}.png")


async def test_issue_29_used_links_wrong_passwords_and_authenticator_codes_are_said_in_words(served):
    """Issue 29: the invitation page of a used link, the sign-in form's refusal and its
    authenticator-code field, in words."""
    browser_or_fail()
    op = {"x-api-key": Keys().operator}
    async with httpx.AsyncClient(base_url=served, timeout=30) as http:
        # the served platform runs on the simulation clock: the codes are the ones of its time
        clock = (await http.get("/partners/v1/ops/clock", headers=op)).json()
    now = datetime.fromisoformat(clock["now"])

    def code_now() -> str:
        return pyotp.TOTP(secret).at(now)

    async with httpx.AsyncClient(base_url=f"{served}/partners", timeout=30) as api:
        body = {"login": "wu@example.org", "name": "吴裁判", "roles": ["arbiter"], "events": {}}
        invited = (await api.post("/v1/organisations/default/invitations", headers=op, json=body)).json()
        accepted = await api.post(f"/v1/invitations/{invited['token']}/accept", json={"password": PASSWORD})
        assert accepted.status_code == 201, accepted.text
        signed = (await api.post("/v1/staff/sign-in", json={"login": "wu@example.org", "password": PASSWORD})).json()
        bearer = {"authorization": f"Bearer {signed['access_token']}"}
        secret = (await api.post("/v1/staff/totp", headers=bearer)).json()["secret"]
        done = await api.post("/v1/staff/totp/confirm", headers=bearer, json={"code": code_now()})
        assert done.status_code == 200, done.text

    async with chromium_page() as (page, problems):
        await page.set_viewport_size({"width": 1366, "height": 900})
        await page.goto(served + invited["accept_path"])
        said = await page.inner_text(".refusal")
        assert "这个链接已经用过了" in said or "已" in said, said
        assert await page.locator("input[name=password]").count() == 0
        await _shot(page, "invitation-used-1366-zh")
        assert not [p for p in problems if "status of 409" not in p], problems

    async with chromium_page() as (page, problems):
        await page.set_viewport_size({"width": 390, "height": 800})
        await page.goto(f"{served}/staff/sign-in?lang=en")
        await page.fill("input[name=login]", "wu@example.org")
        await page.fill("input[name=password]", "not the password")
        await page.click("form[data-form=account-sign-in] button[type=submit]")
        assert "password" in (await page.inner_text(".refusal")).lower()
        await _shot(page, "sign-in-refused-390-en")
        await page.fill("input[name=password]", PASSWORD)
        await page.click("form[data-form=account-sign-in] button[type=submit]")
        await page.wait_for_selector("input[name=totp]")
        assert "authenticator" in (await page.inner_text("main")).lower()
        assert await page.input_value("input[name=login]") == "wu@example.org"
        await _shot(page, "sign-in-totp-390-en")
        await page.fill("input[name=password]", PASSWORD)
        await page.fill("input[name=totp]", code_now())
        await page.click("form[data-form=account-sign-in] button[type=submit]")
        await page.wait_for_selector("[data-who=person]")
        assert "吴裁判" in await page.inner_text("header")
        await _shot(page, "signed-in-home-390-en")
        assert not problems, problems
