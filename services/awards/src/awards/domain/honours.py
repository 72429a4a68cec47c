"""Honours (AWD-9, NY 十一(三)): 优秀组织奖 to units, 体育道德风尚奖 to individuals, 优秀教练员奖 to
coaches — chosen by the organiser, published with certificates. Pure: which honours an event gives
is its configuration (``EventConfig.honours``); the kind fixes who can receive it."""

from __future__ import annotations

from dataclasses import dataclass

from gomoku_shared.errors import RuleRefused
from gomoku_shared.masking import mask_name

#: who receives each kind of honour (NY 十一(三): 单位 / 个人 / 教练员)
RECIPIENT = {"organisation": "unit", "sportsmanship": "entrant", "coach": "coach"}
AWARDED = "awarded"
REVOKED = "revoked"


class HonourRefused(RuleRefused):
    """An honour the rules refuse (AWD-9)."""


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
    rule = rules.get(kind)
    if rule is None:
        given = ", ".join(sorted(rules)) or "none"
        raise HonourRefused("honour_not_given", f"this event gives no {kind} honour (it gives: {given})")
    if RECIPIENT[kind] != recipient.kind:
        raise HonourRefused("wrong_recipient", f"a {kind} honour goes to a {RECIPIENT[kind]}")
    if any(_same(recipient, other) for other in active):
        raise HonourRefused("already_honoured", f"{recipient.name} already holds this honour", conflict=True)
    if rule.max_recipients is not None and len(active) >= rule.max_recipients:
        raise HonourRefused(
            "honour_full", f"the event gives at most {rule.max_recipients} {kind} honours", conflict=True
        )
    return rule


def _same(one: Recipient, other: Recipient) -> bool:
    if one.kind == "coach":
        return (one.name.strip(), one.unit_name) == (other.name.strip(), other.unit_name)
    return one.recipient_id == other.recipient_id


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
