"""Appeals to the arbitration committee (AWD-10): lodged by a unit's leader or coach with the
event's fee, decided once by the committee, each step audited and published (``appeal.lodged``,
``appeal.decided``: registration's ledger records the fee and its refund). An upheld appeal that
changes a result goes through the arbiter's path (:func:`arbiter.enter_result`): ``result.decided``,
standings again, and after completion ``section.completed`` with revision + 1 (AWD-8)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gomoku_shared.auth import Principal
from gomoku_shared.contracts.events import AppealDecided, AppealLodged
from gomoku_shared.errors import NotFound, Unprocessable

from ..domain import Outcome
from ..domain import appeals as rules
from ..domain.aggregate import Section
from . import arbiter
from .pool import Pairer
from .section import RESULTS, result_name
from .unit_of_work import PairingUnitOfWork


@dataclass(frozen=True)
class AppealForm:
    """An appeal as the committee received it in writing."""

    unit_id: str
    signatory_role: str
    signatory_name: str
    grounds: str
    fee_fen: int
    currency: str
    payment_reference: str
    round: int | None = None
    pairing_id: str | None = None


@dataclass(frozen=True)
class Decision:
    upheld: bool
    reasons: str
    #: the appealed pairing's new result (a ResultBody name), when the decision changes it
    result: str | None = None
    #: the appealed result's revision the committee saw (``arbiter.enter_result``)
    expected_revision: int | None = None


def terms_of(state: Section) -> rules.Terms:
    """The event's appeal terms, as section.closed carried them (none: no fee)."""
    stored = (state.row.get("closed") or {}).get("appeals") or {}
    return rules.Terms(
        accepted=stored.get("accepted", True),
        fee_fen=stored.get("fee_fen", 0),
        currency=stored.get("currency", "CNY"),
        refund_if_upheld=stored.get("refund_if_upheld", True),
        window_minutes=stored.get("window_minutes"),
        signatories=tuple(stored.get("signatories") or ("leader", "coach")),
    )


def _unit_name(state: Section, unit_id: str) -> str:
    """The unit's name if ``unit_id`` is a unit of the section's entrants (registration's unit id,
    or the unit as the entrants carry it); 422 otherwise."""
    for row in state.entrants.values():
        entrant = row["entrant"]
        units = {entrant.attributes.get("unit_id"), entrant.unit} | {member.unit for member in entrant.members}
        if unit_id in units:
            return entrant.unit or unit_id
    raise Unprocessable("unknown_unit", f"{unit_id!r} is not a unit with entrants in {state.section_id}")


def _appealed(state: Section, form: AppealForm) -> Any:
    """When the appealed play completed (the round's, or the section's, completion time)."""
    if form.round is None:
        if form.pairing_id is not None:
            raise Unprocessable("round_required", "name the round of the appealed pairing")
        return state.row.get("completed_at")
    round_row = state.rounds.get(form.round)
    if round_row is None or round_row["status"] == "draft":
        raise Unprocessable("round_not_published", f"round {form.round} is not published")
    if form.pairing_id is not None and not any(
        stored["pairing_id"] == form.pairing_id for stored in state.pairings.get(form.round, [])
    ):
        raise NotFound("pairing_not_found", f"no pairing {form.pairing_id!r} in round {form.round}")
    return round_row.get("completed_at")


async def lodge(
    uow: PairingUnitOfWork, event_code: str, section_id: str, form: AppealForm, principal: Principal
) -> dict:
    """AWD-10 (NY 十(四)): record a written appeal with the fee received; ``appeal.lodged``."""
    state = await uow.locked_section(event_code, section_id)
    unit_name = _unit_name(state, form.unit_id)
    now = uow.clock.now()
    terms = terms_of(state)
    lodging = rules.Lodging(form.signatory_role, form.fee_fen, form.currency, now, _appealed(state, form))
    try:
        rules.check_lodging(terms, lodging)
    except rules.AppealRefused as error:
        raise error.as_service_error() from None
    appeal_id = f"{section_id}-{await uow.appeals.count(event_code, section_id) + 1}"
    row = {
        **state.key,
        "appeal_id": appeal_id,
        "round": form.round,
        "pairing_id": form.pairing_id,
        "unit_id": form.unit_id,
        "unit_name": unit_name,
        "signatory_role": form.signatory_role,
        "signatory_name": form.signatory_name,
        "grounds": form.grounds,
        "fee_fen": form.fee_fen,
        "currency": terms.currency,
        "payment_reference": form.payment_reference,
        "status": rules.LODGED,
        "lodged_at": now,
        "lodged_by": arbiter.by_whom(principal),
        "lodged_by_name": arbiter.by_name(principal),
    }
    await uow.appeals.add(row)
    details = {"appeal_id": appeal_id, "unit_id": form.unit_id, "pairing_id": form.pairing_id, "fee_fen": form.fee_fen}
    arbiter.audit(uow, state, principal, "appeal_lodged", form.round, details)
    uow.emit_for(
        state,
        AppealLodged(
            event_code=event_code,
            stage=state.row["stage"],
            section_id=section_id,
            appeal_id=appeal_id,
            round=form.round,
            pairing_id=form.pairing_id,
            unit_id=form.unit_id,
            lodged_by=form.signatory_role,
            fee_fen=form.fee_fen,
            currency=terms.currency,
            payment_reference=form.payment_reference,
            lodged_at=now,
        ),
    )
    await uow.sections.save(state)
    return view(await uow.appeals.get(event_code, section_id, appeal_id) or row)


