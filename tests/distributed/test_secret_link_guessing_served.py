"""Issue 34 over a real socket: guessing secret links is throttled as guessing API keys is.
Registration served as its own process (migrated by alembic) on PostgreSQL + RabbitMQ, the
throttle's figures from its settings (CREDENTIAL_FREE_FAILURES, as for wrong API keys). A parent
enters a child on the public form; a guesser behind the portal (its address forwarded) sends
wrong registrant tokens: 404 for the free ones and one more, then 429 too_many_link_failures with
Retry-After, for the right token too and for a delegation token (one count per address). The parent,
from another address, still reads the entry. The token is kept only as its SHA-256 and appears
in no log of the process."""

from __future__ import annotations

import hashlib

from .registration_served import registration_alone, rows
from .test_public_entries_served import CHILD, KEYS, OP, SZ_OPEN

FREE = 3
GUESSER = {"X-Forwarded-For": "198.51.100.7"}
PARENT = {"X-Forwarded-For": "203.0.113.5"}


async def test_issue_34_wrong_secret_link_tokens_are_throttled_served(
    fresh_database, amqp_url, bus_namespace, tmp_path
):
    env = {
        "API_KEYS": KEYS,
        "CLOCK": "fake",
        "CLOCK_START": SZ_OPEN,
        "DATA_KEY": "link-guessing-served",
        "CREDENTIAL_FREE_FAILURES": str(FREE),
        "CREDENTIAL_LOCKOUT_AFTER": "10",
    }
    async with registration_alone(fresh_database, amqp_url, bus_namespace, tmp_path, env) as (url, http):
        r = await http.post("/v1/events", headers=OP, json={"preset_id": "sz-2022", "event_code": "sz-guess"})
        assert r.status_code == 201, r.text
        made = await http.post("/v1/events/sz-guess/public-entries", json=CHILD, headers=PARENT)
        assert made.status_code == 201, made.text
        token = made.json()["token"]

        for i in range(FREE + 1):
            guess = f"guess{i:02d}" + token[7:]
            wrong = await http.get("/v1/registrant", headers={**GUESSER, "X-Registrant-Token": guess})
            assert wrong.status_code == 404 and wrong.json()["error"]["code"] == "unknown_registrant_link", wrong.text
        blocked = await http.get("/v1/registrant", headers={**GUESSER, "X-Registrant-Token": token})
        assert blocked.status_code == 429, blocked.text
        error = blocked.json()["error"]
        assert error["code"] == "too_many_link_failures" and error["details"]["free_failures"] == FREE
        assert int(blocked.headers["Retry-After"]) == error["details"]["retry_after_s"] >= 1
        assert token not in blocked.text
        other_kind = await http.get("/v1/delegation", headers={**GUESSER, "X-Delegation-Token": "d" * 43})
        assert other_kind.status_code == 429 and other_kind.json()["error"]["code"] == "too_many_link_failures"

        page = await http.get("/v1/registrant", headers={**PARENT, "X-Registrant-Token": token})
        assert page.status_code == 200 and page.json()["section_id"] == CHILD["section_id"], page.text

        stored = await rows(url, "SELECT token_sha256 FROM registrant_links")
        assert stored == [(hashlib.sha256(token.encode()).hexdigest(),)]
    logs = [p.read_text(errors="replace") for p in tmp_path.rglob("*") if p.is_file()]
    assert logs and not any(token in text for text in logs)
