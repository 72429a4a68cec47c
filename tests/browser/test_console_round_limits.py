"""PAIR-1 round limits in the staff console, in a real Chromium against the served embedded
runner (DA 七(四) 实际赛制和轮次视最终报名人数确定，原则上不超过7轮). Nine players in the open
section, all checked in, and a schedule that starts nine rounds: the operator's round robin (9 rounds) is refused
in words beside the close form, naming the maximum; with a reason typed beside the format, the
organiser closes it, and the section's rounds and the reason are what registration answers.
Screenshots go to test-output/browser/."""

from __future__ import annotations

import httpx
from browser_kit import OUT, chromium_page, key_sign_in

from gomoku_shared.event_config import EventConfig
from gomoku_sim.client import Keys
from registration import presets

CODE = "da-rounds"
OP, P = {"x-api-key": Keys().operator}, {"x-api-key": Keys().partner}
NINE_SLOTS = [
    {"round": 8, "starts_at": "2023-08-22T14:30:00+08:00", "sections": ["open", "junior", "public"]},
    {"round": 9, "starts_at": "2023-08-22T19:00:00+08:00", "sections": ["open", "junior", "public"]},
]


def _overrides() -> dict:
    da: EventConfig = presets.load("da-2023")
    schedule = da.model_dump(mode="json")["schedule"]
    schedule["stages"][0]["slots"] += NINE_SLOTS
    return {"schedule": schedule, "fees": {"required_for_validity": False}}


async def _nine_players(http: httpx.AsyncClient) -> None:
    clock = {"set": "2023-08-05T10:00:00+08:00"}
    assert (await http.post("/gameplay/v1/ops/clock", headers=OP, json=clock)).status_code == 200
    body = {"preset_id": "da-2023", "event_code": CODE, "overrides": _overrides()}
    assert (await http.post("/registration/v1/events", headers=OP, json=body)).status_code == 201
    unit = {"id": "hainan", "name": "Hainan", "kind": "province"}
    assert (await http.post(f"/registration/v1/events/{CODE}/units", headers=P, json=unit)).status_code == 201
    entry_ids = []
    for n in range(1, 10):
        entry = {
            "section_id": "open",
            "player": {
                "name": f"Rounds {n}",
                "gender": "male",
                "birth_date": "1990-05-05",
                "id_number": f"46010019900505{n:04d}",
                "unit": "hainan",
            },
            "insurance": {"confirmed": True, "document_ref": f"INS-R-{n}"},
        }
        r = await http.post(f"/registration/v1/events/{CODE}/entries", headers=P, json=entry)
        assert r.json()["status"] == "accepted", r.text
        entry_ids.append(r.json()["entry_id"])
    clock = {"set": "2023-08-18T18:00:00+08:00"}
    assert (await http.post("/gameplay/v1/ops/clock", headers=OP, json=clock)).status_code == 200
    check_in = {
        "entry_ids": entry_ids,
        "insurance_refs": {e: f"DA-POLICY-{i}" for i, e in enumerate(entry_ids)},
        "documents_shown": list(presets.load("da-2023").check_in.documents),
    }
    r = await http.post(f"/registration/v1/events/{CODE}/stages/main/check-in", headers=OP, json=check_in)
    assert r.status_code == 200 and {x["status"] for x in r.json()["results"]} == {"checked_in"}, r.text


async def test_pair1_an_organiser_closes_beyond_an_in_principle_maximum_with_a_reason_in_chromium(served):
    async with httpx.AsyncClient(base_url=served, timeout=30) as http:
        await _nine_players(http)
        async with chromium_page() as (page, problems):
            await page.goto(f"{served}/staff/events/{CODE}")
            await key_sign_in(page)
            await page.fill("input[name=api_key]", Keys().operator)
            await page.click("form button[type=submit]")
            await page.wait_for_url(f"**/staff/events/{CODE}")
            form = page.locator("form[action$='/stages/main/close']")

            # a round robin of 9 without a reason: refused in words, naming the maximum
            await form.locator("select[name='format.open']").select_option("round_robin")
            await form.locator("button[type=submit]").click()
            said = await page.inner_text(".refusal")
            assert "最多 7 轮" in said and "PAIR-1" in said and "理由" in said and "尚未截止" in said, said
            await page.screenshot(path=str(OUT / "staff-close-rounds-refused.png"), full_page=True)

            # the organiser's reason beside the format: closed with 9 rounds
            form = page.locator("form[action$='/stages/main/close']")
            await form.locator("select[name='format.open']").select_option("round_robin")
            await form.locator("input[name='reason.open']").fill("九人参赛，主办方决定单循环")
            await form.locator("button[type=submit]").click()
            await page.wait_for_selector(".done")
            await page.screenshot(path=str(OUT / "staff-close-rounds-reason.png"), full_page=True)
            assert not problems, problems
        stage = (await http.get(f"/registration/v1/events/{CODE}/stages/main", headers=OP)).json()
        assert stage["status"] == "closed", stage
        section = next(s["closed"] for s in stage["sections"] if s["section_id"] == "open")
        assert (section["format"], section["rounds"]) == ("round_robin", 9)
        assert "九人参赛，主办方决定单循环" in section["reason"]
