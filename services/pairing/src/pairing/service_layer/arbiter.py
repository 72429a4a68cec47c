"""The arbiter's actions (PAIR-11): results, pairings of a round not yet played, byes,
withdrawals, late entries, holding rounds for review, tie decisions — each audited, each in one
unit of work with the section's tournament row locked. Past rounds are never re-paired."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from gomoku_shared.auth import Principal
from gomoku_shared.contracts.common import Entrant
from gomoku_shared.contracts.events import ResultDecided
from gomoku_shared.errors import Conflict, NotFound, Unprocessable

from ..domain import Board, Code, Outcome, RoundPairing, active_players, check_round, revisions
from ..domain.aggregate import Section, StaleResult
from . import lifecycle, queries
from .pool import Pairer
from .section import FORFEITS, RESULTS, as_competitors, bye_rules, result_name, round_points
from .ties import finalize, maybe_complete
from .unit_of_work import PairingUnitOfWork

FINISHED = ("completed", "cancelled")


def audit(
    uow: PairingUnitOfWork, state: Section, principal: Principal, action: str, rnd: int | None, details: dict
) -> None:
    state.audit(
        when=uow.clock.now(),
        role=principal.role,
        key_id=principal.key_id[:32],
        actor=principal.actor[:200],
        actor_id=principal.actor_id[:64],
        action=action,
        rnd=rnd,
        details=details,
    )


def by_whom(principal: Principal) -> str:
    """Who acted, as a record's ``*_by`` keeps it: ``acct:<account>`` for a person, else the key
    id (issue 29)."""
    return (principal.actor_id or principal.role)[:64]


def by_name(principal: Principal) -> str:
    """Who acted, by the name they signed in with (a key: its id), for ``*_by_name``."""
    return (principal.actor or principal.role)[:200]


def _start_no(state: Section, entrant_id: str) -> int:
    start_no = state.by_entrant_id().get(entrant_id)
    if start_no is None:
        raise Unprocessable("unknown_entrant", f"{entrant_id!r} is not an entrant of {state.section_id}")
    return start_no


def _refuse_finished(state: Section) -> None:
    if state.row["status"] in FINISHED:
        raise Conflict("section_finished", f"section {state.section_id} is {state.row['status']}")


# ---------------------------------------------------------------- results


async def enter_result(
    uow: PairingUnitOfWork,
    event_code: str,
    section_id: str,
    rnd: int,
    pairing_id: str,
    result: str,
    principal: Principal,
    pairer: Pairer,
    note: str = "",
    expected_revision: int | None = None,
    may_correct: Callable[[], object] | None = None,
) -> dict:
    """Enter or correct a result (PAIR-11): standings recompute; later rounds are never re-paired;
    after completion the section is republished with revision + 1 (AWD-8). ``expected_revision``
    is the result's revision the arbiter saw: a write decided on an older one is refused with the
    current result (409 ``stale_revision``, :mod:`pairing.domain.revisions`). ``may_correct``
    raises when the caller may enter results but not change one that stands (issue 29: a
    correction is the chief arbiter's), checked under the section's lock."""
    state = await uow.locked_section(event_code, section_id)
    if rnd not in state.rounds or state.rounds[rnd]["status"] == "draft":
        raise Conflict("round_not_published", f"round {rnd} is not published")
    pairing = next((stored for stored in state.pairings.get(rnd, []) if stored["pairing_id"] == pairing_id), None)
    if pairing is None:
        raise NotFound("pairing_not_found", f"no pairing {pairing_id!r} in round {rnd}")
    outcome = RESULTS[result]
    before = pairing["outcome"]
    if before == outcome.value:
        return _entered(pairing, outcome, changed=False)
    if revisions.is_stale(expected_revision, int(pairing["revision"]), before is not None):
        raise stale(pairing, expected_revision)
    if before is not None and may_correct is not None:
        may_correct()
    first_points, second_points = round_points(state.rules, outcome)
    state.set_result(
        pairing,
        outcome=outcome.value,
        first_points=first_points,
        second_points=second_points,
        result_source="arbiter",
        result_at=uow.clock.now(),
        result_by=by_whom(principal),
        result_by_name=by_name(principal),
    )
    details = {"pairing_id": pairing_id, "before": before, "after": outcome.value, "note": note}
    audit(uow, state, principal, "result", rnd, details)
    _emit_decision(uow, state, rnd, pairing, outcome, note)
    if state.rounds[rnd]["status"] == "complete":
        last = max(state.complete_rounds())
        lifecycle.emit_standings(uow, state, last)
        waiting = state.row["status"] in ("completed", "awaiting_arbiter", "awaiting_playoff")
        if waiting and last >= state.rules.rounds:
            await finalize(uow, state)
    elif rnd == state.row["current_round"]:
        await lifecycle.advance(uow, state, pairer)
    try:
        await uow.sections.save(state)
    except StaleResult:  # another writer got there between the read and the write (no lock held it)
        current = await uow.sections.pairing(event_code, section_id, pairing_id)
        raise stale(current or pairing, expected_revision) from None
    return _entered(pairing, outcome, changed=True)


def _entered(pairing: dict, outcome: Outcome, *, changed: bool) -> dict:
    return {
        "pairing_id": pairing["pairing_id"],
        "result": result_name(outcome),
        "changed": changed,
        "revision": int(pairing["revision"]),
    }


def current_result(pairing: dict) -> dict:
    """A pairing's result as it stands: what it is, its revision, who set it and when."""
    outcome = pairing["outcome"]
    changed_at = pairing.get("result_at")
    return {
        "pairing_id": pairing["pairing_id"],
        "round": pairing["round"],
        "result": result_name(Outcome(outcome)) if outcome else None,
        "revision": int(pairing.get("revision") or 0),
        "result_source": pairing.get("result_source"),
        "changed_by": pairing.get("result_by") or pairing.get("result_source"),
        #: issue 29: the person's name (a key: its id; a game: null)
        "changed_by_name": pairing.get("result_by_name"),
        "changed_at": changed_at.isoformat() if changed_at is not None else None,
    }


def stale(pairing: dict, expected_revision: int | None) -> Conflict:
    """409 ``stale_revision``: the write was decided on a result that is no longer the current
    one; ``details.current`` is the current result, for the arbiter to look at before deciding again."""
    current = current_result(pairing)
    seen = "no revision" if expected_revision is None else f"revision {expected_revision}"
    message = (
        f"the result of {pairing['pairing_id']} changed: it is {current['result']} at revision "
        f"{current['revision']}, the write was made on {seen}; nothing was changed"
    )
    return Conflict("stale_revision", message, {"expected_revision": expected_revision, "current": current})


def _emit_decision(
    uow: PairingUnitOfWork, state: Section, rnd: int, pairing: dict, outcome: Outcome, note: str
) -> None:
    """The arbiter's result travels to gameplay, which closes (or corrects) the pairing's games
    with it: one result in both services, whatever is still being played (PAIR-11)."""
    uow.emit_for(
        state,
        ResultDecided(
            event_code=state.event_code,
            stage=state.row["stage"],
            section_id=state.section_id,
            round=rnd,
            pairing_id=pairing["pairing_id"],
            first=pairing["first_id"],
            second=pairing["second_id"],
            outcome=result_name(outcome),
            reason="no_show" if outcome in FORFEITS else "arbiter",
            sequence=state.row["event_seq"] + 1,
            decided_at=uow.clock.now(),
            note=note,
        ),
    )


# ---------------------------------------------------------------- byes, withdrawals, late entries


def _next_round(state: Section) -> int:
    """The round byes and withdrawals apply to: a draft round, else the one after the current."""
    current = state.row["current_round"]
    if current and state.rounds.get(current, {}).get("status") == "draft":
        return current
    return current + 1


async def _repair_draft(uow: PairingUnitOfWork, state: Section, pairer: Pairer) -> None:
    current = state.row["current_round"]
    if current and state.rounds.get(current, {}).get("status") == "draft":
        state.drop_round(current)
        await lifecycle.pair_round(uow, state, current, pairer)


async def add_bye(
    uow: PairingUnitOfWork,
    event_code: str,
    section_id: str,
    entrant_id: str,
    kind: str,
    rnd: int | None,
    principal: Principal,
    pairer: Pairer,
) -> dict:
    """A requested (half point) or arbiter-forced (full point) bye for a round not yet published."""
    state = await uow.locked_section(event_code, section_id)
    _refuse_finished(state)
    coming = _next_round(state)
    rnd = coming if rnd is None else rnd
    if rnd < coming:
        raise Conflict("round_published", f"round {rnd} is already published: past rounds are never re-paired")
    if rnd > state.rules.rounds:
        raise Unprocessable("no_such_round", f"the section has {state.rules.rounds} rounds")
    start_no = _start_no(state, entrant_id)
    state.request_bye(round=rnd, start_no=start_no, kind=kind, created_at=uow.clock.now(), by=by_whom(principal))
    audit(uow, state, principal, "bye", rnd, {"entrant_id": entrant_id, "kind": kind})
    if rnd == state.row["current_round"]:
        await _repair_draft(uow, state, pairer)
    await uow.sections.save(state)
    return {"entrant_id": entrant_id, "round": rnd, "kind": kind}


async def withdraw(
    uow: PairingUnitOfWork,
    event_code: str,
    section_id: str,
    entrant_id: str,
    after_round: int | None,
    reason: str,
    principal: Principal,
    pairer: Pairer,
) -> dict:
    """Withdraw a player (PAIR-11): never paired after ``after_round``; past rounds stand."""
    state = await uow.locked_section(event_code, section_id)
    _refuse_finished(state)
    coming = _next_round(state)
    after = coming - 1 if after_round is None else after_round
    if after < coming - 1:
        raise Conflict("round_published", f"round {after + 1} is already published: past rounds are never re-paired")
    start_no = _start_no(state, entrant_id)
    state.withdraw(start_no, after, reason, uow.clock.now(), by_whom(principal))
    audit(uow, state, principal, "withdrawal", after, {"entrant_id": entrant_id, "reason": reason})
    if after < state.row["current_round"]:
        await _repair_draft(uow, state, pairer)
    await uow.sections.save(state)
    return {"entrant_id": entrant_id, "after_round": after}


async def late_entry(
    uow: PairingUnitOfWork, event_code: str, section_id: str, entrant: Entrant, principal: Principal, pairer: Pairer
) -> dict:
    """A late entry (PAIR-11): paired from the next unpublished round on, absent (no points) before;
    past rounds stay as paired. Swiss individual sections only (a round robin's table is fixed)."""
    state = await uow.locked_section(event_code, section_id)
    if state.row["status"] != "running" or state.team or state.rules.format != "swiss":
        raise Conflict("late_entry_refused", "late entries join running individual Swiss sections only")
    if entrant.entrant_id in state.by_entrant_id():
        raise Conflict("already_entered", f"{entrant.entrant_id} is already an entrant")
    rnd = _next_round(state)
    if rnd > state.rules.rounds:
        raise Conflict("late_entry_refused", "no round is left to play")
    start_no = max(state.entrants) + 1
    row = dict(
        event_code=event_code,
        section_id=section_id,
        start_no=start_no,
        entrant_id=entrant.entrant_id,
        data=entrant.model_dump(mode="json"),
        entry_round=rnd,
        withdrawn_after=None,
    )
    state.add_entrant(row, entrant)
    audit(uow, state, principal, "late_entry", rnd, {"entrant_id": entrant.entrant_id})
    if rnd == state.row["current_round"]:
        await _repair_draft(uow, state, pairer)
    await uow.sections.save(state)
    return {"entrant_id": entrant.entrant_id, "start_no": start_no, "entry_round": rnd}


# ---------------------------------------------------------------- rounds


async def set_hold(uow: PairingUnitOfWork, event_code: str, section_id: str, hold: bool, principal: Principal) -> dict:
    state = await uow.locked_section(event_code, section_id)
    state.update(hold=hold)
    audit(uow, state, principal, "hold", None, {"hold": hold})
    await uow.sections.save(state)
    return {"hold": hold}


async def publish_round(
    uow: PairingUnitOfWork, event_code: str, section_id: str, rnd: int, principal: Principal
) -> dict:
    """Publish a draft round (the arbiter reviewed it): from now on its pairings are final."""
    state = await uow.locked_section(event_code, section_id)
    if rnd not in state.rounds:
        raise NotFound("round_not_found", f"round {rnd} is not paired")
    if state.rounds[rnd]["status"] != "draft":
        raise Conflict("round_published", f"round {rnd} is already published")
    now = uow.clock.now()
    state.update_round(rnd, status="published", published_at=now, starts_at=now)
    audit(uow, state, principal, "publish", rnd, {})
    await lifecycle.published(uow, state, rnd)
    await uow.sections.save(state)
    return {"round": rnd, "status": "published"}


def _editable(state: Section, rnd: int) -> bool:
    """A draft of the current round, or the next round when the engine could not pair it."""
    current = state.row["current_round"]
    if rnd == current and state.rounds.get(current, {}).get("status") == "draft":
        return True
    return (
        rnd == current + 1
        and (current == 0 or state.rounds.get(current, {}).get("status") == "complete")
        and state.row["status"] == "awaiting_arbiter"
        and rnd <= state.rules.rounds
    )


def _arbiter_pairing(
    state: Section, rnd: int, boards: Sequence[tuple[str, str]], byes: Sequence[tuple[str, str]]
) -> RoundPairing:
    """The arbiter's boards and byes (entrant ids) as a domain RoundPairing, checked against the
    absolute criteria (PAIR-2); 422 with the problems found."""
    index = state.by_entrant_id()
    codes = {
        "pairing": Code.PAIRING_BYE,
        "requested": bye_rules().requested,
        "forced": bye_rules().forced,
        "absent": Code.ZERO_BYE,
    }
    try:
        paired = tuple(Board(index[first], index[second]) for first, second in boards)
        bye_codes = {index[entrant_id]: codes[kind] for entrant_id, kind in byes}
    except KeyError as error:
        raise Unprocessable("unknown_entrant", f"{error.args[0]!r} is not an entrant of this section") from None
    pairing = RoundPairing(rnd, paired, bye_codes)
    competitors = as_competitors(state)
    exclude = [start_no for start_no, code in bye_codes.items() if code is not Code.PAIRING_BYE]
    problems = check_round(competitors, pairing, active_players(competitors, rnd, exclude=exclude))
    if state.rules.format == "round_robin":
        problems = [problem for problem in problems if "colour" not in problem and "three times" not in problem]
    if problems:
        raise Unprocessable("illegal_pairing", "the pairing breaks the absolute criteria", {"problems": problems})
    return pairing


async def correct_pairings(
    uow: PairingUnitOfWork,
    event_code: str,
    section_id: str,
    rnd: int,
    boards: Sequence[tuple[str, str]],
    byes: Sequence[tuple[str, str]],
    principal: Principal,
    pairer: Pairer,
) -> dict:
    """The arbiter's pairing of round ``rnd`` (a draft, or a round the engine could not pair), checked
    against the absolute criteria before it is stored (PAIR-2, PAIR-11)."""
    state = await uow.locked_section(event_code, section_id)
    if not _editable(state, rnd):
        raise Conflict("round_published", f"round {rnd} cannot be changed: published rounds are final")
    pairing = _arbiter_pairing(state, rnd, boards, byes)
    state.drop_round(rnd)
    details = {"boards": [list(board) for board in boards], "byes": [list(bye) for bye in byes]}
    audit(uow, state, principal, "pairings", rnd, details)
    await lifecycle.store_round(uow, state, pairing, paired_by="arbiter")
    await uow.sections.save(state)
    return {"round": rnd, "status": state.rounds[rnd]["status"]}


# ---------------------------------------------------------------- ties


async def decide_tie(
    uow: PairingUnitOfWork,
    event_code: str,
    section_id: str,
    tie_id: str,
    order: list[Any],
    principal: Principal,
    expected_revision: int | None = None,
) -> dict:
    """PAIR-8 where playoffs are forbidden (or a playoff could not be played): the arbiter's order,
    once. ``expected_revision``: the tie's revision the arbiter decided on; a tie opened again
    since (a correction changed the standings) is refused with the tie as it stands."""
    state = await uow.locked_section(event_code, section_id)
    tie = next((stored for stored in state.ties if stored["tie_id"] == tie_id and stored["status"] != "void"), None)
    if tie is None:
        raise NotFound("tie_not_found", f"no tie {tie_id!r} in {section_id}")
    if expected_revision is not None and expected_revision != int(tie["revision"]):
        current = {**queries.tie_view(tie), "revision": int(tie["revision"])}
        message = (
            f"tie {tie_id} changed: it is at revision {tie['revision']}, the decision was made on {expected_revision}"
        )
        raise Conflict("stale_revision", message, {"expected_revision": expected_revision, "current": current})
    if tie["status"] == "decided":
        raise Conflict("tie_decided", f"tie {tie_id} is already decided")
    if tie["status"] == "playing":
        raise Conflict("playoff_running", f"tie {tie_id} is being settled by a playoff")
    listed = [entrant for place in order for entrant in (place if isinstance(place, list) else [place])]
    if sorted(listed) != sorted(tie["entrant_ids"]):
        raise Unprocessable(
            "bad_order", "the order must list exactly the tied entrants", {"expected": sorted(tie["entrant_ids"])}
        )
    tie = {**tie, "status": "decided", "decision": order, "decided_by": "arbiter", "decided_at": uow.clock.now()}
    state.put_tie(tie)
    audit(uow, state, principal, "tie_decision", None, {"tie_id": tie_id, "order": order})
    await maybe_complete(uow, state)
    await uow.sections.save(state)
    return {"tie_id": tie_id, "status": "decided", "order": order}
