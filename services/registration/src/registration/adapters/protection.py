"""REG-11: personal data protected at rest.

ID numbers and document references are encrypted with Fernet (AES-128-CBC + HMAC-SHA256)
under a key derived from the DATA_KEY secret; a second derived key makes `index`, a keyed hash
used to find the same person again without decrypting anything. Neither the secret, nor a
plaintext, nor a ciphertext is ever logged.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import logging

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

log = logging.getLogger("registration.protection")

#: used only in the embedded (single-process, SQLite) mode when DATA_KEY is unset
DEVELOPMENT_KEY = "gomoku-embedded-development-key-not-for-production"


class MissingDataKey(RuntimeError):
    pass


def _derive(secret: bytes, purpose: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=b"gomoku-registration",
                info=purpose).derive(secret)


class DataProtector:
    def __init__(self, secret: str) -> None:
        if not secret:
            raise MissingDataKey("DATA_KEY is empty")
        raw = secret.encode()
        self._fernet = Fernet(base64.urlsafe_b64encode(_derive(raw, b"fernet")))
        self._index_key = _derive(raw, b"blind-index")

    @classmethod
    def from_settings(cls, data_key: str, *, distributed: bool) -> DataProtector:
        """DATA_KEY is required in the distributed mode; the embedded mode falls back to a
        development key (with a warning) so `make demo` needs no secret."""
        if data_key:
            return cls(data_key)
        if distributed:
            raise MissingDataKey("DATA_KEY must be set in the distributed mode (it encrypts personal data)")
        log.warning("DATA_KEY is unset: personal data is encrypted with the embedded development key")
        return cls(DEVELOPMENT_KEY)

    def encrypt(self, value: str | None) -> str | None:
        if value is None:
            return None
        return self._fernet.encrypt(value.encode()).decode()

    def decrypt(self, token: str | None) -> str | None:
        if token is None:
            return None
        try:
            return self._fernet.decrypt(token.encode()).decode()
        except InvalidToken:
            raise MissingDataKey("stored personal data cannot be decrypted with this DATA_KEY") from None

    def index(self, value: str) -> str:
        """Keyed hash of a normalised identifier (equal numbers -> equal index)."""
        norm = "".join(value.split()).upper()
        return hmac.new(self._index_key, norm.encode(), hashlib.sha256).hexdigest()

    def digest(self, data: bytes) -> str:
        """Keyed hash of a request body (idempotency): bodies carry personal data, so no plain hash."""
        return hmac.new(self._index_key, b"request:" + data, hashlib.sha256).hexdigest()
