"""Issue 34 (and REG-11): a document's bytes are sealed with AES-256-GCM under a key derived from
DATA_KEY, bound to the document's id, and read again during a DATA_KEY rotation."""

from __future__ import annotations

import pytest

from registration.adapters.protection import DataProtector, MissingDataKey

SCAN = b"\xff\xd8\xff\xe0 a scan of a household registration page"


def test_a_document_is_sealed_with_a_fresh_nonce_and_opened_again():
    protector = DataProtector("documents-key-1")
    first, second = protector.seal(SCAN, "doc-1"), protector.seal(SCAN, "doc-1")
    assert first != second and SCAN not in first  # a fresh nonce each time, never the bytes
    assert protector.open(first, "doc-1") == SCAN == protector.open(second, "doc-1")


def test_a_ciphertext_moved_to_another_document_does_not_open():
    protector = DataProtector("documents-key-1")
    with pytest.raises(MissingDataKey):
        protector.open(protector.seal(SCAN, "doc-1"), "doc-2")


def test_during_a_rotation_an_old_document_opens_and_is_sealed_again_under_the_new_key():
    old = DataProtector("documents-key-1")
    rotating = DataProtector("documents-key-2", ["documents-key-1"])
    sealed = old.seal(SCAN, "doc-1")
    assert rotating.open(sealed, "doc-1") == SCAN and not rotating.sealed_current(sealed, "doc-1")
    resealed = rotating.seal(rotating.open(sealed, "doc-1"), "doc-1")
    assert rotating.sealed_current(resealed, "doc-1")
    with pytest.raises(MissingDataKey):
        old.open(resealed, "doc-1")
    with pytest.raises(MissingDataKey):
        DataProtector("another-key").open(sealed, "doc-1")
