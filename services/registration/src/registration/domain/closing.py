"""REG-12: closing a stage's registration — merge small sections, cancel tiny ones, and
produce the final field of every section, ready for a `section.closed` event.

Merging (SZ online): a section with fewer entries than its `closing.merge_below` (free 8,
professional 6) is merged with its configured partner (same age window, same track). Decision:
the merged field runs under the id of the pair's section listed first in the preset (men before
women, boys before girls); genders are then ranked separately. A section — merged or not — with
at most `closing.cancel_at_most` entries (SZ: 4) is cancelled. A partner with no entries at all
is not a merge (the other section simply runs alone).

Every ready section keeps its round limits (PAIR-1 maximum, EVT-7 a scheduled start for every
round: round_limits); closing refuses a format beyond them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, time
from typing import Any, Literal
from zoneinfo import ZoneInfo

from gomoku_shared.event_config import EventConfig, FormatKind, SectionConfig

from .model import Decision, Entry, EntryStatus, Person, Unit, Verdict
from .round_limits import check_round_limits, round_robin_rounds
from .swiss_limit import SwissRoundsExceedField, max_swiss_rounds


@dataclass(frozen=True)
class FormatChoice:
    """The arbiter's choice where the preset leaves it open ("赛制、轮数视参赛人数而定")."""

    kind: FormatKind
    rounds: int | None = None
    #: PAIR-1: the organiser's reason for more rounds than an in-principle maximum (DA 七(四))
    over_max_reason: str | None = None


@dataclass(frozen=True)
class FieldEntry:
    entry_id: str
    person_ids: tuple[str, ...]
    unit_id: str | None
    origin_section: str
    #: the eligibility clause that admitted the (first) player, for later stages
    admitted_by: str | None = None


ClosedStatus = Literal["ready", "merged", "cancelled", "scored"]


@dataclass(frozen=True)
class ClosedSection:
    stage_id: str
    section_id: str
    #: ready: will be played; merged: folded into `merged_into`; cancelled; scored: a team
    #: section computed from individual results (nothing to pair)
    status: ClosedStatus
    entries: tuple[FieldEntry, ...]
    reason: str
    merged_from: tuple[str, ...] = ()
    merged_into: str | None = None
    rank_genders_separately: bool = False
    format: FormatKind | None = None
    rounds: int | None = None
    decisions: tuple[Decision, ...] = field(default_factory=tuple)

    @property
    def size(self) -> int:
        return len(self.entries)


def _admitted_by(entry: Entry) -> str | None:
    for decision in entry.decisions:
        if decision.admitted and decision.rule in ("REG-6", "REG-7", "REG-8"):
            return decision.clause
    return None


def _field(entries: Sequence[Entry], section_id: str) -> list[FieldEntry]:
    return [
        FieldEntry(e.id, e.person_ids, e.unit_id, e.section_id, _admitted_by(e))
        for e in entries
        if e.section_id == section_id and e.status is EntryStatus.ACCEPTED and not e.no_show
    ]


def choose_format(
    section: SectionConfig, entrants: int, choice: FormatChoice | None = None
) -> tuple[FormatKind | None, int | None]:
    """PAIR-1: the format and number of rounds for a field of `entrants` (None = undecided).
    Raises SwissRoundsExceedField when the arbiter's choice is a Swiss longer than the field can
    play at all (PAIR-2; up to that the pairing's look-ahead keeps every round pairable)."""
    rules = section.format
    if rules is None:
        return None, None
    kind: FormatKind | None
    if rules.choice == "fixed":
        kind = rules.allowed[0]
    elif rules.choice == "by_entries":
        kind = "round_robin" if entrants <= (rules.round_robin_max_entries or 0) else "swiss"
    else:
        kind = choice.kind if choice else None
    if kind is None:
        return None, None
    if kind not in rules.allowed:
        raise ValueError(f"{section.id}: format {kind!r} not allowed ({rules.allowed})")
    rounds: int | None
    if choice and choice.rounds:
        rounds = choice.rounds
    elif kind == "round_robin":
        # a field too small to play is cancelled at closing; its rules still need a round count
        rounds = round_robin_rounds(entrants)
    else:
        # the preset's Swiss rounds; a choice beyond the maximum is refused at closing
        # (round_limits), never silently cut
        rounds = rules.rounds
    # PAIR-2: the arbiter's Swiss must fit the field (swiss_limit: n − 1 rounds, n if odd); a
    # field of fewer than 2 has nothing to play and is cancelled at closing
    if choice is not None and kind == "swiss" and rounds is not None and entrants >= 2:
        if rounds > max_swiss_rounds(entrants):
            raise SwissRoundsExceedField(section.id, entrants, rounds)
    return kind, rounds


