"""Issue 34: a delegation's leader sends the unit's documents from the delegation's page (NY
十二(一), DA 十(一)1, NT 十(一)1: the stamped entry form, ID-card and insurance scans, the payment's
screenshot), in a real Chromium against the embedded runner at 390 px in Chinese. An NY 2022
delegation with its roster sent: the page offers the kinds and the roster's players; a file that is
no photo is refused in words; the ID card of a player, a phone's JPEG with GPS in its EXIF, is
listed by kind, person and review state, never shown; the arbiter follows the entries page's
delegations table to the unit's documents and is served the photo without its GPS. Screenshots
go to test-output/browser/delegation-documents/."""

from __future__ import annotations

import io

import httpx
from browser_kit import OUT, account_sign_in, chromium_page, demo_accounts, until
from PIL import Image
from test_console_delegation_relink import _player
from test_delegation_roster import PHONE, _fits, _ny_event
from test_registrant_upload import household_photo

SHOTS = OUT / "delegation-documents"


async def test_ny_12_1_a_leader_sends_a_players_id_card_and_the_arbiter_reads_it_at_390_px_zh(served):
    code, _platform = await _ny_event(served)
    async with httpx.AsyncClient(timeout=30) as http:
        body = {"unit_name": "浙江省", "leader_name": "王领队", "leader_phone": "13900001234"}
        made = await http.post(f"{served}/registration/v1/events/{code}/delegations", json=body)
        assert made.status_code == 201, made.text
        token = made.json()["token"]
        roster = {"people": [{"role": "leader", "name": "王领队"}, _player(1)]}
        headers = {"X-Delegation-Token": token}
        sent = await http.put(f"{served}/registration/v1/delegation/roster", headers=headers, json=roster)
        assert sent.status_code == 200, sent.text
    SHOTS.mkdir(parents=True, exist_ok=True)
    async with chromium_page() as (page, problems):
        await page.set_viewport_size(PHONE)
        await page.goto(f"{served}/delegation/{token}?lang=zh")
        main = await page.inner_text("main")
        assert "请上传加盖公章的报名表" in main and "还没有上传文件" in main
        kinds = await page.locator("select[name=kind] option").all_inner_texts()
        assert kinds == ["盖章报名表", "缴费截图", "身份证", "保险单", "其他材料"], kinds
        people = await page.locator("select[name=person_id] option").all_inner_texts()
        assert people == ["整个代表队", "选手1"], people
        await _fits(page, 390, "delegation's page")
        await page.screenshot(path=str(SHOTS / "390-zh-0-form.png"), full_page=True)

        # a file that is no photo: refused in words
        await page.set_input_files(
            "input[name=file]", files=[{"name": "form.jpg", "mimeType": "image/jpeg", "buffer": b"hello"}]
        )
        await page.click("form.upload-form button[type=submit]")
        await page.wait_for_url("**refused=**")
        assert await page.inner_text("p.refusal") == "只接受 JPEG、PNG、WebP 照片或 PDF 文件。"

        # the player's ID card, a phone's photo with its GPS position
        await page.select_option("select[name=kind]", "id_card")
        await page.select_option("select[name=person_id]", label="选手1")
        await page.set_input_files(
            "input[name=file]", files=[{"name": "IMG_0101.jpg", "mimeType": "image/jpeg", "buffer": household_photo(3)}]
        )
        await page.click("form.upload-form button[type=submit]")
        await page.wait_for_url("**doc_sent=1**")
        listed = await page.inner_text("ul.uploaded-documents")
        assert "身份证 · 选手1" in listed and "等待审核" in listed, listed
        assert await page.locator("main img").count() == 0  # the photo itself is never on the page
        await _fits(page, 390, "delegation's page with a document")
        await page.screenshot(path=str(SHOTS / "390-zh-1-sent.png"), full_page=True)

        # the arbiter: the entries page's delegations table leads to the unit's documents
        accounts = await demo_accounts(served)
        await account_sign_in(page, served, accounts["arbiter"], "zh")
        await page.goto(f"{served}/staff/events/{code}/entries?lang=zh")
        await page.locator("table.delegations tr", has_text="浙江省").locator("a.unit-documents").click()
        await page.wait_for_url("**/units/*/documents")
        assert "浙江省 上传的文件" in await page.inner_text("h1")
        photo = page.locator("figure.document img").first
        await photo.wait_for()
        assert "代表队领队上传" in await page.inner_text("main") and "身份证 · 选手1" in await page.inner_text("main")
        loaded = await until(
            "the photo to load", lambda: photo.evaluate("i => i.complete ? i.naturalWidth : 0"), timeout_s=10
        )
        assert loaded == 900
        served_photo = await page.request.get(served + await photo.get_attribute("src"))
        assert served_photo.status == 200 and served_photo.headers["content-type"] == "image/jpeg"
        assert not Image.open(io.BytesIO(await served_photo.body())).getexif().get_ifd(0x8825)
        await _fits(page, 390, "the unit's documents")
        await page.screenshot(path=str(SHOTS / "390-zh-2-staff.png"), full_page=True)
        assert problems == []
