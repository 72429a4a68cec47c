"""Issue 29: the staff console for people, in the embedded process with the real identity API
(the partners service) and registration: an invitation accepted on its page, sign-in with the
password, each role's own console, the organisation page for administrators, signing out."""

from __future__ import annotations

import re

import httpx
import pytest
from portal_kit import pages

from portal.sessions import SESSION_COOKIE

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow

OP = {"x-api-key": "op-key"}
ORG = "city-club"
PASSWORD = "a long enough password"
#: the names of event cc1 (preset da-2023), in Chinese and in English
CC1_ZH = "2023年全国五子棋定安公开赛"
CC1_EN = "2023 National Gomoku Open, Ding&#39;an"


@pytest.fixture
async def client(tmp_path, monkeypatch):
    async with pages(tmp_path, monkeypatch) as site:
        c = site.client
        r = await c.post(
            "/partners/v1/organisations", headers=OP, json={"id": ORG, "name": "City Club", "name_zh": "市棋院"}
        )
        assert r.status_code == 201, r.text
        await site.create_event("da-2023", "cc1", organisation=ORG)
        await site.create_event("da-2023", "other1")
        await site.suite.drain()
        c.suite = site.suite  # type: ignore[attr-defined]
        yield c


async def _invite(client: httpx.AsyncClient, login: str, name: str, roles=(), events=None) -> str:
    body = {"login": login, "name": name, "roles": list(roles), "events": events or {}}
    r = await client.post(f"/partners/v1/organisations/{ORG}/invitations", headers=OP, json=body)
    assert r.status_code == 201, r.text
    assert r.json()["accept_path"].startswith("/staff/invitations/")
    return r.json()["accept_path"]


def _token(page: httpx.Response) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert found, page.text[:500]
    return found.group(1)


async def _accept(client: httpx.AsyncClient, path: str) -> None:
    page = await client.get(path)
    assert page.status_code == 200
    r = await client.post(path, data={"csrf": _token(page), "password": PASSWORD, "password_again": PASSWORD})
    assert r.status_code == 201 and "/staff/sign-in" in r.text


async def _sign_in(client: httpx.AsyncClient, login: str, password: str = PASSWORD) -> httpx.Response:
    form = await client.get("/staff/sign-in")
    return await client.post(
        "/staff/sign-in", data={"csrf": _token(form), "login": login, "password": password, "next": "/staff"}
    )


async def test_issue_29_an_invitation_is_said_in_words_accepted_once_and_leads_to_sign_in(client):
    path = await _invite(client, "li@example.org", "李组委", roles=["admin", "organiser"])
    page = await client.get(path)
    assert page.status_code == 200
    assert "市棋院" in page.text and "组织管理员、组委会" in page.text and "李组委" in page.text
    # issue 29, times in words: the expiry in the organisation's events' zone, never "UTC"
    assert re.search(r"\d{4}年\d{1,2}月\d{1,2}日 \d\d:\d\d（北京时间）", page.text) and " UTC" not in page.text
    english = await client.get(path + "?lang=en")
    assert "City Club" in english.text and "organisation administrator, organiser" in english.text
    assert re.search(r"\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d \(Beijing time\)", english.text)
    client.cookies.delete("lang")
    csrf = _token(page)
    differ = await client.post(path, data={"csrf": csrf, "password": PASSWORD, "password_again": PASSWORD + "x"})
    assert differ.status_code == 422 and "两次输入的密码不一致" in differ.text
    short = await client.post(path, data={"csrf": csrf, "password": "short", "password_again": "short"})
    assert short.status_code == 422 and "至少需要 10 个字符" in short.text
    no_csrf = await client.post(path, data={"csrf": "forged", "password": PASSWORD, "password_again": PASSWORD})
    assert no_csrf.status_code == 403
    await client.post(path, data={"csrf": csrf, "password": PASSWORD, "password_again": PASSWORD})
    used = await client.get(path)
    assert used.status_code == 409 and "这个链接已经用过了" in used.text
    unknown = await client.get("/staff/invitations/no-such-link-token")
    assert unknown.status_code == 404 and "请联系邀请您的组织管理员" in unknown.text
    bad = await client.get("/staff/invitations/x%0Ay")
    assert bad.status_code in (400, 404, 422)