def close_stage(
    event: EventConfig,
    stage_id: str,
    entries: Sequence[Entry],
    format_choices: Mapping[str, FormatChoice] | None = None,
) -> list[ClosedSection]:
    """The final field of every section of the stage, in preset order (REG-12).

    Only accepted entries that are not marked absent make up the field."""
    stage = event.stage(stage_id)
    choices = dict(format_choices or {})
    fields = {s.id: _field(entries, s.id) for s in stage.sections}
    # EVT-7: how many rounds each section's schedule gives a start (0: unscheduled)
    slots = {s.id: len(event.schedule.round_starts(stage.id, s.id)) for s in stage.sections}
    by_id = {s.id: s for s in stage.sections}
    out: dict[str, ClosedSection] = {}
    for sec in stage.sections:
        if sec.id in out:
            continue
        if not sec.played:
            out[sec.id] = ClosedSection(
                stage.id, sec.id, "scored", tuple(fields[sec.id]), "scored from individual results"
            )
            continue
        closing = sec.closing
        partner = by_id.get(closing.merge_with) if closing.merge_with else None
        if partner is not None and partner.id not in out and fields[partner.id] and fields[sec.id]:
            merged = _merge_if_small(stage.id, sec, partner, fields, choices, slots[sec.id])
            if merged is not None:
                out[sec.id], out[partner.id] = merged
                continue
        out[sec.id] = _ready_or_cancel(stage.id, sec, fields[sec.id], (), "", choices.get(sec.id), slots[sec.id])
    return [out[s.id] for s in stage.sections]


def _merge_if_small(
    stage_id: str,
    sec: SectionConfig,
    partner: SectionConfig,
    fields: Mapping[str, list[FieldEntry]],
    choices: Mapping[str, FormatChoice],
    scheduled: int,
) -> tuple[ClosedSection, ClosedSection] | None:
    """A section and its merge partner, both with entries, when either is below its
    `merge_below`: the merged field under `sec` (ready or cancelled) and the partner folded
    into it. None: neither is small, each runs alone."""
    small = [
        s
        for s, below in ((sec, sec.closing.merge_below), (partner, partner.closing.merge_below))
        if below is not None and len(fields[s.id]) < below
    ]
    if not small:
        return None
    note = "; merged: " + ", ".join(f"{s.name} had {len(fields[s.id])} (< {s.closing.merge_below})" for s in small)
    members = fields[sec.id] + fields[partner.id]
    host = _ready_or_cancel(stage_id, sec, members, (sec.id, partner.id), note, choices.get(sec.id), scheduled)
    status: ClosedStatus = "cancelled" if host.status == "cancelled" else "merged"
    folded = ClosedSection(
        stage_id,
        partner.id,
        status,
        tuple(fields[partner.id]),
        f"merged into {sec.name}" + ("" if status == "merged" else ", which was cancelled"),
        merged_into=sec.id,
        decisions=(Decision("REG-12", f"{partner.id}/merge", Verdict.ADMITTED, f"merged into {sec.id}"),),
    )
    return host, folded


