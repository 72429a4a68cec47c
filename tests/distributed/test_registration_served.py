"""Registration over a real socket against the served embedded process, started without DATA_KEY:
the key it creates on first start (mode 0600) is used again after a restart; a refused wildcard is
judged again when its certificate arrives and is approved (REG-18, SZ 十三(二), 八(四)); another
partner's ID number and entry answer like unknown ones (partner isolation)."""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

import httpx

from gomoku_shared.testing.served import embedded_server

KEYS = "op-key=operator,arb-key=arbiter,p1-key=partner:partner-1,p2-key=partner:partner-2"
OP, ARB, P1, P2 = ({"x-api-key": k} for k in ("op-key", "arb-key", "p1-key", "p2-key"))
PLAYER = {
    "name": "Li Wei",
    "gender": "male",
    "birth_date": "1990-05-05",
    "id_number": "440305199005051236",
    "citizenship": "CN",
}


@contextlib.contextmanager
def registration_server(data_dir: Path, log: Path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "AMQP_URL", "DATA_KEY")}
    env.update(
        DATA_DIR=str(data_dir), API_KEYS=KEYS, LOG_JSON="true", CLOCK="fake", CLOCK_START="2022-10-26T10:00:00+08:00"
    )
    with embedded_server(env, log) as port, httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
        yield client


def _wildcard_entry(player: dict, section: str = "men-pro") -> dict:
    return {
        "stage": "online",
        "section_id": section,
        "player": player,
        "facts": {"intends_to_represent": True},
        "evidence": [],
        "insurance": {"confirmed": True, "document_ref": "POL-SERVED-1"},
    }


def test_served_registration_key_file_rejudging_and_partner_isolation(tmp_path):
    data_dir, log = tmp_path / "data", tmp_path / "embedded.log"
    with registration_server(data_dir, log) as c:
        key_file = data_dir / "registration-data.key"
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
        assert (
            c.post(
                "/registration/v1/events", headers=OP, json={"preset_id": "sz-2022", "event_code": "sz22"}
            ).status_code
            == 201
        )
        refused = c.post("/registration/v1/events/sz22/entries", headers=P1, json=_wildcard_entry(PLAYER)).json()
        assert (refused["status"], refused["clause"]) == ("refused", "sz-residency")

        # partner 2 with partner 1's ID number: the answer an unknown number gets
        probe = c.post(
            "/registration/v1/events/sz22/entries", headers=P2, json=_wildcard_entry({**PLAYER, "name": "Someone Else"})
        )
        ghost = c.post(
            "/registration/v1/events/sz22/entries",
            headers=P2,
            json=_wildcard_entry({**PLAYER, "name": "Someone Else", "id_number": "440305199005051252"}),
        )
        assert probe.status_code == ghost.status_code == 201
        assert (probe.json()["status"], probe.json()["clause"]) == (ghost.json()["status"], ghost.json()["clause"])
        certificate = {"kind": "grade_certificate", "document_ref": "CQY-SERVED", "grade": "3k"}
        theirs = c.post(
            "/registration/v1/events/sz22/evidence", headers=P2, json={**certificate, "entry_id": refused["entry_id"]}
        )
        nobody = c.post(
            "/registration/v1/events/sz22/evidence",
            headers=P2,
            json={**certificate, "entry_id": "sz22.online.men-pro.0099"},
        )
        assert theirs.status_code == nobody.status_code == 404
        assert theirs.json()["error"]["code"] == nobody.json()["error"]["code"]

        # SZ 十三(二): the certificate arrives before the deadline; the arbiter approves it later
        assert (
            c.post("/gameplay/v1/ops/clock", headers=OP, json={"set": "2022-10-30T12:00:00+08:00"}).status_code == 200
        )
        up = c.post(
            "/registration/v1/events/sz22/evidence", headers=P1, json={**certificate, "entry_id": refused["entry_id"]}
        )
        assert up.status_code == 201 and up.json()["entries"][0]["status"] == "pending_review", up.text
        assert (
            c.post("/gameplay/v1/ops/clock", headers=OP, json={"set": "2022-11-02T09:00:00+08:00"}).status_code == 200
        )
        d = c.post(
            f"/registration/v1/evidence/{up.json()['evidence_id']}/decision",
            headers=ARB,
            json={"decision": "approve", "note": "certificate checked"},
        )
        assert d.status_code == 200 and d.json()["entries"][0]["status"] == "accepted", d.text
        view = c.get(f"/registration/v1/events/sz22/entries/{refused['entry_id']}", headers=P1).json()
        assert view["players"][0]["id_number"] == "**************1236" and view["players"][0]["birth_year"] == 1990
        key = key_file.read_text()

    # restarted: the same key, so partner 1's player is found again by ID number
    with registration_server(data_dir, log) as c:
        assert key_file.read_text() == key
        again = c.post(
            "/registration/v1/events/sz22/entries", headers=P1, json=_wildcard_entry(PLAYER, section="men-free")
        )
        assert again.status_code == 201, again.text
        assert again.json()["player_id"] == refused["player_id"]
    assert "Traceback" not in log.read_text()
