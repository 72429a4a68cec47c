"""Cross-checks of a whole event configuration (what one model alone cannot see): time zones,
unique ids, references between stages, sections and clauses, play rules of played sections,
merging, awards and qualification. Each problem is one `ConfigIssue` naming its path."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, get_args

from .base import IndividualTiebreak, TeamTiebreak
from .errors import ConfigIssue
from .registration import place_key

if TYPE_CHECKING:
    from .event_fields import EventFields


def _check_tz(path: str, value: datetime | None, tz_name: str, issues: list[ConfigIssue]) -> None:
    if value is None:
        return
    if value.tzinfo is None:
        issues.append(ConfigIssue(path, "datetime needs a UTC offset"))
        return
    try:
        from zoneinfo import ZoneInfo

        zone = ZoneInfo(tz_name)
    except Exception:  # unknown zone is reported once by the caller
        return
    if value.utcoffset() != value.astimezone(zone).utcoffset():
        issues.append(ConfigIssue(path, f"offset {value.utcoffset()} does not match timezone {tz_name}"))


def cross_check(event: EventFields) -> list[ConfigIssue]:
    issues: list[ConfigIssue] = []
    add = lambda path, message: issues.append(ConfigIssue(path, message))  # noqa: E731

    _check_dates(event, issues, add)
    clause_ids = _check_clauses(event, issues, add)
    _check_regions(event, add)
    stage_ids, where = _stage_and_section_ids(event, add)
    for stage_index, stage in enumerate(event.stages):
        _check_stage(event, stage_index, stage, clause_ids, stage_ids, where, add)
    return issues


def _check_dates(event: EventFields, issues: list[ConfigIssue], add) -> None:
    """The time zone, the registration window, the check-in deadline and the insurance cover."""
    try:
        from zoneinfo import ZoneInfo

        ZoneInfo(event.timezone)
    except Exception:
        add("timezone", f"unknown timezone {event.timezone!r}")

    registration = event.registration
    _check_tz("registration.opens_at", registration.opens_at, event.timezone, issues)
    _check_tz("registration.closes_at", registration.closes_at, event.timezone, issues)
    _check_tz("check_in.deadline", event.check_in.deadline, event.timezone, issues)
    if (
        registration.opens_at
        and registration.closes_at.tzinfo
        and registration.opens_at.tzinfo
        and registration.opens_at >= registration.closes_at
    ):
        add("registration.opens_at", "must be before registration.closes_at")
    if (
        event.insurance.cover_from
        and event.insurance.cover_to
        and event.insurance.cover_from > event.insurance.cover_to
    ):
        add("insurance.cover_from", "is after insurance.cover_to")


def _check_clauses(event: EventFields, issues: list[ConfigIssue], add) -> dict[str, int]:
    """The eligibility clauses (unique ids, deadlines, pending evidence, regions); their ids by index."""
    clause_ids: dict[str, int] = {}
    for index, clause in enumerate(event.eligibility):
        if clause.id in clause_ids:
            add(f"eligibility[{index}].id", f"duplicate clause id {clause.id!r}")
        clause_ids[clause.id] = index
        for option_index, option in enumerate(clause.options):
            _check_tz(f"eligibility[{index}].options[{option_index}].deadline", option.deadline, event.timezone, issues)
        if clause.pending_evidence is not None:
            _check_tz(
                f"eligibility[{index}].pending_evidence.approve_by",
                clause.pending_evidence.approve_by,
                event.timezone,
                issues,
            )
            if clause.evidence != "declared":
                add(f"eligibility[{index}].pending_evidence", "only a declared clause admits on pending evidence")
        if event.regions and clause.region is not None and event.region(clause.region) is None:
            add(
                f"eligibility[{index}].region",
                f"unknown region {clause.region!r} (regions: {', '.join(known.id for known in event.regions)})",
            )
    return clause_ids


def _check_regions(event: EventFields, add) -> None:
    """Every place name names one region only."""
    spelled: dict[str, str] = {}
    for index, region in enumerate(event.regions):
        for name in region.names():
            key = place_key(name)
            if not key:
                add(f"regions[{index}]", f"empty place name {name!r}")
            elif spelled.setdefault(key, region.id) != region.id:
                add(f"regions[{index}]", f"{name!r} names both {spelled[key]!r} and {region.id!r}")


def _stage_and_section_ids(event: EventFields, add) -> tuple[dict[str, int], dict[str, tuple[int, int]]]:
    """Stage ids and (event-wide) section ids are unique; where each one stands."""
    stage_ids: dict[str, int] = {}
    for stage_index, stage in enumerate(event.stages):
        if stage.id in stage_ids:
            add(f"stages[{stage_index}].id", f"duplicate stage id {stage.id!r}")
        stage_ids[stage.id] = stage_index

    # section ids are event-wide unique
    where: dict[str, tuple[int, int]] = {}
    for stage_index, stage in enumerate(event.stages):
        for section_index, section in enumerate(stage.sections):
            if section.id in where:
                add(f"stages[{stage_index}].sections[{section_index}].id", f"duplicate section id {section.id!r}")
            else:
                where[section.id] = (stage_index, section_index)
    return stage_ids, where


def _check_stage(event, stage_index, stage, clause_ids, stage_ids, where, add) -> None:
    """One stage's feeding stage, its seeded sections and each of its sections."""
    stage_path = f"stages[{stage_index}]"
    if stage.fed_by is not None:
        if stage.fed_by not in stage_ids:
            add(f"{stage_path}.fed_by", f"unknown stage {stage.fed_by!r}")
        elif stage_ids[stage.fed_by] >= stage_index:
            add(f"{stage_path}.fed_by", f"stage {stage.fed_by!r} must come before {stage.id!r}")
    for seed_index, seed in enumerate(stage.seeded):
        for section_id in seed.sections:
            if where.get(section_id, (None,))[0] != stage_index:
                add(
                    f"{stage_path}.seeded[{seed_index}].sections",
                    f"unknown section {section_id!r} in stage {stage.id!r}",
                )
    local = {section.id: section for section in stage.sections}
    for section_index, section in enumerate(stage.sections):
        path = f"{stage_path}.sections[{section_index}]"
        _check_section(event, stage, section, path, local, clause_ids, stage_ids, where, add)