def _ready_or_cancel(
    stage_id: str,
    sec: SectionConfig,
    members: list[FieldEntry],
    merged_from: tuple[str, ...],
    merge_note: str,
    choice: FormatChoice | None,
    scheduled: int,
) -> ClosedSection:
    """A field of at most `closing.cancel_at_most` entries is cancelled; any other is ready,
    with its format and rounds (PAIR-1) within its round limits (`scheduled`: the rounds its
    schedule starts, 0 when it has none)."""
    entrants = len(members)
    limit = sec.closing.cancel_at_most
    if limit is not None and entrants <= limit:
        why = f"{entrants} entries (at most {limit}): section cancelled" + merge_note
        return ClosedSection(
            stage_id,
            sec.id,
            "cancelled",
            tuple(members),
            why,
            merged_from,
            decisions=(Decision("REG-12", f"{sec.id}/cancel", Verdict.REFUSED, why),),
        )
    kind, rounds = choose_format(sec, entrants, choice)
    decisions = [Decision("REG-12", f"{sec.id}/field", Verdict.ADMITTED, f"{entrants} entries" + merge_note)]
    # a field of fewer than 2 has nothing to play and is cancelled after this (cancel_unplayable)
    if kind is not None and rounds is not None and entrants >= 2:
        beyond = check_round_limits(sec, entrants, kind, rounds, scheduled, choice.over_max_reason if choice else None)
        if beyond is not None:
            decisions.append(beyond)
    # PAIR-1: an organiser's rounds beyond an in-principle maximum are said with the field
    why = "; ".join([f"{entrants} entries" + merge_note, *(d.reason for d in decisions if d.rule == "PAIR-1")])
    return ClosedSection(
        stage_id,
        sec.id,
        "ready",
        tuple(members),
        why,
        merged_from,
        rank_genders_separately=bool(merged_from) and sec.closing.rank_genders_separately,
        format=kind,
        rounds=rounds,
        decisions=tuple(decisions),
    )


# --------------------------------------------------------------------------- contract mapping


def cancel_unplayable(event: EventConfig, closed: Sequence[ClosedSection]) -> list[ClosedSection]:
    """REG-12 (Decision): a played section left with fewer than 2 entrants has nothing to play —
    it is published as cancelled (the preset may have no cancel threshold, e.g. NT)."""

    def cancelled(closed: ClosedSection) -> ClosedSection:
        reason = f"{closed.size} entrants: nothing to play"
        return replace(
            closed,
            status="cancelled",
            reason=reason,
            decisions=(Decision("REG-12", f"{closed.section_id}/cancel", Verdict.REFUSED, reason),),
        )

    return [
        cancelled(c) if c.status == "ready" and event.section(c.section_id).played and c.size < 2 else c for c in closed
    ]


def section_rules(event: EventConfig, closed: ClosedSection) -> dict[str, Any]:
    """`SectionRules` (gomoku_shared.contracts.common) as a plain dict."""
    sec = event.section(closed.section_id)
    fmt, clk, op = sec.format, sec.clock, sec.opening
    if fmt is None or clk is None or op is None or sec.scoring is None or sec.no_show_minutes is None:
        raise ValueError(f"{sec.id} plays no games of its own")
    playoffs = sec.playoffs
    playoff_clock = playoffs.stages[0].clock if playoffs.stages else None
    decider = playoffs.stages[1].clock if len(playoffs.stages) > 1 else playoff_clock
    matter = sec.playoffs.places or sec.awards.places or max((b.places for b in sec.awards.places_by_field), default=0)
    if sec.qualification:
        matter = max(matter, sec.qualification.top + sec.qualification.substitutes)
    kind = closed.format or fmt.allowed[0]
    rules: dict[str, Any] = {
        "kind": sec.kind,
        "format": kind,
        # only a cancelled section can get here without rounds; the contract needs >= 1
        "rounds": closed.rounds or fmt.rounds or 1,
        "boards": sec.team_match.boards if sec.team_match else 1,
        "two_game_rounds": fmt.games_per_round == 2,
        "ruleset": {
            "track": sec.track,
            "exact_five": not op.overline_wins and op.rule == "free",
            "forbidden_policy": op.forbidden_move_policy,
            "fixed_n": op.fifth_move_offers,
        },
        "clock": {"kind": clk.mode, "base_s": clk.base_s, "increment_s": clk.increment_s},
        "no_show_minutes": sec.no_show_minutes,
        "points": {"win": sec.scoring.win, "draw": sec.scoring.draw, "loss": sec.scoring.loss},
        "match_points": {"win": sec.scoring.match_win, "draw": sec.scoring.match_draw, "loss": sec.scoring.match_loss}
        if sec.scoring.match_win is not None
        else {"win": sec.scoring.win, "draw": sec.scoring.draw, "loss": sec.scoring.loss},
        "tiebreaks": list(sec.tiebreaks.get(kind, [])),
        "tie_policy": {"playoff": "playoff", "arbiter_decision": "arbiter", "shared": "share"}[playoffs.policy],
        "places_that_matter": matter,
        "rank_by_gender": closed.rank_genders_separately,
        # EVT-7: the round start times of the section (a merged section plays at its own)
        "round_starts": [moment.isoformat() for moment in event.schedule.round_starts(closed.stage_id, sec.id)],
        # PLAY-9: the stage is played over the board (SZ final, NY, DA, NT) or online
        "mode": event.stage_of(sec.id).mode,
    }
    for key, c in (("playoff_clock", playoff_clock), ("playoff_decider_clock", decider)):
        if c is not None:
            rules[key] = {"kind": c.mode, "base_s": c.base_s, "increment_s": c.increment_s}
    return rules


