"""Staff sign-in sessions: kept on the server (the API key a person signed in with never goes back
to the browser), named by a random id in a signed, HttpOnly, SameSite=Strict cookie that
expires; every form carries the session's CSRF token (the sign-in form a signed one of its own,
bound to the browser's pre-session cookie).

With ``PORTAL_DATABASE_URL`` the sessions are rows of the portal's own table, so every replica
behind the gateway honours a sign-in and a sign-out made on any other (ADR 0009); the key is
stored encrypted with the session secret, which the replicas share. Without it they live in the
process (the embedded mode, one replica)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass

from cryptography.fernet import Fernet, InvalidToken
from fastapi import Request
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from .adapters.session_store import MemoryStore, Row, SessionStore, SqlStore

SESSION_COOKIE = "staff_session"
#: the browser's pre-session id (random, HttpOnly, SameSite=Strict): the sign-in form's token is
#: bound to it, so a token fetched by a page elsewhere (with its own cookie) signs no one in here
PRE_SESSION_COOKIE = "staff_pre_session"
#: the sign-in form's token, before there is a session (against sign-in CSRF)
SIGN_IN_SALT = "portal.sign-in"
#: how long a sign-in form may stay open
SIGN_IN_TOKEN_MAX_AGE_S = 3600
SESSION_SALT = "portal.session"


@dataclass
class StaffSession:
    session_id: str
    api_key: str
    role: str
    csrf: str
    expires_at: float


class SessionSettingsError(ValueError):
    pass


class Sessions:
    def __init__(self, secret: str, minutes: int, database_url: str = "") -> None:
        if database_url and not secret:
            raise SessionSettingsError(
                "PORTAL_DATABASE_URL is set but PORTAL_SESSION_SECRET is not: replicas sharing sessions "
                "must share the secret that signs the cookie and encrypts the stored keys"
            )
        # without a configured secret the process makes one: sessions then end with the process
        secret = secret or secrets.token_urlsafe(32)
        self._serializer = URLSafeTimedSerializer(secret)
        self._box = Fernet(base64.urlsafe_b64encode(hashlib.sha256(b"portal.session-key:" + secret.encode()).digest()))
        self.max_age_s = minutes * 60
        self.store: SessionStore = SqlStore(database_url) if database_url else MemoryStore()

    async def open(self, api_key: str, role: str) -> tuple[StaffSession, str]:
        """A new session and the cookie value naming it."""
        session = StaffSession(
            secrets.token_urlsafe(24), api_key, role, secrets.token_urlsafe(24), time.time() + self.max_age_s
        )
        sealed = self._box.encrypt(api_key.encode()).decode()
        await self.store.put(Row(session.session_id, sealed, role, session.csrf, session.expires_at))
        return session, self._serializer.dumps(session.session_id, salt=SESSION_SALT)

    async def of(self, request: Request) -> StaffSession | None:
        cookie = request.cookies.get(SESSION_COOKIE)
        if not cookie:
            return None
        try:
            session_id = self._serializer.loads(cookie, salt=SESSION_SALT, max_age=self.max_age_s)
        except (BadSignature, SignatureExpired):
            return None
        row = await self.store.get(str(session_id), time.time())
        if row is None:
            return None
        try:
            api_key = self._box.decrypt(row.sealed_key.encode()).decode()
        except InvalidToken:  # sealed under another secret: not ours to open
            return None
        return StaffSession(row.session_id, api_key, row.role, row.csrf, row.expires_at)

    async def close(self, session: StaffSession) -> None:
        await self.store.delete(session.session_id)

    @staticmethod
    def pre_session(request: Request) -> str:
        """The browser's pre-session id: its cookie's, or a new one (the caller sets the cookie)."""
        known = request.cookies.get(PRE_SESSION_COOKIE, "")
        return known if 20 <= len(known) <= 64 and known.isascii() else secrets.token_urlsafe(24)

    def sign_in_token(self, pre_session: str) -> str:
        """The sign-in form's token: the pre-session id, signed (login CSRF: double submit with
        a signature, so only this site can make a token for a cookie)."""
        return self._serializer.dumps(pre_session, salt=SIGN_IN_SALT)

    def sign_in_token_ok(self, token: str, request: Request) -> bool:
        """The token is ours, recent, and made for this browser's pre-session cookie."""
        cookie = request.cookies.get(PRE_SESSION_COOKIE, "")
        try:
            bound = self._serializer.loads(token, salt=SIGN_IN_SALT, max_age=SIGN_IN_TOKEN_MAX_AGE_S)
        except (BadSignature, SignatureExpired):
            return False
        return bool(cookie) and isinstance(bound, str) and hmac.compare_digest(bound, cookie)

    @staticmethod
    def csrf_ok(session: StaffSession, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(session.csrf, str(token))
