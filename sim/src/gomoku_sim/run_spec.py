"""What one run of a seed event is: the preset, its field scaled down (or full), its dates moved
by whole years when the services' clock starts later, the seed, the bots' policy and the bounds
of the run."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from gomoku_shared.event_config import EventConfig

from .bots import BotPolicy

#: entries per section of the default (scaled-down) field of the seed presets, tuned to show
#: their rules; the demo multiplies them with --players-per-section. SZ: women-free is small so
#: REG-12 merges it with men-free. Any other preset gets a field derived from its sections
#: (``scaled_sizes``), so a new preset file runs in the demo with no change here.
SMALL_FIELDS: dict[str, dict[str, int]] = {
    "sz-2022": {
        "men-free": 6,
        "women-free": 4,
        "junior-boys-free": 0,
        "junior-girls-free": 0,
        "men-pro": 6,
        "women-pro": 6,
        "junior-boys-pro": 0,
        "junior-girls-pro": 0,
    },
    "ny-2022": {
        "youth-male": 6,
        "youth-female": 6,
        "junior-male": 5,
        "junior-female": 5,
        "children-male": 0,
        "children-female": 0,
    },
    "da-2023": {"open": 10, "junior": 12, "public": 6},
    "nt-2023": {"mixed-team": 7, "junior-boys-team": 4, "junior-girls-team": 0},
}

FULL_FIELDS: dict[str, dict[str, int]] = {
    "sz-2022": {
        s: 128
        for s in (
            "men-free",
            "women-free",
            "junior-boys-free",
            "junior-girls-free",
            "men-pro",
            "women-pro",
            "junior-boys-pro",
            "junior-girls-pro",
        )
    },
    "ny-2022": {
        s: 32
        for s in ("youth-male", "youth-female", "junior-male", "junior-female", "children-male", "children-female")
    },
    "da-2023": {"open": 64, "junior": 48, "public": 64},
    "nt-2023": {"mixed-team": 16, "junior-boys-team": 10, "junior-girls-team": 8},
}

#: event codes of the seed presets used by the demo and the tests (any other preset: its id
#: without dashes, ``RunSpec.code``)
EVENT_CODES = {"sz-2022": "sz22", "ny-2022": "ny22", "da-2023": "da23", "nt-2023": "nt23"}

#: the scaled-down field of a preset not in SMALL_FIELDS: entries (players or teams) per section
DERIVED_SMALL_FIELD = 6
#: the full field of a section without a cap, for a preset not in FULL_FIELDS
DERIVED_FULL_FIELD = 32


def derived_sizes(config: EventConfig, *, full: bool = False) -> dict[str, int]:
    """A field for any preset: every section of a stage entered by registration (a stage entered
    by qualification fills from the one before), the scaled-down size or its cap."""
    sizes: dict[str, int] = {}
    for stage in config.stages:
        if stage.entry != "registration":
            continue
        for section in stage.sections:
            sizes[section.id] = (section.cap or DERIVED_FULL_FIELD) if full else DERIVED_SMALL_FIELD
    return sizes


def scaled_sizes(preset_id: str, players_per_section: int | None = None, *, full: bool = False) -> dict[str, int]:
    tuned = FULL_FIELDS if full else SMALL_FIELDS
    if preset_id in tuned:
        base = dict(tuned[preset_id])
    else:
        base = derived_sizes(load_config(preset_id), full=full)
    if full:
        return base
    if players_per_section:
        return {k: (players_per_section if v else 0) for k, v in base.items()}
    return base


def load_config(preset_id: str, overrides: Mapping[str, Any] | None = None) -> EventConfig:
    """The event configuration as registration builds it (the preset files it ships)."""
    from registration import presets  # the preset files live with the registration service

    return presets.load(preset_id, overrides=dict(overrides or {}))


_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})")


def _shift_value(value: Any, years: int) -> Any:
    dated = _DATE.match(value) if isinstance(value, str) else None
    if dated is not None:
        year, month, day = (int(part) for part in dated.groups())
        day = min(day, 28) if (month, day) == (2, 29) else day
        return f"{year + years:04d}-{month:02d}-{day:02d}" + value[10:]
    if isinstance(value, Mapping):
        return {key: _shift_value(item, years) for key, item in value.items()}
    if isinstance(value, list):
        return [_shift_value(item, years) for item in value]
    return value


def shifted_overrides(preset_id: str, years: int, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Overrides that move every date of the preset (registration window, stage days, birth
    windows, deadlines) by whole years, plus ``overrides``. The distributed services' fake
    clock starts at 2026-01-01 and never goes back, so a 2022 event is replayed years later,
    with every date (and so every age window) moved alike."""
    from gomoku_shared.event_config import deep_merge

    base = load_config(preset_id).model_dump(mode="json")
    shifted = _shift_value({k: v for k, v in base.items() if k not in ("id", "schema_version")}, years)
    return deep_merge(shifted, dict(overrides or {}))


def years_to_reach(preset_id: str, earliest: datetime) -> int:
    """Whole years to shift a preset so that its registration happens after ``earliest``."""
    cfg = load_config(preset_id)
    reg = cfg.registration
    moment = (reg.opens_at + timedelta(hours=10)) if reg.opens_at else (reg.closes_at - timedelta(days=7))
    years = 0
    while moment.replace(year=moment.year + years) < earliest:
        years += 1
    return years


@dataclass
class RunSpec:
    preset_id: str = "sz-2022"
    seed: int = 1
    event_code: str | None = None
    sizes: dict[str, int] | None = None
    overrides: dict[str, Any] = field(default_factory=dict)
    #: the organisation that owns the event (issue 29; None: the default organisation)
    organisation: str | None = None
    #: Swiss rounds for a scaled-down field (None: the preset's number or the service's choice)
    rounds: int | None = None
    policy: BotPolicy = field(default_factory=BotPolicy)
    #: move every date of the preset by whole years (the distributed fake clock starts in 2026)
    shift_years: int = 0
    #: bounded waits (seconds of wall time) for things the services do on their own
    wait_timeout_s: float = 120.0
    #: the whole run (wall seconds)
    run_timeout_s: float = 3600.0
    progress: bool = True
    concurrency: int = 1
    #: fetch every game after each action and check the predicted view (tests of the driver)
    verify_views: bool = False

    @property
    def code(self) -> str:
        return self.event_code or EVENT_CODES.get(self.preset_id, self.preset_id.replace("-", ""))