def _outcome(state: Section, rnd: int | None, pairing_id: str | None) -> str | None:
    for stored in state.pairings.get(rnd or 0, []):
        if stored["pairing_id"] == pairing_id:
            return stored["outcome"]
    return None


async def decide(
    uow: PairingUnitOfWork,
    event_code: str,
    section_id: str,
    appeal_id: str,
    decision: Decision,
    principal: Principal,
    pairer: Pairer,
) -> dict:
    """The committee's decision, once (AWD-10). Upheld: the fee is refunded (``refund_fen``);
    a changed result goes through the arbiter's path, republishing standings and awards (AWD-8).
    Rejected: the result stands and nothing is refunded."""
    state = await uow.locked_section(event_code, section_id)
    appeal = await uow.appeals.get(event_code, section_id, appeal_id)
    if appeal is None:
        raise NotFound("appeal_not_found", f"no appeal {appeal_id!r} in {section_id}")
    try:
        status = rules.decide(appeal["status"], decision.upheld)
        rules.check_changed_result(decision.upheld, appeal["round"], appeal["pairing_id"], decision.result)
    except rules.AppealRefused as error:
        raise error.as_service_error() from None
    before = _outcome(state, appeal["round"], appeal["pairing_id"])
    changed = False
    if decision.result is not None:
        note = f"appeal {appeal_id} upheld: {decision.reasons}"[:1000]
        answer = await arbiter.enter_result(
            uow,
            event_code,
            section_id,
            appeal["round"],
            appeal["pairing_id"],
            decision.result,
            principal,
            pairer,
            note,
            decision.expected_revision,
        )
        changed = answer["changed"]
        state = await uow.locked_section(event_code, section_id)  # the arbiter's path moved it on
    refund = rules.refund_fen(terms_of(state), appeal["fee_fen"], decision.upheld)
    now = uow.clock.now()
    values = {
        "status": status,
        "decided_at": now,
        "decided_by": arbiter.by_whom(principal),
        "decided_by_name": arbiter.by_name(principal),
        "reasons": decision.reasons,
        "refund_fen": refund,
        "result_before": before,
        "result_after": RESULTS[decision.result].value if changed and decision.result else before,
    }
    await uow.appeals.update(event_code, section_id, appeal_id, **values)
    details = {"appeal_id": appeal_id, "status": status, "refund_fen": refund, "result_changed": changed}
    arbiter.audit(uow, state, principal, "appeal_decided", appeal["round"], details)
    uow.emit_for(
        state,
        AppealDecided(
            event_code=event_code,
            stage=state.row["stage"],
            section_id=section_id,
            appeal_id=appeal_id,
            unit_id=appeal["unit_id"],
            upheld=decision.upheld,
            reasons=decision.reasons,
            refund_fen=refund,
            currency=appeal["currency"],
            result_changed=changed,
            decided_at=now,
        ),
    )
    await uow.sections.save(state)
    decided = await uow.appeals.get(event_code, section_id, appeal_id)
    return view({**appeal, **values, **(decided or {})})


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def view(row: dict[str, Any]) -> dict[str, Any]:
    """An appeal as the API shows it: the signatory's name and the payment reference masked, times in ISO 8601, results
    by their public names."""
    return {
        "event_code": row["event_code"],
        "section_id": row["section_id"],
        "appeal_id": row["appeal_id"],
        "status": row["status"],
        "round": row["round"],
        "pairing_id": row["pairing_id"],
        "unit_id": row["unit_id"],
        "unit_name": row["unit_name"],
        "signatory_role": row["signatory_role"],
        "signatory": rules.masked_name(row["signatory_name"]),
        "grounds": row["grounds"],
        "fee_fen": row["fee_fen"],
        "currency": row["currency"],
        "payment_reference": rules.masked_reference(row["payment_reference"]),
        "lodged_at": _iso(row["lodged_at"]),
        "lodged_by": row.get("lodged_by"),
        "lodged_by_name": row.get("lodged_by_name"),
        "decided_at": _iso(row.get("decided_at")),
        "decided_by": row.get("decided_by"),
        "decided_by_name": row.get("decided_by_name"),
        "reasons": row.get("reasons"),
        "refund_fen": row.get("refund_fen"),
        "result_before": _result(row.get("result_before")),
        "result_after": _result(row.get("result_after")),
        "result_changed": row.get("result_after") != row.get("result_before"),
        "pairing_result": _result(row.get("pairing_outcome")),
        "pairing_revision": row.get("pairing_revision"),
    }


def _result(outcome: str | None) -> str | None:
    return result_name(Outcome(outcome)) if outcome is not None else None