async def test_issue_29_sign_in_with_the_password_and_each_role_sees_its_own_console(client):
    await _accept(client, await _invite(client, "zhao@example.org", "赵记录", events={"cc1": ["recorder"]}))
    await _accept(client, await _invite(client, "qian@example.org", "钱收费", roles=["fee_clerk"]))
    wrong = await _sign_in(client, "zhao@example.org", "not the password")
    assert wrong.status_code == 200 and "密码不正确" in wrong.text and SESSION_COOKIE not in wrong.cookies
    signed = await _sign_in(client, "zhao@example.org")
    assert signed.status_code == 303 and signed.headers["location"] == "/staff"
    assert PASSWORD not in str(signed.headers) and "eyJ" not in signed.cookies[SESSION_COOKIE]
    home = await client.get("/staff")
    assert "赵记录" in home.text and CC1_ZH in home.text and "记录员" in home.text
    # issue 29, the console's home: the event by name with the role in words, no code beside
    # it, and no free event-code box (that is the platform operator's)
    mine = re.search(r'data-list="my-events">(.*?)</ul>', home.text, re.S)
    assert mine and ">cc1<" not in mine.group(1) and "cc1 ·" not in mine.group(1), home.text
    assert 'name="code"' not in home.text
    assert "other1" not in home.text and "/staff/new-event" not in home.text
    english = await client.get("/staff?lang=en")
    assert CC1_EN in english.text and "recorder" in english.text and CC1_ZH not in english.text
    client.cookies.delete("lang")
    event = await client.get("/staff/events/cc1")
    assert event.status_code == 200
    for hidden in ("/entries", "/evidence", "/appeals", "/ledger", "/awards", "/honours", "/stages/"):
        assert f"/staff/events/cc1{hidden}" not in event.text, hidden
    # an event of another organisation says why in words
    other = await client.get("/staff/events/other1")
    assert other.status_code == 403 and "由其他组织主办" in other.text
    other_en = await client.get("/staff/events/other1?lang=en")
    assert "run by another organisation" in other_en.text
    client.cookies.delete("lang")
    # the ledger is the fee clerk's, not the recorder's: said with the roles in words
    ledger = await client.get("/staff/events/cc1/ledger")
    assert ledger.status_code == 403 and "收费员" in ledger.text and "记录员" in ledger.text
    for page in ("entries", "evidence", "honours", "awards", "record-flags", "appeals"):
        other_page = await client.get(f"/staff/events/cc1/{page}")
        assert other_page.status_code == 403 and "您在这项赛事中是记录员" in other_page.text, page
    client.cookies.clear()
    await _sign_in(client, "qian@example.org")
    clerk = await client.get("/staff/events/cc1")
    assert "/staff/events/cc1/ledger" in clerk.text and "/staff/events/cc1/appeals" not in clerk.text
    ledger = await client.get("/staff/events/cc1/ledger")
    assert ledger.status_code == 200 and "记录收款" in ledger.text


async def test_issue_29_the_organisation_page_invites_resets_and_disables_with_refusals_in_words(client):
    await _accept(client, await _invite(client, "li@example.org", "李组委", roles=["admin", "organiser"]))
    await _accept(client, await _invite(client, "zhao@example.org", "赵记录", events={"cc1": ["recorder"]}))
    # a person who administers nothing is told so
    await _sign_in(client, "zhao@example.org")
    assert (await client.get("/staff/organisation")).status_code == 403
    client.cookies.clear()
    await _sign_in(client, "li@example.org")
    page = await client.get("/staff/organisation")
    assert page.status_code == 200 and "市棋院" in page.text and "赵记录" in page.text
    # issue 29, events by name: the staff list says the event's name, the forms offer the
    # organisation's events (not another's) as boxes with their names, never a code to type
    assert f"{CC1_ZH}：记录员" in page.text and "赛事 cc1" not in page.text
    assert 'name="events"' not in page.text and "赛事代码" not in page.text
    assert re.search(r'name="event" value="cc1"[^>]*> ' + re.escape(CC1_ZH), page.text)
    assert 'value="other1"' not in page.text
    csrf = _token(page)
    invited = await client.post(
        f"/staff/organisation/{ORG}/invitations",
        data={"csrf": csrf, "login": "sun@example.org", "name": "孙裁判", "role": ["arbiter"], "event": ["cc1"]},
    )
    assert invited.status_code == 200 and "已邀请孙裁判" in invited.text
    link = re.search(r'value="(http://test/staff/invitations/[^"]+)"', invited.text)
    assert link, invited.text
    look = await client.get(link.group(1).removeprefix("http://test"))
    assert "孙裁判" in look.text and "裁判员" in look.text and f"职务（{CC1_ZH}）" in look.text
    listed = await client.get("/staff/organisation?lang=en")
    assert f"{CC1_EN}: recorder" in listed.text and "Organisation: City Club" in listed.text
    client.cookies.delete("lang")
    empty = await client.post(f"/staff/organisation/{ORG}/invitations", data={"csrf": csrf, "login": "x@y.z"})
    assert empty.status_code == 422 and "至少勾选一个职务" in empty.text
    unknown = await client.post(
        f"/staff/organisation/{ORG}/invitations",
        data={"csrf": csrf, "login": "z@y.z", "name": "Z", "role": ["arbiter"], "event": ["nope9"]},
    )
    assert "refusal" in unknown.text and "Traceback" not in unknown.text
    zhao = re.search(r'data-account="([^"]+)"[^>]*>\s*<td>赵记录', page.text)
    assert zhao, page.text
    account = zhao.group(1)
    reset = await client.post(f"/staff/organisation/{ORG}/staff/{account}/password-reset", data={"csrf": csrf})
    assert "已生成重设密码链接" in reset.text and "/staff/invitations/" in reset.text
    off = await client.post(f"/staff/organisation/{ORG}/staff/{account}/disable", data={"csrf": csrf})
    assert "账号已停用" in off.text
    me = re.search(r'data-account="([^"]+)"[^>]*>\s*<td>李组委', off.text)
    assert me
    last = await client.post(f"/staff/organisation/{ORG}/staff/{me.group(1)}/disable", data={"csrf": csrf})
    assert "最后一位管理员" in last.text or "refusal" in last.text


