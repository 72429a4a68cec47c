"""Fuzzing the delegation's routes (issue 34) with a valid secret link, as the registrant's are
(test_fuzz_registrant.py): the other fuzz runs reach them only with generated tokens, refused
alike (404 ``unknown_delegation_link``, then 429 ``too_many_link_failures``), so nothing behind
the token was fuzzed. Here a unit's leader starts a delegation of a DA 2023 event (DA 十(一)1:
各单位统一报名), submits its roster and uploads its stamped entry form, and schemathesis sends
generated requests to every delegation route with that token in ``X-Delegation-Token`` (and no
API key): the page, rosters checked and submitted of every shape, uploads, reads of known and
generated document ids. Every answer must be documented (runner.py's checks), never a 5xx, and
the token must reach the routes (2xx answers, few 404s)."""

from __future__ import annotations

import asyncio

import httpx

from gomoku_sim.bots import BotPolicy
from gomoku_sim.driver import EventDriver, RunSpec

from .runner import fuzz_service
from .seeding import embedded_stack_process
from .test_fuzz_registrant import REGISTRANT_PATHS, _photo
from .verdict import verdict

#: the routes a delegation's link opens (delegation_api.py, delegation_documents.py)
DELEGATION_PATHS = (
    "/v1/delegation",
    "/v1/delegation/roster",
    "/v1/delegation/roster/check",
    "/v1/delegation/documents",
    "/v1/delegation/documents/{document_id}",
)
START = {"unit_name": "三亚市代表队", "leader_name": "王领队", "leader_phone": "13922223333"}
ROSTER = {
    "people": [
        {"role": "leader", "name": "王领队", "room": "single", "nights": 3, "services": {"shuttle": 1}},
        {
            "role": "player",
            "name": "黄海",
            "gender": "male",
            "birth_date": "2000-02-02",
            "id_number": "460200200002020019",
            "sections": [{"section_id": "open"}],
            "room": "standard",
            "nights": 4,
            "services": {"shuttle": 2},
        },
    ],
    "insurance_policy": "PICC-FUZZ-DA",
}


async def test_fuzz_the_delegation_routes_with_a_valid_delegation_token(tmp_path):
    """Issue 34: the delegation's routes fuzzed behind a valid secret link."""
    async with embedded_stack_process(tmp_path) as stack:
        spec = RunSpec(preset_id="da-2023", seed=7, sizes={}, policy=BotPolicy(), progress=False)
        driver = EventDriver(stack.platform, stack.clock, stack.quiet, spec)
        await driver.create_event()  # its clock inside the registration window
        base = stack.urls["registration"]
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            made = await http.post(f"/v1/events/{driver.code}/delegations", json=START)
            assert made.status_code == 201, made.text
            link = {"X-Delegation-Token": made.json()["token"]}
            roster = await http.put("/v1/delegation/roster", headers=link, json=ROSTER)
            assert roster.status_code == 200, roster.text
            sent = await http.post(
                "/v1/delegation/documents",
                headers=link,
                data={"kind": "stamped_entry_form"},
                files={"file": ("IMG_2.jpg", _photo(), "image/jpeg")},
            )
            assert sent.status_code == 201, sent.text
        report = await asyncio.to_thread(
            fuzz_service,
            "registration",
            base,
            {"delegation": ""},
            examples=30,
            known={"document_id": [sent.json()["document_id"]]},
            only_paths=DELEGATION_PATHS,
            headers_of={"delegation": link},
        )
        assert "Traceback" not in stack.extras["log"].read_text()
    verdict("embedded, a delegation's link", [report])
    # the page, the roster's PUT and check, the documents' POST and GET, one document
    assert report.operations == 6, report.line()
    answers = {status: n for (name, status), n in report.statuses.items() if name == "delegation"}
    # the token reached the routes: the page, the documents and checked rosters answered
    # (generated rosters and uploads are mostly refused by their content, 422; only generated
    # document ids are unknown: 404)
    assert answers.get(200, 0) >= 3, answers
    assert answers.get(404, 0) < sum(answers.values()) / 4, answers


async def test_fuzz_the_link_routes_with_generated_tokens_until_throttled(tmp_path):
    """Issue 34: every route a secret link opens (registrant's and delegation's) fuzzed with
    generated tokens from one address: refused 404 until the address must wait, then 429
    ``too_many_link_failures`` with Retry-After; every answer documented, none a 5xx. (The fuzzed
    stack's throttle is lax for the fuzzer's wrong API keys: here, locked out at the fourth.)"""
    strict = {"CREDENTIAL_FREE_FAILURES": "3", "CREDENTIAL_LOCKOUT_AFTER": "4"}
    async with embedded_stack_process(tmp_path, strict) as stack:
        spec = RunSpec(preset_id="da-2023", seed=7, sizes={}, policy=BotPolicy(), progress=False)
        await EventDriver(stack.platform, stack.clock, stack.quiet, spec).create_event()
        report = await asyncio.to_thread(
            fuzz_service,
            "registration",
            stack.urls["registration"],
            {"guesser": ""},
            examples=10,
            only_paths=DELEGATION_PATHS + REGISTRANT_PATHS,
        )
        assert "Traceback" not in stack.extras["log"].read_text()
    verdict("embedded, generated links", [report])
    answers = {status: n for (name, status), n in report.statuses.items() if name == "guesser"}
    assert answers.get(404, 0) and answers.get(429, 0), answers
    assert not any(200 <= status < 300 for status in answers), answers
