"""Issue 34: a registrant's documents, against the registration service served as its own
process on PostgreSQL (the compose command), over a real socket.

- Upload is checked by content: a text file called .jpg (and declared image/jpeg) is refused,
  an oversized file is refused, a phone photo with GPS in its EXIF is stored without it.
- A document for one of the entry's evidence records takes the record's decision as its review
  state; a retried upload (same Idempotency-Key) is answered as the first, another file under
  the same key is refused.
- The partner that registered the entry uploads and reads its own document; another partner
  cannot add to that entry (404, as an unknown one) nor read the document.
- At rest the `documents.ciphertext` column holds AES-GCM ciphertext under DATA_KEY, never the
  photo's bytes.
- The arbiter of the event's organisation reads the list and the bytes (inline, no-store,
  nosniff, a CSP); the arbiter of another organisation is refused (403 not_your_event).
- Retention: `python -m registration.purge_documents`, run after the event's last day plus
  DOCUMENT_RETENTION_DAYS, deletes the document.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys

import httpx
import pytest
import sqlalchemy as sa
from PIL import Image
from sqlalchemy.ext.asyncio import create_async_engine

from registration.adapters.protection import DataProtector

from .compose_commands import LocalCompose

DATA_KEY = "documents-served-data-key"
KEYS = "op-key=operator,p1-key=partner:partner-1,p2-key=partner:partner-2,arb-a=arbiter:org-a,arb-b=arbiter:org-b"
OP, P1, P2 = {"x-api-key": "op-key"}, {"x-api-key": "p1-key"}, {"x-api-key": "p2-key"}
ARB_A, ARB_B = {"x-api-key": "arb-a"}, {"x-api-key": "arb-b"}
SZ_OPEN = "2022-10-26T10:00:00+08:00"
MAX_BYTES = 200_000
ENTRY = {
    "stage": "online",
    "section_id": "men-free",
    "player": {"name": "Zhou Min", "gender": "male", "birth_date": "1991-03-07", "id_number": "440301199103070031"},
    "evidence": [{"kind": "household_registration", "document_ref": "HK-DOC-0001", "region": "Shenzhen"}],
    "insurance": {"confirmed": True, "document_ref": "POL-DOC-0001"},
}


def phone_photo(red: int = 180) -> bytes:
    """A JPEG as a phone takes it: EXIF with the maker and a GPS position (Shenzhen)."""
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"
    exif.get_ifd(0x8825).update({1: "N", 2: (22.0, 32.0, 36.0), 3: "E", 4: (114.0, 3.0, 0.0)})
    out = io.BytesIO()
    Image.new("RGB", (64, 40), (red, 40, 40)).save(out, "JPEG", exif=exif)
    return out.getvalue()


def upload(client: httpx.Client, headers, entry_id: str, name: str, data: bytes, declared: str, **fields):
    return client.post(
        f"/v1/events/sz22/entries/{entry_id}/documents",
        headers=headers,
        data={"kind": "household_registration", **fields},
        files={"file": (name, data, declared)},
    )


async def _stored(url: str) -> list[sa.Row]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            query = "SELECT id, ciphertext, size, uploaded_by_kind, uploaded_by_id FROM documents"
            return list((await conn.execute(sa.text(query))).all())
    finally:
        await engine.dispose()


@pytest.fixture
async def registration_database(fresh_database):
    return await fresh_database()


async def test_documents_checked_encrypted_and_shown_to_the_event_s_arbiter_only(
    registration_database, amqp_url, bus_namespace, tmp_path
):
    url = registration_database
    env = {"API_KEYS": KEYS, "DATA_KEY": DATA_KEY, "CLOCK": "fake", "CLOCK_START": SZ_OPEN}
    stack = LocalCompose(
        database_urls={"registration": url},
        amqp_url=amqp_url,
        namespace=bus_namespace,
        log_dir=tmp_path,
        extra_env={**env, "DOCUMENT_MAX_BYTES": str(MAX_BYTES)},
    )
    photo = phone_photo()
    try:
        await stack.serve("registration")
        with httpx.Client(base_url=stack.procs["registration"].url, timeout=30) as client:
            event = {"preset_id": "sz-2022", "event_code": "sz22", "organisation": "org-a"}
            assert client.post("/v1/events", headers=OP, json=event).status_code == 201
            answer = client.post("/v1/events/sz22/entries", headers=P1, json=ENTRY)
            assert answer.status_code == 201, answer.text
            entry_id = answer.json()["entry_id"]

            # checked by content: a text file called .jpg and declared a JPEG; too large
            wrong = upload(client, P1, entry_id, "card.jpg", b"just some text, not a photo", "image/jpeg")
            assert wrong.status_code == 422 and wrong.json()["error"]["code"] == "document_type_not_allowed"
            big = upload(client, P1, entry_id, "card.pdf", b"%PDF-1.7\n" + b"0" * MAX_BYTES, "application/pdf")
            assert big.status_code == 413 and big.json()["error"]["code"] == "document_too_large", big.text
            # another partner's entry: as unknown
            theirs = upload(client, P2, entry_id, "card.jpg", photo, "image/jpeg")
            assert theirs.status_code == 404 and theirs.json()["error"]["code"] == "unknown_entry", theirs.text
            assert await _stored(url) == []  # nothing kept of the three refused files

            stored = upload(client, P1, entry_id, "IMG_0001.HEIC", photo, "application/octet-stream")
            assert stored.status_code == 201, stored.text
            document = stored.json()
            assert document["media_type"] == "image/jpeg" and document["uploaded_by"] == "partner"
            assert document["review_state"] == "pending" and document["delete_after"] > "2022-11-01"
            path = f"/v1/events/sz22/entries/{entry_id}/documents/{document['document_id']}"

            # the uploader reads it back: the pixels without EXIF or GPS
            mine = client.get(path, headers=P1)
            assert mine.status_code == 200, mine.text
            kept = Image.open(io.BytesIO(mine.content))
            assert kept.size == (64, 40) and not kept.getexif() and b"PhoneMaker" not in mine.content
            assert client.get(path, headers=P2).status_code == 404
            assert client.get(f"/v1/events/sz22/entries/{entry_id}/documents", headers=P2).json()["documents"] == []

            # the event's arbiter: the list (metadata only) and the bytes, with the headers
            listed = client.get("/v1/events/sz22/documents", headers=ARB_A)
            assert listed.status_code == 200, listed.text
            assert [d["document_id"] for d in listed.json()["documents"]] == [document["document_id"]]
            shown = client.get(path, headers=ARB_A)
            assert shown.status_code == 200 and shown.content == mine.content
            assert shown.headers["content-type"] == "image/jpeg"
            assert shown.headers["content-disposition"].startswith("inline")
            assert shown.headers["cache-control"] == "no-store"
            assert shown.headers["x-content-type-options"] == "nosniff"
            assert "default-src 'none'" in shown.headers["content-security-policy"]
            # for one of the entry's evidence records: its decision is the document's review state
            evidence_id = client.get("/v1/events/sz22/evidence", headers=P1).json()["evidence"][0]["evidence_id"]
            keyed = {**P1, "Idempotency-Key": "scan-1"}
            scan = upload(client, keyed, entry_id, "scan.jpg", photo, "image/jpeg", evidence_id=evidence_id)
            assert scan.status_code == 201 and scan.json()["evidence_id"] == evidence_id, scan.text
            assert upload(client, keyed, entry_id, "scan.jpg", photo, "image/jpeg", evidence_id=evidence_id).json() == (
                scan.json()
            )  # a retry is answered as the first time, nothing stored twice
            other_file = upload(client, keyed, entry_id, "other.png", phone_photo(red=90), "image/jpeg")
            assert other_file.status_code == 409, other_file.text  # the same key with another file
            decided = client.post(
                f"/v1/evidence/{evidence_id}/decision", headers=ARB_A, json={"decision": "approve", "note": "seen"}
            )
            assert decided.status_code == 200, decided.text
            states = {
                d["document_id"]: d["review_state"]
                for d in client.get(f"/v1/events/sz22/entries/{entry_id}/documents", headers=ARB_A).json()["documents"]
            }
            assert states == {document["document_id"]: "pending", scan.json()["document_id"]: "approved"}, states
            # another organisation's arbiter: refused, in words
            for other in (client.get(path, headers=ARB_B), client.get("/v1/events/sz22/documents", headers=ARB_B)):
                assert other.status_code == 403 and other.json()["error"]["code"] == "not_your_event", other.text
            refused_upload = upload(client, ARB_B, entry_id, "card.jpg", photo, "image/jpeg")
            assert refused_upload.status_code == 403, refused_upload.text

        # at rest: AES-GCM ciphertext under DATA_KEY, never the photo; the uploader by kind and id;
        # the two files taken, nothing else (the refused ones, the replayed key's other file)
        rows = await _stored(url)
        assert sorted(r.id for r in rows) == sorted([document["document_id"], scan.json()["document_id"]])
        row = next(r for r in rows if r.id == document["document_id"])
        assert bytes(row.ciphertext) != mine.content and mine.content[:64] not in bytes(row.ciphertext)
        assert b"\xff\xd8\xff" not in bytes(row.ciphertext)[:16]
        assert DataProtector(DATA_KEY).open(bytes(row.ciphertext), row.id) == mine.content
        assert (row.uploaded_by_kind, row.uploaded_by_id, row.size) == ("partner", "partner-1", len(mine.content))
    finally:
        stack.stop_all()

    # retention: a year after the event, the operator's command deletes it
    purge_env = {
        **os.environ,
        **env,
        "DATABASE_URL": url,
        "AMQP_URL": amqp_url,
        "CLOCK_START": "2023-11-01T10:00:00+08:00",
    }
    ran = subprocess.run(
        [sys.executable, "-m", "registration.purge_documents"],
        env=purge_env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    assert "deleted 2 documents" in ran.stdout
    assert await _stored(url) == []
    assert "Traceback" not in "".join(path.read_text() for path in tmp_path.glob("*.log"))
