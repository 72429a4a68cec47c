"""Issue 34: the arbiter reviews evidence with the document in view, in a real Chromium against
the embedded runner served over a socket.

A DA 2023 field is registered; the partner adds a grade certificate for one entry (REG-6, still
to review) and uploads the certificate's photo (a phone's JPEG with GPS in its EXIF) for it. On
the staff console's evidence review page the photo is shown beside the record — through the
portal, with the arbiter's own credential — on a phone (390 × 844, Chinese) and on a desktop
(1366 px, English); the image the browser receives has no EXIF, and the file's own answer is
never cached. Screenshots go to test-output/browser/.
"""

from __future__ import annotations

import io

import httpx
from browser_kit import OUT, chromium_page, console_signed_in, registered_da_event, until
from PIL import Image, ImageDraw
from pypdf import PdfWriter

from gomoku_sim.client import Keys


def certificate_photo() -> bytes:
    """A phone's photo of a certificate: a framed page with lines of text and a red seal, and
    EXIF with the phone's maker and a GPS position."""
    image = Image.new("RGB", (1200, 850), (236, 228, 205))
    draw = ImageDraw.Draw(image)
    draw.rectangle((40, 40, 1160, 810), outline=(150, 40, 30), width=14)
    for line in range(7):
        draw.rectangle((140, 170 + line * 80, 1060 - (line % 3) * 160, 195 + line * 80), fill=(70, 60, 50))
    draw.ellipse((820, 560, 1040, 780), outline=(200, 20, 20), width=12)
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"
    exif.get_ifd(0x8825).update({1: "N", 2: (38.0, 54.0, 50.0), 3: "E", 4: (121.0, 36.0, 0.0)})
    out = io.BytesIO()
    image.save(out, "JPEG", exif=exif, quality=85)
    return out.getvalue()


def entry_form_pdf() -> bytes:
    out = io.BytesIO()
    writer = PdfWriter()
    writer.add_blank_page(width=595, height=842)
    writer.write(out)
    return out.getvalue()


async def loaded_width(photo) -> int:
    """The photo's width in pixels once the browser has it (0 until then)."""
    return int(await photo.evaluate("img => img.complete ? img.naturalWidth : 0") or 0)


async def test_issue34_reg6_the_arbiter_sees_the_certificate_photo_beside_its_record(served):
    platform, driver = await registered_da_event(served, seed=7, sizes={"open": 4, "junior": 0, "public": 0})
    code = driver.code
    # an entry of the partner's (a delegation that entered through the roster door is not theirs)
    entries = await platform.get("registration", f"/v1/events/{code}/entries", role="partner")
    first = sorted(e["entry_id"] for e in entries["entries"] if e.get("section_id") == "open")[0]
    record = await platform.post(
        "registration",
        f"/v1/events/{code}/evidence",
        {"entry_id": first, "kind": "grade_certificate", "document_ref": "grade-scan-34", "grade": "1d"},
        role="partner",
    )
    evidence_id = record["evidence_id"]
    async with httpx.AsyncClient(base_url=f"{served}/registration", timeout=30) as client:
        uploaded = await client.post(
            f"/v1/events/{code}/entries/{first}/documents",
            headers={"x-api-key": Keys().partner},
            data={"kind": "grade_certificate", "evidence_id": evidence_id},
            files={"file": ("IMG_2041.jpg", certificate_photo(), "image/jpeg")},
        )
        # the signed entry form as a PDF, for the entry rather than one record
        form = await client.post(
            f"/v1/events/{code}/entries/{first}/documents",
            headers={"x-api-key": Keys().partner},
            data={"kind": "stamped_form"},
            files={"file": ("form.pdf", entry_form_pdf(), "application/pdf")},
        )
    assert uploaded.status_code == 201, uploaded.text
    assert form.status_code == 201, form.text
    path = f"/staff/events/{code}/evidence"
    async with chromium_page(height=844) as (page, problems):
        await page.set_viewport_size({"width": 390, "height": 844})
        await console_signed_in(page, served, path)
        card = page.locator(f'.evidence[data-evidence="{evidence_id}"]')
        photo = card.locator("figure.document img")
        await photo.wait_for()
        assert await photo.get_attribute("alt") == "段级位证书的照片"
        assert "段级位证书" in await card.locator("figure.document").first.inner_text()
        assert "报名平台上传" in await card.inner_text()
        # the photo is loaded (through the portal, with the arbiter's credential) and fits the phone
        assert await until("the photo to load", lambda: loaded_width(photo), timeout_s=10) == 1200
        box = await photo.bounding_box()
        assert box is not None and 200 < box["width"] <= 390 and box["height"] > 100, box
        # the entry's PDF, uploaded for no record, beside each of its records: a link in words
        pdf_link = card.locator("figure.document a", has_text="盖章报名表")
        assert await pdf_link.inner_text() == "打开 PDF：盖章报名表"
        await page.screenshot(path=str(OUT / "staff-evidence-document-phone-zh.png"), full_page=True)
        pdf = await page.request.get(served + await pdf_link.get_attribute("href"))
        assert pdf.status == 200 and pdf.headers["content-type"] == "application/pdf"
        assert pdf.headers["content-disposition"] == "inline" and pdf.headers["cache-control"] == "no-store"
        assert (await pdf.body()).startswith(b"%PDF-")

        # what the browser received: the pixels only, never cached
        answer = await page.request.get(served + await photo.get_attribute("src"))
        assert answer.status == 200 and answer.headers["content-type"] == "image/jpeg"
        assert answer.headers["cache-control"] == "no-store" and answer.headers["x-content-type-options"] == "nosniff"
        received = await answer.body()
        assert b"PhoneMaker" not in received and not Image.open(io.BytesIO(received)).getexif()

        await page.set_viewport_size({"width": 1366, "height": 900})
        await page.goto(f"{served}{path}?lang=en")
        card = page.locator(f'.evidence[data-evidence="{evidence_id}"]')
        photo = card.locator("figure.document img")
        await photo.wait_for()
        assert await photo.get_attribute("alt") == "Photo of the grade certificate"
        assert "uploaded by the registering platform" in await card.inner_text()
        assert await until("the photo to load", lambda: loaded_width(photo), timeout_s=10) == 1200
        # the record and its approval are in view with the photo: the buttons follow it
        assert await card.locator("button[value=approve]").is_visible()
        await page.screenshot(path=str(OUT / "staff-evidence-document-desktop-en.png"), full_page=True)
        assert problems == []
