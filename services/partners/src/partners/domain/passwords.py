"""Staff passwords (argon2id, ``argon2.PasswordHasher``), the one-time tokens of invitation and
password-reset links and of sign-in sessions (random, stored as their SHA-256), and TOTP codes
(RFC 6238 through ``pyotp``).

Hashing a password takes tens of milliseconds by design: the service runs it in a thread. A
sign-in for an unknown login is checked against ``DUMMY_HASH`` so its refusal costs the same.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime

import pyotp
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

_HASHER = PasswordHasher()
#: TOTP issuer shown by authenticator apps
TOTP_ISSUER = "Gomoku"
_dummy: list[str] = []


def hash_password(password: str) -> str:
    return _HASHER.hash(password)


def verify_password(password: str, stored: str) -> bool:
    try:
        return _HASHER.verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def dummy_hash() -> str:
    """A hash no password matches, made once per process (an unknown login is checked against it)."""
    if not _dummy:
        _dummy.append(_HASHER.hash(secrets.token_urlsafe(24)))
    return _dummy[0]


def new_token() -> str:
    """A one-time link's or a session's secret (256 bits)."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_id(prefix: str) -> str:
    return f"{prefix}{secrets.token_hex(8)}"


def new_totp_secret() -> str:
    return pyotp.random_base32()


def totp_uri(secret: str, login: str) -> str:
    return pyotp.TOTP(secret).provisioning_uri(name=login, issuer_name=TOTP_ISSUER)


def totp_matches(secret: str, code: str, now: datetime) -> bool:
    """The code of ``now`` or of the 30-second step before or after (clocks drift)."""
    if not code.isdigit() or len(code) != 6:
        return False
    return pyotp.TOTP(secret).verify(code, for_time=now, valid_window=1)
