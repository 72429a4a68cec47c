"""Staff sign-in sessions: kept on the server (the API key or the access and refresh tokens a
person signed in with never go back to the browser), named by a random id in a signed, HttpOnly, SameSite=Strict cookie that
expires; every form carries the session's CSRF token (the sign-in form a signed one of its own,
bound to the browser's pre-session cookie).

With ``PORTAL_DATABASE_URL`` the sessions are rows of the portal's own table, so every replica
behind the gateway honours a sign-in and a sign-out made on any other (ADR 0009); the key is
stored encrypted with the session secret, which the replicas share. Without it they live in the
process (the embedded mode, one replica).

A person signed in with their account (issue 29) has a session holding their access token, the
identity API's session id and refresh token, and what their token says about them, sealed like
a key; ``of`` refreshes the access token shortly before it runs out (``staff_people``)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from cryptography.fernet import Fernet, InvalidToken
from fastapi import Request
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from .adapters.session_store import MemoryStore, Row, SessionStore, SqlStore
from .staff_people import Person, StaffTokens, lifetime_s

log = logging.getLogger("portal.sessions")

SESSION_COOKIE = "staff_session"
#: the browser's pre-session id (random, HttpOnly, SameSite=Strict): the sign-in form's token is
#: bound to it, so a token fetched by a page elsewhere (with its own cookie) signs no one in here
PRE_SESSION_COOKIE = "staff_pre_session"
#: the sign-in form's token, before there is a session (against sign-in CSRF)
SIGN_IN_SALT = "portal.sign-in"
#: how long a sign-in form may stay open
SIGN_IN_TOKEN_MAX_AGE_S = 3600
SESSION_SALT = "portal.session"
#: the role of a person's session (their roles are per organisation and per event: ``person``)
PERSON_ROLE = "staff"

#: (identity session id, refresh token) -> the identity API's status and answer
Refresher = Callable[[str, str], Awaitable[tuple[int, Any]]]


@dataclass
class StaffSession:
    session_id: str
    api_key: str
    role: str
    csrf: str
    expires_at: float
    #: a person signed in with their account (None: an API key's session)
    person: Person | None = None
    #: their sign-in's tokens (``api_key`` is then the current access token)
    tokens: StaffTokens | None = None

    @property
    def actor_name(self) -> str:
        """Who is signed in, as the top of every page says it."""
        return self.person.name if self.person is not None else ""


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
        #: renews a person's access token (the identity API's refresh; set by the console)
        self.refresher: Refresher | None = None

    def _seal(self, text: str) -> str:
        return self._box.encrypt(text.encode()).decode()

    def _sealed_person(self, session: StaffSession) -> str | None:
        if session.person is None or session.tokens is None:
            return None
        bundle = {"person": session.person.to_json(), "tokens": session.tokens.to_json()}
        return self._seal(json.dumps(bundle))

    async def open(
        self, api_key: str, role: str, person: Person | None = None, tokens: StaffTokens | None = None
    ) -> tuple[StaffSession, str]:
        """A new session and the cookie value naming it: an API key's, or a person's (``tokens``:
        their sign-in's, ``api_key`` its access token)."""
        session = StaffSession(
            secrets.token_urlsafe(24),
            api_key,
            role,
            secrets.token_urlsafe(24),
            time.time() + self.max_age_s,
            person,
            tokens,
        )
        row = Row(session.session_id, self._seal(api_key), role, session.csrf, session.expires_at)
        row.sealed_person = self._sealed_person(session)
        await self.store.put(row)
        return session, self._serializer.dumps(session.session_id, salt=SESSION_SALT)

    async def of(self, request: Request) -> StaffSession | None:
        cookie = request.cookies.get(SESSION_COOKIE)
        if not cookie:
            return None
        try:
            session_id = self._serializer.loads(cookie, salt=SESSION_SALT, max_age=self.max_age_s)
        except (BadSignature, SignatureExpired):
            return None
        return await self.by_id(str(session_id))

    async def by_id(self, session_id: str) -> StaffSession | None:
        """The session (a person's with a fresh access token), or None when it is over."""
        now = time.time()
        row = await self.store.get(session_id, now)
        if row is None:
            return None
        session = self._opened(row)
        if session is None or session.tokens is None or not session.tokens.due(now):
            return session
        return await self._refreshed(session, now)

    def _opened(self, row: Row) -> StaffSession | None:
        try:
            api_key = self._box.decrypt(row.sealed_key.encode()).decode()
            bundle = json.loads(self._box.decrypt(row.sealed_person.encode())) if row.sealed_person else None
        except (InvalidToken, ValueError):  # sealed under another secret: not ours to open
            return None
        session = StaffSession(row.session_id, api_key, row.role, row.csrf, row.expires_at)
        if isinstance(bundle, dict):
            try:
                session.person = Person.from_json(bundle["person"])
                session.tokens = StaffTokens.from_json(bundle["tokens"])
            except (KeyError, TypeError, ValueError):
                return None
        return session

    async def _refreshed(self, session: StaffSession, now: float) -> StaffSession | None:
        """A person's session with a new access token from the identity API; None when the
        identity API says the sign-in is over (signed out everywhere, account disabled). While
        the identity API cannot be reached the current token serves until it runs out."""
        tokens = session.tokens
        assert tokens is not None and session.person is not None
        status, body = (
            (503, None) if self.refresher is None else await self.refresher(tokens.session_id, tokens.refresh_token)
        )
        answer: dict[str, Any] = body if status == 200 and isinstance(body, dict) else {}
        access = answer.get("access_token")
        if isinstance(access, str) and access:
            renewed = StaffTokens(
                access,
                str(answer.get("session_id") or tokens.session_id),
                str(answer.get("refresh_token") or tokens.refresh_token),
                now + lifetime_s(answer),
            )
            session = replace(session, api_key=access, tokens=renewed, person=session.person.with_claims(access))
            await self.store.update(session.session_id, self._seal(access), self._sealed_person(session))
            return session
        if status in (400, 401, 403, 404):
            # another replica may have refreshed it a moment ago (the refresh token turned over)
            again = await self.store.get(session.session_id, now)
            opened = self._opened(again) if again is not None else None
            if opened is not None and opened.tokens is not None and opened.tokens.access_token != tokens.access_token:
                return opened
            log.info("a staff session ended: the identity service refused its refresh (%s)", status)
            await self.store.delete(session.session_id)
            return None
        return session if tokens.expires_at > now else None

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
