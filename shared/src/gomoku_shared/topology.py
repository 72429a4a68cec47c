"""Who consumes what (docs/architecture.md, "Bus events"): one queue per consuming service.

Every process declares the whole topology at start-up, so an event published before its
consumer's first start is queued, not dropped as unroutable.
"""

from __future__ import annotations

CONSUMES: dict[str, tuple[str, ...]] = {
    # appeal fees and their refunds in the ledger (AWD-10); EVT-7: the schedule shows delays
    # issue 32: the published rating lists seed the entries (the TRF rating column)
    "registration": (
        "qualifiers.selected",
        "appeal.lodged",
        "appeal.decided",
        "round.rescheduled",
        "ratings.published",
        # issue 32: the record of final places (REG-16, REG-6 read it)
        "awards.published",
    ),
    "pairing": ("section.closed", "game.finished", "event.access_changed"),
    "gameplay": ("round.paired", "playoff.required", "result.decided", "round.rescheduled", "event.access_changed"),
    # issue 32: a merge or split in the registry changes whose grants and games are whose
    "awards": ("event.configured", "section.completed", "event.access_changed", "people.merged", "people.split"),
    # webhooks to partner apps: pairings, results and published awards
    # (playoff.required: the partners of the playoff games' players)
    "partners": (
        "round.paired",
        # EVT-7: an arbiter delayed a round
        "round.rescheduled",
        "playoff.required",
        # a game exists (its players may join), then is under way
        "game.created",
        "game.started",
        "game.finished",
        "section.completed",
        "awards.published",
        # the standings after each round, and the entry.decided webhook of a partner's entries
        "standings.updated",
        "entry.accepted",
        "entry.refused",
        # issue 29: who owns each event (staff roles on an event are checked against it)
        "event.access_changed",
    ),
}
