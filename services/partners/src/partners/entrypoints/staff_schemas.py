"""Request bodies and documented answers of organisations and staff accounts (issue 29)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from gomoku_shared.api_docs import View
from gomoku_shared.pagination import Paged
from gomoku_shared.staff_roles import STAFF_ROLES
from gomoku_shared.text import Line

from .schemas import Strict

ORG_ID = r"^[a-z0-9][a-z0-9-]{1,63}$"
#: an event code (one the service has not heard of is refused with 422 unknown_event and words)
EventCode = Annotated[str, StringConstraints(min_length=1, max_length=64)]
#: a role name; one no table names is refused with 422 unknown_role and words (domain/staff.py)
RoleName = Annotated[Line, StringConstraints(min_length=1, max_length=40)]
RoleList = Annotated[list[RoleName], Field(max_length=8)]
ROLES_DOC = "roles: " + ", ".join(STAFF_ROLES)


class OrganisationIn(Strict):
    id: str = Field(pattern=ORG_ID, description="a slug: lower-case letters, digits and dashes")
    name: Line = Field(min_length=1, max_length=200)
    name_zh: Line | None = Field(default=None, min_length=1, max_length=200)


class RolesIn(Strict):
    roles: list[RoleName] = Field(default_factory=list, max_length=8, description=ROLES_DOC)
    events: dict[EventCode, RoleList] = Field(
        default_factory=dict,
        max_length=100,
        description="event code -> roles in that event only (not admin)",
    )

    def event_roles(self) -> dict[str, list[str]]:
        return {code: list(roles) for code, roles in self.events.items()}


class InvitationIn(RolesIn):
    login: str = Field(min_length=3, max_length=254, description="a phone number or an e-mail address")
    name: Line = Field(min_length=1, max_length=200, description="the display name (shown in audits)")


class AcceptIn(Strict):
    password: str = Field(min_length=1, max_length=200, description="at least 10 characters, not the login")


class SignInIn(Strict):
    login: str = Field(min_length=1, max_length=254)
    password: str = Field(min_length=1, max_length=200)
    totp: str | None = Field(default=None, max_length=10, description="the authenticator's code, once enabled")


class SessionIn(Strict):
    session_id: str = Field(min_length=1, max_length=40)
    refresh_token: str = Field(min_length=1, max_length=100)


class TotpConfirmIn(Strict):
    code: str = Field(min_length=1, max_length=10)


# ------------------------------------------------------------------ answers


class OrganisationView(View):
    id: str
    name: str
    name_zh: str | None
    created_at: str


class OrganisationList(Paged):
    items: list[OrganisationView]


class InvitationIssued(View):
    invitation_id: str
    kind: Literal["invite", "reset"]
    token: str = Field(description="shown once; stored as its SHA-256")
    expires_at: str
    accept_path: str


class InvitationView(View):
    invitation_id: str
    kind: Literal["invite", "reset"]
    organisation: OrganisationView
    login: str
    name: str
    roles: list[str]
    events: dict[str, list[str]]
    expires_at: str
    existing_account: bool


class AccountView(View):
    account_id: str
    name: str
    login: str
    disabled: bool
    totp_enabled: bool
    created_at: str


class StaffMember(AccountView):
    roles: list[str]
    events: dict[str, list[str]]


class StaffList(Paged):
    items: list[StaffMember]


class Accepted(View):
    account: AccountView
    kind: Literal["invite", "reset"]
    organisations: dict[str, list[str]]
    events: dict[str, list[str]]


class SignedInAccount(View):
    account_id: str
    name: str
    login: str


class SignedIn(View):
    access_token: str
    token_type: Literal["Bearer"]
    expires_in: int
    session_id: str
    refresh_token: str
    account: SignedInAccount


class Refreshed(View):
    access_token: str
    token_type: Literal["Bearer"]
    expires_in: int
    session_id: str


class SignedOut(View):
    session_id: str
    ended: bool


class SignedOutEverywhere(View):
    revoked: str
    revoked_at: str
    sessions_ended: int


class MyOrganisation(OrganisationView):
    roles: list[str]


class Me(View):
    account: AccountView
    organisations: list[MyOrganisation]
    events: dict[str, list[str]]


class TotpStarted(View):
    secret: str
    otpauth_uri: str
