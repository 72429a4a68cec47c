"""Issue 34 over a real socket: registration served as its own process (the docker-compose.yml
command, migrated by alembic) on PostgreSQL + RabbitMQ. A unit's leader starts a DA delegation
without a credential (DA 十(一)1: 各单位统一报名), checks its roster without submitting, submits
it, and reads the delegation by its secret link: the entry accepted, lodging by room (DA 十一(一):
标准间360元, 单间520元/人/天) and the organisers' shuttle (DA 十二: 每人每次45元) as fees due in
fen, the same figure as the fee report's for the delegation (REG-14); the token is kept only as
its hash, the leader's phone only encrypted, the roster without the ID number; the organiser
re-issues the link and the old one stops working. The leader sends the stamped entry form (DA
十(一)1) as a phone photo: stored encrypted, without its GPS, listed on the delegation's page and
read by the arbiter."""

from __future__ import annotations

import hashlib
import io

from PIL import Image

from .registration_served import registration_alone, rows

KEYS = "op-key=operator"
OP = {"x-api-key": "op-key"}
#: DA 2023: registration open (十(一)1: by 08-11 24:00)
DA_OPEN = "2023-08-01T10:00:00+08:00"
PLAYER = {
    "role": "player",
    "name": "陈海",
    "gender": "male",
    "birth_date": "1999-01-01",
    "id_number": "460100199901010015",
    "sections": [{"section_id": "open"}],
    "room": "standard",
    "nights": 4,
    "services": {"shuttle": 2},
}
LEADER = {"role": "leader", "name": "林领队", "room": "single", "nights": 3, "services": {"shuttle": 1}}


def _photo_with_gps() -> bytes:
    exif = Image.Exif()
    exif.get_ifd(0x8825).update({1: "N", 2: (20.0, 2.0, 0.0), 3: "E", 4: (110.0, 20.0, 0.0)})
    out = io.BytesIO()
    Image.new("RGB", (48, 32), (200, 30, 30)).save(out, "JPEG", exif=exif)
    return out.getvalue()


async def _stored(url: str) -> list[tuple]:
    return await rows(url, "SELECT token_sha256, leader_phone_enc, leader_phone_masked, roster FROM delegation_links")


async def test_da_10_1_a_delegation_roster_with_lodging_and_shuttle_served(
    fresh_database, amqp_url, bus_namespace, tmp_path
):
    env = {"API_KEYS": KEYS, "CLOCK": "fake", "CLOCK_START": DA_OPEN, "DATA_KEY": "delegations-served"}
    async with registration_alone(fresh_database, amqp_url, bus_namespace, tmp_path, env) as (url, http):
        r = await http.post("/v1/events", headers=OP, json={"preset_id": "da-2023", "event_code": "da-door"})
        assert r.status_code == 201, r.text
        door = (await http.get("/v1/events/da-door/delegations/form")).json()
        assert door["accepting"] and [s["amount_fen"] for s in door["services"]] == [4500]

        start = {"unit_name": "海口市代表队", "leader_name": "林领队", "leader_phone": "13876543210"}
        made = await http.post("/v1/events/da-door/delegations", json=start)
        assert made.status_code == 201, made.text
        token = {"X-Delegation-Token": made.json()["token"]}
        roster = {"people": [LEADER, PLAYER], "insurance_policy": "PICC-DA-1"}

        checked = await http.post("/v1/delegation/roster/check", headers=token, json=roster)
        assert checked.status_code == 200 and checked.json()["ok"], checked.text
        assert (await http.get("/v1/delegation", headers=token)).json()["submitted_at"] is None

        sent = await http.put("/v1/delegation/roster", headers=token, json=roster)
        assert sent.status_code == 200, sent.text
        page = (await http.get("/v1/delegation", headers=token)).json()
        assert [(e["names"], e["status"]) for e in page["entries"]] == [(["陈海"], "accepted")]
        assert page["fees"]["due_fen"] == 3 * 52000 + 1 * 4500 + 4 * 36000 + 2 * 4500
        assert page["leader_phone"] == "138****3210"
        listed = (await http.get("/v1/events/da-door/entries", headers=OP)).json()["entries"]
        assert [e["status"] for e in listed] == ["accepted"]

        [(digest, phone_enc, masked, stored_roster)] = await _stored(url)
        assert digest == hashlib.sha256(made.json()["token"].encode()).hexdigest()
        assert "13876543210" not in phone_enc and masked == "138****3210"
        assert "460100199901010015" not in str(stored_roster) and "1999-01-01" not in str(stored_roster)
        wrong = await http.get("/v1/delegation", headers={"X-Delegation-Token": "x" * 43})
        assert wrong.status_code == 404 and wrong.json()["error"]["code"] == "unknown_delegation_link"

        # REG-14: the fee report (the ledger read) shows the delegation's figure the page shows
        report = (await http.get("/v1/events/da-door/fees", headers=OP)).json()
        [row] = report["delegations"]
        assert row["due_fen"] == page["fees"]["due_fen"] and row["unit_name"] == "海口市代表队"
        # the organiser re-issues the link: the old one is 404, the new one reads the delegation
        relinked = await http.post(f"/v1/events/da-door/units/{row['unit_id']}/delegation-link", headers=OP)
        assert relinked.status_code == 200, relinked.text
        assert (await http.get("/v1/delegation", headers=token)).status_code == 404
        fresh = {"X-Delegation-Token": relinked.json()["token"]}
        assert (await http.get("/v1/delegation", headers=fresh)).json()["unit_name"] == "海口市代表队"

        # DA 十(一)1: the stamped entry form, a phone photo, sent by the (new) link
        form = await http.post(
            "/v1/delegation/documents",
            headers=fresh,
            data={"kind": "stamped_entry_form"},
            files={"file": ("IMG_0001.jpg", _photo_with_gps(), "image/jpeg")},
        )
        assert form.status_code == 201, form.text
        doc = form.json()
        assert [d["document_id"] for d in (await http.get("/v1/delegation", headers=fresh)).json()["documents"]] == [
            doc["document_id"]
        ]
        [(unit_id, sealed)] = await rows(url, "SELECT unit_id, ciphertext FROM documents")
        assert unit_id == row["unit_id"] and b"JFIF" not in bytes(sealed) and b"Exif" not in bytes(sealed)
        back = await http.get(f"/v1/events/da-door/units/{unit_id}/documents/{doc['document_id']}", headers=OP)
        assert back.status_code == 200 and not Image.open(io.BytesIO(back.content)).getexif().get_ifd(0x8825)
        assert (await http.get(f"/v1/delegation/documents/{doc['document_id']}", headers=token)).status_code == 404
