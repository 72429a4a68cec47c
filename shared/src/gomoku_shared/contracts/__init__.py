"""Integration-event contracts: the only things that cross service boundaries."""

from .common import ClockSpec, Entrant, Member, Points, Ruleset, SectionRules
from .envelope import Envelope, Payload, envelope_for, utcnow
from .events import *  # noqa: F403
from .events import ALL_PAYLOADS
from .registry import PAYLOADS, decode, encode, json_schemas

__all__ = [
    "ALL_PAYLOADS",
    "PAYLOADS",
    "ClockSpec",
    "Entrant",
    "Envelope",
    "Member",
    "Payload",
    "Points",
    "Ruleset",
    "SectionRules",
    "decode",
    "encode",
    "envelope_for",
    "json_schemas",
    "utcnow",
]
