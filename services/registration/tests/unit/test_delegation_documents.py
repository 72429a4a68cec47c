"""Issue 34: a delegation sends its documents by its secret link (NY 十二(一), DA 十(一)1, NT 十(一)1:
the unit sends the stamped entry form, the ID-card and insurance scans and a screenshot of the
payment). The checks of every uploader apply (type by content, bytes per file, GPS stripped);
a link proves its own delegation alone: another's documents answer 404, another's person 422;
the arbiter lists a unit's documents and reads one."""

from __future__ import annotations

import io
from datetime import datetime

import pytest
from PIL import Image
from registration_kit import ARB, CST, OP, P1, harness

from registration.domain.documents import DocumentLimits

from .test_registrant_documents import photo
from .test_service_delegations_door import LEADER, create, ny_player, start, tok

pytestmark = pytest.mark.slow

NOW = datetime(2022, 7, 20, 10, 0, tzinfo=CST)


async def _upload(h, token: str, data: bytes, kind: str = "stamped_entry_form", **fields):
    return await h.client.post(
        "/v1/delegation/documents",
        headers=tok(token),
        data={"kind": kind, **fields},
        files={"file": ("IMG_0001.jpg", data, "image/jpeg")},
    )


async def _two_delegations(h) -> tuple[str, str, str, str]:
    """Two delegations with one player each: their tokens and their players' person ids."""
    await create(h, "ny-2022", "ny22")
    ours, theirs = await start(h, "ny22"), await start(h, "ny22", unit="江苏省")
    ids = []
    for token, n in ((ours, 1), (theirs, 2)):
        r = await h.client.put("/v1/delegation/roster", headers=tok(token), json={"people": [LEADER, ny_player(n)]})
        assert r.status_code == 200, r.text
        page = (await h.client.get("/v1/delegation", headers=tok(token))).json()
        ids.append(next(p["person_id"] for p in page["people"] if p["role"] == "player"))
    return ours, theirs, ids[0], ids[1]


async def test_ny_12_1_a_delegation_sends_its_stamped_form_stored_without_gps_and_the_arbiter_reads_it(tmp_path):
    """NY 十二(一) / DA 十(一)1: the leader's photo is stored without its EXIF GPS, listed on the
    delegation's page and its document list, and the arbiter lists the unit's documents and reads it."""
    async with harness(tmp_path, start=NOW) as h:
        ours, _theirs, our_player, _ = await _two_delegations(h)
        r = await _upload(h, ours, photo())
        assert r.status_code == 201, r.text
        form = r.json()
        assert form["kind"] == "stamped_entry_form" and form["uploaded_by"] == "delegation"
        assert form["entry_id"] == "" and form["person_id"] is None and form["unit_id"]
        card = await _upload(h, ours, photo(90), kind="id_card", person_id=our_player)
        assert card.status_code == 201 and card.json()["person_id"] == our_player, card.text
        listed = (await h.client.get("/v1/delegation/documents", headers=tok(ours))).json()["documents"]
        # (one instant on the test's clock: the list's order is then by id)
        assert sorted(d["kind"] for d in listed) == ["id_card", "stamped_entry_form"]
        page = (await h.client.get("/v1/delegation", headers=tok(ours))).json()
        assert [d["document_id"] for d in page["documents"]] == [d["document_id"] for d in listed]
        back = await h.client.get(f"/v1/delegation/documents/{form['document_id']}", headers=tok(ours))
        assert back.status_code == 200 and back.headers["cache-control"] == "no-store"
        assert not Image.open(io.BytesIO(back.content)).getexif().get_ifd(0x8825)  # the GPS is gone
        unit = form["unit_id"]
        staff = await h.client.get(f"/v1/events/ny22/units/{unit}/documents", headers=ARB)
        assert staff.status_code == 200, staff.text
        assert [d["document_id"] for d in staff.json()["documents"]] == [d["document_id"] for d in listed]
        one = await h.client.get(f"/v1/events/ny22/units/{unit}/documents/{form['document_id']}", headers=ARB)
        assert one.status_code == 200 and one.content == back.content
        # the event's review page shows it too; a partner key reads no delegation's documents
        event = (await h.client.get("/v1/events/ny22/documents", headers=ARB)).json()["documents"]
        assert {d["document_id"] for d in event} == {d["document_id"] for d in listed}
        partner = await h.client.get(f"/v1/events/ny22/units/{unit}/documents", headers=P1)
        assert partner.status_code == 403, partner.text
        assert (await h.client.get(f"/v1/events/ny22/units/{unit}/documents", headers=OP)).status_code == 200


async def test_another_delegations_documents_and_people_are_not_the_links(tmp_path):
    """A link proves its delegation alone: another's document answers 404 (as an unknown one), by
    the leader's route and under another unit on the staff's; another's person is refused (422)."""
    async with harness(tmp_path, start=NOW) as h:
        ours, theirs, _our_player, their_player = await _two_delegations(h)
        theirs_doc = (await _upload(h, theirs, photo(60), kind="payment_screenshot")).json()
        other = await h.client.get(f"/v1/delegation/documents/{theirs_doc['document_id']}", headers=tok(ours))
        assert other.status_code == 404 and other.json()["error"]["code"] == "unknown_document"
        assert (await h.client.get("/v1/delegation/documents", headers=tok(ours))).json()["documents"] == []
        page = (await h.client.get("/v1/delegation", headers=tok(ours))).json()
        assert page["documents"] == []
        our_unit = (await _upload(h, ours, photo())).json()["unit_id"]
        crossed = await h.client.get(
            f"/v1/events/ny22/units/{our_unit}/documents/{theirs_doc['document_id']}", headers=ARB
        )
        assert crossed.status_code == 404
        naming_theirs = await _upload(h, ours, photo(), kind="id_card", person_id=their_player)
        assert naming_theirs.status_code == 422, naming_theirs.text
        assert naming_theirs.json()["error"]["code"] == "document_person_not_of_delegation"
        forged = await _upload(h, "x" * 43, photo())
        assert forged.status_code == 404 and forged.json()["error"]["code"] == "unknown_delegation_link"
        unknown_kind = await _upload(h, ours, photo(), kind="household_registration")
        assert unknown_kind.status_code == 422


async def test_the_checks_and_caps_of_every_uploader_bind_a_delegation(tmp_path):
    """A text file is refused by its content (422 document_type_not_allowed), an oversized one 413,
    and the delegation's total 413 document_delegation_full; nothing refused is kept."""
    async with harness(tmp_path, start=NOW) as h:
        ours, _theirs, _, _ = await _two_delegations(h)
        h.service.app.state.registration.documents = DocumentLimits(max_bytes=20_000, max_bytes_per_entry=3_000)
        wrong = await _upload(h, ours, b"MZ not a photo at all")
        assert wrong.status_code == 422 and wrong.json()["error"]["code"] == "document_type_not_allowed"
        big = await _upload(h, ours, b"\xff\xd8\xff" + bytes(30_000))
        assert big.status_code == 413 and big.json()["error"]["code"] == "document_too_large", big.text
        assert (await _upload(h, ours, photo())).status_code == 201
        noisy = io.BytesIO()
        Image.effect_noise((60, 60), 90).convert("RGB").save(noisy, "JPEG")
        full = await _upload(h, ours, noisy.getvalue())
        assert full.status_code == 413 and full.json()["error"]["code"] == "document_delegation_full", full.text
        assert len((await h.client.get("/v1/delegation/documents", headers=tok(ours))).json()["documents"]) == 1
