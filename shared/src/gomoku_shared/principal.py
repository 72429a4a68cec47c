"""Who a request is from, as every service's routes and use cases see it: a role, the partner
or organisation it acts for, a signed-in person, or a registrant holding a secret link. Made
by ``auth.KeyRing`` from a credential; kept apart from it so that what decides per event
(``event_access``) reads a principal without importing the authentication."""

from __future__ import annotations

from dataclasses import dataclass, field

from .ratelimit import Policy
from .scopes import NO_TOKEN
from .tokens import PersonClaims


@dataclass(frozen=True)
class Principal:
    role: str
    #: the partner platform this key belongs to (partners act only on their own data)
    partner_id: str | None = None
    key_id: str = ""
    #: an access token's scopes; None for an API key (its role alone decides)
    scopes: frozenset[str] | None = None
    #: the OAuth client of an access token (for audits, rate limits and webhooks)
    client_id: str | None = None
    #: an access token's rate limit (from the partner's settings, carried in the token)
    rate: Policy | None = field(default=None, compare=False, repr=False)
    #: the organisation an arbiter's API key acts for (``key=arbiter:<organisation>``; None: the
    #: default organisation)
    organisation: str | None = None
    #: a staff member signed in with their account: who, and their roles per organisation and
    #: per event (their principal has the arbiter role; ``event_access`` decides per event)
    person: PersonClaims | None = field(default=None, compare=False, repr=False)

    #: issue 34: a registrant who holds an entry's secret link (role "registrant"): the entry it
    #: reaches (None: the public form, before the entry exists)
    entry_id: str | None = None
    #: issue 34: a delegation's leader who holds its secret link (role "delegation"): the unit it reaches
    unit_id: str | None = None

    @classmethod
    def delegation(cls, unit_id: str) -> Principal:
        """A delegation's leader who proved its secret link: what a document upload authorises against."""
        return cls("delegation", key_id="delegation", unit_id=unit_id)

    @classmethod
    def registrant(cls, entry_id: str | None = None) -> Principal:
        """The caller of the public entry form, or (with ``entry_id``) a registrant who proved the
        entry's secret link: what other routes (a document upload) authorise against the entry."""
        return cls("registrant", key_id="registrant", entry_id=entry_id)

    @property
    def is_staff(self) -> bool:
        return self.role in ("operator", "arbiter")

    @property
    def actor(self) -> str:
        """Who acted, for audits and attributions: a person's display name, else the key id."""
        return self.person.name if self.person is not None else self.key_id

    @property
    def actor_id(self) -> str:
        """A stable id of who acted: ``acct:<account>`` for a person, else the key id."""
        return self.client_id or self.key_id if self.person is not None else self.key_id

    def allows(self, scope: str) -> bool:
        """Whether this credential may make a request that needs ``scope``."""
        if self.scopes is None:
            return True
        return scope != NO_TOKEN and scope in self.scopes
