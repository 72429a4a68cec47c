"""Honours (AWD-9, NY 十一(三)): 优秀组织奖 to units, 体育道德风尚奖 to individuals, 优秀教练员奖 to
coaches — chosen by the organiser, published with certificates. Pure: which honours an event gives
is its configuration (``EventConfig.honours``); the kind fixes who can receive it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from gomoku_shared.errors import RuleRefused
from gomoku_shared.masking import mask_name

#: who receives each kind of honour (NY 十一(三): 单位 / 个人 / 教练员)
RECIPIENT = {"organisation": "unit", "sportsmanship": "entrant", "coach": "coach"}
AWARDED = "awarded"
REVOKED = "revoked"


class HonourRefused(RuleRefused):
    """An honour the rules refuse (AWD-9)."""


class UnknownUnit(HonourRefused):
    """A unit honour naming no unit registered for the event (422 ``unknown_unit``); ``known``
    lists the registered units (id, name) to choose from."""

    def __init__(self, unit_id: str, known: dict[str, str]) -> None:
        by_name = [uid for uid, name in known.items() if name == unit_id.strip()]
        hint = f"; {unit_id!r} is the name of unit {by_name[0]!r}: send its id" if by_name else ""
        super().__init__("unknown_unit", f"no unit {unit_id!r} is registered for the event{hint}")
        self.details = {
            "unit_id": unit_id,
            "registered_units": [{"unit_id": uid, "name": name} for uid, name in sorted(known.items())],
        }


@dataclass(frozen=True)
class HonourRule:
    """One honour the event gives (from ``gomoku_shared.event_config.HonourConfig``)."""

    kind: str
    name: str
    name_zh: str | None = None
    max_recipients: int | None = None


@dataclass(frozen=True)
class Recipient:
    """unit: ``recipient_id`` is the unit; entrant: the entrant id; coach: no id, a name."""

    kind: str
    recipient_id: str | None
    name: str
    unit_name: str | None = None
    section_id: str | None = None


def check_award(rules: dict[str, HonourRule], kind: str, recipient: Recipient, active: list[Recipient]) -> HonourRule:
    """AWD-9: refuse an honour the event does not give (422), the wrong kind of recipient (422),
    the same recipient twice (409) or more recipients than the event allows (409)."""
    rule = given_rule(rules, kind)
    if RECIPIENT[kind] != recipient.kind:
        raise HonourRefused("wrong_recipient", f"a {kind} honour goes to a {RECIPIENT[kind]}")
    if any(_same(recipient, other) for other in active):
        raise HonourRefused("already_honoured", f"{recipient.name} already holds this honour", conflict=True)
    if rule.max_recipients is not None and len(active) >= rule.max_recipients:
        raise HonourRefused(
            "honour_full", f"the event gives at most {rule.max_recipients} {kind} honours", conflict=True
        )
    return rule


def given_rule(rules: dict[str, HonourRule], kind: str) -> HonourRule:
    """AWD-9: the event's rule for ``kind``; an honour the event does not give is refused (422)."""
    rule = rules.get(kind)
    if rule is None:
        given = ", ".join(sorted(rules)) or "none"
        raise HonourRefused("honour_not_given", f"this event gives no {kind} honour (it gives: {given})")
    return rule


def _same(one: Recipient, other: Recipient) -> bool:
    if one.kind == "coach":
        return (one.name.strip(), one.unit_name) == (other.name.strip(), other.unit_name)
    return one.recipient_id == other.recipient_id


def registered_units(entrants: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """The event's units as registered: registration id -> registered name. Every entrant of a
    published section carries its unit's id (``attributes.unit_id``) and registered name
    (``unit``); an entrant of no unit, or of a unit registration never knew, names none."""
    units: dict[str, str] = {}
    for entrant in entrants:
        unit_id = (entrant.get("attributes") or {}).get("unit_id")
        if unit_id and entrant.get("unit"):
            units.setdefault(str(unit_id), str(entrant["unit"]))
    return units


def unit_recipient(units: dict[str, str], unit_id: str) -> Recipient:
    """AWD-9, NY 十一(三): 优秀组织奖 goes to a unit as registered — named by its registration id,
    shown by its registered name. The clause honours the event's participating units (大会评选,
    对获奖单位颁发证书), so a typed name that is no registered unit is refused, not kept as free text."""
    name = units.get(unit_id.strip())
    if name is None:
        raise UnknownUnit(unit_id, units)
    return Recipient("unit", unit_id.strip(), name)


def check_revoke(status: str) -> str:
    if status != AWARDED:
        raise HonourRefused("honour_revoked", "the honour is already revoked", conflict=True)
    return REVOKED


def public_name(recipient_kind: str, name: str) -> str:
    """What public answers show: a unit's or a player's published name; a coach's name is
    personal data shown as its first character only, then a mask of fixed width ('李**')."""
    if recipient_kind != "coach":
        return name
    return mask_name(name)


def certificate_lines(rule: HonourRule, citation: str) -> list[str]:
    """The certificate's lines: the honour's name (Chinese first where the event names it), the citation."""
    lines = [rule.name_zh, rule.name] if rule.name_zh else [rule.name]
    return [*lines, citation] if citation else lines