def _check_section(event, stage, section, path, local, clause_ids, stage_ids, where, add) -> None:
    """One section's references and rules, in the order the issues are reported."""
    if section.starts_on and not (stage.starts_on <= section.starts_on <= stage.ends_on):
        add(f"{path}.starts_on", f"{section.starts_on} is outside the stage {stage.starts_on}..{stage.ends_on}")
    for index, clause_id in enumerate(section.eligibility):
        if clause_id not in clause_ids:
            add(f"{path}.eligibility[{index}]", f"unknown eligibility clause {clause_id!r}")
    if section.rating_band and section.kind == "team":  # issue 32: ratings are players', not teams'
        add(f"{path}.rating_band", "a team section has no rating band")
    if section.rating_band and stage.entry != "registration":  # judged when an entry is made
        add(f"{path}.rating_band", "only a section entered through registration has a rating band")
    _check_team(event, section, path, where, add)
    _check_play(section, path, add)
    _check_merge(stage, section, path, local, add)
    _check_awards(section, path, add)
    _check_qualification(event, stage, section, path, stage_ids, add)


def _check_team(event, section, path, where, add) -> None:
    # a team section's shape; team scores come from individual sections
    if section.kind == "team":
        if section.team is None:
            add(f"{path}.team", "a team section needs a team composition")
        if section.team_match is None and section.team_scoring is None:
            add(path, "a team section needs team_match (played) or team_scoring (from individual results)")
        if section.team and section.gender in ("male", "female"):
            other = "female" if section.gender == "male" else "male"
            if getattr(section.team, f"{other}_min") > 0:
                add(f"{path}.team.{other}_min", f"a {section.gender} section cannot require {other} players")
        if section.team_match and section.team and section.team_match.boards != section.team.size_max:
            add(
                f"{path}.team_match.boards",
                f"{section.team_match.boards} boards but teams of up to {section.team.size_max}",
            )
    else:
        for field in ("team", "team_match", "team_scoring"):
            if getattr(section, field) is not None:
                add(f"{path}.{field}", "only team sections have this")
    if section.team_scoring:
        for index, src in enumerate(section.team_scoring.source_sections):
            if src not in where:
                add(f"{path}.team_scoring.source_sections[{index}]", f"unknown section {src!r}")
            elif event.section(src).kind != "individual":
                add(f"{path}.team_scoring.source_sections[{index}]", f"{src!r} is not an individual section")


def _check_play(section, path, add) -> None:
    # played sections need play rules; every tiebreak order must be known
    if section.played:
        for field in ("format", "clock", "opening", "scoring", "no_show_minutes"):
            if getattr(section, field) is None:
                add(f"{path}.{field}", "required for a section that plays games")
        if section.team_match and section.scoring and section.scoring.match_win is None:
            add(f"{path}.scoring", "team matches need match_win, match_draw, match_loss (PAIR-9)")
        if section.format:
            for format_kind in section.format.allowed:
                if format_kind not in section.tiebreaks:
                    add(f"{path}.tiebreaks", f"no tiebreak order for format {format_kind!r}")
        if section.format and section.format.games_per_round == 2 and section.kind == "team":
            add(f"{path}.format.games_per_round", "two-game rounds are for individual sections")
    allowed = set(get_args(IndividualTiebreak)) if section.kind == "individual" else set(get_args(TeamTiebreak))
    for format_kind, order in section.tiebreaks.items():
        if not order:
            add(f"{path}.tiebreaks.{format_kind}", "empty tiebreak order")
        for index, name in enumerate(order):
            if name not in allowed:
                add(f"{path}.tiebreaks.{format_kind}[{index}]", f"unknown {section.kind} tiebreak {name!r}")
        if len(set(order)) != len(order):
            add(f"{path}.tiebreaks.{format_kind}", "a criterion is listed twice")


