"""The OAuth scopes a partner's access token can carry, and which requests each one allows.

A token is checked twice: its role first (a partner token has the partner role, a spectator
token the viewer role, so every route's role check and the partner isolation of the services
apply unchanged), then its scopes. Which scope a request needs follows from the service and
the method, unless the route names one itself (``require(..., scope=...)``):

=================  ===========================================================================
scope              allows
=================  ===========================================================================
results:read       every read (GET, HEAD) of registration, pairing, gameplay and awards:
                   events, the partner's own entries, pairings, standings, games, awards
entries:write      registration writes: entries, players, teams, evidence, withdrawals of the
                   partner's own records
games:play         gameplay writes: moves, passes, offers and claims in the partner's players'
                   games
webhooks:manage    reads and writes of webhook subscriptions (the partners service)
=================  ===========================================================================

A write on a service with no scope here (pairing, awards: staff only) is never allowed to a
token, whatever its role.
"""

from __future__ import annotations

SCOPES: dict[str, str] = {
    "results:read": "read events, own entries, pairings, standings, games and awards",
    "entries:write": "register and change the partner's own entries, players, teams and evidence",
    "games:play": "act in the partner's players' games (moves, passes, offers, claims)",
    "webhooks:manage": "manage the partner's webhook subscriptions",
}

#: what a spectator (viewer) token may carry: it reads and never acts
VIEWER_SCOPES: frozenset[str] = frozenset({"results:read"})

READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

#: the scope a write needs, by service
WRITE_SCOPES: dict[str, str] = {
    "registration": "entries:write",
    "gameplay": "games:play",
    "webhooks": "webhooks:manage",
}

#: services whose reads need a scope other than results:read
READ_SCOPES: dict[str, str] = {"webhooks": "webhooks:manage"}

#: a requirement no token meets (writes of staff-only services)
NO_TOKEN = "staff-only"


def required_scope(service: str, method: str) -> str:
    """The scope a token needs for ``method`` on ``service`` (``NO_TOKEN`` when none will do)."""
    if method.upper() in READ_METHODS:
        return READ_SCOPES.get(service, "results:read")
    return WRITE_SCOPES.get(service, NO_TOKEN)


def parse_scope(text: str) -> list[str]:
    """A space-separated scope string (RFC 6749 §3.3), in order, without repeats."""
    seen: list[str] = []
    for item in text.split():
        if item not in seen:
            seen.append(item)
    return seen


def unknown_scopes(scopes: list[str] | frozenset[str]) -> list[str]:
    return sorted(s for s in scopes if s not in SCOPES)
