"""What the registration service is asked to do: one command per use case, plain data (the
routes and the consumers build them; :mod:`.handlers` runs each on a unit of work).

A command on one event (:data:`EVENT_COMMANDS`) names it (``event_code``): its handler is given
the event locked and loaded (:class:`~.command.EventCommand`, begun before the request's
Idempotency-Key is looked up). The others (an event being created, a change decided by its id,
the bus events) are given the service's state and name their caller themselves."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from gomoku_shared.auth import Principal
from gomoku_shared.contracts.events import (
    AppealDecided,
    AppealLodged,
    AwardsPublished,
    QualifiersSelected,
    RatingsPublished,
    RoundRescheduled,
)

from ..domain.documents import CheckedDocument, DelegationDocumentKind, DocumentKind
from . import forms as s
from .secret_links import Attempt

# ---- commands on one event


@dataclass(frozen=True)
class ChoosePartners:
    """Issue 29: the partner apps the organiser chose (None: every partner)."""

    event_code: str
    body: s.PartnersIn


@dataclass(frozen=True)
class SubmitEntry:
    """REG-1..8, REG-13: one player's entry."""

    event_code: str
    body: s.EntryIn


@dataclass(frozen=True)
class SubmitBulk:
    """A partner platform's entries, all or nothing."""

    event_code: str
    body: s.BulkIn


@dataclass(frozen=True)
class SubmitTeam:
    """REG-9: a team with its board order."""

    event_code: str
    body: s.TeamIn


@dataclass(frozen=True)
class Withdraw:
    """REG-10: an entry withdrawn with a written reason (REG-2: the waiting list moves up)."""

    event_code: str
    entry_id: str
    body: s.WithdrawIn


@dataclass(frozen=True)
class CorrectFacts:
    """REG-18: declared facts corrected, the entry judged again."""

    event_code: str
    entry_id: str
    body: s.FactsCorrectionIn


@dataclass(frozen=True)
class ReviewEntry:
    """The arbiter settles an entry pending review (host quota, wildcard)."""

    event_code: str
    entry_id: str
    body: s.DecisionIn


@dataclass(frozen=True)
class RequestChange:
    """REG-10, REG-9: a change of an entry, asked for."""

    event_code: str
    entry_id: str
    body: s.ChangeIn


@dataclass(frozen=True)
class UploadEvidence:
    """REG-6, REG-8: an evidence record of the caller's own entry or player."""

    event_code: str
    body: s.EvidenceUploadIn


@dataclass(frozen=True)
class DecideEvidence:
    """REG-6: the arbiter approves or rejects an evidence record of the event."""

    event_code: str
    evidence_id: str
    body: s.DecisionIn


@dataclass(frozen=True)
class AddUnit:
    """REG-3: a unit with its leader and coaches."""

    event_code: str
    body: s.UnitIn


@dataclass(frozen=True)
class AddOfficial:
    """REG-3: a leader, coach or acting leader of a unit."""

    event_code: str
    unit_id: str
    body: s.OfficialIn


@dataclass(frozen=True)
class LoadExemptionList:
    """REG-16 (NY 七(三)): the previous edition's final places, a quota exemption's list."""

    event_code: str
    body: s.ExemptionListIn


@dataclass(frozen=True)
class CheckIn:
    """REG-11: check-in and no-shows of a stage."""

    event_code: str
    stage: str
    body: s.CheckInIn


@dataclass(frozen=True)
class CloseStage:
    """REG-11, REG-12: a stage closed, its sections merged or cancelled."""

    event_code: str
    stage: str
    body: s.CloseIn


@dataclass(frozen=True)
class SeedPlayers:
    """EVT-6 (SZ): players seeded straight into a qualification stage."""

    event_code: str
    stage: str
    body: s.SeededIn


@dataclass(frozen=True)
class RecordLine:
    """REG-14: a payment received, or a line corrected by a new one."""

    event_code: str
    body: s.LedgerLineIn


@dataclass(frozen=True)
class AnnounceFee:
    """REG-14 (另行通知): a fee item's amount announced or changed."""

    event_code: str
    body: s.FeeAnnouncementIn


@dataclass(frozen=True)
class ConfirmPaid:
    """REG-14: an entry paid an item in full while its amount is not announced."""

    event_code: str
    entry_id: str
    body: s.FeeConfirmationIn


@dataclass(frozen=True)
class RequestRefund:
    """REG-15: a written refund request."""

    event_code: str
    entry_id: str
    body: s.RefundRequestIn


@dataclass(frozen=True)
class DecideRefund:
    """REG-15: a refund granted (a refund line) or refused."""

    event_code: str
    refund_id: str
    body: s.RefundDecisionIn


@dataclass(frozen=True)
class ReissueRegistrantLink:
    """Issue 34: a public entry's registrant's new secret link (the old one stops working)."""

    event_code: str
    entry_id: str
    body: s.ReissueIn


