"""The portal inside the embedded runner (in-process): its read-only key, languages, errors."""

from __future__ import annotations

import pytest
from portal_kit import pages

from gomoku_shared.auth import Principal
from gomoku_shared.errors import ServiceError

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow


@pytest.fixture
async def client(tmp_path, monkeypatch):
    async with pages(tmp_path, monkeypatch, events=["da23"]) as site:
        yield site.client


async def test_start_page_is_chinese_by_default_and_english_by_the_switch(client):
    r = await client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "五子棋赛事平台" in r.text and 'lang="zh-CN"' in r.text
    r = await client.get("/?lang=en")
    assert "Gomoku tournaments" in r.text and 'lang="en"' in r.text
    assert "lang=en" in r.headers["set-cookie"]
    # the cookie keeps the choice on the next page
    client.cookies.set("lang", "en")
    r = await client.get("/")
    assert "Gomoku tournaments" in r.text


async def test_an_unknown_event_is_a_page_saying_so_not_a_500(client):
    r = await client.get("/events/nope")
    assert r.status_code == 404 and "找不到该页面" in r.text


async def test_the_service_mounts_and_healthz_still_answer_before_the_pages(client):
    assert (await client.get("/healthz")).json()["status"] == "ok"
    r = await client.get("/pairing/v1/events/nope/sections")
    assert r.headers["content-type"].startswith("application/json")


async def test_the_viewer_key_reads_but_cannot_act_or_see_entries(client):
    view = {"x-api-key": "view-key"}
    assert (await client.get("/gameplay/v1/games", headers=view)).status_code == 200
    assert (await client.get("/registration/v1/events/nope", headers=view)).status_code == 404
    r = await client.get("/registration/v1/events/nope/entries", headers=view)
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden_role"
    r = await client.post("/registration/v1/events", headers=view, json={"preset_id": "da-2023", "event_code": "x"})
    assert r.status_code == 403


def test_a_viewer_key_cannot_act_in_a_game():
    from gameplay.service_layer.games import GameService

    g = {"game_id": "g1", "first_id": "a", "second_id": "b", "player_a": "a", "partner_a": None, "partner_b": None}
    with pytest.raises(ServiceError) as refused:
        GameService.authorize(None, Principal("viewer"), g, "a")
    assert refused.value.status == 403 and refused.value.code == "read_only_key"


async def test_awd10_the_appeals_forms_act_as_every_staff_form(client):
    """AWD-10: the appeals page's forms go through the staff console's one action path: a post
    by nobody signed in leads to the sign-in form (back to the page after), one without the
    person's CSRF token is refused (403), a refusal of pairing is shown in words on the page."""
    import re

    made = await client.post(
        "/registration/v1/events", headers={"x-api-key": "op-key"}, json={"preset_id": "da-2023", "event_code": "da23"}
    )
    assert made.status_code == 201, made.text
    page = "/staff/events/da23/appeals"
    unsigned = await client.post(page, data={"section_id": "open", "csrf": "x"})
    assert unsigned.status_code == 303 and unsigned.headers["location"] == f"/staff/sign-in?next={page}"
    form = await client.get("/staff/sign-in")
    token = re.search(r'name="csrf" value="([^"]+)"', form.text)
    assert token
    signed = await client.post("/staff/sign-in", data={"api_key": "op-key", "csrf": token.group(1), "next": page})
    assert signed.status_code == 303 and signed.headers["location"] == page
    shown = await client.get(page)
    assert shown.status_code == 200 and shown.headers["cache-control"] == "no-store"
    csrf = re.search(r'name="csrf" value="([^"]+)"', shown.text)
    assert csrf
    forged = await client.post(page, data={"section_id": "open", "csrf": "not-the-token"})
    assert forged.status_code == 403 and forged.headers["cache-control"] == "no-store"
    decision = "/staff/events/da23/sections/open/appeals/nope/decision"
    assert (await client.post(decision, data={"upheld": "no", "csrf": "not-the-token"})).status_code == 403
    refused = await client.post(page, data={"section_id": "nope", "grounds": "late", "csrf": csrf.group(1)})
    assert refused.status_code == 200 and 'class="refusal" role="alert"' in refused.text


async def test_play9_the_over_the_board_forms_refuse_posts_that_are_not_the_persons(client):
    """PLAY-9: the result-slip form and the flagged record's acceptance answer as every staff
    form does: nobody signed in is sent to sign in (back to the page after), a post without the
    person's CSRF token is refused (403, never cached)."""
    import re

    slip = "/staff/events/da23/sections/open/rounds/1/slips/g1"
    flag = "/staff/events/da23/record-flags/g1/1/accept"
    for path in (slip, flag):
        unsigned = await client.post(path, data={"csrf": "x"})
        assert unsigned.status_code == 303 and unsigned.headers["location"] == f"/staff/sign-in?next={path}"
    form = await client.get("/staff/sign-in")
    token = re.search(r'name="csrf" value="([^"]+)"', form.text)
    assert token
    signed = await client.post("/staff/sign-in", data={"api_key": "op-key", "csrf": token.group(1), "next": "/staff"})
    assert signed.status_code == 303
    for path in (slip, flag):
        forged = await client.post(path, data={"csrf": "not-the-token"})
        assert forged.status_code == 403 and forged.headers["cache-control"] == "no-store", path
