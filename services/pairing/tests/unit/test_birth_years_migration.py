"""Issue 27 finding 1: pairing's revision 0008 turns the full birth dates it stored before into
birth years (the entrants, the outbox bodies)."""

from __future__ import annotations

import json
import sqlite3

from gomoku_shared.migrate import upgrade


def test_revision_0008_keeps_birth_years_only(tmp_path):
    path = tmp_path / "pairing.sqlite"
    url = f"sqlite+aiosqlite:///{path}"
    upgrade("pairing", url, "0007")
    entrant = {
        "entrant_id": "t1",
        "name": "Team",
        "birth_date": None,
        "members": [{"player_id": "p1", "name": "A", "gender": "male", "birth_date": "2009-12-31"}],
    }
    envelope = {"payload": {"entrants": [{"entrant_id": "a", "birth_date": "1990-05-05"}]}, "type": "section.completed"}
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO entrants (event_code, section_id, start_no, entrant_id, data, entry_round) "
            "VALUES ('E', 'S', 1, 't1', ?, 1)",
            (json.dumps(entrant),),
        )
        db.execute(
            "INSERT INTO outbox (event_id, routing_key, body, headers, attempts) VALUES ('e1', 'section.completed', ?, '{}', 0)",
            (json.dumps(envelope, separators=(",", ":")).encode(),),
        )
    upgrade("pairing", url)
    with sqlite3.connect(path) as db:
        data = json.loads(db.execute("SELECT data FROM entrants").fetchone()[0])
        body = bytes(db.execute("SELECT body FROM outbox").fetchone()[0]).decode()
    assert data["members"][0]["birth_date"] is None and data["members"][0]["birth_year"] == 2009
    assert data["birth_date"] is None and "birth_year" not in data  # nothing to keep: untouched
    assert "1990-05-05" not in body and json.loads(body)["payload"]["entrants"][0]["birth_year"] == 1990