def section_closed_payload(
    event: EventConfig, closed: ClosedSection, people: Mapping[str, Person], units: Mapping[str, Unit] | None = None
) -> dict[str, Any]:
    """The `section.closed` payload (gomoku_shared.contracts.events.SectionClosed) as a dict.
    Only ready and cancelled sections are published; merged ones travel inside their host."""
    if closed.status not in ("ready", "cancelled"):
        raise ValueError(f"{closed.section_id} is {closed.status}: not published as section.closed")
    if closed.status == "ready" and (closed.format is None or closed.rounds is None):
        raise ValueError(f"{closed.section_id}: the arbiter has not chosen the format and rounds yet")
    units = units or {}
    sec = event.section(closed.section_id)
    tz = ZoneInfo(event.timezone)
    start = datetime.combine(event.section_start(sec.id), time(0, 0), tzinfo=tz)
    entrants: list[dict[str, Any]] = []
    for field_entry in closed.entries:
        members = [people[pid] for pid in field_entry.person_ids]
        unit = units.get(field_entry.unit_id) if field_entry.unit_id else None
        unit_name = unit.name if unit else field_entry.unit_id
        attrs = {
            "origin_section": field_entry.origin_section,
            "admitted_by": field_entry.admitted_by,
            "unit_id": field_entry.unit_id,  # AWD-10: the unit an appeal and its fee belong to
        }
        if sec.kind == "individual":
            player = members[0]
            entrants.append(
                {
                    "entrant_id": field_entry.entry_id,
                    "name": player.name,
                    "gender": player.gender,
                    "unit": unit_name,
                    "birth_year": player.birth_date.year,
                    "attributes": {**attrs, "player_id": player.id},
                }
            )
        else:
            entrants.append(
                {
                    "entrant_id": field_entry.entry_id,
                    "name": unit_name or field_entry.entry_id,
                    "unit": unit_name,
                    "members": [
                        {
                            "player_id": p.id,
                            "name": p.name,
                            "gender": p.gender,
                            "board": i + 1,
                            "unit": unit_name,
                            "birth_year": p.birth_date.year,
                        }
                        for i, p in enumerate(members)
                    ],
                    "attributes": attrs,
                }
            )
    return {
        "event_code": event.id,
        "stage": closed.stage_id,
        "section_id": sec.id,
        "name": sec.name,
        "status": closed.status,
        "merged_from": list(closed.merged_from),
        "rules": section_rules(event, closed),
        "entrants": entrants,
        "starts_at": start.isoformat(),
        # REG-12: the reason reaches awards through pairing (AWD-6 notes a cancelled source)
        "cancel_reason": closed.reason if closed.status == "cancelled" else None,
    }
