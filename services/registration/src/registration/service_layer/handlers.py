"""Every use case of the registration service in one table: a command's type → the function
that runs it, each taking the command, the unit of work and what it runs on — the event locked
and loaded (:class:`EventCommand`) for a command on one event, else the service's state. The
routes and the consumers call :func:`handle` and nothing else of the service layer's writes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from . import (
    changes,
    closing,
    delegation_documents,
    delegation_door,
    documents,
    entries,
    events,
    evidence,
    exemptions,
    fees,
    owners,
    public_entries,
    record,
    registry_staff,
    schedule,
    seeding,
    stages,
    units,
)
from .command import EventCommand
from .commands import (
    EVENT_COMMANDS,
    AddDocument,
    AddOfficial,
    AddUnit,
    AddUnitDocument,
    AdmitQualifiers,
    AnnounceFee,
    CheckIn,
    ChoosePartners,
    CloseStage,
    Command,
    ConfirmPaid,
    CorrectFacts,
    CorrectPerson,
    CreateEvent,
    DecideChange,
    DecideEvidence,
    DecideRefund,
    EnterPublicly,
    ExportPerson,
    KeepDelay,
    KeepRatings,
    KeepRecord,
    LoadExemptionList,
    MergePeople,
    RecordAppealFee,
    RecordLine,
    ReissueDelegationLink,
    ReissueRegistrantLink,
    RequestChange,
    RequestRefund,
    ReviewEntry,
    SeedPlayers,
    SplitPerson,
    StartDelegation,
    SubmitBulk,
    SubmitEntry,
    SubmitRoster,
    SubmitTeam,
    UploadEvidence,
    Withdraw,
)
from .state import RegistrationState
from .unit_of_work import RegistrationUnitOfWork

# ---- on one event (``on`` holds the unit of work too: ``on.uow is uow``)


async def choose_partners(command: ChoosePartners, uow: RegistrationUnitOfWork, on: EventCommand) -> dict:
    return await owners.choose_partners(on, command.body)


async def submit_entry(command: SubmitEntry, uow: RegistrationUnitOfWork, on: EventCommand) -> dict:
    return await entries.register_player(on, command.body)


async def submit_bulk(command: SubmitBulk, uow: RegistrationUnitOfWork, on: EventCommand) -> dict:
    return await entries.register_bulk(on, command.body)


async def submit_team(command: SubmitTeam, uow: RegistrationUnitOfWork, on: EventCommand) -> dict:
    return await entries.register_team(on, command.body)


async def withdraw(command: Withdraw, uow: RegistrationUnitOfWork, on: EventCommand) -> dict:
    return await entries.withdraw(on, command.entry_id, command.body)


async def correct_facts(command: CorrectFacts, uow: RegistrationUnitOfWork, on: EventCommand) -> dict:
    return await evidence.correct_facts(on, command.entry_id, command.body)


async def review_entry(command: ReviewEntry, uow: RegistrationUnitOfWork, on: EventCommand) -> dict:
    return await entries.review(on, command.entry_id, command.body)


async def request_change(command: RequestChange, uow: RegistrationUnitOfWork, on: EventCommand) -> dict:
    return await changes.request_change_cmd(on, command.entry_id, command.body)


async def upload_evidence(command: UploadEvidence, uow: RegistrationUnitOfWork, on: EventCommand) -> dict:
    return await evidence.upload_evidence(on, command.body)


async def decide_evidence(command: DecideEvidence, uow: RegistrationUnitOfWork, on: EventCommand) -> dict:
    return await evidence.decide_evidence(on, command.evidence_id, command.body)


async def add_unit(command: AddUnit, uow: RegistrationUnitOfWork, on: EventCommand) -> dict:
    return await units.add_unit(on, command.body)


async def add_official(command: AddOfficial, uow: RegistrationUnitOfWork, on: EventCommand) -> dict:
    return await units.add_official(on, command.unit_id, command.body)


async def load_exemption_list(command: LoadExemptionList, uow: RegistrationUnitOfWork, on: EventCommand) -> dict:
    return await exemptions.load_list(on, command.body)


async def check_in(command: CheckIn, uow: RegistrationUnitOfWork, on: EventCommand) -> dict:
    return await stages.check_in(on, command.stage, command.body)


async def close_stage(command: CloseStage, uow: RegistrationUnitOfWork, on: EventCommand) -> dict:
    return await closing.close_stage_cmd(on, command.stage, command.body)


async def seed_players(command: SeedPlayers, uow: RegistrationUnitOfWork, on: EventCommand) -> dict:
    return await stages.post_seeded(on, command.stage, command.body)


async def record_line(command: RecordLine, uow: RegistrationUnitOfWork, on: EventCommand) -> dict:
    return await fees.record_line(on, command.body)


async def announce_fee(command: AnnounceFee, uow: RegistrationUnitOfWork, on: EventCommand) -> dict:
    return await fees.announce_fee(on, command.body)


async def confirm_paid(command: ConfirmPaid, uow: RegistrationUnitOfWork, on: EventCommand) -> dict:
    return await fees.confirm_paid(on, command.entry_id, command.body)


async def request_refund(command: RequestRefund, uow: RegistrationUnitOfWork, on: EventCommand) -> dict:
    return await fees.request_refund(on, command.entry_id, command.body)


async def decide_refund(command: DecideRefund, uow: RegistrationUnitOfWork, on: EventCommand) -> dict:
    return await fees.decide_refund_cmd(on, command.refund_id, command.body)


async def reissue_registrant_link(
    command: ReissueRegistrantLink, uow: RegistrationUnitOfWork, on: EventCommand
) -> dict:
    return await public_entries.reissue(on, command.entry_id, command.body)


async def reissue_delegation_link(
    command: ReissueDelegationLink, uow: RegistrationUnitOfWork, on: EventCommand
) -> dict:
    return await delegation_door.reissue(on, command.unit_id, command.body)


async def enter_publicly(command: EnterPublicly, uow: RegistrationUnitOfWork, on: EventCommand) -> dict:
    return await public_entries.enter(on, command.body)


async def start_delegation(command: StartDelegation, uow: RegistrationUnitOfWork, on: EventCommand) -> dict:
    return await delegation_door.start(on, command.body)


async def submit_roster(command: SubmitRoster, uow: RegistrationUnitOfWork, on: EventCommand) -> dict:
    return await delegation_door.submit(on, command.token, command.attempt, command.body, dry_run=command.dry_run)


async def add_document(command: AddDocument, uow: RegistrationUnitOfWork, on: EventCommand) -> dict:
    return await documents.add_document(on, command.entry_id, command.kind, command.evidence_id, command.checked)


async def add_unit_document(command: AddUnitDocument, uow: RegistrationUnitOfWork, on: EventCommand) -> dict:
    return await delegation_documents.add_unit_document(
        on, command.unit_id, command.kind, command.person_id, command.checked
    )


# ---- naming no event yet, and the bus events (``on``: the service's state)


async def create_event(command: CreateEvent, uow: RegistrationUnitOfWork, on: RegistrationState) -> dict:
    return await events.create_event(uow, on, command.principal, command.body)


async def decide_change(command: DecideChange, uow: RegistrationUnitOfWork, on: RegistrationState) -> dict:
    return await changes.decide_change_cmd(uow, on, command.principal, command.change_id, command.body)


async def merge_people(command: MergePeople, uow: RegistrationUnitOfWork, on: RegistrationState) -> dict:
    return await registry_staff.merge(uow, command.principal, command.org, command.person_id, command.body)


async def split_person(command: SplitPerson, uow: RegistrationUnitOfWork, on: RegistrationState) -> dict:
    return await registry_staff.split(uow, command.principal, command.org, command.person_id, command.body)


async def correct_person(command: CorrectPerson, uow: RegistrationUnitOfWork, on: RegistrationState) -> dict:
    return await registry_staff.correct(uow, command.principal, command.org, command.person_id, command.body)


async def export_person(command: ExportPerson, uow: RegistrationUnitOfWork, on: RegistrationState) -> dict:
    return await registry_staff.export(uow, command.principal, command.org, command.person_id, command.body)


async def admit_qualifiers(command: AdmitQualifiers, uow: RegistrationUnitOfWork, on: RegistrationState) -> None:
    await stages.on_qualifiers_selected(uow, on, command.selected)


async def record_appeal_fee(command: RecordAppealFee, uow: RegistrationUnitOfWork, on: RegistrationState) -> None:
    await fees.on_appeal(uow, on, command.appeal)


async def keep_delay(command: KeepDelay, uow: RegistrationUnitOfWork, on: RegistrationState) -> None:
    await schedule.on_round_rescheduled(uow, command.moved)


async def keep_ratings(command: KeepRatings, uow: RegistrationUnitOfWork, on: RegistrationState) -> bool:
    return await seeding.on_ratings_published(uow, command.ratings, command.published_at)


async def keep_record(command: KeepRecord, uow: RegistrationUnitOfWork, on: RegistrationState) -> bool:
    return await record.on_awards_published(uow, on, command.places, command.published_at)


Handler = Callable[[Any, RegistrationUnitOfWork, Any], Awaitable[Any]]

#: the service's use cases, by the command each runs
HANDLERS: dict[type, Handler] = {
    ChoosePartners: choose_partners,
    SubmitEntry: submit_entry,
    SubmitBulk: submit_bulk,
    SubmitTeam: submit_team,
    Withdraw: withdraw,
    CorrectFacts: correct_facts,
    ReviewEntry: review_entry,
    RequestChange: request_change,
    UploadEvidence: upload_evidence,
    DecideEvidence: decide_evidence,
    AddUnit: add_unit,
    AddOfficial: add_official,
    LoadExemptionList: load_exemption_list,
    CheckIn: check_in,
    CloseStage: close_stage,
    SeedPlayers: seed_players,
    RecordLine: record_line,
    AnnounceFee: announce_fee,
    ConfirmPaid: confirm_paid,
    RequestRefund: request_refund,
    DecideRefund: decide_refund,
    ReissueRegistrantLink: reissue_registrant_link,
    ReissueDelegationLink: reissue_delegation_link,
    EnterPublicly: enter_publicly,
    StartDelegation: start_delegation,
    SubmitRoster: submit_roster,
    AddDocument: add_document,
    AddUnitDocument: add_unit_document,
    CreateEvent: create_event,
    DecideChange: decide_change,
    MergePeople: merge_people,
    SplitPerson: split_person,
    CorrectPerson: correct_person,
    ExportPerson: export_person,
    AdmitQualifiers: admit_qualifiers,
    RecordAppealFee: record_appeal_fee,
    KeepDelay: keep_delay,
    KeepRatings: keep_ratings,
    KeepRecord: keep_record,
}


def event_of(command: Command) -> str | None:
    """The event a command acts on (its runner locks and loads it first); None: it names none."""
    return getattr(command, "event_code", None) if isinstance(command, EVENT_COMMANDS) else None


async def handle(command: Command, uow: RegistrationUnitOfWork, on: EventCommand | RegistrationState) -> Any:
    """Run ``command``'s use case in ``uow`` (the caller's transaction), on its event when it
    names one (:func:`event_of`), else with the service's state."""
    if isinstance(command, EVENT_COMMANDS) != isinstance(on, EventCommand):
        raise TypeError(f"{type(command).__name__} runs on {'its event' if event_of(command) else 'the state'}")
    return await HANDLERS[type(command)](command, uow, on)
