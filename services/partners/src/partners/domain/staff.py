"""Organisations and the people who run their events (issue 29): staff accounts, their roles
per organisation and per event, invitations and password-reset links.

A person signs in with a login (a phone number or an e-mail address, normalised) and a
password (argon2id, ``passwords.py``); they hold roles (``gomoku_shared.staff_roles``) in an
organisation (every event it owns) or in one event of it. Every refusal here carries its words
in Chinese and English (``details.words``), like the per-event refusals of every service.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from gomoku_shared.errors import ServiceError
from gomoku_shared.staff_roles import EVENT_ROLES, STAFF_ROLES

#: a password's shortest and longest length (characters)
PASSWORD_MIN = 10
PASSWORD_MAX = 200
LOGIN_MAX = 254
_EMAIL = re.compile(r"^[^@\s]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9-]{1,63})+$")
_PHONE = re.compile(r"^\+?[0-9]{6,15}$")
#: what a phone number may be written with besides its digits
_PHONE_SEPARATORS = re.compile(r"[\s\-().]")

InvitationKind = Literal["invite", "reset"]


def refused(code: str, status: int, zh: str, en: str, **details: Any) -> ServiceError:
    """A refusal in the common shape with its words (``details.words``)."""
    return ServiceError(code, en, {**details, "words": {"zh": zh, "en": en}}, status=status)


# ------------------------------------------------------------------ logins and passwords


def normalise_login(login: str) -> str:
    """An e-mail address in lower case, or a phone number as its digits (a leading + kept)."""
    text = login.strip()
    if "@" in text:
        if len(text) <= LOGIN_MAX and _EMAIL.match(text):
            return text.lower()
    else:
        digits = _PHONE_SEPARATORS.sub("", text)
        if _PHONE.match(digits):
            return digits
    raise refused(
        "invalid_login",
        422,
        "登录名须为手机号码或电子邮件地址。",
        "The sign-in name must be a phone number or an e-mail address.",
    )


def check_password(password: str, login: str) -> None:
    """At least ``PASSWORD_MIN`` characters, and not the login itself."""
    if len(password) < PASSWORD_MIN or len(password) > PASSWORD_MAX:
        raise refused(
            "weak_password",
            422,
            f"密码须为{PASSWORD_MIN}至{PASSWORD_MAX}个字符。",
            f"The password must have {PASSWORD_MIN} to {PASSWORD_MAX} characters.",
            min_length=PASSWORD_MIN,
        )
    if password.strip().lower() == login.lower():
        raise refused(
            "weak_password",
            422,
            "密码不能与登录名相同。",
            "The password must not be the sign-in name.",
            min_length=PASSWORD_MIN,
        )


# ------------------------------------------------------------------ records


@dataclass(frozen=True)
class Organisation:
    org_id: str
    name: str
    name_zh: str | None
    created_at: datetime


@dataclass(frozen=True)
class Account:
    account_id: str
    login: str
    name: str
    password_hash: str
    disabled: bool
    created_at: datetime
    #: the TOTP secret, sealed under PARTNERS_KEY (set once enrolment starts)
    totp_secret: str | None = None
    totp_enabled: bool = False
    #: when the person's tokens were last revoked (sign-out everywhere, disabled, a role removed)
    tokens_revoked_at: datetime | None = None


@dataclass(frozen=True)
class Roles:
    """A person's roles in one organisation: organisation-wide and per event."""

    org_roles: frozenset[str] = frozenset()
    events: Mapping[str, frozenset[str]] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not self.org_roles and not any(self.events.values())

    def pairs(self) -> set[tuple[str | None, str]]:
        """(event code or None for the organisation, role) of every grant."""
        out: set[tuple[str | None, str]] = {(None, role) for role in self.org_roles}
        out |= {(code, role) for code, roles in self.events.items() for role in roles}
        return out

    def merged(self, other: Roles) -> Roles:
        events = {code: set(roles) for code, roles in self.events.items()}
        for code, roles in other.events.items():
            events.setdefault(code, set()).update(roles)
        return Roles(self.org_roles | other.org_roles, {k: frozenset(v) for k, v in events.items() if v})

    def as_json(self) -> dict[str, Any]:
        return {
            "roles": [r for r in STAFF_ROLES if r in self.org_roles],
            "events": {code: [r for r in STAFF_ROLES if r in roles] for code, roles in sorted(self.events.items())},
        }


