"""After the last round (PAIR-8): ties on the places that matter are settled by a playoff or by
the arbiter, then the section completes (section.completed, AWD-8)."""

from __future__ import annotations

from typing import Any

from gomoku_shared.contracts.common import Entrant
from gomoku_shared.contracts.events import GameFinished, GameResult, PairingSpec, PlayoffRequired, SectionCompleted

from ..domain import Outcome, TieGroup, ties_needing_decision
from ..domain.aggregate import Section
from .section import FORFEITS, members, result_name
from .standings import board_stats, contract_rows, ranked
from .unit_of_work import PairingUnitOfWork

UNSETTLED = ("open", "playing")


def tie_id_of(gender: str, places: tuple[int, ...]) -> str:
    return f"{gender + '.' if gender else ''}t{places[0]}-{places[-1]}"


def _ties_needed(state: Section) -> dict[str, tuple[str, TieGroup, list[str]]]:
    """The ties the standings need settled, by tie id: (gender, group, entrant ids)."""
    ranking = ranked(state)
    policy, places = state.rules.tie_policy, state.rules.places_that_matter
    cohorts = list(ranking.by_gender.items()) if ranking.by_gender is not None else [("", ranking.rows)]
    needed: dict[str, tuple[str, TieGroup, list[str]]] = {}
    if policy != "share" and places > 0:
        for gender, rows in cohorts:
            for group in ties_needing_decision(rows, range(1, places + 1), policy == "playoff"):
                ids = [state.entrants[start_no]["entrant_id"] for start_no in group.ids]
                needed[tie_id_of(gender, group.places)] = (gender, group, ids)
    return needed


async def finalize(uow: PairingUnitOfWork, state: Section) -> None:
    """After the last round (PAIR-8): ties on places that matter → playoff or arbiter; else complete."""
    needed = _ties_needed(state)
    for tie in list(state.ties):
        if tie["tie_id"] not in needed and tie["status"] != "void":
            state.put_tie({**tie, "status": "void"})
    for tie_id, (gender, group, ids) in sorted(needed.items()):
        old = next((stored for stored in state.ties if stored["tie_id"] == tie_id), None)
        if old is not None and old["entrant_ids"] == ids and old["status"] != "void":
            continue  # the same tie: its playoff or decision stands
        tie = dict(
            tie_id=tie_id,
            gender=gender or None,
            place_from=group.places[0],
            place_to=group.places[-1],
            entrant_ids=ids,
            action=group.action,
            status="open",
            playoff={},
            decision=None,
            decided_by=None,
            decided_at=None,
            revision=(old["revision"] + 1) if old else 1,
        )
        state.put_tie(tie)
        if group.action == "playoff":
            await _start_playoff(uow, state, tie, [ids])
    unsettled = [tie for tie in state.ties if tie["status"] in UNSETTLED]
    if unsettled:
        playoff = any(tie["action"] == "playoff" for tie in unsettled)
        state.update(status="awaiting_playoff" if playoff else "awaiting_arbiter")
        return
    await complete(uow, state)


def _player_for(state: Section, entrant_id: str) -> tuple[str, str | None, str | None]:
    """(player id, team id, partner) who plays a playoff for an entrant: teams send board 1 (PAIR-10)."""
    entrant: Entrant = state.entrants[state.by_entrant_id()[entrant_id]]["entrant"]
    if not state.team:
        return entrant.entrant_id, None, entrant.partner_id
    board_one = members(entrant)[0]
    return board_one.player_id, entrant.entrant_id, board_one.partner_id or entrant.partner_id