@dataclass(frozen=True)
class ReissueDelegationLink:
    """Issue 34: a delegation leader's new secret link (the old one stops working)."""

    event_code: str
    unit_id: str
    body: s.ReissueIn


@dataclass(frozen=True)
class EnterPublicly:
    """Issue 34: one player entered on the public form (REG-1..8, REG-13), without a credential."""

    event_code: str
    body: s.PublicEntryIn


@dataclass(frozen=True)
class StartDelegation:
    """Issue 34: a delegation started by its unit's leader (its unit and the leader's contact)."""

    event_code: str
    body: s.DelegationStartIn


@dataclass(frozen=True)
class SubmitRoster:
    """Issue 34: a delegation's roster as one application (REG-3, REG-16, REG-1..9); ``dry_run``:
    checked only (``delegation_door.DryRun`` carries the report, nothing is kept)."""

    event_code: str
    token: str
    #: who tries the link (wrong links are throttled per client)
    attempt: Attempt
    body: s.RosterIn
    dry_run: bool = False


@dataclass(frozen=True)
class AddDocument:
    """Issue 34: a document of an entry (checked by content already), optionally for one of its
    evidence records."""

    event_code: str
    entry_id: str
    kind: DocumentKind
    evidence_id: str | None
    checked: CheckedDocument


@dataclass(frozen=True)
class AddUnitDocument:
    """Issue 34: a document of a delegation (checked by content already), optionally about one of
    its roster's people."""

    event_code: str
    unit_id: str
    kind: DelegationDocumentKind
    person_id: str | None
    checked: CheckedDocument


EventCommandType = (
    ChoosePartners
    | SubmitEntry
    | SubmitBulk
    | SubmitTeam
    | Withdraw
    | CorrectFacts
    | ReviewEntry
    | RequestChange
    | UploadEvidence
    | DecideEvidence
    | AddUnit
    | AddOfficial
    | LoadExemptionList
    | CheckIn
    | CloseStage
    | SeedPlayers
    | RecordLine
    | AnnounceFee
    | ConfirmPaid
    | RequestRefund
    | DecideRefund
    | ReissueRegistrantLink
    | ReissueDelegationLink
    | EnterPublicly
    | StartDelegation
    | SubmitRoster
    | AddDocument
    | AddUnitDocument
)
#: the commands on one event: the runner locks and loads the event they name first
EVENT_COMMANDS: tuple[type, ...] = EventCommandType.__args__

# ---- commands naming no event yet


@dataclass(frozen=True)
class CreateEvent:
    """EVT-1..6: an event from a preset plus overrides, owned by an organisation (issue 29)."""

    body: s.EventIn
    principal: Principal


@dataclass(frozen=True)
class DecideChange:
    """REG-10: the arbiter approves or refuses a change request (its event read from it)."""

    change_id: str
    body: s.DecisionIn
    principal: Principal


# ---- issue 32: the registry of people of an organisation (its staff's actions, audited)


@dataclass(frozen=True)
class MergePeople:
    """Another registry person merged into ``person_id`` (one human)."""

    org: str
    person_id: str
    body: s.MergeIn
    principal: Principal


@dataclass(frozen=True)
class SplitPerson:
    """A merge undone, or an event person split out of ``person_id`` into a new registry person."""

    org: str
    person_id: str
    body: s.SplitIn
    principal: Principal


@dataclass(frozen=True)
class CorrectPerson:
    """A registry person's name, gender or birth date corrected."""

    org: str
    person_id: str
    body: s.CorrectionIn
    principal: Principal


@dataclass(frozen=True)
class ExportPerson:
    """A subject access request: the person's data in full (the export itself audited)."""

    org: str
    person_id: str
    body: s.ExportIn
    principal: Principal


# ---- bus events


@dataclass(frozen=True)
class AdmitQualifiers:
    """qualifiers.selected (EVT-6): the next stage's entries (REG-7 re-checked)."""

    selected: QualifiersSelected


@dataclass(frozen=True)
class RecordAppealFee:
    """appeal.lodged / appeal.decided (AWD-10): an appeal's fee received, or given back."""

    appeal: AppealLodged | AppealDecided


@dataclass(frozen=True)
class KeepDelay:
    """round.rescheduled (EVT-7): an arbiter's delay, shown by the schedule."""

    moved: RoundRescheduled


@dataclass(frozen=True)
class KeepRatings:
    """ratings.published (issue 32): an organisation's rating list, seeding its entries."""

    ratings: RatingsPublished
    published_at: datetime


@dataclass(frozen=True)
class KeepRecord:
    """awards.published (issue 32): a section's final places, the federation's record (REG-16, REG-6)."""

    places: AwardsPublished
    published_at: datetime


Command = (
    EventCommandType
    | CreateEvent
    | DecideChange
    | MergePeople
    | SplitPerson
    | CorrectPerson
    | ExportPerson
    | AdmitQualifiers
    | RecordAppealFee
    | KeepDelay
    | KeepRatings
    | KeepRecord
)
