"""Issue 27 finding 1: awards' revision 0005 turns the full birth dates it stored before into
birth years (section payloads, qualifier lists, outbox bodies)."""

from __future__ import annotations

import json
import sqlite3

from gomoku_shared.migrate import upgrade


def test_revision_0005_keeps_birth_years_only(tmp_path):
    path = tmp_path / "awards.sqlite"
    url = f"sqlite+aiosqlite:///{path}"
    upgrade("awards", url, "0004")
    payload = {"entrants": [{"birth_date": "2011-04-05", "entrant_id": "a", "name": "A"}], "name": "Open"}
    content = {"qualifiers": [{"birth_date": "2011-04-05", "entrant_id": "a"}, {"birth_date": None, "entrant_id": "b"}]}
    envelope = {
        "payload": {"qualifiers": [{"birth_date": "2011-04-05", "entrant_id": "a"}]},
        "type": "qualifiers.selected",
    }
    canonical = {"sort_keys": True, "separators": (",", ":")}
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO section_results VALUES ('E', 'S', 1, 'main', 'Open', 'individual', ?, '2026-01-01')",
            (json.dumps(payload, **canonical),),
        )
        db.execute(
            "INSERT INTO qualifier_selections (event_code, section_id, target_section_id, from_stage, to_stage, "
            "revision, source_revision, complete, content, updated_at) "
            "VALUES ('E', 'S', 'F', 'main', 'final', 1, 1, 1, ?, '2026-01-01')",
            (json.dumps(content, **canonical),),
        )
        db.execute(
            "INSERT INTO outbox (event_id, routing_key, body, headers, attempts) VALUES ('e1', 'qualifiers.selected', ?, '{}', 0)",
            (json.dumps(envelope, **canonical).encode(),),
        )
    upgrade("awards", url)
    with sqlite3.connect(path) as db:
        stored = db.execute("SELECT payload FROM section_results").fetchone()[0]
        selection = db.execute("SELECT content FROM qualifier_selections").fetchone()[0]
        body = bytes(db.execute("SELECT body FROM outbox").fetchone()[0]).decode()
    assert "2011-04-05" not in stored + selection + body
    # the contract's shape (birth_date kept empty), still canonical text
    assert json.loads(stored)["entrants"][0] == {"birth_date": None, "birth_year": 2011, "entrant_id": "a", "name": "A"}
    assert stored == json.dumps(json.loads(stored), **canonical)
    # computed lists hold the year instead, as the domain's rows now do
    assert json.loads(selection)["qualifiers"] == [
        {"birth_year": 2011, "entrant_id": "a"},
        {"birth_year": None, "entrant_id": "b"},
    ]
    assert selection == json.dumps(json.loads(selection), **canonical)
    assert json.loads(body)["payload"]["qualifiers"][0]["birth_year"] == 2011