def _playoff_pairings(state: Section, groups: list[list[str]]) -> tuple[list[dict], list[PairingSpec], list[str]]:
    """Every pair of each still-tied group: (stored matches, specs for gameplay, entrants playing)."""
    matches: list[dict] = []
    pairing_specs: list[PairingSpec] = []
    playing: list[str] = []
    for group in groups:
        if len(group) < 2:
            continue
        playing += group
        for index, first_entrant in enumerate(group):
            for second_entrant in group[index + 1 :]:
                first, first_team, first_partner = _player_for(state, first_entrant)
                second, second_team, second_partner = _player_for(state, second_entrant)
                pairing_id = f"p{len(matches) + 1}"
                matches.append(
                    {
                        "pairing_id": pairing_id,
                        "first": first,
                        "second": second,
                        "first_entrant": first_entrant,
                        "second_entrant": second_entrant,
                        "winner": None,
                        "done": False,
                    }
                )
                pairing_specs.append(
                    PairingSpec(
                        pairing_id=pairing_id,
                        first=first,
                        second=second,
                        games=2,
                        ruleset=state.rules.ruleset,
                        clock=state.rules.playoff_clock,
                        first_partner=first_partner,
                        second_partner=second_partner,
                        first_team=first_team,
                        second_team=second_team,
                        board=1 if state.team else None,
                    )
                )
    return matches, pairing_specs, playing


async def _start_playoff(uow: PairingUnitOfWork, state: Section, tie: dict, groups: list[list[str]]) -> None:
    """PLAY-PLAYOFF: every pair of each still-tied group plays (two games, then deciders, run by gameplay)."""
    stage = int(tie["playoff"].get("stage", 0)) + 1
    playoff_id = f"{state.section_id}.{tie['tie_id']}.v{tie['revision']}.s{stage}"
    matches, pairing_specs, playing = _playoff_pairings(state, groups)
    tie = {
        **tie,
        "status": "playing",
        "playoff": {"stage": stage, "playoff_id": playoff_id, "groups": groups, "matches": matches},
    }
    state.put_tie(tie)
    uow.emit_for(
        state,
        PlayoffRequired(
            event_code=state.event_code,
            stage=state.row["stage"],
            section_id=state.section_id,
            playoff_id=playoff_id,
            place_from=tie["place_from"],
            place_to=tie["place_to"],
            entrant_ids=playing,
            pairings=pairing_specs,
            decider_clock=state.rules.playoff_decider_clock,
            starts_at=uow.clock.now(),
            no_show_minutes=state.rules.no_show_minutes,
            mode=state.rules.mode,
        ),
    )


def _regroup(playoff: dict) -> tuple[list[list[str]], bool]:
    """The groups after a playoff stage, split by wins; True when a group is stuck (nobody played:
    double forfeits, and a replay would repeat it — the arbiter decides)."""
    wins: dict[str, int] = {}
    for match in playoff["matches"]:
        if match["winner"]:
            wins[match["winner"]] = wins.get(match["winner"], 0) + 1
    new_groups: list[list[str]] = []
    stuck = False
    for group in playoff["groups"]:
        if len(group) == 1:
            new_groups.append(group)
            continue
        ordered = sorted(group, key=lambda entrant: (-wins.get(entrant, 0), group.index(entrant)))
        split: list[list[str]] = []
        for entrant in ordered:
            if split and wins.get(split[-1][0], 0) == wins.get(entrant, 0):
                split[-1].append(entrant)
            else:
                split.append([entrant])
        in_group = [match for match in playoff["matches"] if match["first_entrant"] in group]
        if len(split) == 1 and all(match["winner"] is None for match in in_group):
            stuck = True
        new_groups += split
    return new_groups, stuck


