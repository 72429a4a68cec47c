"""NY 七(三) delegation exemptions over a real socket (REG-16): registration served as its own
process (the docker-compose.yml command) on PostgreSQL + RabbitMQ. The operator loads the
previous edition's top 8; a delegation of 20 takes one more player the list names, and a 21st
whose claim the list does not support is refused by the quota, the reason in the entry staff see."""

from __future__ import annotations

import asyncio

import httpx
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from registration.adapters.protection import DataProtector

from .compose_commands import LocalCompose

KEYS = "op-key=operator,arb-key=arbiter,p1-key=partner:partner-1"
OP, ARB, P1 = ({"x-api-key": k} for k in ("op-key", "arb-key", "p1-key"))
#: NY 2022: registration open (closes 08-05 24:00)
NY_OPEN = "2022-07-20T10:00:00+08:00"
STAR, NINTH, FIFTH, SIXTH = "330100200503030003", "330100200504040009", "330100200505050005", "330100200506060006"
DATA_KEY, NEW_DATA_KEY = "exemptions-served-key", "exemptions-served-key-2"


def _entry(n: int, id_number: str | None = None, claim: str | None = None) -> dict:
    player = {
        "name": f"Zhejiang {n}",
        "gender": "male",
        "birth_date": "2005-03-03",
        "id_number": id_number or f"33010020050303{n + 100:04d}",
        "unit": "zj",
    }
    return {"section_id": "youth-male", "player": player, "facts": {"quota_exempt_ref": claim} if claim else {}}


def _claims(entry: dict) -> list[dict]:
    return [d for d in entry["decisions"] if d["clause"].startswith("units/quota_exempt")]


async def _list_ciphertexts(url: str) -> list[str]:
    """The list's encrypted values as stored (ID numbers and birth dates)."""
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            query = "SELECT id_number_enc, birth_date_enc FROM exemption_players"
            rows = (await conn.execute(sa.text(query))).all()
    finally:
        await engine.dispose()
    return [token for row in rows for token in row if token]


