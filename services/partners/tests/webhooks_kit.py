"""Helpers of the webhooks tests: the partners service in the embedded process, bus events as
the producers publish them, and the webhook receiver served by uvicorn on 127.0.0.1 that
records what it is sent (the benches' too: ``gomoku_shared.testing.webhooks``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import httpx
from partners_kit import KEYS, bearer, new_partner, token

from gomoku_shared.clock import FakeClock
from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.contracts.common import ClockSpec, Entrant, Ruleset
from gomoku_shared.contracts.envelope import Payload
from gomoku_shared.contracts.events import (
    AwardsPublished,
    EntryAccepted,
    EntryRefused,
    GameCreated,
    GameFinished,
    GameStarted,
    PairingSpec,
    PlayoffRequired,
    RoundPaired,
    StandingRow,
    StandingsUpdated,
)
from gomoku_shared.embedded import EmbeddedSuite
from gomoku_shared.service import Service
from gomoku_shared.testing.webhooks import WebhookReceiver
from gomoku_shared.testing.webhooks import free_port as free_port
from gomoku_shared.testing.webhooks import serving as serving
from partners.adapters.webhook_sender import resolve
from partners.config import PartnersSettings

#: the webhook endpoint the tests serve (records every request; answers ``status``)
Receiver = WebhookReceiver


@asynccontextmanager
async def embedded_partners(
    data_dir: Path, clock: FakeClock, **settings: Any
) -> AsyncIterator[tuple[EmbeddedSuite, httpx.AsyncClient]]:
    """The partners service alone in the embedded process (in-memory bus, SQLite) on ``clock``,
    polling its webhooks every 20 ms, and an HTTP client to it; ``settings`` add to those. The
    access tokens outlive a test whose fake clock moves by minutes. Its receivers are on
    127.0.0.1, so loopback targets are allowed (WEBHOOK_ALLOW_LOOPBACK, the development
    setting), and ``*.example.org`` resolves to a public address (``documentation_names``)."""
    config = PartnersSettings(
        DATA_DIR=str(data_dir),
        API_KEYS=KEYS,
        DATA_KEY="k" * 32,
        WEBHOOK_POLL_S=0.02,
        ACCESS_TOKEN_TTL_S=3600,
        **{"WEBHOOK_ALLOW_LOOPBACK": True, **settings},
    )
    suite = EmbeddedSuite(config, clock=clock, only=["partners"])
    documentation_names(suite.services["partners"])
    await suite.start()
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=suite.app), base_url="http://embedded") as http:
            yield suite, http
    finally:
        await suite.stop()


#: a public address (example.com's) that the tests' ``example.org`` names resolve to
PUBLIC_ADDRESS = "93.184.216.34"


def documentation_names(service: Service, names: dict[str, list[str]] | None = None) -> Resolver:
    """Make the service's webhook sender resolve ``example.org`` and its subdomains to a public
    address (the tests run without DNS) and each host of ``names`` to its addresses; any other
    name as the system does. Returns the resolver: a test may change its ``names`` later (a
    name that resolves elsewhere at delivery time)."""
    resolver = Resolver(dict(names or {}))
    service.extras["webhooks"].sender.resolver = resolver
    return resolver


@dataclass
class Resolver:
    """A resolver for the tests: the names it was given, ``example.org`` names to a public
    address, the rest by the system's resolver."""

    names: dict[str, list[str]] = field(default_factory=dict)
    asked: list[str] = field(default_factory=list)

    async def __call__(self, host: str, port: int) -> list[str]:
        self.asked.append(host)
        if host in self.names:
            return list(self.names[host])
        if host == "example.org" or host.endswith(".example.org"):
            return [PUBLIC_ADDRESS]
        return await resolve(host, port)


async def partner_auth(http: httpx.AsyncClient, partner_id: str, scopes=("webhooks:manage",)) -> dict[str, str]:
    """The Authorization header of a new partner's access token."""
    credential = await new_partner(http, partner_id, list(scopes), prefix="/partners")
    return bearer(await token(http, credential, prefix="/partners"))


