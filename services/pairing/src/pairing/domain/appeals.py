"""Appeals to the arbitration committee (AWD-10; NY 十(三)(四), DA 八, NT 八), pure.

An appeal is lodged in writing by a unit's leader or coach, with the event's fee (NY: 500 CNY,
refunded if upheld; no fee where the regulation names none); the committee decides it once:
``lodged → upheld | rejected``. An upheld appeal may change the appealed result, which then
goes through the arbiter's path like any correction (PAIR-11, AWD-8). Every number comes from
the event's configuration (:class:`Terms`, built from the ``section.closed`` appeal terms).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from gomoku_shared.errors import RuleRefused
from gomoku_shared.masking import mask_name, mask_tail

LODGED = "lodged"
UPHELD = "upheld"
REJECTED = "rejected"
STATUSES = (LODGED, UPHELD, REJECTED)


class AppealRefused(RuleRefused):
    """An appeal or a decision the rules refuse (AWD-10): ``conflict`` when it clashes with the
    appeal's state."""


@dataclass(frozen=True)
class Terms:
    """The event's appeal terms (configuration: ``gomoku_shared.event_config.AppealRules``)."""

    accepted: bool = True
    fee_fen: int = 0
    currency: str = "CNY"
    refund_if_upheld: bool = True
    #: minutes after the appealed round (or the section) completed; None: no deadline
    window_minutes: int | None = None
    signatories: tuple[str, ...] = field(default=("leader", "coach"))


@dataclass(frozen=True)
class Lodging:
    """What an appeal brings with it: who signed it, the fee received, when."""

    signatory_role: str
    fee_fen: int
    currency: str
    lodged_at: datetime
    #: when the appealed round (or, for a dispute not about one result, the section) completed;
    #: None while it is still being played
    appealed_completed_at: datetime | None = None


def check_lodging(terms: Terms, lodging: Lodging) -> None:
    """AWD-10: refuse an appeal the event's terms do not allow (422), or one lodged too late (409)."""
    if not terms.accepted:
        raise AppealRefused("appeals_not_accepted", "this event has no arbitration committee taking appeals")
    if lodging.signatory_role not in terms.signatories:
        allowed = " or ".join(terms.signatories)
        raise AppealRefused("signatory_not_allowed", f"an appeal is signed by the unit's {allowed}")
    if lodging.fee_fen != terms.fee_fen:
        raise AppealRefused(
            "wrong_fee",
            f"the appeal fee is {terms.fee_fen} fen ({terms.fee_fen // 100} {terms.currency}); "
            f"{lodging.fee_fen} fen was recorded",
        )
    if lodging.fee_fen and lodging.currency != terms.currency:
        raise AppealRefused("wrong_currency", f"the appeal fee is paid in {terms.currency}")
    if terms.window_minutes is not None and lodging.appealed_completed_at is not None:
        closes = lodging.appealed_completed_at + timedelta(minutes=terms.window_minutes)
        if lodging.lodged_at >= closes:
            raise AppealRefused(
                "appeal_window_closed",
                f"appeals close {terms.window_minutes} minutes after the appealed play completed",
                conflict=True,
            )


def decide(status: str, upheld: bool) -> str:
    """The committee decides once: lodged → upheld | rejected; a second decision is refused."""
    if status != LODGED:
        raise AppealRefused("appeal_decided", f"the appeal is already {status}", conflict=True)
    return UPHELD if upheld else REJECTED


def refund_fen(terms: Terms, fee_fen: int, upheld: bool) -> int:
    """NY 十(四) 胜诉后退回: the whole fee goes back if the appeal is upheld; nothing otherwise."""
    return fee_fen if upheld and terms.refund_if_upheld else 0


def check_changed_result(upheld: bool, round_no: int | None, pairing_id: str | None, result: str | None) -> None:
    """A decision changes a result only when it upholds an appeal against one pairing."""
    if result is None:
        return
    if not upheld:
        raise AppealRefused("result_needs_upheld", "a rejected appeal keeps the result: give no new result")
    if round_no is None or pairing_id is None:
        raise AppealRefused("no_pairing_appealed", "the appeal names no pairing whose result could change")


def masked_name(name: str) -> str:
    """A signatory's name is personal data: answers show its first character only, then a
    mask of fixed width ('张**' for any length)."""
    return mask_name(name)


def masked_reference(reference: str) -> str:
    """A payment reference is personal data (it identifies a payer's account or transfer):
    answers show its last four characters behind a mask of fixed width; the fee ledger keeps
    the payment."""
    return mask_tail(reference)
