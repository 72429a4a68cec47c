"""Stage readiness (EVT-6): a registration stage is `open` until the operator closes it. A stage
entered by qualification is `awaiting_qualifiers` until its feeding stage is closed and every
feeding section that was played (one report per gender cohort of a merged section) has sent
`qualifiers.selected`; then it is `ready`; closing it makes it `closed`."""

from __future__ import annotations

import json
from typing import Any

from gomoku_shared.event_config import EventConfig, StageConfig

from ..adapters.repositories import EventRepository

GENDERS = ("male", "female")


def _expected(config: EventConfig, stage: StageConfig, feeder_row) -> set[tuple[str, str]] | None:
    """(source section, target section) pairs that must report; None while the feeder is open."""
    if feeder_row is None or feeder_row.status != "closed":
        return None
    out: set[tuple[str, str]] = set()
    for summary in feeder_row.sections or []:
        if summary["status"] != "ready":
            continue
        sec = config.section(summary["section_id"])
        rule = sec.qualification
        if rule is None or rule.to_stage != stage.id:
            continue
        merged = summary.get("merged_from") or []
        genders: set[str]
        if len(merged) > 1:
            genders = {config.section(m).gender for m in merged}
        elif sec.gender == "mixed":
            genders = set(GENDERS)
        else:
            genders = {sec.gender}
        for gender in sorted(genders):
            if gender in rule.to_section:
                out.add((sec.id, rule.to_section[gender]))
    return out


async def stage_status(
    events: EventRepository, config: EventConfig, stage_id: str, *, lists_only: bool = False
) -> dict[str, Any]:
    """`lists_only`: readiness from the qualifier lists alone (a failed build does not count)."""
    stage = config.stage(stage_id)
    rows = await events.stages(config.id)
    row = rows.get(stage_id)
    info: dict[str, Any] = {"stage": stage_id, "entry": stage.entry}
    if row is not None and row.status == "closed":
        info["status"] = "closed"
    elif stage.entry == "registration":
        info["status"] = "open"
    else:
        expected = _expected(config, stage, rows.get(stage.fed_by) if stage.fed_by is not None else None)
        reported = {(r.section_id, r.target_section_id) for r in await events.qualifier_lists(config.id, stage_id)}
        if expected is None:
            info["status"] = "awaiting_qualifiers"
            info["waiting_for"] = [f"stage {stage.fed_by} to close"]
        else:
            missing = sorted(expected - reported)
            info["status"] = "ready" if not missing else "awaiting_qualifiers"
            info["waiting_for"] = [f"{a}->{b}" for a, b in missing]
    if row is not None and row.note:
        info["selection"] = json.loads(row.note)
        if info["status"] == "ready" and "error" in info["selection"] and not lists_only:
            # the lists are in but the stage could not be built from them (e.g. over cap_total)
            info["status"] = "awaiting_qualifiers"
            info["waiting_for"] = [f"a buildable selection: {info['selection']['error']}"]
    return info
