"""Issue 29 in the portal: the role-to-buttons mapping (one table: ``gomoku_shared.staff_roles``),
a person from their token and ``/v1/staff/me``, and the session's refresh of the access token
(on PostgreSQL, shared by two replicas as behind the gateway)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from gomoku_shared.migrate import upgrade_async
from gomoku_shared.staff_roles import ACTIONS
from gomoku_shared.testing.people import StaffTokens as Minter
from portal import i18n
from portal.sessions import PERSON_ROLE, Sessions
from portal.staff_pages import refusal
from portal.staff_people import Person, StaffTokens, actions_offered, person_of, powers, roles_list

ORG = "city-club"


def _person(orgs: dict[str, list[str]] | None = None, events: dict[str, list[str]] | None = None) -> Person:
    token = Minter().token("王裁判", orgs=orgs or {}, events=events or {}, account_id="a1")
    return person_of(token, {"account": {"login": "wang@example.org"}})


def test_issue_29_buttons_follow_the_roles_a_recorder_sees_slips_not_results():
    recorder = _person(events={"E1": ["recorder"]})
    can = powers(recorder, {"event_code": "E1", "organisation": ORG})
    assert can("games.record") and can("slips.enter")
    assert not can("results.enter") and not can("slips.confirm") and not can("appeals.decide")
    assert not can("event.read") and not can("ledger.record")
    # the same person in another event holds nothing there
    assert not powers(recorder, {"event_code": "E2", "organisation": ORG})("slips.enter")


def test_issue_29_an_arbitration_member_decides_appeals_a_fee_clerk_keeps_the_ledger():
    member = _person(orgs={ORG: ["arbitration"]})
    can = powers(member, {"event_code": "E1", "organisation": ORG})
    assert can("appeals.decide") and not can("appeals.lodge") and not can("results.enter")
    clerk = _person(orgs={ORG: ["fee_clerk"]})
    can = powers(clerk, {"event_code": "E1", "organisation": ORG})
    assert can("ledger.record") and not can("results.enter") and not can("appeals.decide")
    # roles of an organisation hold in its events only: another organisation's event is not theirs
    assert actions_offered(clerk, "elsewhere", "E9") == []


def test_issue_29_an_arbiter_enters_results_and_events_without_owner_are_the_default_organisations():
    arbiter = _person(orgs={"default": ["arbiter"]})
    can = powers(arbiter, {"event_code": "OLD"})  # registration's answer before organisations
    assert can("results.enter") and can("slips.confirm") and not can("results.correct")
    offered = actions_offered(arbiter, "default", "OLD")
    assert offered == [a for a in ACTIONS if "arbiter" in ACTIONS[a][0]]


def test_issue_29_an_api_key_session_is_offered_everything_and_a_typo_fails_loudly():
    can = powers(None, {"event_code": "E1"})
    assert all(can(a) for a in ACTIONS)
    with pytest.raises(KeyError):
        can("results.entre")
    with pytest.raises(KeyError):
        powers(_person(orgs={ORG: ["arbiter"]}), {"event_code": "E1", "organisation": ORG})("results.entre")


def test_issue_29_a_person_from_the_token_and_me_with_organisation_names_and_roles_in_words():
    token = Minter().token("李组委", orgs={ORG: ["organiser", "admin"], "x": ["made_up"]}, account_id="a7")
    me = {
        "account": {"account_id": "a7", "name": "李组委", "login": "li@example.org"},
        "organisations": [{"id": ORG, "name": "City Club", "name_zh": "市棋院", "roles": ["admin", "organiser"]}],
        "events": {},
    }
    person = person_of(token, me)
    assert person.account_id == "a7" and person.name == "李组委" and person.login == "li@example.org"
    assert person.orgs[ORG] == ("admin", "organiser") and person.orgs["x"] == ()  # an unknown role gives nothing
    assert person.administers() == [ORG]
    assert person.org_name(ORG, "zh") == "市棋院" and person.org_name(ORG, "en") == "City Club"
    assert roles_list(person.orgs[ORG], "zh") == "组织管理员、组委会"
    assert roles_list(person.orgs[ORG], "en") == "organisation administrator, organiser"
    assert Person.from_json(person.to_json()) == person


class Identity:
    """The identity API's refresh as the portal calls it (status, answer), with what it says
    set by the test: the portal's logic under test is what it does with each answer."""

    def __init__(self, minter: Minter) -> None:
        self.minter = minter
        self.calls: list[tuple[str, str]] = []
        self.status = 200
        self.roles = {ORG: ["arbiter"]}

    async def __call__(self, session_id: str, refresh_token: str) -> tuple[int, Any]:
        self.calls.append((session_id, refresh_token))
        if self.status != 200:
            return self.status, {"error": {"code": "session_ended", "message": "ended", "details": {}}}
        token = self.minter.token("王裁判", orgs=self.roles, account_id="a1")
        return 200, {"access_token": token, "token_type": "Bearer", "expires_in": 900, "session_id": session_id}