async def test_reg16_ny_exemptions_checked_against_the_loaded_list_served(
    fresh_database, amqp_url, bus_namespace, tmp_path
):
    """NY 七(三) (2021 年各组前8名的棋手报名不受名额限制), REG-16: a claim before any list counts; a
    list loaded over the API (judging that claim again, audited,
    ID numbers masked, a 9th place not kept; one person listed twice 422, an event without the
    exemption 409); 20 players + one listed player accepted; a 21st claiming a 9th place counts
    in the quota and is refused, and the arbiter reads why; after a DATA_KEY rotation the list is
    encrypted and indexed under the new key and a listed player is still found."""
    url = await fresh_database()
    stack = LocalCompose(
        database_urls={"registration": url},
        amqp_url=amqp_url,
        namespace=bus_namespace,
        log_dir=tmp_path,
        extra_env={"API_KEYS": KEYS, "CLOCK": "fake", "CLOCK_START": NY_OPEN, "DATA_KEY": DATA_KEY},
    )
    try:
        proc = await stack.serve("registration")
        async with httpx.AsyncClient(base_url=proc.url, timeout=30) as http:
            r = await http.post("/v1/events", headers=OP, json={"preset_id": "ny-2022", "event_code": "ny-ex"})
            assert r.status_code == 201, r.text
            r = await http.post("/v1/events/ny-ex/units", headers=P1, json={"id": "zj", "name": "Zhejiang"})
            assert r.status_code == 201, r.text

            listed = {
                "edition": "2021",
                "source": "2021 National Youth Championship, final standings",
                "players": [
                    {"section": "youth-male", "place": 3, "name": "Zhejiang 21", "id_number": STAR},
                    {"section": "youth-male", "place": 9, "name": "Zhejiang 22", "id_number": NINTH},
                    {"section": "junior-female", "place": 8, "name": "Li Hong", "birth_date": "2011-06-06"},
                    {"section": "youth-male", "place": 5, "name": "Zhejiang 23", "id_number": FIFTH},
                    {"section": "youth-male", "place": 6, "name": "Zhejiang 24", "id_number": SIXTH},
                ],
            }
            r = await http.post("/v1/events/ny-ex/quota-exemptions", headers=P1, json=listed)
            assert r.status_code == 403, r.text  # the organiser loads it, not a delegation
            twice = {**listed, "players": [*listed["players"], {**listed["players"][0], "section": "junior-male"}]}
            r = await http.post("/v1/events/ny-ex/quota-exemptions", headers=OP, json=twice)
            assert r.status_code == 422 and r.json()["error"]["code"] == "duplicate_listed_player", r.text
            assert r.json()["error"]["details"] == {"first_line": 1, "second_line": 6}
            r = await http.post("/v1/events", headers=OP, json={"preset_id": "da-2023", "event_code": "da-ex"})
            r = await http.post("/v1/events/da-ex/quota-exemptions", headers=OP, json=listed)
            assert r.status_code == 409 and r.json()["error"]["code"] == "exemption_list_not_loadable", r.text
            r = await http.get("/v1/events/da-ex/quota-exemptions", headers=ARB)
            assert r.status_code == 200 and (r.json()["top"], r.json()["loads"]) == (None, []), r.text
            # a claim before any list is loaded counts in the quota, and says so
            early = await http.post("/v1/events/ny-ex/entries", headers=P1, json=_entry(23, FIFTH, "2021 5th"))
            assert early.json()["status"] == "accepted", early.text
            assert [d["clause"] for d in _claims(early.json())] == ["units/quota_exempt_no_list"]
            r = await http.post("/v1/events/ny-ex/quota-exemptions", headers=OP, json=listed)
            assert r.status_code == 201, r.text
            loaded = r.json()
            # the load judges the claims already made again: the early claimant leaves the quota
            assert loaded["rejudged"] == [early.json()["entry_id"]]
            early_now = (await http.get(f"/v1/events/ny-ex/entries/{early.json()['entry_id']}", headers=ARB)).json()
            assert [d["clause"] for d in _claims(early_now)] == ["units/quota_exempt"]
            assert (loaded["edition"], loaded["top"], len(loaded["players"])) == ("2021", 8, 4)
            assert loaded["players"][0]["id_number"] == "*" * 14 + STAR[-4:] and STAR not in r.text
            assert loaded["players"][1]["birth_year"] == 2011 and "2011-06-06" not in r.text
            # the audit: who loaded it (the operator key's id), how many lines kept, how many beyond the top 8
            assert [(x["revision"], x["loaded_by"], x["players"], x["beyond_top"]) for x in loaded["loads"]] == [
                (1, "operator:k1", 4, 1)
            ]
            assert (await http.get("/v1/events/ny-ex/quota-exemptions", headers=ARB)).json() == {
                **loaded,
                "rejudged": [],
            }
            assert (await http.get("/v1/events/ny-ex/quota-exemptions", headers=P1)).status_code == 403

            for n in range(1, 21):
                r = await http.post("/v1/events/ny-ex/entries", headers=P1, json=_entry(n))
                assert r.json()["status"] == "accepted", r.text
            false = await http.post(
                "/v1/events/ny-ex/entries", headers=P1, json=_entry(22, NINTH, "2021 youth male 9th")
            )
            assert false.status_code == 201 and false.json()["status"] == "refused", false.text
            assert false.json()["clause"] == "units/quota" and "21 players" in false.json()["reason"]
            true = await http.post("/v1/events/ny-ex/entries", headers=P1, json=_entry(21, STAR, "2021 youth male 3rd"))
            assert true.json()["status"] == "accepted", true.text
            assert [(d["clause"], d["params"]["place"]) for d in _claims(true.json())] == [("units/quota_exempt", 3)]

            # the arbiter's view of the refused entry says why the claim did not exempt
            staff = (await http.get("/v1/events/ny-ex/entries", headers=ARB, params={"stage": "main"})).json()
            seen = {e["entry_id"]: e for e in staff["entries"]}[false.json()["entry_id"]]
            [claim] = _claims(seen)
            assert claim["clause"] == "units/quota_exempt_unlisted"
            assert "exemption claimed: not on the list of 2021's top 8" in claim["reason"]
            assert claim["params"] == {"edition": "2021", "top": 8}

        # a DATA_KEY rotation encrypts and indexes the list again with the rest: still matched
        stack.stop("registration")
        stack.extra_env |= {"DATA_KEY": NEW_DATA_KEY, "DATA_KEY_PREVIOUS": DATA_KEY}
        proc = stack.start("registration")
        await asyncio.to_thread(stack.wait_ready, "registration")
        rotated = DataProtector(NEW_DATA_KEY)
        async with asyncio.timeout(30):
            while not all(rotated.is_current(token) for token in await _list_ciphertexts(url)):
                await asyncio.sleep(0.2)
        async with httpx.AsyncClient(base_url=proc.url, timeout=30) as http:
            sixth = await http.post("/v1/events/ny-ex/entries", headers=P1, json=_entry(24, SIXTH, "2021 6th"))
            assert sixth.json()["status"] == "accepted", sixth.text
            assert [d["clause"] for d in _claims(sixth.json())] == ["units/quota_exempt"]
    finally:
        stack.stop_all()
    assert "Traceback" not in "".join(path.read_text() for path in tmp_path.glob("*.log"))
