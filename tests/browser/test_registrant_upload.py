"""Issue 34: a parent sends the household registration (户籍) from the registrant's page, in a real
Chromium against the embedded runner. SZ 十三(一) (网上报名): the child is entered on the public
form at 390 px in Chinese; SZ 八(四) / REG-6: the section's residency rule asks for proof, so the
page's upload form preselects the pending household-registration record; the photo (a phone's
JPEG with GPS in its EXIF) is listed as waiting for review, never shown on the page; a file that is no
photo is refused in words, and a post without the form's own token stores nothing. The chief
arbiter opens the evidence review, sees the photo beside the record — served without its EXIF
GPS position — and approves it (REG-18); the registrant's page shows each step: accepted pending
evidence on entering, still pending with the photo waiting for review, then the document and the
entry accepted (the whole walk of issue 34's done-when, at 390 px). The same flow
again at 1366 px in English. Screenshots go to test-output/browser/registrant-upload/."""

from __future__ import annotations

import io

from browser_kit import OUT, chromium_page, console_signed_in, until
from PIL import Image, ImageDraw
from test_entry_form import DESKTOP, PHONE, _enter, _fits, _sz_event

SHOTS = OUT / "registrant-upload"


def household_photo(seed: int) -> bytes:
    """A phone's photo of a household-registration page, with the maker and a GPS position (Shenzhen)."""
    image = Image.new("RGB", (900, 1200), (226, 214, 190))
    draw = ImageDraw.Draw(image)
    draw.rectangle((30, 30, 870, 1170), outline=(120, 60, 40), width=10)
    for line in range(10):
        draw.rectangle((100, 160 + line * 90, 800 - (line + seed) % 4 * 120, 185 + line * 90), fill=(60, 50, 45))
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"
    exif.get_ifd(0x8825).update({1: "N", 2: (22.0, 32.0, 36.0), 3: "E", 4: (113.0, 56.0, 0.0)})
    out = io.BytesIO()
    image.save(out, "JPEG", exif=exif, quality=85)
    return out.getvalue()


async def _listed(page) -> str:
    return await page.inner_text("ul.uploaded-documents")


async def test_sz_8_4_a_parent_uploads_the_household_registration_and_the_arbiter_approves_it(served):
    code, _clock = await _sz_event(served)
    SHOTS.mkdir(parents=True, exist_ok=True)
    async with chromium_page() as (page, problems):
        for n, (viewport, lang) in enumerate(((PHONE, "zh"), (DESKTOP, "en")), start=1):
            zh, width = lang == "zh", viewport["width"]
            await page.set_viewport_size(viewport)
            url = (await _enter(page, served, code, lang, n, width)).split("?")[0]
            # step 1 on the registrant's page: the entry is in, waiting for the household registration
            pending = "已接受（待审材料）" if zh else "accepted, evidence pending"
            assert await page.inner_text("p.entry-status") == pending
            await page.screenshot(path=str(SHOTS / f"{width}-{lang}-0-entered.png"), full_page=True)
            # the kind and the record it supports are chosen already: the household registration
            assert await page.input_value("select[name=kind]") == "household_registration"
            chosen = await page.locator("select[name=evidence_id] option:checked").inner_text()
            assert chosen == ("户籍证明" if zh else "household registration"), chosen
            assert await page.get_attribute("input[name=file]", "accept") == "image/*,application/pdf"
            assert ("还没有上传文件" if zh else "No document sent yet") in await page.inner_text("main")
            if n == 1:  # a post without the form's own token (another site's page) stores nothing
                forged = await page.request.post(
                    f"{url}/documents?lang=zh",
                    multipart={
                        "kind": "household_registration",
                        "file": {"name": "x.jpg", "mimeType": "image/jpeg", "buffer": household_photo(9)},
                    },
                )
                assert "refused=csrf" in forged.url, forged.url
                assert "表单已失效或来源不明" in await forged.text()
                assert "还没有上传文件" in await forged.text()
            if n == 1:  # a file that is no photo: refused in words, the form offered again
                await page.set_input_files(
                    "input[name=file]", files=[{"name": "IMG_0033.jpg", "mimeType": "image/jpeg", "buffer": b"hello"}]
                )
                await page.click("form.upload-form button[type=submit]")
                await page.wait_for_url("**refused=**")
                refusal = await page.inner_text("p.refusal")
                assert refusal == "只接受 JPEG、PNG、WebP 照片或 PDF 文件。", refusal
                await _fits(page, width, "registrant's page with a refusal")
                await page.screenshot(path=str(SHOTS / f"{width}-{lang}-0-refused-file.png"), full_page=True)
            await page.set_input_files(
                "input[name=file]",
                files=[{"name": "IMG_0034.jpg", "mimeType": "image/jpeg", "buffer": household_photo(n)}],
            )
            await page.click("form.upload-form button[type=submit]")
            await page.wait_for_url("**#documents")
            assert "sent=1" in page.url, (page.url, await page.inner_text("main"))
            listed = await _listed(page)
            assert ("户口簿" if zh else "household registration") in listed, listed
            assert ("等待审核" if zh else "waiting for review") in listed, listed
            assert await page.locator("main img").count() == 0  # the photo itself is never on the page
            # step 2: the photo is in, the entry still waits for the arbiter
            assert await page.inner_text("p.entry-status") == pending
            await _fits(page, width, "registrant's page with a document")
            await page.screenshot(path=str(SHOTS / f"{width}-{lang}-1-sent.png"), full_page=True)

            # the chief arbiter reviews it beside the record and approves
            review = f"/staff/events/{code}/evidence"
            if n == 1:
                await console_signed_in(page, served, review)
            await page.goto(f"{served}{review}?lang={lang}")
            card = page.locator(".evidence", has=page.locator("figure.document img")).filter(
                has_text="王小明" if zh else "Wang Xiaoming"
            )
            photo = card.locator("figure.document img").first
            await photo.wait_for()
            assert ("报名人上传" if zh else "uploaded by the registrant") in await card.inner_text()
            width_loaded = await until(
                "the photo to load", lambda: photo.evaluate("i => i.complete ? i.naturalWidth : 0"), timeout_s=10
            )
            assert width_loaded == 900
            # the stored photo the arbiter is served: the pixels only, the phone's GPS position gone
            served_photo = await page.request.get(served + await photo.get_attribute("src"))
            assert served_photo.status == 200 and served_photo.headers["content-type"] == "image/jpeg"
            received = await served_photo.body()
            exif = Image.open(io.BytesIO(received)).getexif()
            assert not exif and not exif.get_ifd(0x8825) and b"PhoneMaker" not in received
            assert Image.open(io.BytesIO(household_photo(n))).getexif().get_ifd(0x8825)  # (the upload had it)
            await page.screenshot(path=str(SHOTS / f"{width}-{lang}-2-review.png"), full_page=True)
            await card.locator("button[value=approve]").click()
            await page.wait_for_load_state()

            await page.goto(f"{url}?lang={lang}")
            listed = await _listed(page)
            assert ("已通过" if zh else "accepted") in listed, listed
            status = await page.inner_text("p.entry-status")
            assert status == ("已接受" if zh else "accepted"), status
            await page.screenshot(path=str(SHOTS / f"{width}-{lang}-3-accepted.png"), full_page=True)
        assert problems == []