def pairing(pairing_id: str, first: str, second: str, first_partner: str | None, second_partner: str | None):
    return PairingSpec(
        pairing_id=pairing_id,
        first=first,
        second=second,
        ruleset=Ruleset(track="free"),
        clock=ClockSpec(base_s=600),
        first_partner=first_partner,
        second_partner=second_partner,
    )


def round_paired(*pairings: PairingSpec, round_no: int = 1) -> RoundPaired:
    return RoundPaired(event_code="WH", stage="main", section_id="S1", round=round_no, pairings=list(pairings))


def playoff_required(*pairings: PairingSpec) -> PlayoffRequired:
    entrants = sorted({p.first for p in pairings} | {p.second for p in pairings})
    return PlayoffRequired(
        event_code="WH",
        stage="main",
        section_id="S1",
        playoff_id="po1",
        place_from=1,
        place_to=2,
        entrant_ids=entrants,
        pairings=list(pairings),
    )


def game_created(pairing_id: str, black: str, white: str) -> GameCreated:
    return GameCreated(
        event_code="WH",
        section_id="S1",
        round=1,
        pairing_id=pairing_id,
        game_id=f"{pairing_id}.g1",
        black=black,
        white=white,
        starts_at=datetime(2026, 5, 3, 9, 0, tzinfo=UTC),
    )


def game_started(pairing_id: str, black: str, white: str) -> GameStarted:
    return GameStarted(
        event_code="WH",
        section_id="S1",
        round=1,
        pairing_id=pairing_id,
        game_id=f"{pairing_id}.g1",
        black=black,
        white=white,
    )


def game_finished(pairing_id: str, black: str, white: str) -> GameFinished:
    return GameFinished(
        event_code="WH",
        section_id="S1",
        round=1,
        pairing_id=pairing_id,
        game_id=f"{pairing_id}.g1",
        black=black,
        white=white,
        winner=black,
        result="black",
        reason="five",
        first=black,
        second=white,
    )


def awards_published() -> AwardsPublished:
    return AwardsPublished(
        event_code="WH",
        stage="main",
        section_id="S1",
        revision=1,
        places=[{"place": 1, "name": "Ann", "birth_date": "2001-02-03"}],
    )


def standings_updated(after_round: int = 1) -> StandingsUpdated:
    row = StandingRow(place=1, entrant_id="a1", name="Ann", points=2.0, tiebreaks={"buchholz": 1.0}, wins=1)
    return StandingsUpdated(event_code="WH", stage="main", section_id="S1", after_round=after_round, standings=[row])


def entry_accepted(entry_id: str, partner_id: str | None, external_ids: dict[str, str] | None = None) -> EntryAccepted:
    """An accepted entry of ``partner_id`` (None: staff registered it), with personal data."""
    entrant = Entrant(
        entrant_id=entry_id,
        name="Ann",
        birth_date=date(2001, 2, 3),
        partner_id=partner_id,
        attributes={"player_id": f"{entry_id}.p"},
    )
    return EntryAccepted(
        event_code="WH",
        stage="main",
        section_id="S1",
        entry_id=entry_id,
        entrant=entrant,
        clause="REG-4",
        external_ids=external_ids or {},
    )


def entry_refused(entry_id: str, partner_id: str | None, external_ids: dict[str, str] | None = None) -> EntryRefused:
    return EntryRefused(
        event_code="WH",
        stage="main",
        section_id="S1",
        application_id=f"app-{entry_id}",
        entrant_name="Bob",
        clause="REG-6",
        reason="born before the section's cut-off date",
        entry_id=entry_id,
        partner_id=partner_id,
        external_ids=external_ids or {},
    )


def messages(*payloads: Payload):
    return [encode(envelope_for(p, correlation_id="webhooks-test")) for p in payloads]


def now() -> datetime:
    return datetime.now(UTC)
