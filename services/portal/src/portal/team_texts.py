"""Awards' team-score texts in the page's language (issue 28, AWD-6). The awards service writes
a team's counted members and an unscored team's reason as text for its record —
"张三 (final-men #3, 5 pts)", "not enough players — male: 1 of 2; female: 0 of 1 (section
cancelled)" — in English and with section ids; the pages say them in words, the section by its
name. A text of another form is shown as a dash, never raw."""

from __future__ import annotations

import re
from collections.abc import Mapping

from . import i18n

MEMBER = re.compile(r"^(?P<name>.+) \((?P<section>[^ ()]+) #(?P<place>\d+), (?P<points>[0-9.]+) pts\)$")
SHORT = re.compile(r"^not enough players — (?P<parts>.+)$")
PART = re.compile(r"^(?P<label>[^:;]+): (?P<have>\d+) of (?P<need>\d+)(?P<cancelled> \(section cancelled\))?$")


def _number(text: str) -> str:
    return text[:-2] if text.endswith(".0") else text


def member(text: object, section_names: Mapping[str, str], words: i18n.Words) -> str:
    """A counted member: their name, their section by name, their place and points."""
    found = MEMBER.match(str(text or ""))
    if not found:
        return "—"
    section = section_names.get(found["section"], "—")
    return words.t(
        "team_text.member",
        name=found["name"],
        section=section,
        place=found["place"],
        points=_number(found["points"]),
    )


def note(text: object, section_names: Mapping[str, str], words: i18n.Words) -> str:
    """Why a team has no score (or that it shares its place), in words."""
    value = str(text or "").strip()
    if not value:
        return "—"
    if value == "shared place":
        return words.t("shared_place")
    short = SHORT.match(value)
    if not short:
        return "—"
    parts = []
    for part in short["parts"].split("; "):
        found = PART.match(part)
        if not found:
            return "—"
        label = found["label"]
        who = words.v("gender_players", label) if label in ("male", "female") else section_names.get(label, "—")
        said = words.t("team_text.part", who=who, have=found["have"], need=found["need"])
        parts.append(said + (words.t("team_text.cancelled") if found["cancelled"] else ""))
    return words.t("team_text.short", parts=words.t("team_text.separator").join(parts))
