"""Issue 34: a registrant's documents are checked by their content (`domain.documents`): the
type by its magic bytes, never its name; photos stored without EXIF or GPS, turned upright;
PDFs that parse, without a password, scripts or files inside; too large refused before it is
read whole."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from pypdf import PdfWriter
from pypdf.actions import JavaScript

from registration.domain.documents import DocumentLimits, DocumentRefused, check, read_limited, sniff

LIMITS = DocumentLimits(max_bytes=200_000, max_bytes_per_entry=1_000_000)
#: EXIF tags: Orientation, GPSInfo; GPS tags: latitude ref, latitude
ORIENTATION, GPS_INFO = 0x0112, 0x8825


def jpeg_with_gps(orientation: int = 1, size: tuple[int, int] = (40, 20)) -> bytes:
    """A JPEG photo as a phone takes it: EXIF with a GPS position (Shenzhen) and an orientation."""
    image = Image.new("RGB", size, (200, 30, 30))
    exif = Image.Exif()
    exif[ORIENTATION] = orientation
    exif[0x010F] = "PhoneMaker"
    exif.get_ifd(GPS_INFO).update({1: "N", 2: (22.0, 32.0, 36.0), 3: "E", 4: (114.0, 3.0, 0.0)})
    out = io.BytesIO()
    image.save(out, "JPEG", exif=exif)
    return out.getvalue()


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (10, 10), (0, 0, 255)).save(out, "PNG")
    return out.getvalue()


def pdf(*, password: str | None = None, script: bool = False, attachment: bool = False) -> bytes:
    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    if script:
        writer.add_open_action(JavaScript("app.alert(1);"))
    if attachment:
        writer.add_attachment("inside.txt", b"hidden")
    if password:
        writer.encrypt(password)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def refusal(data: bytes) -> str:
    with pytest.raises(DocumentRefused) as refused:
        check(data, LIMITS)
    return refused.value.code


def test_the_type_is_read_from_the_magic_bytes():
    assert sniff(jpeg_with_gps()) == "image/jpeg"
    assert sniff(png()) == "image/png"
    assert sniff(pdf()) == "application/pdf"
    assert sniff(b"GIF89a....") is None


def test_a_photo_is_stored_without_exif_or_gps():
    original = jpeg_with_gps()
    assert b"GPS" in original or Image.open(io.BytesIO(original)).getexif().get_ifd(GPS_INFO)
    stored = check(original, LIMITS)
    assert stored.media_type == "image/jpeg"
    kept = Image.open(io.BytesIO(stored.data))
    assert not kept.getexif()
    assert b"PhoneMaker" not in stored.data and b"Exif" not in stored.data


def test_a_photo_is_turned_upright_before_its_exif_goes():
    """Orientation 6 (turned 90°): the stored photo is 20 × 40, as the phone showed it."""
    stored = check(jpeg_with_gps(orientation=6, size=(40, 20)), LIMITS)
    assert Image.open(io.BytesIO(stored.data)).size == (20, 40)


def test_a_png_renamed_pdf_is_a_png_and_text_called_jpeg_is_refused():
    """The name and the declared type are never read: the bytes decide."""
    assert check(png(), LIMITS).media_type == "image/png"
    assert refusal(b"%!PS-Adobe-3.0 not a document we take") == "document_type_not_allowed"
    assert refusal(b"\xff\xd8\xff but not a photo at all") == "document_unreadable"


def test_heic_is_refused_in_words_it_cannot_be_decoded():
    assert refusal(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic") == "document_heic_unsupported"


def test_a_plain_pdf_is_kept_as_it_is():
    data = pdf()
    assert check(data, LIMITS).data == data


@pytest.mark.parametrize(
    ("made", "code"),
    [
        ({"password": "secret"}, "document_encrypted"),
        ({"script": True}, "document_active_content"),
        ({"attachment": True}, "document_active_content"),
    ],
)
def test_a_pdf_with_a_password_a_script_or_a_file_inside_is_refused(made, code):
    assert refusal(pdf(**made)) == code


def test_a_broken_pdf_is_refused():
    assert refusal(b"%PDF-1.7\n garbage without objects") == "document_unreadable"


class CountingStream(io.BytesIO):
    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.given = 0

    def read(self, size: int | None = -1) -> bytes:
        part = super().read(size)
        self.given += len(part)
        return part


def test_an_oversized_file_is_refused_before_it_is_read_whole():
    stream = CountingStream(b"\xff\xd8\xff" + b"\x00" * 5_000_000)
    with pytest.raises(DocumentRefused) as refused:
        read_limited(stream, LIMITS, chunk=64 * 1024)
    assert refused.value.code == "document_too_large" and refused.value.status == 413
    assert stream.given < LIMITS.max_bytes + 64 * 1024 + 1
    assert refusal(b"%PDF-" + b"\x00" * LIMITS.max_bytes) == "document_too_large"
