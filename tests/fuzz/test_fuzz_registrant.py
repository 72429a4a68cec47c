"""Fuzzing the registrant's routes (issue 34) with a valid secret link: the other fuzz runs
(test_fuzz.py) reach them only with generated tokens, which every route refuses alike (404
``unknown_registrant_link``), so nothing behind the token was fuzzed. Here a parent's entry is
made on the public form of an SZ 2022 event (SZ 十三(一) 网上报名) and its document uploaded, and
schemathesis sends generated requests to every registrant route with that entry's token in
``X-Registrant-Token`` (and no API key): uploads of every shape, reads of known and generated
document ids. Every answer must be documented (runner.py's checks), never a 5xx, and the
token must reach the routes (2xx answers, few 404s)."""

from __future__ import annotations

import asyncio
import io

import httpx
from PIL import Image

from gomoku_sim.bots import BotPolicy
from gomoku_sim.driver import EventDriver, RunSpec

from .runner import fuzz_service
from .seeding import embedded_stack_process
from .verdict import verdict

#: the routes a registrant's link opens (public_api.py, registrant_documents.py)
REGISTRANT_PATHS = ("/v1/registrant", "/v1/registrant/documents", "/v1/registrant/documents/{document_id}")
CHILD = {
    "section_id": "junior-boys-free",
    "name": "张小军",
    "gender": "male",
    "birth_date": "2011-02-03",
    "id_number": "440307201102030017",
    "guardian_phone": "13511112222",
    "residency": {"kind": "household_registration", "region": "宝安区"},
    "insurance_policy": "PICC-FUZZ-1",
}


def _photo() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), (90, 120, 150)).save(out, "JPEG")
    return out.getvalue()


async def test_fuzz_the_registrant_routes_with_a_valid_registrant_token(tmp_path):
    """Issue 34: the registrant's routes fuzzed behind a valid secret link."""
    async with embedded_stack_process(tmp_path) as stack:
        spec = RunSpec(preset_id="sz-2022", seed=7, sizes={}, policy=BotPolicy(), progress=False)
        driver = EventDriver(stack.platform, stack.clock, stack.quiet, spec)
        await driver.create_event()  # its clock inside the registration window
        base = stack.urls["registration"]
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            made = await http.post(f"/v1/events/{driver.code}/public-entries", json=CHILD)
            assert made.status_code == 201, made.text
            link = {"X-Registrant-Token": made.json()["token"]}
            sent = await http.post(
                "/v1/registrant/documents",
                headers=link,
                data={"kind": "household_registration"},
                files={"file": ("IMG_1.jpg", _photo(), "image/jpeg")},
            )
            assert sent.status_code == 201, sent.text
        report = await asyncio.to_thread(
            fuzz_service,
            "registration",
            base,
            {"registrant": ""},
            examples=30,
            known={"document_id": [sent.json()["document_id"]]},
            only_paths=REGISTRANT_PATHS,
            headers_of={"registrant": link},
        )
        assert "Traceback" not in stack.extras["log"].read_text()
    verdict("embedded, a registrant's link", [report])
    assert report.operations == 4, report.line()  # GET /registrant, the documents' POST and GET, one document
    answers = {status: n for (name, status), n in report.statuses.items() if name == "registrant"}
    # the token reached the routes: the entry and its documents read (generated uploads are
    # refused by their content, 422, and only generated document ids are unknown: 404)
    assert answers.get(200, 0) >= 2, answers
    assert answers.get(404, 0) < sum(answers.values()) / 4, answers
