"""REG-2: the places of a section — an entry takes one while the section is under its cap;
past it, the next one gets a waiting-list place where the event keeps a waiting list, and is
refused otherwise."""

from __future__ import annotations

from gomoku_shared.event_config import SectionConfig

from .model import Decision, EntryStatus, Verdict


def check_cap(
    section: SectionConfig, status: EntryStatus, *, held: int, waiting: int, waiting_list: bool
) -> tuple[Decision, EntryStatus, int | None]:
    """The cap decision for an entry judged `status` when `held` places are taken and `waiting`
    entries wait: the decision, the entry's status and its waiting-list place (or None)."""
    if section.cap is None:
        return Decision("REG-2", f"{section.id}/cap", Verdict.ADMITTED, "no cap"), status, None
    if held < section.cap:
        return (
            Decision("REG-2", f"{section.id}/cap", Verdict.ADMITTED, f"place {held + 1} of {section.cap}"),
            status,
            None,
        )
    if waiting_list:
        pos = waiting + 1
        return (
            Decision(
                "REG-2",
                f"{section.id}/waiting_list",
                Verdict.PENDING,
                f"{section.name} is full ({section.cap}); waiting-list place {pos}",
            ),
            EntryStatus.WAITLISTED,
            pos,
        )
    return (
        Decision(
            "REG-2",
            f"{section.id}/cap",
            Verdict.REFUSED,
            f"{section.name} is full: cap of {section.cap} entries reached",
        ),
        EntryStatus.REFUSED,
        None,
    )
