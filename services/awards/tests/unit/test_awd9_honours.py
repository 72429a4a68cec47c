"""AWD-9 (NY 十一(三)): 优秀组织奖 (units), 体育道德风尚奖 (individuals), 优秀教练员奖 (coaches),
chosen by the organiser and published with certificates — the rules (pure) and the HTTP API."""

from __future__ import annotations

import pytest
from awards_kit import Harness, completed, configured, ranked

from awards.domain import honours as rules
from gomoku_shared.contracts.common import Entrant
from gomoku_shared.messaging.memory import InMemoryEventBus
from gomoku_shared.settings import ServiceSettings

NY_RULES = {
    "organisation": rules.HonourRule("organisation", "Outstanding Organisation Award", "优秀组织奖"),
    "sportsmanship": rules.HonourRule("sportsmanship", "Sportsmanship Award", "体育道德风尚奖"),
    "coach": rules.HonourRule("coach", "Outstanding Coach Award", "优秀教练员奖", max_recipients=1),
}
UNIT = rules.Recipient("unit", "u-gd", "Guangdong")
#: the units as registration registered them: id -> registered name
UNIT_IDS = {"Guangdong": "u-gd", "Zhejiang": "u-zj"}
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


def _with_units(standings: list) -> tuple[list, list[Entrant]]:
    """The standings and their entrants, each carrying its unit's registration id as registration sends it."""
    entrants = [
        Entrant(entrant_id=r.entrant_id, name=r.name, unit=r.unit, attributes={"unit_id": UNIT_IDS[r.unit]})
        for r in standings
    ]
    return standings, entrants


KEYS = "op-key=operator,arb-key=arbiter,pa-key=partner:pa"
OP = {"x-api-key": "op-key"}


@pytest.fixture
async def ny(tmp_path):
    settings = ServiceSettings(DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/awards.sqlite", API_KEYS=KEYS)
    harness = await Harness(settings, bus=InMemoryEventBus()).start()
    await harness.send(configured("ny-2022"))
    standings, entrants = _with_units(ranked(10, "j", gender="male", units=list(UNIT_IDS)))
    await harness.send(completed("ny-2022", "junior-male", standings, entrants=entrants))
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
        {"kind": "organisation", "unit_id": "u-gd", "citation": "for hosting the juniors"},
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
    assert register[0]["recipient_id"] == "u-gd"  # the unit as registered

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


async def test_ny_11_3_staff_print_certificates_in_full_the_public_sees_a_mask(ny):
    """NY 十一(三), AWD-9: the organiser prints the 优秀教练员奖 certificate with the coach's name in
    full (staff route); the public certificate data keeps the mask; no key: 401, a partner: 403."""
    url = "/v1/events/ny-2022/honours"
    body = {"kind": "coach", "coach_name": "王建国", "coach_unit": "Zhejiang"}
    assert (await ny.post(url, json=body, headers=OP)).status_code == 200
    full = await ny.get(f"{url}/register/certificates", headers={"x-api-key": "arb-key"})
    assert full.status_code == 200, full.text
    assert [(c["name"], c["unit_name"]) for c in full.json()["rows"]] == [("王建国", "Zhejiang")]
    public = (await ny.get(f"{url}/certificates")).json()["rows"]
    assert [c["name"] for c in public] == ["王**"] and "王建国" not in str(public)
    assert (await ny.get(f"{url}/register/certificates")).status_code == 401
    assert (await ny.get(f"{url}/register/certificates", headers={"x-api-key": "pa-key"})).status_code == 403


async def test_ny_11_3_a_unit_honour_takes_the_unit_as_registered(ny):
    """NY 十一(三), AWD-9: staff list the registered units; 优秀组织奖 names a unit by its
    registration id and shows its registered name; a typed name is refused with 422
    ``unknown_unit`` (pointing at the id when it is a registered unit's name), as is a unit
    nobody registered."""
    url = "/v1/events/ny-2022/honours"
    units = await ny.get(f"{url}/units", headers=OP)
    assert units.status_code == 200, units.text
    assert units.json()["units"] == [{"unit_id": "u-gd", "name": "Guangdong"}, {"unit_id": "u-zj", "name": "Zhejiang"}]
    assert (await ny.get(f"{url}/units")).status_code == 401
    typed = await ny.post(url, json={"kind": "organisation", "unit_id": "Zhejiang"}, headers=OP)
    assert typed.status_code == 422, typed.text
    error = typed.json()["error"]
    assert error["code"] == "unknown_unit" and "'u-zj'" in error["message"]
    assert [u["unit_id"] for u in error["details"]["registered_units"]] == ["u-gd", "u-zj"]
    stranger = await ny.post(url, json={"kind": "organisation", "unit_id": "u-xx"}, headers=OP)
    assert stranger.status_code == 422 and stranger.json()["error"]["code"] == "unknown_unit"
    given = await ny.post(url, json={"kind": "organisation", "unit_id": "u-zj"}, headers=OP)
    assert given.status_code == 200, given.text
    assert (given.json()["recipient_id"], given.json()["recipient_name"]) == ("u-zj", "Zhejiang")
    certificate = (await ny.get(f"{url}/certificates")).json()["rows"][0]
    assert (certificate["recipient_kind"], certificate["name"]) == ("unit", "Zhejiang")


def test_ny_11_3_registered_units_come_from_the_entrants():
    """NY 十一(三): the units a unit honour may name are the entrants' registered units (id -> name);
    an entrant of no unit names none."""
    entrants = [
        {"unit": "Guangdong", "attributes": {"unit_id": "u-gd"}},
        {"unit": "Guangdong", "attributes": {"unit_id": "u-gd"}},
        {"unit": None, "attributes": {}},
        {"unit": "Hainan", "attributes": {"unit_id": "u-hn"}},
    ]
    units = rules.registered_units(entrants)
    assert units == {"u-gd": "Guangdong", "u-hn": "Hainan"}
    assert rules.unit_recipient(units, "u-hn") == rules.Recipient("unit", "u-hn", "Hainan")
    with pytest.raises(rules.UnknownUnit) as caught:
        rules.unit_recipient(units, "Hainan")
    assert caught.value.code == "unknown_unit" and "'u-hn'" in caught.value.message
