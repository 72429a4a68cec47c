"""Staff sessions shared by portal replicas (ADR 0009), on PostgreSQL: two portal apps, each with
its own process state, share only the portal's database and session secret — as two replicas
behind the gateway do. A sign-in on one is honoured by the other; a sign-out on the other ends the
session on both; a session past its time is refused; the stored key is encrypted."""

from __future__ import annotations

import re
import time

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from gomoku_shared.embedded import EmbeddedSuite
from gomoku_shared.migrate import upgrade_async
from gomoku_shared.settings import ServiceSettings
from portal.app import create_app
from portal.sessions import SESSION_COOKIE, Sessions, SessionSettingsError
from portal.settings import PortalSettings
from portal.upstream import Upstream

KEYS = "op-key=operator,arb-key=arbiter,view-key=viewer"


def _replica(suite: EmbeddedSuite, url: str, secret: str = "shared-secret") -> httpx.AsyncClient:
    settings = PortalSettings(PORTAL_API_KEY="view-key", PORTAL_DATABASE_URL=url, PORTAL_SESSION_SECRET=secret)
    upstream = Upstream.in_process({n: s.app for n, s in suite.services.items()}, "view-key", 5.0)
    app = create_app(upstream, settings)
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://portal")


async def _sign_in(client: httpx.AsyncClient, key: str) -> str:
    form = await client.get("/staff/sign-in")
    token = re.search(r'name="csrf" value="([^"]+)"', form.text)
    assert token, form.text
    answer = await client.post("/staff/sign-in", data={"api_key": key, "csrf": token.group(1), "next": "/staff"})
    assert answer.status_code == 303 and answer.headers["location"] == "/staff"
    cookie = answer.cookies[SESSION_COOKIE]
    client.cookies.clear()  # each request below names the cookie itself
    return cookie


@pytest.fixture
async def suite(tmp_path):
    suite = EmbeddedSuite(ServiceSettings(DATA_DIR=str(tmp_path), API_KEYS=KEYS, LOG_JSON=False), only=None)
    await suite.start()
    try:
        yield suite
    finally:
        await suite.stop()


async def test_a_sign_in_holds_on_every_replica_and_a_sign_out_ends_it_on_all(suite, fresh_database):
    url = await fresh_database()
    await upgrade_async("portal", url)
    async with _replica(suite, url) as one, _replica(suite, url) as two, _replica(suite, url, "other") as stranger:
        cookie = await _sign_in(one, "arb-key")
        jar = {"cookie": f"{SESSION_COOKIE}={cookie}"}
        # the other replica knows the session: the console, not the sign-in form
        home = await two.get("/staff", headers=jar)
        assert home.status_code == 200 and "退出登录" in home.text
        # a replica with another secret cannot read the cookie
        assert (await stranger.get("/staff", headers=jar)).status_code == 303
        # the key is stored encrypted, never in clear
        engine = create_async_engine(url)
        async with engine.connect() as conn:
            stored = (await conn.execute(text("SELECT sealed_key, role FROM staff_sessions"))).all()
        assert len(stored) == 1 and stored[0].role == "arbiter" and "arb-key" not in stored[0].sealed_key
        # sign out on the second replica: the first refuses the same cookie from now on
        csrf = re.search(r'name="csrf" value="([^"]+)"', home.text)
        assert csrf
        out = await two.post("/staff/sign-out", data={"csrf": csrf.group(1)}, headers=jar)
        assert out.status_code == 303 and out.headers["location"] == "/staff/sign-in"
        again = await one.get("/staff", headers=jar)
        assert again.status_code == 303 and again.headers["location"].startswith("/staff/sign-in")
        async with engine.connect() as conn:
            assert (await conn.execute(text("SELECT count(*) FROM staff_sessions"))).scalar_one() == 0
        await engine.dispose()


async def test_a_session_past_its_time_is_refused_by_every_replica(fresh_database):
    url = await fresh_database()
    await upgrade_async("portal", url)
    sessions = Sessions("shared-secret", 1, url)
    try:
        session, _cookie = await sessions.open("arb-key", "arbiter")
        assert await sessions.store.get(session.session_id, time.time()) is not None
        # one minute later (plus a second) the row no longer counts, on any replica
        assert await sessions.store.get(session.session_id, time.time() + 61) is None
    finally:
        await sessions.store.aclose()


def test_replicas_sharing_a_database_must_share_a_secret():
    with pytest.raises(SessionSettingsError):
        Sessions("", 60, "postgresql+asyncpg://nowhere/portal")
