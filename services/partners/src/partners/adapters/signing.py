"""Token-signing keys: Ed25519 (EdDSA), generated and used through ``cryptography`` and PyJWT.

The private keys are stored in the service's database encrypted (Fernet) under a key derived
from PARTNERS_KEY, so every replica signs with the same keys and a rotation reaches them all.
Webhook signing secrets are sealed the same way, under a second key derived from PARTNERS_KEY
(``seal_secret``/``open_secret``): a sealed value starts with ``SEALED_PREFIX``, so a secret
stored in plain text before sealing existed is told apart and sealed at start.
Where PARTNERS_KEY comes from (``master_secret``): the setting if set; the distributed mode
refuses to start without it; the embedded mode creates a random one in its data directory
(``partners-signing.key``, mode 0600), as registration does with DATA_KEY.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
from pathlib import Path
from typing import Any

import jwt
from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from jwt.algorithms import OKPAlgorithm

from gomoku_shared.secret_file import embedded_secret
from gomoku_shared.settings import SettingsError
from gomoku_shared.tokens import ALGORITHM

log = logging.getLogger("partners.signing")

KEY_FILE = "partners-signing.key"
#: how a sealed webhook secret starts (format version 1: Fernet token after the prefix)
SEALED_PREFIX = "sealed:v1:"


class MissingSigningSecret(SettingsError):
    pass


def master_secret(configured: str, *, distributed: bool, data_dir: str | Path) -> str:
    if configured:
        return configured
    if distributed:
        raise MissingSigningSecret(
            "PARTNERS_KEY is not set. The distributed mode (AMQP_URL set) needs it to encrypt the "
            "token-signing keys at rest, the same secret in every partners replica; "
            "e.g. PARTNERS_KEY=$(openssl rand -base64 32)"
        )
    return _embedded_secret(Path(data_dir))


def _embedded_secret(data_dir: Path) -> str:
    return embedded_secret(
        data_dir / KEY_FILE,
        what="signing-key secret",
        error=MissingSigningSecret,
        created="PARTNERS_KEY is unset: created a random signing-key secret in %s",
        log=log,
    )


def _fernet(secret: str, purpose: bytes) -> Fernet:
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=b"gomoku-partners", info=purpose).derive(secret.encode())
    return Fernet(base64.urlsafe_b64encode(derived))


def is_sealed(stored: str) -> bool:
    return stored.startswith(SEALED_PREFIX)


class KeyVault:
    """Creates, seals and opens signing keys; signs tokens; seals and opens webhook secrets."""

    def __init__(self, secret: str) -> None:
        self._fernet = _fernet(secret, b"signing-keys")
        self._secrets = _fernet(secret, b"webhook-secrets")
        self._opened: dict[str, Ed25519PrivateKey] = {}

    def seal_secret(self, plain: str) -> str:
        """A webhook secret as it is stored (a new random nonce each time)."""
        return SEALED_PREFIX + self._secrets.encrypt(plain.encode()).decode()

    def open_secret(self, stored: str) -> str:
        """The webhook secret of a stored value; a value stored in plain text before sealing
        existed is returned as it is (the service seals such rows at start)."""
        if not is_sealed(stored):
            return stored
        try:
            return self._secrets.decrypt(stored[len(SEALED_PREFIX) :].encode()).decode()
        except InvalidToken:
            raise MissingSigningSecret("the webhook secrets cannot be opened with this PARTNERS_KEY") from None

    def new_key(self) -> tuple[str, str, dict[str, Any]]:
        """(kid, sealed private key, public JWK) of a fresh key; kid is its RFC 7638 thumbprint."""
        private = Ed25519PrivateKey.generate()
        public_jwk: dict[str, Any] = OKPAlgorithm.to_jwk(private.public_key(), as_dict=True)
        kid = _thumbprint(public_jwk)
        public_jwk.update({"kid": kid, "alg": ALGORITHM, "use": "sig"})
        pem = private.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        self._opened[kid] = private
        return kid, self._fernet.encrypt(pem).decode(), public_jwk

    def sign(self, claims: dict[str, Any], kid: str, sealed: str) -> str:
        private = self._opened.get(kid)
        if private is None:
            try:
                pem = self._fernet.decrypt(sealed.encode())
            except InvalidToken:
                raise MissingSigningSecret("the signing keys cannot be opened with this PARTNERS_KEY") from None
            loaded = serialization.load_pem_private_key(pem, password=None)
            assert isinstance(loaded, Ed25519PrivateKey)
            private = self._opened[kid] = loaded
        return jwt.encode(claims, private, algorithm=ALGORITHM, headers={"kid": kid, "typ": "at+jwt"})


def _thumbprint(jwk: dict[str, Any]) -> str:
    # RFC 7638: the required members in lexicographic order, no whitespace
    canonical = json.dumps({"crv": jwk["crv"], "kty": jwk["kty"], "x": jwk["x"]}, separators=(",", ":"), sort_keys=True)
    return base64.urlsafe_b64encode(hashlib.sha256(canonical.encode()).digest()).decode().rstrip("=")
