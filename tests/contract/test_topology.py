"""Every event type has a producer contract, and the routing table matches the consumers."""

from __future__ import annotations

import importlib

from gomoku_shared.contracts import PAYLOADS
from gomoku_shared.topology import CONSUMES


def test_each_service_consumes_exactly_what_the_topology_routes_to_it():
    for service, keys in CONSUMES.items():
        consumers = importlib.import_module(f"{service}.entrypoints.consumers")
        assert set(consumers.CONSUMES) == set(keys), service
        assert set(keys) <= set(PAYLOADS), f"{service} consumes an event without a contract"


def test_every_consumed_event_is_produced_by_someone_else():
    consumed = {k for keys in CONSUMES.values() for k in keys}
    assert consumed == {
        "qualifiers.selected",
        "section.closed",
        "game.finished",
        "round.paired",
        "playoff.required",
        "event.configured",
        "section.completed",
        "result.decided",
        "awards.published",
        "game.started",
        # partners: a game exists (created) before it starts (issue 27 finding 10)
        "game.created",
        # pairing records appeals; registration's ledger takes their fees and refunds (AWD-10)
        "appeal.lodged",
        "appeal.decided",
        # EVT-7: pairing announces an arbiter's delay to gameplay, registration and partners
        "round.rescheduled",
        # issue 29: registration announces each event's organisation and chosen partner apps
        "event.access_changed",
        # partners: the standings after each round and the entry.decided webhook (issue 14)
        "standings.updated",
        "entry.accepted",
        "entry.refused",
        # issue 32: awards' latest rating list seeds registration's entries; registration's
        # merges and splits of registry people re-key awards' grants and games
        "ratings.published",
        "people.merged",
        "people.split",
    }