async def test_issue_29_sign_out_ends_the_sign_in_and_sign_out_everywhere_ends_them_all(client):
    await _accept(client, await _invite(client, "qian@example.org", "钱收费", roles=["fee_clerk"]))
    await _sign_in(client, "qian@example.org")
    first = client.cookies[SESSION_COOKIE]  # one browser
    client.cookies.clear()
    await _sign_in(client, "qian@example.org")  # another
    home = await client.get("/staff")
    assert "在所有设备上退出" in home.text
    out = await client.post("/staff/sign-out-everywhere", data={"csrf": _token(home)})
    assert out.status_code == 303 and out.headers["location"] == "/staff/sign-in"
    assert (await client.get("/staff")).status_code == 303
    await client.suite.drain()  # the revocation reaches every service
    # the first browser's token is refused now: its page says the sign-in ended, then sign-in
    client.cookies.clear()
    client.cookies.set(SESSION_COOKIE, first)
    ledger = await client.get("/staff/events/cc1/ledger")
    assert "您的登录已结束" in ledger.text
    again = await client.get("/staff")
    assert again.status_code == 303 and again.headers["location"].startswith("/staff/sign-in")
    # a plain sign-out ends the identity API's session too
    client.cookies.clear()
    await _sign_in(client, "qian@example.org")
    home = await client.get("/staff")
    out = await client.post("/staff/sign-out", data={"csrf": _token(home)})
    assert out.status_code == 303 and (await client.get("/staff")).status_code == 303


async def test_issue_29_an_account_with_two_step_sign_in_is_asked_for_its_code_in_words(client):
    import pyotp

    await _accept(client, await _invite(client, "wu@example.org", "吴裁判", roles=["arbiter"]))
    r = await client.post("/partners/v1/staff/sign-in", json={"login": "wu@example.org", "password": PASSWORD})
    bearer = {"authorization": f"Bearer {r.json()['access_token']}"}
    secret = (await client.post("/partners/v1/staff/totp", headers=bearer)).json()["secret"]
    confirmed = await client.post(
        "/partners/v1/staff/totp/confirm", headers=bearer, json={"code": pyotp.TOTP(secret).now()}
    )
    assert confirmed.status_code == 200, confirmed.text
    asked = await _sign_in(client, "wu@example.org")
    assert asked.status_code == 200 and 'name="totp"' in asked.text and "验证器" in asked.text
    assert SESSION_COOKIE not in asked.cookies and PASSWORD not in asked.text
    form = await client.get("/staff/sign-in")
    body = {"csrf": _token(form), "login": "wu@example.org", "password": PASSWORD, "next": "/staff"}
    wrong = await client.post("/staff/sign-in", data={**body, "totp": "000000"})
    assert wrong.status_code == 200 and 'name="totp"' in wrong.text and SESSION_COOKIE not in wrong.cookies
    signed = await client.post("/staff/sign-in", data={**body, "totp": pyotp.TOTP(secret).now()})
    assert signed.status_code == 303 and signed.headers["location"] == "/staff"
