"""The event configuration as stored: keys a release adds are kept apart from what the previous
release reads (rolling upgrades), and merged back on reading."""

from __future__ import annotations

import json
from typing import Any

#: configuration keys added since the previous release (a replica of which may share the
#: database during a rolling upgrade and refuses keys it does not know): stored apart, in
#: `events.config_additions`, and merged back on reading. Add a key here when a release adds one.
CONFIG_ADDITIONS: tuple[tuple[str, ...], ...] = (
    ("fees",),
    ("appeals",),
    ("honours",),
    ("check_in", "undecided_at_close"),
    ("units", "quota_exempt_list"),
    # EVT-7: the schedule
    ("schedule",),
    # PAIR-1: whether a section's max_rounds binds ("*": every item of a list)
    ("stages", "*", "sections", "*", "format", "max_rounds_binding"),
    # issue 28: who organises the event and where, in both languages; each stage's Chinese name
    ("organiser",),
    ("organiser_zh",),
    ("venue",),
    ("venue_zh",),
    ("stages", "*", "name_zh"),
    # issue 34: whether people enter on the public form, and its limits
    ("registration", "public_entries"),
    # issue 34: whether units' leaders enter delegations through the roster door
    ("registration", "public_delegations"),
    # issue 32: whether the event's games are rated, and the minimum time control
    ("ratings",),
    # issue 32: a section's rating band for entry, and a prize table's band
    ("stages", "*", "sections", "*", "rating_band"),
    ("stages", "*", "sections", "*", "awards", "prizes", "*", "band"),
    # issue 32: the event's level, REG-16 from the record, wildcards proven by the record
    ("level",),
    ("units", "quota_exempt_previous_event"),
    ("units", "quota_exempt_previous_sections"),
    ("eligibility", "*", "options", "*", "from_record"),
)


def config_columns(dump: dict[str, Any]) -> dict[str, Any]:
    """`config` (what the previous release reads) and `config_additions` (the rest)."""
    compatible = json.loads(json.dumps(dump))
    additions: dict[str, Any] = {}
    for path in CONFIG_ADDITIONS:
        _move_key(compatible, additions, path)
    return {"config": compatible, "config_additions": additions}


def _move_key(source: Any, target: dict[str, Any] | list[Any], path: tuple[str, ...]) -> None:
    """Move the key at `path` from `source` into the same place of `target`; a list ("*") is
    mirrored item by item, so the additions merge back by position."""
    key, rest = path[0], path[1:]
    if key == "*":
        if not isinstance(source, list) or not isinstance(target, list):
            return
        target.extend({} for _ in range(len(source) - len(target)))
        for item, into in zip(source, target):
            _move_key(item, into, rest)
        return
    if not isinstance(source, dict) or not isinstance(target, dict) or key not in source:
        return
    if not rest:
        target[key] = source.pop(key)
        return
    child = source[key]
    target.setdefault(key, [] if isinstance(child, list) else {})
    _move_key(child, target[key], rest)
    if not any(target[key]):  # nothing moved (e.g. a section without a format of its own)
        del target[key]


def stored_config(row: Any) -> dict[str, Any]:
    """The event configuration as stored: `config` with `config_additions` merged back."""
    merged = json.loads(json.dumps(row.config))

    def merge(into: Any, extra: Any) -> None:
        if isinstance(extra, list):
            for item, more in zip(into, extra):
                merge(item, more)
            return
        for key, value in extra.items():
            if isinstance(value, (dict, list)) and isinstance(into.get(key), type(value)):
                merge(into[key], value)
            else:
                into[key] = value

    merge(merged, getattr(row, "config_additions", None) or {})
    return merged
