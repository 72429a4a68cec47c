"""Issue 34: the secret links, one mechanism for every kind — a registrant's link to the entry they
made on the public form, a delegation leader's link to their unit. A link is a token of 32 random
bytes, shown once (when issued or re-issued) and kept only as its SHA-256; whoever presents it acts
for what it proves. Issuing, verifying, revoking and re-issuing are the same for every kind: the
kind (`LinkKind`) is data.

Guessing is throttled as wrong API keys are (`gomoku_shared.throttle`, the same configured
figures): the wrong tokens a client address presents are counted, of both kinds together; after
the free ones the address waits, doubling, then is locked out, and every try from it is answered
429 ``too_many_link_failures`` unchecked meanwhile (a right token too, so that the answers tell a
guesser nothing). Only the address is a key: a random token names no link, and another client's
right token is never slowed. A token is never logged: it travels in a header, and a refusal
names no token."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gomoku_shared.auth import RateLimited
from gomoku_shared.errors import NotFound, ServiceError, Unprocessable
from gomoku_shared.throttle import FailureThrottle, throttled_details

from ..domain import mask_phone
from .actors import actor_ref
from .command import EventCommand


@dataclass(frozen=True)
class LinkKind:
    """A kind of secret link: the repository keeping it, and its refusals."""

    name: str
    #: the unit of work's repository of the kind's links
    repository: str
    #: a token that proves nothing (404)
    unknown: Callable[[], ServiceError]
    #: a re-issue for a holder the kind never gave a link (422)
    not_held: Callable[[], ServiceError]


REGISTRANT = LinkKind(
    "registrant",
    "links",
    lambda: NotFound("unknown_registrant_link", "this link is not valid (the organiser may have sent a new one)"),
    lambda: Unprocessable("not_a_public_entry", "this entry was not made on the public form"),
)
DELEGATION = LinkKind(
    "delegation",
    "delegation_links",
    lambda: NotFound("unknown_delegation_link", "this delegation link is not valid"),
    lambda: Unprocessable("not_a_delegation", "this unit was not started through the delegation door"),
)


@dataclass(frozen=True)
class Attempt:
    """A token presented: the process's throttle of wrong tokens and the client's address."""

    throttle: FailureThrottle
    address: str | None

    def keys(self) -> tuple[str, ...]:
        return self.throttle.keys(self.address or "unknown", None)


def new_token() -> tuple[str, str]:
    """A secret link token (shown once) and the SHA-256 kept of it."""
    token = secrets.token_urlsafe(32)
    return token, token_hash(token)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _links(repos: Any, kind: LinkKind) -> Any:
    return getattr(repos, kind.repository)


async def verify(repos: Any, kind: LinkKind, token: str, attempt: Attempt) -> Any:
    """The link ``token`` proves (its row); 404 for any other string, 429 while the address waits."""
    keys = attempt.keys()
    wait = attempt.throttle.wait_s(keys)
    if wait:
        raise RateLimited(
            "too_many_link_failures",
            f"too many wrong links from this address; retry in {wait} s",
            throttled_details(wait, attempt.throttle.policy),
            headers={"Retry-After": str(wait)},
        )
    digest = token_hash(token)
    link = await _links(repos, kind).by_hash(digest)
    # the look-up is by the hash, so its time tells nothing of a token; compared again in
    # constant time so that no stored row is taken on anything but an equal hash
    if link is None or not hmac.compare_digest(str(link.token_sha256), digest):
        attempt.throttle.failed(keys)
        raise kind.unknown()
    return link


async def issue(cmd: EventCommand, kind: LinkKind, holder_id: str, phone: str) -> str:
    """A new link for ``holder_id`` with its contact's phone (kept encrypted); its token, shown once."""
    token, digest = new_token()
    await _links(cmd.uow, kind).add(
        cmd.code,
        holder_id,
        token_sha256=digest,
        phone=phone,
        masked=mask_phone(phone),
        at=cmd.now,
        by=actor_ref(cmd.principal),
    )
    return token


async def relink(cmd: EventCommand, kind: LinkKind, holder_id: str) -> str:
    """The organiser's new link for a holder (a lost or leaked one): the old one stops working at
    once; the new token is answered once."""
    links = _links(cmd.uow, kind)
    if await links.of_holder(cmd.code, holder_id) is None:
        raise kind.not_held()
    token, digest = new_token()
    await links.replace(cmd.code, holder_id, token_sha256=digest, at=cmd.now, by=actor_ref(cmd.principal))
    return token


async def revoke(cmd: EventCommand, kind: LinkKind, holder_id: str) -> None:
    """The holder's link stops working and none replaces it (a later re-issue gives a new one):
    the hash kept becomes one of a token nobody was shown."""
    links = _links(cmd.uow, kind)
    if await links.of_holder(cmd.code, holder_id) is None:
        raise kind.not_held()
    _, digest = new_token()
    await links.replace(cmd.code, holder_id, token_sha256=digest, at=cmd.now, by=actor_ref(cmd.principal))
