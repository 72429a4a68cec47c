"""Issue 34: a registrant's documents (the scans and photos behind an evidence record), checked
by their content before anything is stored.

The type is found from the file's first bytes (its magic number), never from its name or the
content type the client declared. Images are decoded and encoded again, their orientation
applied first, so that nothing but the pixels is kept (EXIF, GPS, comments are gone); a PDF
must parse, and one that is encrypted or carries JavaScript or embedded files is refused.
Each refusal is a `DocumentRefused` with a stable code the pages say in words.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum
from typing import Any, BinaryIO

from gomoku_shared.errors import ServiceError


class DocumentKind(StrEnum):
    """What a document is (words: the portal's ``document.kind.*``)."""

    ID_CARD = "id_card"
    HOUSEHOLD_REGISTRATION = "household_registration"
    RESIDENCE_PERMIT = "residence_permit"
    SOCIAL_INSURANCE = "social_insurance"
    STUDENT_STATUS = "student_status"
    GRADE_CERTIFICATE = "grade_certificate"
    INSURANCE_POLICY = "insurance_policy"
    PAYMENT_SCREENSHOT = "payment_screenshot"
    STAMPED_FORM = "stamped_form"


class DelegationDocumentKind(StrEnum):
    """What a delegation's document is (NY 十二(一), DA 十(一)1, NT 十(一)1: the unit sends the
    stamped entry form, ID-card and insurance scans, a screenshot of the payment)."""

    STAMPED_ENTRY_FORM = "stamped_entry_form"
    PAYMENT_SCREENSHOT = "payment_screenshot"
    ID_CARD = "id_card"
    INSURANCE_POLICY = "insurance_policy"
    OTHER = "other"


class DocumentRefused(ServiceError):
    """A document the checks refuse (422, or 413 when it is too large)."""

    status = 422


@dataclass(frozen=True)
class DocumentLimits:
    """Configuration (RegistrationSettings): bytes per file, bytes per entry."""

    max_bytes: int = 8 * 1024 * 1024
    max_bytes_per_entry: int = 32 * 1024 * 1024


@dataclass(frozen=True)
class CheckedDocument:
    """What is stored: the bytes after the checks (re-encoded for an image) and their type."""

    media_type: str
    data: bytes


@dataclass(frozen=True)
class DocumentRecord:
    """A stored document's metadata (what a list shows; never its bytes)."""

    id: str
    event_code: str
    entry_id: str
    evidence_id: str | None
    kind: str
    media_type: str
    size: int
    sha256: str
    #: who uploaded it: the kind of principal (partner, staff, registrant) and its id, never a name
    uploaded_by_kind: str
    uploaded_by_id: str
    uploaded_at: datetime
    review_state: str
    delete_after: date
    #: a delegation's document (its entry_id is then ""): the unit, and the person it is about if any
    unit_id: str | None = None
    person_id: str | None = None


#: the media types a document may be stored as
IMAGE_TYPES = ("image/jpeg", "image/png", "image/webp")
PDF = "application/pdf"
#: the largest image accepted, in pixels (a decompression bomb is refused before it is decoded)
MAX_PIXELS = 40_000_000


def too_large(limits: DocumentLimits) -> DocumentRefused:
    return DocumentRefused(
        "document_too_large",
        f"a document may be at most {limits.max_bytes} bytes",
        {"max_bytes": limits.max_bytes},
        status=413,
    )


def read_limited(stream: BinaryIO, limits: DocumentLimits, chunk: int = 64 * 1024) -> bytes:
    """The stream's bytes, read a chunk at a time and refused as soon as they pass the limit
    (an oversized file is never read whole)."""
    parts: list[bytes] = []
    size = 0
    while True:
        part = stream.read(chunk)
        if not part:
            return b"".join(parts)
        size += len(part)
        if size > limits.max_bytes:
            raise too_large(limits)
        parts.append(part)


def sniff(data: bytes) -> str | None:
    """The media type the first bytes say, or None: JPEG, PNG, WebP, HEIC, PDF."""
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    if data[4:8] == b"ftyp" and data[8:12] in (b"heic", b"heix", b"mif1", b"msf1", b"heim", b"heis"):
        return "image/heic"
    if data.startswith(b"%PDF-"):
        return PDF
    return None


def check(data: bytes, limits: DocumentLimits) -> CheckedDocument:
    """The document as it is to be stored, or a `DocumentRefused` saying why not."""
    if len(data) > limits.max_bytes:
        raise too_large(limits)
    if not data:
        raise DocumentRefused("document_empty", "the file is empty")
    found = sniff(data)
    if found == "image/heic":
        raise DocumentRefused(
            "document_heic_unsupported", "HEIC photos cannot be read here: send a JPEG or PNG (or a screenshot)"
        )
    if found in IMAGE_TYPES:
        return CheckedDocument(found, _clean_image(data, found))
    if found == PDF:
        _check_pdf(data)
        return CheckedDocument(PDF, data)
    raise DocumentRefused(
        "document_type_not_allowed",
        "only JPEG, PNG or WebP photos and PDF files are accepted",
        {"allowed": "jpeg,png,webp,pdf"},
    )


def _clean_image(data: bytes, media_type: str) -> bytes:
    """The image decoded and encoded again in its own format, turned upright first: the new
    file holds the pixels only (no EXIF, no GPS, no comment)."""
    from PIL import Image, ImageOps

    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.width * image.height > MAX_PIXELS:
                raise DocumentRefused("document_image_too_big", "the photo has too many pixels")
            image.load()
            upright = ImageOps.exif_transpose(image)
    except (OSError, ValueError, Image.DecompressionBombError) as problem:
        raise DocumentRefused("document_unreadable", "the photo cannot be read") from problem
    out = io.BytesIO()
    if media_type == "image/jpeg":
        upright.convert("RGB").save(out, "JPEG", quality=90)
    elif media_type == "image/png":
        upright.save(out, "PNG")
    else:
        upright.save(out, "WEBP", quality=90)
    return out.getvalue()


def _check_pdf(data: bytes) -> None:
    """A PDF that parses, not encrypted, without JavaScript, actions run on opening or
    embedded files."""
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted:
            raise DocumentRefused("document_encrypted", "the PDF is protected by a password: send it without one")
        root: Any = reader.trailer["/Root"].get_object()
        found = root.get("/Names")
        names: Any = found.get_object() if found is not None else {}
        if "/JavaScript" in names or "/AA" in root or _script(root.get("/OpenAction")):
            raise DocumentRefused("document_active_content", "the PDF contains scripts: send a plain scan")
        if "/EmbeddedFiles" in names or _has_attachments(reader):
            raise DocumentRefused("document_active_content", "the PDF carries files inside it: send a plain scan")
        if not reader.pages:
            raise DocumentRefused("document_unreadable", "the PDF has no pages")
    except DocumentRefused:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError) as problem:
        raise DocumentRefused("document_unreadable", "the PDF cannot be read") from problem


def _script(action) -> bool:
    """An action that runs JavaScript (an opening action that only shows a page is fine)."""
    action = action.get_object() if action is not None else None
    return isinstance(action, dict) and action.get("/S") == "/JavaScript"


def _has_attachments(reader) -> bool:
    """A page's file-attachment or JavaScript link annotation."""
    for page in reader.pages:
        for annotation in page.get("/Annots") or []:
            target = annotation.get_object()
            if target.get("/Subtype") == "/FileAttachment":
                return True
            action = target.get("/A")
            if action is not None and action.get_object().get("/S") == "/JavaScript":
                return True
    return False
