"""AWD-9 (NY 十一(三)): 优秀组织奖 (units), 体育道德风尚奖 (individuals), 优秀教练员奖 (coaches),
chosen by the organiser and published with certificates — the rules (pure) and the HTTP API."""

from __future__ import annotations

import pytest
from awards_kit import Harness, completed, configured, ranked

from awards.domain import honours as rules
from gomoku_shared.messaging.memory import InMemoryEventBus
from gomoku_shared.settings import ServiceSettings

NY_RULES = {
    "organisation": rules.HonourRule("organisation", "Outstanding Organisation Award", "优秀组织奖"),
    "sportsmanship": rules.HonourRule("sportsmanship", "Sportsmanship Award", "体育道德风尚奖"),
    "coach": rules.HonourRule("coach", "Outstanding Coach Award", "优秀教练员奖", max_recipients=1),
}
UNIT = rules.Recipient("unit", "Guangdong", "Guangdong")
PLAYER = rules.Recipient("entrant", "j1", "J1", "Guangdong", "junior-male")
COACH = rules.Recipient("coach", None, "李明", "Guangdong")


@pytest.mark.parametrize(
    ("clause", "kind", "recipient", "active", "refused"),
    [
        ("AWD-9, NY 十一(三): 优秀组织奖 to a unit", "organisation", UNIT, [], None),
        ("AWD-9, NY 十一(三): 体育道德风尚奖 to an individual", "sportsmanship", PLAYER, [], None),
        ("AWD-9, NY 十一(三): 优秀教练员奖 to a coach", "coach", COACH, [], None),
        ("AWD-9: a unit is no individual", "sportsmanship", UNIT, [], "wrong_recipient"),
        ("AWD-9: a player is no unit", "organisation", PLAYER, [], "wrong_recipient"),
        ("AWD-9: one unit honoured once", "organisation", UNIT, [UNIT], "already_honoured"),
        ("AWD-9: a configured limit", "coach", rules.Recipient("coach", None, "王芳"), [COACH], "honour_full"),
        ("AWD-9: an honour the event does not give", "best_referee", UNIT, [], "honour_not_given"),
    ],
)
def test_awd9_who_may_receive_which_honour(clause, kind, recipient, active, refused):
    if refused is None:
        assert rules.check_award(NY_RULES, kind, recipient, active).kind == kind, clause
        return
    with pytest.raises(rules.HonourRefused) as caught:
        rules.check_award(NY_RULES, kind, recipient, active)
    assert caught.value.code == refused, clause


def test_awd9_da_gives_no_honours():
    """DA 九: the regulation names no honours — none is accepted."""
    with pytest.raises(rules.HonourRefused) as caught:
        rules.check_award({}, "organisation", UNIT, [])
    assert caught.value.code == "honour_not_given"


def test_awd9_certificate_lines_and_public_names():
    assert rules.certificate_lines(NY_RULES["coach"], "for the juniors") == [
        "优秀教练员奖",
        "Outstanding Coach Award",
        "for the juniors",
    ]
    assert rules.public_name("coach", "李明") == "李**"  # personal data never in full
    # issue 27 finding 10: the mask has one width whatever the name's length
    assert rules.public_name("coach", "欧阳明德") == "欧**"
    assert rules.public_name("entrant", "J1") == "J1"  # as the published standings name the player


KEYS = "op-key=operator,arb-key=arbiter,pa-key=partner:pa"
OP = {"x-api-key": "op-key"}


