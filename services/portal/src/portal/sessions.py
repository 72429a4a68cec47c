"""Staff sign-in sessions: kept on the server (the API key a person signed in with never goes back
to the browser), named by a random id in a signed, HttpOnly, SameSite=Strict cookie that
expires; every form carries the session's CSRF token (the sign-in form a signed one of its own)."""

from __future__ import annotations

import hmac
import secrets
import time
from dataclasses import dataclass

from fastapi import Request
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

SESSION_COOKIE = "staff_session"
#: the sign-in form's token, before there is a session (against sign-in CSRF)
SIGN_IN_SALT = "portal.sign-in"
SESSION_SALT = "portal.session"


@dataclass
class StaffSession:
    session_id: str
    api_key: str
    role: str
    csrf: str
    expires_at: float


class Sessions:
    def __init__(self, secret: str, minutes: int) -> None:
        # without a configured secret the process makes one: sessions then end with the process
        self._serializer = URLSafeTimedSerializer(secret or secrets.token_urlsafe(32))
        self.max_age_s = minutes * 60
        self._sessions: dict[str, StaffSession] = {}

    def open(self, api_key: str, role: str) -> tuple[StaffSession, str]:
        """A new session and the cookie value naming it."""
        self._forget_expired()
        session = StaffSession(
            secrets.token_urlsafe(24), api_key, role, secrets.token_urlsafe(24), time.time() + self.max_age_s
        )
        self._sessions[session.session_id] = session
        return session, self._serializer.dumps(session.session_id, salt=SESSION_SALT)

    def of(self, request: Request) -> StaffSession | None:
        cookie = request.cookies.get(SESSION_COOKIE)
        if not cookie:
            return None
        try:
            session_id = self._serializer.loads(cookie, salt=SESSION_SALT, max_age=self.max_age_s)
        except (BadSignature, SignatureExpired):
            return None
        session = self._sessions.get(str(session_id))
        if session is None or session.expires_at < time.time():
            self._sessions.pop(str(session_id), None)
            return None
        return session

    def close(self, session: StaffSession) -> None:
        self._sessions.pop(session.session_id, None)

    def sign_in_token(self) -> str:
        return self._serializer.dumps(secrets.token_urlsafe(8), salt=SIGN_IN_SALT)

    def sign_in_token_ok(self, token: str) -> bool:
        try:
            self._serializer.loads(token, salt=SIGN_IN_SALT, max_age=3600)
        except (BadSignature, SignatureExpired):
            return False
        return True

    @staticmethod
    def csrf_ok(session: StaffSession, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(session.csrf, str(token))

    def _forget_expired(self) -> None:
        now = time.time()
        for sid in [sid for sid, s in self._sessions.items() if s.expires_at < now]:
            del self._sessions[sid]
