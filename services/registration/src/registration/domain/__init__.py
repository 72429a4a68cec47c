"""Pure registration domain (no I/O, no frameworks). Every event-specific number comes from
`gomoku_shared.event_config.EventConfig`; every command takes `now` from the caller.

Service-layer entry points:
- `EventRegistration(config)`: `.submit(application, people, evidence=, unit=, now=)`,
  `.review(...)`, `.promote_from_waiting_list(...)`, `.add_official(...)`,
  queries `.holding_places / .waiting_list / .delegation / .quota_players` (REG-1/2/3/9/13).
- eligibility: `evaluate_player`, `check_clause`, `check_age`, `check_gender` (REG-4..REG-8).
- changes: `judge_change`, `request_change`, `decide_change`, `withdraw` (REG-10).
- checkin: `check_in`, `mark_no_show`, `pairable` (REG-11).
- closing: `close_stage`, `choose_format`, `section_closed_payload` (REG-12); `max_swiss_rounds`
  (PAIR-1/PAIR-2: the most Swiss rounds a field can play at all, swiss_limit); `check_round_limits`
  (PAIR-1 / EVT-7: the maximum and the schedule, round_limits).
- next_stage: `build_next_stage` (EVT-6, REG-7).
- personal_data: `IdNumber`, `mask_id_number` (REG-11).
"""

from .application_checks import check_insurance, check_team, check_window
from .changes import (
    ChangeKind,
    ChangeRequest,
    ChangeState,
    decide_change,
    freeze_starts_at,
    judge_change,
    request_change,
    withdraw,
)
from .checkin import check_in, mark_no_show, pairable
from .closing import (
    ClosedSection,
    FieldEntry,
    FormatChoice,
    cancel_unplayable,
    choose_format,
    close_stage,
    section_closed_payload,
    section_rules,
)
from .delegations import Official
from .eligibility import (
    EligibilityReport,
    check_age,
    check_clause,
    check_gender,
    evaluate_player,
    is_pending_evidence_decision,
    longest_consecutive_months,
)
from .errors import RegistrationError, UnknownEntry, UnknownSection
from .model import (
    REJUDGED,
    Application,
    Decision,
    Entry,
    EntryStatus,
    Evidence,
    EvidenceKind,
    EvidenceStatus,
    InsuranceConfirmation,
    Person,
    Unit,
    Verdict,
    Withdrawal,
    combine,
)
from .next_stage import NextStageResult, PassedOver, QualifierList, SeededList, StagePlace, build_next_stage
from .personal_data import IdNumber, mask_id_number, mask_phone
from .previous_top import ListedPlayer, PreviousTop
from .registration import EventRegistration, SubmitResult
from .round_limits import RoundLimitExceeded, RoundsOption, check_round_limits, round_robin_rounds
from .swiss_limit import SwissRoundsExceedField, max_swiss_rounds

__all__ = [
    "RoundLimitExceeded",
    "RoundsOption",
    "check_round_limits",
    "round_robin_rounds",
    "ListedPlayer",
    "PreviousTop",
    "SwissRoundsExceedField",
    "max_swiss_rounds",
    "REJUDGED",
    "is_pending_evidence_decision",
    "Application",
    "ChangeKind",
    "ChangeRequest",
    "ChangeState",
    "ClosedSection",
    "Decision",
    "EligibilityReport",
    "Entry",
    "EntryStatus",
    "EventRegistration",
    "Evidence",
    "EvidenceKind",
    "EvidenceStatus",
    "FieldEntry",
    "FormatChoice",
    "IdNumber",
    "InsuranceConfirmation",
    "NextStageResult",
    "Official",
    "Verdict",
    "PassedOver",
    "Person",
    "QualifierList",
    "RegistrationError",
    "SeededList",
    "StagePlace",
    "SubmitResult",
    "Unit",
    "UnknownEntry",
    "UnknownSection",
    "Withdrawal",
    "build_next_stage",
    "check_age",
    "check_clause",
    "check_gender",
    "cancel_unplayable",
    "check_in",
    "check_insurance",
    "check_team",
    "check_window",
    "choose_format",
    "close_stage",
    "combine",
    "decide_change",
    "evaluate_player",
    "freeze_starts_at",
    "judge_change",
    "longest_consecutive_months",
    "mark_no_show",
    "mask_id_number",
    "mask_phone",
    "pairable",
    "request_change",
    "section_closed_payload",
    "section_rules",
    "withdraw",
]