def _check_merge(stage, section, path, local, add) -> None:
    # merging is mutual, within one track, kind and age window (gender may differ)
    closing = section.closing
    if closing.merge_with is not None:
        partner = local.get(closing.merge_with)
        if partner is None:
            add(f"{path}.closing.merge_with", f"unknown section {closing.merge_with!r} in stage {stage.id!r}")
        elif partner.id == section.id:
            add(f"{path}.closing.merge_with", "a section cannot merge with itself")
        else:
            if partner.track != section.track:
                add(f"{path}.closing.merge_with", f"partner {partner.id!r} is on another rule track")
            if partner.kind != section.kind:
                add(f"{path}.closing.merge_with", f"partner {partner.id!r} is of another kind")
            if partner.birth != section.birth:
                add(f"{path}.closing.merge_with", f"partner {partner.id!r} has another age window")
            if partner.closing.merge_with != section.id:
                add(
                    f"{path}.closing.merge_with",
                    f"partner {partner.id!r} must name {section.id!r} as its merge_with (merging is mutual)",
                )


def _check_awards(section, path, add) -> None:
    awards = section.awards
    if awards.places is not None and awards.places_by_field:
        add(f"{path}.awards", "give places or places_by_field, not both")
    bands = [band.min_entries for band in awards.places_by_field]
    if bands != sorted(bands, reverse=True):
        add(f"{path}.awards.places_by_field", "bands must be ordered by min_entries, largest first")
    max_places = awards.places or max((band.places for band in awards.places_by_field), default=None)
    covered: set[int] = set()
    for index, place_item in enumerate(awards.place_items):
        places = set(range(place_item.from_place, place_item.to_place + 1))
        if places & covered:
            add(f"{path}.awards.place_items[{index}]", "overlaps an earlier band")
        covered |= places
        if max_places is not None and place_item.to_place > max_places:
            add(f"{path}.awards.place_items[{index}].to_place", f"beyond the {max_places} places awarded")
    ids: set[str] = set()
    for index, prize in enumerate(awards.prizes):
        if prize.id in ids:
            add(f"{path}.awards.prizes[{index}].id", f"duplicate prize table {prize.id!r}")
        ids.add(prize.id)
        if prize.non_increasing and any(earlier < later for earlier, later in zip(prize.amounts, prize.amounts[1:])):
            add(f"{path}.awards.prizes[{index}].amounts", "must be non-increasing by place")
        if any(amount < 0 for amount in prize.amounts):
            add(f"{path}.awards.prizes[{index}].amounts", "amounts must be >= 0")
        if prize.gender and section.gender != "mixed" and prize.gender != section.gender:
            add(f"{path}.awards.prizes[{index}].gender", f"a {section.gender} section has no {prize.gender} ranking")
        if prize.band and section.kind == "team":  # issue 32: ratings are players', not teams'
            add(f"{path}.awards.prizes[{index}].band", "a team section has no rating bands")
    last = 0
    for index, title in enumerate(awards.titles):
        if title.from_place != last + 1 or title.to_place < title.from_place:
            add(
                f"{path}.awards.titles[{index}]",
                f"bands must be contiguous from place 1 (expected from_place {last + 1})",
            )
        last = title.to_place
    if awards.best_board and section.kind != "team":
        add(f"{path}.awards.best_board", "best-board awards are for team sections")


def _check_qualification(event, stage, section, path, stage_ids, add) -> None:
    qualification = section.qualification
    if qualification is not None:
        if qualification.to_stage not in stage_ids:
            add(f"{path}.qualification.to_stage", f"unknown stage {qualification.to_stage!r}")
        else:
            target = event.stages[stage_ids[qualification.to_stage]]
            if target.fed_by != stage.id:
                add(f"{path}.qualification.to_stage", f"stage {qualification.to_stage!r} is not fed by {stage.id!r}")
            target_ids = {target_section.id for target_section in target.sections}
            for gender, target_id in qualification.to_section.items():
                if target_id not in target_ids:
                    add(
                        f"{path}.qualification.to_section.{gender}",
                        f"unknown section {target_id!r} in stage {qualification.to_stage!r}",
                    )
        genders = {"male", "female"} if section.gender == "mixed" or section.closing.merge_with else {section.gender}
        missing = genders - set(qualification.to_section)
        if missing:
            add(f"{path}.qualification.to_section", f"no destination for {sorted(missing)}")