def roles_from_pairs(pairs: Iterable[tuple[str | None, str]]) -> Roles:
    org_roles: set[str] = set()
    events: dict[str, set[str]] = {}
    for code, role in pairs:
        if code is None:
            org_roles.add(role)
        else:
            events.setdefault(code, set()).add(role)
    return Roles(frozenset(org_roles), {k: frozenset(v) for k, v in events.items()})


def validated_roles(
    org_id: str, roles: Iterable[str], events: Mapping[str, Iterable[str]], owner_of: Mapping[str, str | None]
) -> Roles:
    """The roles asked for, or the 422 that says which is wrong: a role no table names, an
    administrator on one event, an event the service has not heard of, or one of another
    organisation. ``owner_of`` names the owner of each event of ``events``."""
    wanted = set(roles)
    unknown = sorted(wanted - set(STAFF_ROLES)) + sorted({r for rs in events.values() for r in rs} - set(STAFF_ROLES))
    if unknown:
        raise refused(
            "unknown_role",
            422,
            f"没有这种职务：{'、'.join(unknown)}。",
            f"There is no such role: {', '.join(unknown)}.",
            unknown=unknown,
            known=list(STAFF_ROLES),
        )
    for code, event_roles in events.items():
        if set(event_roles) - set(EVENT_ROLES):
            raise refused(
                "admin_is_organisation_wide",
                422,
                "组织管理员是整个组织的职务，不能只授予一项赛事。",
                "An organisation administrator holds the whole organisation, not one event.",
                event_code=code,
            )
        owner = owner_of.get(code)
        if owner is None:
            raise refused(
                "unknown_event",
                422,
                f"本服务不知道赛事 {code}（尚未创建或尚未同步）。",
                f"This service has not heard of the event {code} (not created, or not yet known here).",
                event_code=code,
            )
        if owner != org_id:
            raise refused(
                "event_of_another_organisation",
                422,
                f"赛事 {code} 由其他组织主办，不能在本组织授予其中的职务。",
                f"The event {code} is run by another organisation: its roles cannot be granted here.",
                event_code=code,
            )
    return Roles(frozenset(wanted), {code: frozenset(rs) for code, rs in events.items() if rs})


def check_administrators(account_id: str, still_admin: bool, other_admins: int, *, is_admin: bool) -> None:
    """Refuse a change that leaves the organisation without an enabled administrator:
    ``is_admin`` the account is one now, ``still_admin`` after the change, ``other_admins``
    enabled administrators besides it."""
    if is_admin and not still_admin and other_admins == 0:
        raise refused(
            "last_administrator",
            409,
            "这是本组织最后一位组织管理员：请先任命另一位，再移除或停用。",
            "This is the organisation's last administrator: appoint another before removing or disabling them.",
            account_id=account_id,
        )


# ------------------------------------------------------------------ invitations


@dataclass(frozen=True)
class Invitation:
    invitation_id: str
    token_hash: str
    kind: InvitationKind
    org_id: str
    login: str
    name: str
    roles: Roles
    created_by: str
    created_at: datetime
    expires_at: datetime
    #: a password reset's account (None: an invitation)
    account_id: str | None = None
    used_at: datetime | None = None

    def check_open(self, now: datetime) -> None:
        """One use, before it expires: 409 ``invitation_used`` / 410 ``invitation_expired``."""
        if self.used_at is not None:
            raise refused(
                "invitation_used",
                409,
                "这个链接已经用过了，每个链接只能用一次。",
                "This link has been used already: each link works once.",
            )
        if now >= self.expires_at:
            raise refused(
                "invitation_expired",
                410,
                "这个链接已过期，请组织管理员重新发送。",
                "This link has expired: ask the organisation's administrator for a new one.",
                expired_at=self.expires_at.isoformat(),
            )


def invitation_not_found() -> ServiceError:
    return refused(
        "invitation_not_found",
        404,
        "找不到这个链接：请核对地址，或请组织管理员重新发送。",
        "No such link: check the address, or ask the organisation's administrator for a new one.",
    )
