"""REG-10, REG-9: an approved substitution applied to the entry (NY 十二(五), DA 十三(二), NT
十二(二): 如需要人员变更，须经竞赛组委会批准。赛前两天不接受变更).

The substitute takes the replaced player's place in the entry — in a team, the same board
(the board order declared at registration is kept; NT 六(五) 分台定人制 fixes it, and board
genders are checked again, e.g. NT's mixed team: a woman on board 3). The substitute's
eligibility (age, gender, the section's clauses) and the team's composition are judged again;
a player who already holds a place in the section cannot come in; the replaced player's quota
exemption (NY 七(三)) does not pass to the substitute. Anything refused leaves the entry as it
was and the change refused, with the reasons.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from gomoku_shared.event_config import EventConfig

from .application_checks import check_team
from .eligibility import evaluate_player
from .model import Decision, Entry, Evidence, Person, Unit, Verdict

#: the rules judged again for the substitute; the others of the entry stand
REJUDGED_RULES = frozenset({"REG-4", "REG-5", "REG-6", "REG-7", "REG-8", "REG-18", "REG-9"})


def apply_substitution(
    event: EventConfig,
    entry: Entry,
    *,
    replaced: str,
    substitute: Person,
    people: Mapping[str, Person],
    evidence: Sequence[Evidence],
    others: Iterable[Entry],
    unit: Unit | None,
) -> tuple[Entry | None, list[Decision]]:
    """The entry with `substitute` in `replaced`'s place, or None with the refusing decisions."""
    section = event.section(entry.section_id)
    if replaced not in entry.person_ids:
        return None, [Decision("REG-10", "changes/substitution", Verdict.REFUSED, f"{replaced} is not in this entry")]
    others = list(others)
    refused: list[Decision] = []
    taken = [e for e in others if e.id != entry.id and e.section_id == section.id and e.status.holds_place]
    if substitute.id in entry.person_ids or any(substitute.id in e.person_ids for e in taken):
        refused.append(
            Decision(
                "REG-3",
                f"{section.id}/duplicate",
                Verdict.REFUSED,
                f"{substitute.name} already has a place in {section.name}",
                substitute.id,
            )
        )
    board = entry.person_ids.index(replaced)
    members = list(entry.person_ids)
    members[board] = substitute.id
    roster = {**people, substitute.id: substitute}
    judged = evaluate_player(event, section.id, substitute, evidence, unit=unit).decisions
    team = check_team(section, [roster[p] for p in members], others, entry.unit_id) if section.kind == "team" else []
    refused += [d for d in (*judged, *team) if d.refused]
    if refused:
        return None, refused
    where = f" on board {board + 1}" if section.kind == "team" else ""
    applied = Decision(
        "REG-10",
        "changes/substitution",
        Verdict.ADMITTED,
        f"{substitute.name} replaces {roster[replaced].name}{where}",
        substitute.id,
    )
    kept = tuple(
        d
        for d in entry.decisions
        if not (d.person_id == replaced and d.rule in REJUDGED_RULES) and not (d.rule == "REG-9" and team)
    )
    new = replace(
        entry,
        person_ids=tuple(members),
        quota_exempt=entry.quota_exempt - {replaced},
        decisions=kept + tuple(judged) + tuple(team) + (applied,),
    )
    return new, [applied]
