"""REG-11: personal data protected at rest.

Uploaded documents (`adapters.document_store`) are encrypted with AES-256-GCM, one fresh nonce
per document, under a third key derived from the same secret.

ID numbers and document references are encrypted with Fernet (AES-128-CBC + HMAC-SHA256)
under a key derived from the DATA_KEY secret; a second derived key makes `index`, a keyed hash
used to find the same person again without decrypting anything. Neither the secret, nor a
plaintext, nor a ciphertext is ever logged.

Where the secret comes from (`DataProtector.from_settings`): DATA_KEY if set; otherwise the
distributed mode refuses to start, and the embedded mode uses a random key it created in its
data directory on first start (`registration-data.key`, mode 0600). No key is in the source.

Rotation: DATA_KEY is the new secret and DATA_KEY_PREVIOUS the old one(s). Everything is then
encrypted and indexed under the new secret, read under any of them, and found again by the
index of any of them; the service re-encrypts and re-indexes the stored data under the new
secret when it starts (`adapters.sealing.rekey`), after which DATA_KEY_PREVIOUS can be removed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import os
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from gomoku_shared.secret_file import embedded_secret
from gomoku_shared.settings import SettingsError

if TYPE_CHECKING:
    from cryptography.fernet import Fernet, MultiFernet

log = logging.getLogger("registration.protection")

#: the embedded mode's key, created in DATA_DIR when DATA_KEY is unset
KEY_FILE = "registration-data.key"


class MissingDataKey(SettingsError):
    pass


def _derive(secret: bytes, purpose: bytes) -> bytes:
    # the cryptography package is loaded at the first use of a key, not at start-up (~12 ms)
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    return HKDF(algorithm=hashes.SHA256(), length=32, salt=b"gomoku-registration", info=purpose).derive(secret)


def embedded_key(data_dir: Path) -> str:
    """The key in `data_dir`, created (random, readable by this user only) if there is none.
    Written to a private temporary file and linked into place, so that two processes starting
    at once end up with the same key and nobody ever reads a half-written one."""
    return embedded_secret(
        data_dir / KEY_FILE,
        what="data key",
        error=MissingDataKey,
        created="DATA_KEY is unset: created a random data key in %s (keep it with the data; "
        "without it the stored personal data cannot be read)",
        log=log,
    )


def _fernet_of(secret: bytes) -> Fernet:
    from cryptography.fernet import Fernet

    return Fernet(base64.urlsafe_b64encode(_derive(secret, b"fernet")))


def _keyed(key: bytes, value: str) -> str:
    norm = "".join(value.split()).upper()
    return hmac.new(key, norm.encode(), hashlib.sha256).hexdigest()


class DataProtector:
    """The keys are derived from the secrets when first used (the first entry stored or read),
    not when the service is built. `previous` secrets (a rotation under way) only read."""

    def __init__(self, secret: str, previous: Sequence[str] = ()) -> None:
        if not secret:
            raise MissingDataKey("DATA_KEY is empty")
        self._secret = secret.encode()
        self._previous = tuple(p.encode() for p in previous if p and p != secret)

    @property
    def rotating(self) -> bool:
        """Previous secrets are configured: stored data may still be under one of them."""
        return bool(self._previous)

    @cached_property
    def _fernet(self) -> Fernet:
        return _fernet_of(self._secret)

    @cached_property
    def _readers(self) -> MultiFernet:
        from cryptography.fernet import MultiFernet

        return MultiFernet([self._fernet, *(_fernet_of(p) for p in self._previous)])

    @cached_property
    def _index_key(self) -> bytes:
        return _derive(self._secret, b"blind-index")

    @cached_property
    def _previous_index_keys(self) -> tuple[bytes, ...]:
        return tuple(_derive(p, b"blind-index") for p in self._previous)

    @classmethod
    def from_settings(
        cls, data_key: str, *, distributed: bool, data_dir: str | Path, previous: str = ""
    ) -> DataProtector:
        """DATA_KEY if set; required in the distributed mode (every replica needs the same one);
        the embedded mode falls back to its own random key in `data_dir`. `previous`: the
        DATA_KEY_PREVIOUS setting, old secrets separated by commas (a rotation)."""
        old = [p.strip() for p in previous.split(",") if p.strip()]
        if data_key:
            return cls(data_key, old)
        if distributed:
            raise MissingDataKey(
                "DATA_KEY is not set. The distributed mode (AMQP_URL set) needs it to encrypt "
                "personal data at rest, the same secret in every registration replica; "
                "e.g. DATA_KEY=$(openssl rand -base64 32)"
            )
        return cls(embedded_key(Path(data_dir)), old)

    def encrypt(self, value: str | None) -> str | None:
        if value is None:
            return None
        return self._fernet.encrypt(value.encode()).decode()

    def decrypt(self, token: str | None) -> str | None:
        if token is None:
            return None
        from cryptography.fernet import InvalidToken

        try:
            return self._readers.decrypt(token.encode()).decode()
        except InvalidToken:
            raise MissingDataKey("stored personal data cannot be decrypted with this DATA_KEY") from None

    def is_current(self, token: str) -> bool:
        """Whether `token` was encrypted under DATA_KEY itself (not a previous secret)."""
        from cryptography.fernet import InvalidToken

        try:
            self._fernet.decrypt(token.encode())
        except InvalidToken:
            return False
        return True

    def rotate(self, token: str) -> str:
        """`token` encrypted under DATA_KEY (from any secret this protector reads)."""
        from cryptography.fernet import InvalidToken

        try:
            return self._readers.rotate(token.encode()).decode()
        except InvalidToken:
            raise MissingDataKey("stored personal data cannot be decrypted with this DATA_KEY") from None

    def index(self, value: str) -> str:
        """Keyed hash of a normalised identifier (equal numbers -> equal index)."""
        return _keyed(self._index_key, value)

    def indexes(self, value: str) -> list[str]:
        """The index under DATA_KEY, then under each previous secret (found again mid-rotation)."""
        return [_keyed(key, value) for key in (self._index_key, *self._previous_index_keys)]

    @cached_property
    def _document_keys(self) -> tuple[bytes, ...]:
        return tuple(_derive(secret, b"documents-aes-gcm") for secret in (self._secret, *self._previous))

    def seal(self, data: bytes, bound_to: str) -> bytes:
        """`data` encrypted with AES-256-GCM under a key derived from DATA_KEY (an uploaded
        document): a fresh 96-bit nonce, then the ciphertext and its tag; `bound_to` (the
        document's id) is authenticated with it, so a ciphertext moved to another row fails."""
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        nonce = os.urandom(12)
        return nonce + AESGCM(self._document_keys[0]).encrypt(nonce, data, bound_to.encode())

    def open(self, sealed: bytes, bound_to: str) -> bytes:
        """The bytes `seal` encrypted, under DATA_KEY or a previous secret (a rotation)."""
        from cryptography.exceptions import InvalidTag
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        for key in self._document_keys:
            try:
                return AESGCM(key).decrypt(sealed[:12], sealed[12:], bound_to.encode())
            except InvalidTag:
                continue
        raise MissingDataKey("a stored document cannot be decrypted with this DATA_KEY")

    def sealed_current(self, sealed: bytes, bound_to: str) -> bool:
        """Whether `sealed` is under DATA_KEY itself (not a previous secret)."""
        from cryptography.exceptions import InvalidTag
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        try:
            AESGCM(self._document_keys[0]).decrypt(sealed[:12], sealed[12:], bound_to.encode())
        except InvalidTag:
            return False
        return True

    def digest(self, data: bytes) -> str:
        """Keyed hash of a request body (idempotency): bodies carry personal data, so no plain hash."""
        return hmac.new(self._index_key, b"request:" + data, hashlib.sha256).hexdigest()
