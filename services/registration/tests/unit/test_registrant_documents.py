"""Issue 34: a registrant uploads documents to their own entry by its secret link (SZ 十三(一):
individuals register online; SZ 八(四): the arbiter sees the household registration, 户籍). The
link proves one entry: another entry's documents answer 404, as unknown ones. The upload joins
the entry's pending evidence of its kind (REG-6), so the arbiter reviews it beside that record,
and the caps that bind every uploader (bytes per file, bytes per entry) bind the registrant too."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image
from registration_kit import ARB, harness

from registration.domain.documents import DocumentLimits

from .test_service_public_entries import form, url

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow


def photo(red: int = 180, size: tuple[int, int] = (64, 40)) -> bytes:
    """A phone's JPEG with a GPS position in its EXIF (Shenzhen)."""
    exif = Image.Exif()
    exif.get_ifd(0x8825).update({1: "N", 2: (22.0, 32.0, 36.0), 3: "E", 4: (114.0, 3.0, 0.0)})
    out = io.BytesIO()
    Image.new("RGB", size, (red, 40, 40)).save(out, "JPEG", exif=exif)
    return out.getvalue()


async def _enter(h, n: int) -> str:
    r = await h.client.post(url(), json=form(n))
    assert r.status_code == 201, r.text
    return r.json()["token"]


async def _upload(h, token: str, data: bytes, **fields):
    return await h.client.post(
        "/v1/registrant/documents",
        headers={"X-Registrant-Token": token},
        data={"kind": "household_registration", **fields},
        files={"file": ("IMG_0001.jpg", data, "image/jpeg")},
    )


async def test_sz_8_4_the_registrant_uploads_to_their_entry_beside_its_pending_household_evidence(tmp_path):
    """REG-6 / SZ 八(四): the photo joins the pending 户籍 record; stored without GPS; listed waiting."""
    async with harness(tmp_path) as h:
        await h.create_sz()
        token = await _enter(h, 1)
        page = (await h.client.get("/v1/registrant", headers={"X-Registrant-Token": token})).json()
        evidence_id = page["evidence"][0]["evidence_id"]
        r = await _upload(h, token, photo())
        assert r.status_code == 201, r.text
        doc = r.json()
        assert doc["evidence_id"] == evidence_id and doc["uploaded_by"] == "registrant"
        assert doc["entry_id"] == page["entry_id"] and doc["review_state"] == "pending"
        listed = await h.client.get("/v1/registrant/documents", headers={"X-Registrant-Token": token})
        assert [d["document_id"] for d in listed.json()["documents"]] == [doc["document_id"]]
        back = await h.client.get(
            f"/v1/registrant/documents/{doc['document_id']}", headers={"X-Registrant-Token": token}
        )
        assert back.status_code == 200 and back.headers["cache-control"] == "no-store"
        assert not Image.open(io.BytesIO(back.content)).getexif().get_ifd(0x8825)
        # the arbiter's review of the event's documents shows it beside that evidence
        staff = await h.client.get("/v1/events/sz22/documents", headers=ARB)
        assert [(d["document_id"], d["evidence_id"]) for d in staff.json()["documents"]] == [
            (doc["document_id"], evidence_id)
        ]


async def test_another_entrys_documents_are_unknown_to_a_registrant(tmp_path):
    """A link proves its own entry alone: another's document, list and evidence answer 404/422."""
    async with harness(tmp_path) as h:
        await h.create_sz()
        mine, theirs = await _enter(h, 1), await _enter(h, 2)
        their_page = (await h.client.get("/v1/registrant", headers={"X-Registrant-Token": theirs})).json()
        their_doc = (await _upload(h, theirs, photo(90))).json()
        other = await h.client.get(
            f"/v1/registrant/documents/{their_doc['document_id']}", headers={"X-Registrant-Token": mine}
        )
        assert other.status_code == 404 and other.json()["error"]["code"] == "unknown_document"
        listed = await h.client.get("/v1/registrant/documents", headers={"X-Registrant-Token": mine})
        assert listed.json()["documents"] == []
        naming_theirs = await _upload(h, mine, photo(), evidence_id=their_page["evidence"][0]["evidence_id"])
        assert naming_theirs.status_code == 422, naming_theirs.text
        assert naming_theirs.json()["error"]["code"] == "evidence_not_of_entry"
        forged = await _upload(h, "x" * 43, photo())
        assert forged.status_code == 404 and forged.json()["error"]["code"] == "unknown_registrant_link"


async def test_the_caps_of_every_uploader_bind_the_registrant(tmp_path):
    """Bytes per file (413) and bytes per entry (413 document_entry_full); a text file is refused."""
    async with harness(tmp_path) as h:
        await h.create_sz()
        token = await _enter(h, 1)
        h.service.app.state.registration.documents = DocumentLimits(max_bytes=20_000, max_bytes_per_entry=3_000)
        first = await _upload(h, token, photo())
        assert first.status_code == 201, first.text
        big = await _upload(h, token, b"\xff\xd8\xff" + bytes(30_000))
        assert big.status_code == 413, big.text
        assert (await _upload(h, token, b"not a photo at all")).status_code == 422
        noisy = io.BytesIO()  # noise does not compress: well over what the entry has left
        Image.frombytes("RGB", (60, 60), random.Random(34).randbytes(60 * 60 * 3)).save(noisy, "JPEG")
        full = await _upload(h, token, noisy.getvalue())
        assert full.status_code == 413 and full.json()["error"]["code"] == "document_entry_full", full.text
        listed = await h.client.get("/v1/registrant/documents", headers={"X-Registrant-Token": token})
        assert len(listed.json()["documents"]) == 1