@pytest.fixture
async def ny(tmp_path):
    settings = ServiceSettings(DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/awards.sqlite", API_KEYS=KEYS)
    harness = await Harness(settings, bus=InMemoryEventBus()).start()
    await harness.send(configured("ny-2022"))
    await harness.send(
        completed("ny-2022", "junior-male", ranked(10, "j", gender="male", units=["Guangdong", "Zhejiang"]))
    )
    await harness.settle()
    try:
        yield harness.client
    finally:
        await harness.stop()


async def test_awd9_ny_honours_in_the_publication_and_the_certificate_data(ny):
    """AWD-9, NY 十一(三): staff record the three honours; the public list and the certificate data
    carry them (a coach's name masked); a revoked honour leaves both."""
    url = "/v1/events/ny-2022/honours"
    bodies = [
        {"kind": "organisation", "unit_id": "Guangdong", "citation": "for hosting the juniors"},
        {"kind": "sportsmanship", "entrant_id": "j3"},
        {"kind": "coach", "coach_name": "李明", "coach_unit": "Zhejiang"},
    ]
    assert (await ny.post(url, json=bodies[0])).status_code == 401
    assert (await ny.post(url, json=bodies[0], headers={"x-api-key": "pa-key"})).status_code == 403
    for body in bodies:
        r = await ny.post(url, json=body, headers=OP)
        assert r.status_code == 200, r.text
    again = await ny.post(url, json=bodies[1], headers=OP)
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_honoured"
    unknown = await ny.post(url, json={"kind": "sportsmanship", "entrant_id": "nobody"}, headers=OP)
    assert unknown.status_code == 422 and unknown.json()["error"]["code"] == "unknown_recipient"
    wrong = await ny.post(url, json={"kind": "organisation", "entrant_id": "j1"}, headers=OP)
    assert wrong.status_code == 422 and wrong.json()["error"]["code"] == "wrong_recipient"
    two = await ny.post(url, json={"kind": "coach", "coach_name": "x", "entrant_id": "j1"}, headers=OP)
    assert two.status_code == 422

    public = (await ny.get(url)).json()
    assert [g["name_zh"] for g in public["given"]] == ["优秀组织奖", "体育道德风尚奖", "优秀教练员奖"]
    assert [(h["kind"], h["recipient_name"]) for h in public["honours"]] == [
        ("organisation", "Guangdong"),
        ("sportsmanship", "J3"),
        ("coach", "李**"),
    ]
    assert "李明" not in str(public)
    certificates = (await ny.get(f"{url}/certificates")).json()["rows"]
    assert [(c["name"], c["lines"][0]) for c in certificates] == [
        ("Guangdong", "优秀组织奖"),
        ("J3", "体育道德风尚奖"),
        ("李**", "优秀教练员奖"),
    ]
    assert certificates[1]["unit_name"] == "Guangdong" and certificates[1]["section_id"] == "junior-male"
    assert certificates[0]["lines"][-1] == "for hosting the juniors"
    register = (await ny.get(f"{url}/register", headers=OP)).json()["honours"]
    assert register[2]["recipient_name"] == "李明"

    revoked = await ny.post(f"{url}/h2/revoke", json={"reason": "a later disciplinary decision"}, headers=OP)
    assert revoked.status_code == 200 and revoked.json()["status"] == "revoked"
    twice = await ny.post(f"{url}/h2/revoke", json={"reason": "again"}, headers=OP)
    assert twice.status_code == 409
    assert [h["honour_id"] for h in (await ny.get(url)).json()["honours"]] == ["h1", "h3"]
    assert [c["honour_id"] for c in (await ny.get(f"{url}/certificates")).json()["rows"]] == ["h1", "h3"]
    assert (await ny.post(f"{url}/h9/revoke", json={"reason": "r"}, headers=OP)).status_code == 404
    assert (await ny.get("/v1/events/nowhere/honours")).status_code == 404


async def test_awd9_an_event_without_honours_refuses_them(tmp_path):
    """DA 九 names no honours: the configuration gives none, recording one is refused."""
    settings = ServiceSettings(DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/awards.sqlite", API_KEYS=KEYS)
    harness = await Harness(settings, bus=InMemoryEventBus()).start()
    try:
        await harness.send(configured("da-2023"))
        await harness.send(completed("da-2023", "open", ranked(8, "o", units=["Hainan"])))
        await harness.settle()
        r = await harness.client.post(
            "/v1/events/da-2023/honours", json={"kind": "organisation", "unit_id": "Hainan"}, headers=OP
        )
        assert r.status_code == 422 and r.json()["error"]["code"] == "honour_not_given"
        assert (await harness.client.get("/v1/events/da-2023/honours")).json()["given"] == []
    finally:
        await harness.stop()
