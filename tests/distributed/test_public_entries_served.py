"""Issue 34 over a real socket: registration served as its own process (the docker-compose.yml
command, migrated by alembic) on PostgreSQL + RabbitMQ. A parent enters a child in SZ's junior
section on the public form without a credential (SZ 十三(一) 网上报名), reads the entry by its
secret link (REG-18: accepted pending evidence), the token is kept only as its hash and the
guardian's phone only encrypted. The parent sends the document's photo by the link: a file that is
no photo and one too large are refused and nothing of them is kept, the phone's JPEG is stored
without its EXIF GPS and joins the pending record (SZ 八(四), REG-6); another registrant's link
neither lists nor reads it (404). The organiser re-issues the link and the old one stops working."""

from __future__ import annotations

import asyncio
import hashlib
import io

import httpx
import sqlalchemy as sa
from PIL import Image
from sqlalchemy.ext.asyncio import create_async_engine

from .compose_commands import LocalCompose
from .test_documents_served import MAX_BYTES, phone_photo

KEYS = "op-key=operator,arb-key=arbiter"
OP, ARB = ({"x-api-key": k} for k in ("op-key", "arb-key"))
#: SZ 2022: registration open (十三(二): 10-25 to 10-31)
SZ_OPEN = "2022-10-26T10:00:00+08:00"
CHILD = {
    "section_id": "junior-girls-free",
    "name": "李小红",
    "gender": "female",
    "birth_date": "2011-06-01",
    "id_number": "440304201106010028",
    "guardian_phone": "13698765432",
    "residency": {"kind": "student_status", "region": "福田区"},
    "insurance_policy": "PICC-SERVED-1",
}


async def _rows(url: str, query: str) -> list[tuple]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            return [tuple(row) for row in (await conn.execute(sa.text(query))).all()]
    finally:
        await engine.dispose()


async def _links(url: str) -> list[tuple]:
    return await _rows(url, "SELECT token_sha256, guardian_phone_enc, guardian_phone_masked FROM registrant_links")


async def _documents(url: str) -> list[tuple]:
    return await _rows(url, "SELECT id, entry_id, evidence_id, uploaded_by_kind FROM documents ORDER BY id")


async def _send(http: httpx.AsyncClient, token: str, name: str, data: bytes, declared: str) -> httpx.Response:
    """The registrant's upload page's post: the photo of the student-status record, by the link."""
    return await http.post(
        "/v1/registrant/documents",
        headers={"X-Registrant-Token": token},
        data={"kind": "student_status"},
        files={"file": (name, data, declared)},
    )


