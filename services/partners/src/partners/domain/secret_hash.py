"""Client secrets are stored as scrypt hashes (``hashlib.scrypt``, OpenSSL's), never in clear.

Format: ``scrypt$<n>$<r>$<p>$<salt b64>$<hash b64>``: the parameters travel with the hash, so
they can be raised later without invalidating stored secrets.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import secrets

N, R, P = 2**14, 8, 1
DKLEN = 32


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def hash_secret(secret: str, *, salt: bytes | None = None) -> str:
    salt = salt or secrets.token_bytes(16)
    digest = hashlib.scrypt(secret.encode(), salt=salt, n=N, r=R, p=P, dklen=DKLEN)
    return f"scrypt${N}${R}${P}${_b64(salt)}${_b64(digest)}"


def verify_secret(secret: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        expected = _unb64(digest)
        actual = hashlib.scrypt(
            secret.encode(), salt=_unb64(salt), n=int(n), r=int(r), p=int(p), dklen=len(expected), maxmem=2**26
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(actual, expected)


@functools.cache
def dummy_hash() -> str:
    """What an unknown or revoked client's secret is checked against: the same scrypt work as a
    known client's, so the time of a refusal does not tell which client ids exist (its secret is
    random and thrown away: nothing matches it). Made once, on the first refusal."""
    return hash_secret(secrets.token_urlsafe(32))


def new_client_id() -> str:
    return "gpc_" + secrets.token_urlsafe(12)


def new_secret() -> str:
    return "gps_" + secrets.token_urlsafe(32)
