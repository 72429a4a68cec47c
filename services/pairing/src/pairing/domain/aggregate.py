"""The section aggregate: a section with its entrants, rounds, pairings and results, byes, bye
requests, ties and round delays, as the repository loads it (``uow.sections.load``) and writes it
back (``uow.sections.save``).

A use case changes the section only through the methods below. Each changes the section in
memory at once (the rest of the use case reads the new state) and records the change in
:attr:`Section.changes`; ``save`` writes the recorded changes in the order they were made, in
the use case's transaction. The entrant, round, pairing, bye and tie records are plain dicts
keyed by their stored names, which the read models and the events are written from.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from gomoku_shared.contracts.common import Entrant, SectionRules

View = TypeVar("View")

#: a pairing's result fields before a result is in
NO_RESULT = dict(
    outcome=None,
    first_points=None,
    second_points=None,
    result_source=None,
    result_at=None,
    result_by=None,
    result_by_name=None,
)


class StaleResult(Exception):
    """The write of a pairing's result found another revision stored than the one it was
    decided on (a writer got there first): raised by the repository's ``save``."""

    def __init__(self, pairing: dict[str, Any]) -> None:
        super().__init__(f"the result of {pairing['pairing_id']} changed meanwhile")
        self.pairing = pairing


@dataclass(frozen=True)
class Change:
    """One recorded change: what it is (``kind``) and what the repository needs to write it."""

    kind: str
    values: dict[str, Any]


