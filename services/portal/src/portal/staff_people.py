"""Who is signed in to the staff console, and what the console shows them (issue 29).

A person signs in with their account (the partners service's identity API): the portal keeps
their access token, the session id and the refresh token of the sign-in (``StaffTokens``) and
what their token says about them (``Person``: their roles per organisation and per event).
The console shows a page or a button only when the person holds a role that may take its
action in the event (``gomoku_shared.staff_roles.ACTIONS``, the one table every service
authorises with); the service still decides, and its refusal is shown in words.

An API key's session (the platform operator's key, or an arbiter's key of the documented
transition) has no person: the console shows it every button, as before, and the services
answer for it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import jwt

from gomoku_shared.staff_roles import ACTIONS, DEFAULT_ORGANISATION, ROLE_WORDS, STAFF_ROLES, may

#: refresh the access token when less than this is left of it (a page is never drawn with a
#: token about to run out: the services would refuse the form posted from it)
REFRESH_MARGIN_S = 60


@dataclass(frozen=True)
class StaffTokens:
    """A sign-in's tokens as the identity API answered them (kept sealed on the server)."""

    access_token: str
    session_id: str
    refresh_token: str
    #: epoch seconds when the access token runs out
    expires_at: float

    def due(self, now: float) -> bool:
        """Whether the access token should be refreshed now."""
        return self.expires_at - now < REFRESH_MARGIN_S

    def to_json(self) -> dict[str, Any]:
        return {
            "access_token": self.access_token,
            "session_id": self.session_id,
            "refresh_token": self.refresh_token,
            "expires_at": self.expires_at,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StaffTokens:
        return cls(
            str(data["access_token"]), str(data["session_id"]), str(data["refresh_token"]), float(data["expires_at"])
        )


@dataclass(frozen=True)
class Person:
    """A signed-in staff member: who, and the roles their token carries."""

    account_id: str
    name: str
    login: str = ""
    #: organisation id -> roles held in every event it owns
    orgs: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: event code -> roles held in that event only
    events: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: organisation id -> its names [zh, en] (from ``/v1/staff/me``; the id where unknown)
    org_names: dict[str, tuple[str, str]] = field(default_factory=dict)

    def held(self, organisation: str | None, code: str | None) -> frozenset[str]:
        """The roles this person holds in the event ``code`` owned by ``organisation``."""
        roles = set(self.orgs.get(organisation or DEFAULT_ORGANISATION, ()))
        if code:
            roles |= set(self.events.get(code, ()))
        return frozenset(roles)

    def administers(self) -> list[str]:
        """The organisations this person is an administrator of."""
        return sorted(org for org, roles in self.orgs.items() if "admin" in roles)

    def org_name(self, org: str, lang: str) -> str:
        names = self.org_names.get(org)
        if not names:
            return org
        return (names[0] if lang == "zh" else names[1]) or names[0] or names[1] or org

    def to_json(self) -> dict[str, Any]:
        return {
            "account_id": self.account_id,
            "name": self.name,
            "login": self.login,
            "orgs": {k: list(v) for k, v in self.orgs.items()},
            "events": {k: list(v) for k, v in self.events.items()},
            "org_names": {k: list(v) for k, v in self.org_names.items()},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Person:
        return cls(
            account_id=str(data.get("account_id", "")),
            name=str(data.get("name", "")),
            login=str(data.get("login", "")),
            orgs=_roles_map(data.get("orgs")),
            events=_roles_map(data.get("events")),
            org_names={
                str(k): (str(v[0]), str(v[1]))
                for k, v in (data.get("org_names") or {}).items()
                if isinstance(v, list | tuple) and len(v) == 2
            },
        )

    def with_claims(self, access_token: str) -> Person:
        """This person with the roles of a new access token (a refresh carries today's roles)."""
        claims = token_claims(access_token)
        if not claims:
            return self
        return Person(
            account_id=str(claims.get("account_id") or self.account_id),
            name=str(claims.get("name") or self.name),
            login=self.login,
            orgs=_roles_map(claims.get("orgs")),
            events=_roles_map(claims.get("events")),
            org_names=self.org_names,
        )


def _roles_map(value: Any) -> dict[str, tuple[str, ...]]:
    """``{key: [roles]}`` keeping only the roles the table knows (a made-up role gives nothing)."""
    if not isinstance(value, Mapping):
        return {}
    out: dict[str, tuple[str, ...]] = {}
    for key, roles in value.items():
        if isinstance(roles, list | tuple | set | frozenset):
            known = tuple(r for r in STAFF_ROLES if r in {str(x) for x in roles})
            out[str(key)[:64]] = known
    return out


def token_claims(access_token: str) -> dict[str, Any]:
    """The claims of an access token the identity API has just handed the portal (read, not
    verified: every service verifies it when the portal presents it; the portal only decides
    what to show). {} for anything that is not a token."""
    try:
        claims = jwt.decode(access_token, options={"verify_signature": False})
    except jwt.PyJWTError:
        return {}
    return claims if isinstance(claims, dict) else {}


def person_of(access_token: str, me: Any, login: str = "") -> Person:
    """The person from their access token's claims and the identity API's ``/v1/staff/me``
    (names of their organisations; its roles where the token has none)."""
    claims = token_claims(access_token)
    me = me if isinstance(me, Mapping) else {}
    account = me.get("account") if isinstance(me.get("account"), Mapping) else {}
    orgs = _roles_map(claims.get("orgs"))
    names: dict[str, tuple[str, str]] = {}
    for org in me.get("organisations") or []:
        if not isinstance(org, Mapping):
            continue
        oid = str(org.get("organisation_id") or org.get("id") or "")
        if not oid:
            continue
        zh, en = _names(org)
        names[oid] = (zh or oid, en or zh or oid)
        if oid not in orgs and isinstance(org.get("roles"), list):
            orgs.update(_roles_map({oid: org["roles"]}))
    events = _roles_map(claims.get("events")) or _roles_map(me.get("events"))
    return Person(
        account_id=str(claims.get("account_id") or account.get("account_id") or ""),
        name=str(claims.get("name") or account.get("name") or ""),
        login=str(account.get("login") or login),
        orgs=orgs,
        events=events,
        org_names=names,
    )


def _names(org: Mapping[str, Any]) -> tuple[str, str]:
    names = org.get("names")
    if isinstance(names, Mapping):
        return str(names.get("zh") or ""), str(names.get("en") or "")
    if isinstance(names, list | tuple) and len(names) == 2:
        return str(names[0]), str(names[1])
    return str(org.get("name_zh") or org.get("name") or ""), str(org.get("name_en") or org.get("name") or "")


def event_organisation(event: Any) -> str:
    """The organisation that owns an event (registration's ``organisation``; events from before
    organisations belong to the default one)."""
    org = event.get("organisation") if isinstance(event, Mapping) else None
    return str(org) if org else DEFAULT_ORGANISATION


def powers(person: Person | None, event: Any = None, code: str | None = None) -> Callable[[str], bool]:
    """``can(action)`` for a page's template: whether the console offers ``action`` in the event
    (``event``: registration's answer; ``code``: its code when the page has no event). Without a
    person (an API key's session) every action is offered and the service decides."""
    if person is None:
        return _every
    if code is None and isinstance(event, Mapping):
        code = str(event.get("event_code") or event.get("code") or "") or None
    if event is None and code is None:
        held = frozenset(r for roles in (*person.orgs.values(), *person.events.values()) for r in roles)
    else:
        held = person.held(event_organisation(event), code)

    def can(action: str) -> bool:
        return may(held, action)

    return can


def _every(action: str) -> bool:
    if action not in ACTIONS:  # a typo in a template must not pass unnoticed
        raise KeyError(action)
    return True


def actions_offered(person: Person | None, organisation: str, code: str) -> list[str]:
    """The actions the console offers the person in the event, in the table's order."""
    if person is None:
        return list(ACTIONS)
    held = person.held(organisation, code)
    return [a for a in ACTIONS if may(held, a)]


def roles_list(roles: Iterable[str], lang: str) -> str:
    """Roles held, in words and in the table's order: "组委会、裁判员" / "organiser, arbiter"."""
    wanted = set(roles)
    names = [ROLE_WORDS[r][0 if lang == "zh" else 1] for r in STAFF_ROLES if r in wanted]
    return ("、" if lang == "zh" else ", ").join(names) or "—"


def lifetime_s(answer: Mapping[str, Any], default: float = 300.0) -> float:
    """The ``expires_in`` of the identity API's answer (seconds), else ``default``."""
    value = answer.get("expires_in")
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) and value > 0 else default