async def _open(sessions: Sessions, minter: Minter, expires_in_s: float) -> tuple[str, StaffTokens]:
    access = minter.token("王裁判", orgs={ORG: ["recorder"]}, account_id="a1")
    tokens = StaffTokens(access, "s-1", "r-1", time.time() + expires_in_s)
    session, _cookie = await sessions.open(access, PERSON_ROLE, person_of(access, {}), tokens)
    return session.session_id, tokens


@pytest.fixture
async def replicas(fresh_database):
    url = await fresh_database()
    await upgrade_async("portal", url)
    one, two = Sessions("shared", 60, url), Sessions("shared", 60, url)
    try:
        yield one, two, url
    finally:
        await one.store.aclose()
        await two.store.aclose()


async def test_issue_29_a_token_about_to_run_out_is_refreshed_once_and_every_replica_sees_the_new_one(replicas):
    one, two, url = replicas
    minter = Minter()
    identity = Identity(minter)
    one.refresher = two.refresher = identity
    sid, first = await _open(one, minter, expires_in_s=30)  # less than the refresh margin left
    session = await one.by_id(sid)
    assert session is not None and session.tokens is not None
    assert identity.calls == [("s-1", "r-1")]
    assert session.api_key != first.access_token and session.tokens.expires_at > time.time() + 800
    # the refresh carries today's roles: the recorder was made an arbiter meanwhile
    assert session.person is not None and session.person.orgs[ORG] == ("arbiter",)
    assert session.tokens.refresh_token == "r-1"  # the identity API kept the refresh token
    # the other replica reads the stored, fresh token: no second refresh
    again = await two.by_id(sid)
    assert again is not None and again.api_key == session.api_key and len(identity.calls) == 1
    # nothing of it is stored in clear
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(url)
    async with engine.connect() as conn:
        row = (await conn.execute(text("SELECT sealed_key, sealed_person, role FROM staff_sessions"))).one()
    await engine.dispose()
    assert row.role == "staff" and session.api_key not in row.sealed_key
    assert "r-1" not in row.sealed_person and "王裁判" not in row.sealed_person


async def test_issue_29_a_refresh_refused_ends_the_session_and_an_unreachable_identity_keeps_it_until_expiry(
    replicas,
):
    one, _two, _url = replicas
    minter = Minter()
    identity = Identity(minter)
    one.refresher = identity
    sid, first = await _open(one, minter, expires_in_s=30)
    identity.status = 503  # the identity API is away: the current token serves while it lasts
    kept = await one.by_id(sid)
    assert kept is not None and kept.api_key == first.access_token
    identity.status = 401  # session_ended: signed out everywhere, or the account disabled
    assert await one.by_id(sid) is None
    assert await one.store.get(sid, time.time()) is None  # gone on every replica
    # a token already past its time while the identity API is away: signed out, not let through
    sid2, _ = await _open(one, minter, expires_in_s=-5)
    identity.status = 503
    assert await one.by_id(sid2) is None


async def test_issue_29_an_api_key_session_is_never_refreshed(replicas):
    one, _two, _url = replicas
    identity = Identity(Minter())
    one.refresher = identity
    session, _ = await one.open("op-key", "operator")
    found = await one.by_id(session.session_id)
    assert found is not None and found.person is None and found.api_key == "op-key" and identity.calls == []


ISSUE_29_CODES = (
    "not_your_event",
    "role_not_held",
    "partner_not_chosen",
    "staff_account_not_allowed",
    "sign_in_failed",
    "totp_required",
    "session_ended",
    "invitation_expired",
    "invitation_used",
    "last_administrator",
    "event_of_another_organisation",
    "unknown_role",
    "unknown_event",
    "not_your_organisation",
    "same_person_confirms",
    "duplicate_organisation",
)


@pytest.mark.parametrize("code", ISSUE_29_CODES)
def test_issue_29_every_new_refusal_has_words_in_chinese_and_english(code):
    zh, en = i18n.Words("zh").t(f"refusal.{code}"), i18n.Words("en").t(f"refusal.{code}")
    assert zh != "—" and en != "—" and zh != en and "{" not in zh + en


class _Site:
    def words(self, request: Any) -> i18n.Words:
        return i18n.Words(request)


def test_issue_29_a_refusal_says_the_services_own_words_and_forbidden_role_no_english_role_list():
    """details.words of a 403 is shown in the page's language; forbidden_role's message (the
    English list of roles) is not shown beside its words."""
    body = {
        "error": {
            "code": "role_not_held",
            "message": "To enter results you need the role of chief arbiter or arbiter; ...",
            "details": {"words": {"zh": "“录入对局结果”需要裁判长、裁判员的职务。", "en": "To enter results ..."}},
        }
    }
    said = refusal(_Site(), "zh", 403, body)  # type: ignore[arg-type]
    assert said == {"text": "“录入对局结果”需要裁判长、裁判员的职务。", "detail": ""}
    forbidden = {"error": {"code": "forbidden_role", "message": "this action needs one of the roles ['operator']"}}
    said = refusal(_Site(), "en", 403, forbidden)  # type: ignore[arg-type]
    assert said["detail"] == "" and "operator" not in said["text"] and said["text"] != "—"