async def test_sz_13_1_a_child_entered_on_the_public_form_served(fresh_database, amqp_url, bus_namespace, tmp_path):
    url = await fresh_database()
    stack = LocalCompose(
        database_urls={"registration": url},
        amqp_url=amqp_url,
        namespace=bus_namespace,
        log_dir=tmp_path,
        extra_env={
            "API_KEYS": KEYS,
            "CLOCK": "fake",
            "CLOCK_START": SZ_OPEN,
            "DATA_KEY": "public-entries-served",
            "DOCUMENT_MAX_BYTES": str(MAX_BYTES),
        },
    )
    try:
        await asyncio.to_thread(stack.migrate, "registration")
        proc = stack.start("registration")
        await asyncio.to_thread(stack.wait_ready, "registration")
        async with httpx.AsyncClient(base_url=proc.url, timeout=30) as http:
            r = await http.post("/v1/events", headers=OP, json={"preset_id": "sz-2022", "event_code": "sz-form"})
            assert r.status_code == 201, r.text
            form = (await http.get("/v1/events/sz-form/public-entries/form")).json()
            assert form["accepting"] is True
            junior = next(s for s in form["sections"] if s["section_id"] == "junior-girls-free")
            assert junior["born_from"] == "2010-01-01" and "student_status" in junior["residency"]

            too_old = await http.post("/v1/events/sz-form/public-entries", json={**CHILD, "birth_date": "2009-12-31"})
            assert too_old.status_code == 422 and too_old.json()["error"]["details"]["rule"] == "REG-4", too_old.text
            made = await http.post("/v1/events/sz-form/public-entries", json=CHILD)
            assert made.status_code == 201, made.text
            token = made.json()["token"]

            page = await http.get("/v1/registrant", headers={"X-Registrant-Token": token})
            assert page.status_code == 200, page.text
            entry = page.json()
            assert entry["status"] == "accepted_pending_evidence" and entry["section_id"] == "junior-girls-free"
            assert entry["player"]["id_number"] == "**************0028" and entry["guardian_phone"] == "136****5432"
            assert [(e["kind"], e["status"]) for e in entry["evidence"]] == [("student_status", "pending")]

            stored = await _links(url)
            assert [row[0] for row in stored] == [hashlib.sha256(token.encode()).hexdigest()]
            assert "13698765432" not in stored[0][1] and stored[0][2] == "136****5432"

            # the document's photo by the link: checked by content, refused files keep nothing
            wrong = await _send(http, token, "IMG_1.jpg", b"just some text, not a photo", "image/jpeg")
            assert wrong.status_code == 422 and wrong.json()["error"]["code"] == "document_type_not_allowed"
            big = await _send(http, token, "scan.pdf", b"%PDF-1.7\n" + b"0" * MAX_BYTES, "application/pdf")
            assert big.status_code == 413 and big.json()["error"]["code"] == "document_too_large", big.text
            assert await _documents(url) == []
            sent = await _send(http, token, "IMG_2.jpg", phone_photo(), "image/jpeg")
            assert sent.status_code == 201, sent.text
            document = sent.json()
            assert (
                document["uploaded_by"] == "registrant"
                and document["evidence_id"] == entry["evidence"][0]["evidence_id"]
            )
            mine = await http.get(
                f"/v1/registrant/documents/{document['document_id']}", headers={"X-Registrant-Token": token}
            )
            assert mine.status_code == 200 and mine.headers["content-type"] == "image/jpeg"
            assert not Image.open(io.BytesIO(mine.content)).getexif() and b"PhoneMaker" not in mine.content
            # the arbiter is served the same pixels, without the GPS position
            path = f"/v1/events/sz-form/entries/{entry['entry_id']}/documents/{document['document_id']}"
            shown = await http.get(path, headers=ARB)
            assert shown.status_code == 200 and shown.content == mine.content

            # another registrant's link: neither their list nor a read shows the first child's photo
            other = await http.post(
                "/v1/events/sz-form/public-entries",
                json={
                    **CHILD,
                    "name": "李小兰",
                    "id_number": "440304201106010044",
                    "insurance_policy": "PICC-SERVED-2",
                },
            )
            assert other.status_code == 201, other.text
            theirs = {"X-Registrant-Token": other.json()["token"]}
            listed = await http.get("/v1/registrant/documents", headers=theirs)
            assert listed.status_code == 200 and listed.json()["documents"] == [], listed.text
            read = await http.get(f"/v1/registrant/documents/{document['document_id']}", headers=theirs)
            assert read.status_code == 404, read.text
            # one row stored: the photo, for its entry and record, uploaded by the registrant
            assert await _documents(url) == [
                (document["document_id"], entry["entry_id"], document["evidence_id"], "registrant")
            ]

            relink = f"/v1/events/sz-form/entries/{entry['entry_id']}/registrant-link"
            fresh = await http.post(relink, headers=ARB)
            assert fresh.status_code == 200, fresh.text
            old = await http.get("/v1/registrant", headers={"X-Registrant-Token": token})
            assert old.status_code == 404 and old.json()["error"]["code"] == "unknown_registrant_link"
            again = await http.get("/v1/registrant", headers={"X-Registrant-Token": fresh.json()["token"]})
            assert again.json()["entry_id"] == entry["entry_id"]
    finally:
        stack.stop_all()