async def playoff_game(uow: PairingUnitOfWork, state: Section, game: GameFinished) -> None:
    """A playoff match is over: when its stage is, the tie is decided, split further, or left to
    the arbiter."""
    tie = next(
        (
            stored
            for stored in state.ties
            if stored["playoff"].get("playoff_id") == game.playoff_id and stored["status"] == "playing"
        ),
        None,
    )
    if tie is None or game.outcome is None and not game.double_forfeit:
        return
    playoff = {**tie["playoff"], "matches": [dict(match) for match in tie["playoff"]["matches"]]}
    match = next((played for played in playoff["matches"] if played["pairing_id"] == game.pairing_id), None)
    if match is None or match["done"]:
        return
    match["done"] = True
    if not game.double_forfeit and game.outcome is not None:
        first_points, second_points = game.outcome.first_points, game.outcome.second_points
        if game.first is not None and game.first == match["second"]:
            first_points, second_points = second_points, first_points
        if first_points != second_points:
            match["winner"] = match["first_entrant"] if first_points > second_points else match["second_entrant"]
        else:
            match["winner"] = None
    tie = {**tie, "playoff": playoff}
    if not all(played["done"] for played in playoff["matches"]):
        state.put_tie(tie)
        return
    new_groups, stuck = _regroup(playoff)
    if all(len(group) == 1 for group in new_groups):
        tie = {
            **tie,
            "status": "decided",
            "decision": [group[0] for group in new_groups],
            "decided_by": "playoff",
            "decided_at": uow.clock.now(),
        }
        state.put_tie(tie)
        await maybe_complete(uow, state)
    elif stuck:
        tie = {**tie, "status": "open", "action": "arbiter"}
        state.put_tie(tie)
        await maybe_complete(uow, state)
    else:
        await _start_playoff(uow, state, tie, new_groups)


async def maybe_complete(uow: PairingUnitOfWork, state: Section) -> None:
    """Complete the section once no tie is left open or playing."""
    unsettled = [tie for tie in state.ties if tie["status"] in UNSETTLED]
    if unsettled:
        playing = any(tie["status"] == "playing" for tie in unsettled)
        state.update(status="awaiting_playoff" if playing else "awaiting_arbiter")
        return
    await complete(uow, state)


def completed_payload(state: Section, revision: int) -> SectionCompleted:
    entrants = []
    for _start_no, row in sorted(state.entrants.items()):
        entrant: Entrant = row["entrant"]
        if row["withdrawn_after"] is not None:
            attributes = {**entrant.attributes, "withdrawn": True, "withdrawn_after": row["withdrawn_after"]}
            entrant = entrant.model_copy(update={"attributes": attributes})
        entrants.append(entrant)
    closed: dict[str, Any] = state.row["closed"]
    flagged = [tie["entrant_ids"] for tie in state.ties if tie["action"] == "arbiter" and tie["status"] != "void"]
    return SectionCompleted(
        event_code=state.event_code,
        stage=state.row["stage"],
        section_id=state.section_id,
        name=closed.get("name", state.row["name"]),
        revision=revision,
        rules=state.rules,
        standings=contract_rows(state, ranked(state), final=True),
        entrants=entrants,
        board_stats=board_stats(state) if state.team else [],
        flagged_ties=flagged,
        rounds_played=len(state.complete_rounds()),
        games=game_results(state),
    )


def game_results(state: Section) -> list[GameResult]:
    """Every decided pairing of the completed rounds (issue 32: awards rates them)."""
    out = []
    for rnd in state.complete_rounds():
        for pairing in state.pairings.get(rnd, []):
            if pairing["outcome"] is None:
                continue
            outcome = Outcome(pairing["outcome"])
            out.append(
                GameResult(
                    round=rnd,
                    pairing_id=pairing["pairing_id"],
                    board=pairing["board"],
                    first=pairing["first_id"],
                    second=pairing["second_id"],
                    outcome=result_name(outcome),
                    forfeit=outcome in FORFEITS,
                )
            )
    return out


async def complete(uow: PairingUnitOfWork, state: Section) -> None:
    """Emit section.completed (revision + 1 after a correction, AWD-8)."""
    revision = state.row["revision"] + 1
    payload = completed_payload(state, revision)
    state.update(
        status="completed",
        revision=revision,
        completed_at=uow.clock.now(),
        final=payload.model_dump(mode="json"),
    )
    uow.emit_for(state, payload)