@dataclass
class Section:
    #: the tournament record (status, current round, revision, event sequence, rules, …)
    row: dict[str, Any]
    rules: SectionRules
    #: entrant records by start number, each with the contract ``Entrant`` under "entrant"
    entrants: dict[int, dict[str, Any]]
    rounds: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: pairings by round, in round order (match_no, board)
    pairings: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    byes: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    requests: list[dict[str, Any]] = field(default_factory=list)
    ties: list[dict[str, Any]] = field(default_factory=list)
    #: EVT-7: the latest start the arbiter delayed each round to (from the audited delays)
    delays: dict[int, datetime] = field(default_factory=dict)
    #: changes not yet saved, in order
    changes: list[Change] = field(default_factory=list)
    #: the event sequence number as stored (``save`` writes the row's when it moved on)
    stored_seq: int = 0
    #: what :meth:`view` built since the last change (a replayed tournament, …)
    _views: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def opened(cls, tournament: dict[str, Any], entrants: list[dict[str, Any]]) -> Section:
        """A new section (its tournament record, its entrant records): created by ``save``."""
        section = cls(dict(tournament), SectionRules.model_validate(tournament["rules"]), {})
        for row in entrants:
            section.entrants[row["start_no"]] = {**row, "entrant": Entrant.model_validate(row["data"])}
        section.stored_seq = section.row["event_seq"]
        section.changes.append(Change("created", {"tournament": dict(tournament), "entrants": entrants}))
        return section

    # ---------------------------------------------------------------- reading

    @property
    def event_code(self) -> str:
        return self.row["event_code"]

    @property
    def section_id(self) -> str:
        return self.row["section_id"]

    @property
    def key(self) -> dict[str, str]:
        return {"event_code": self.event_code, "section_id": self.section_id}

    @property
    def team(self) -> bool:
        return self.rules.kind == "team"

    def by_entrant_id(self) -> dict[str, int]:
        return {entrant["entrant_id"]: start_no for start_no, entrant in self.entrants.items()}

    def complete_rounds(self) -> list[int]:
        return sorted(rnd for rnd, row in self.rounds.items() if row["status"] == "complete")

    def view(self, key: Any, build: Callable[[], View]) -> View:
        """``build()``, built once while the section does not change (the tournament its
        completed rounds replay, asked for by the standings and by the next round's pairing)."""
        if key not in self._views:
            self._views[key] = build()
        view: View = self._views[key]
        return view

    # ---------------------------------------------------------------- changing

    def _record(self, kind: str, **values: Any) -> None:
        self._views.clear()  # every view was built from the section before this change
        self.changes.append(Change(kind, values))

    def update(self, **values: Any) -> None:
        """Fields of the tournament record (status, current round, note, hold, …)."""
        self.row.update(values)
        self._record("tournament", values=values)

    def add_entrant(self, row: dict[str, Any], entrant: Entrant) -> None:
        """A late entrant (its record's fields, and the contract ``entrant``)."""
        self.entrants[row["start_no"]] = {**row, "entrant": entrant}
        self._record("entrant", row=row)

    def put_round(
        self,
        rnd: int,
        status: str,
        now: datetime,
        pairing_rows: list[dict],
        bye_rows: list[dict],
        paired_by: str = "engine",
    ) -> None:
        """A paired round (replacing a draft of the same number), its pairings without results."""
        self.drop_round(rnd)
        row = dict(
            **self.key,
            round=rnd,
            status=status,
            paired_at=now,
            paired_by=paired_by,
            published_at=now if status == "published" else None,
            starts_at=now if status == "published" else None,
        )
        pairings = [dict(**self.key, round=rnd, **pairing) for pairing in pairing_rows]
        byes = [dict(**self.key, round=rnd, **bye) for bye in bye_rows]
        self._record("round", row=row, pairings=pairings, byes=byes)
        self.rounds[rnd] = row
        self.pairings[rnd] = [
            dict(**self.key, round=rnd, **NO_RESULT, revision=0, **pairing) for pairing in pairing_rows
        ]
        self.byes[rnd] = [dict(bye) for bye in byes]

    def drop_round(self, rnd: int) -> None:
        self._record("round_dropped", round=rnd)
        self.rounds.pop(rnd, None)
        self.pairings.pop(rnd, None)
        self.byes.pop(rnd, None)

    def update_round(self, rnd: int, **values: Any) -> None:
        self.rounds[rnd].update(values)
        self._record("round_updated", round=rnd, values=values)

    def set_result(self, pairing: dict[str, Any], **values: Any) -> None:
        """A pairing's result (``pairing``: one of :attr:`pairings`, updated in place); its
        revision goes up by one. ``save`` writes it only over the revision read here (else
        :class:`StaleResult`)."""
        seen = int(pairing.get("revision") or 0)
        self._record("result", pairing=pairing, seen=seen, values=values)
        pairing.update(values, revision=seen + 1)

    def request_bye(self, **values: Any) -> None:
        """A bye request of (round, start number), replacing one of the same."""
        self.requests = [
            request
            for request in self.requests
            if not (request["round"] == values["round"] and request["start_no"] == values["start_no"])
        ]
        self.requests.append(dict(**self.key, **values))
        self._record("bye_request", values=values)

    def withdraw(self, start_no: int, after_round: int, reason: str, now: datetime, by_whom: str) -> None:
        self.entrants[start_no]["withdrawn_after"] = after_round
        self._record(
            "withdrawal", start_no=start_no, after_round=after_round, reason=reason, created_at=now, by=by_whom
        )

    def put_tie(self, tie: dict[str, Any]) -> None:
        """A tie (PAIR-8), replacing the one of the same id."""
        columns = {name: value for name, value in tie.items() if name not in ("event_code", "section_id")}
        self.ties = [other for other in self.ties if other["tie_id"] != tie["tie_id"]] + [dict(**self.key, **columns)]
        self.ties.sort(key=lambda stored: stored["tie_id"])
        self._record("tie", columns=columns)

    def audit(self, *, when: datetime, action: str, rnd: int | None, details: dict, **who: Any) -> None:
        """An audit record of an arbiter's action (``who``: role, key_id, actor, actor_id); a
        delay (EVT-7) also moves :attr:`delays`."""
        if action == "delay" and rnd is not None:
            self.delays[rnd] = datetime.fromisoformat(details["starts_at"])
        self._record("audit", at=when, action=action, round=rnd, details=details, **who)
