"""Cross-checks of a whole event configuration (what one model alone cannot see): time zones,
unique ids, references between stages, sections and clauses, play rules of played sections,
merging, awards and qualification. Each problem is one `ConfigIssue` naming its path."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from .base import IndividualTiebreak, TeamTiebreak
from .errors import ConfigIssue
from .registration import place_key

if TYPE_CHECKING:
    from .event import EventConfig


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


def cross_check(ev: EventConfig) -> list[ConfigIssue]:
    issues: list[ConfigIssue] = []
    add = lambda p, m: issues.append(ConfigIssue(p, m))  # noqa: E731

    try:
        from zoneinfo import ZoneInfo

        ZoneInfo(ev.timezone)
    except Exception:
        add("timezone", f"unknown timezone {ev.timezone!r}")

    reg = ev.registration
    _check_tz("registration.opens_at", reg.opens_at, ev.timezone, issues)
    _check_tz("registration.closes_at", reg.closes_at, ev.timezone, issues)
    _check_tz("check_in.deadline", ev.check_in.deadline, ev.timezone, issues)
    if reg.opens_at and reg.closes_at.tzinfo and reg.opens_at.tzinfo and reg.opens_at >= reg.closes_at:
        add("registration.opens_at", "must be before registration.closes_at")
    if ev.insurance.cover_from and ev.insurance.cover_to and ev.insurance.cover_from > ev.insurance.cover_to:
        add("insurance.cover_from", "is after insurance.cover_to")

    clause_ids: dict[str, int] = {}
    for i, c in enumerate(ev.eligibility):
        if c.id in clause_ids:
            add(f"eligibility[{i}].id", f"duplicate clause id {c.id!r}")
        clause_ids[c.id] = i
        for j, opt in enumerate(c.options):
            _check_tz(f"eligibility[{i}].options[{j}].deadline", opt.deadline, ev.timezone, issues)
        if c.pending_evidence is not None:
            _check_tz(
                f"eligibility[{i}].pending_evidence.approve_by", c.pending_evidence.approve_by, ev.timezone, issues
            )
            if c.evidence != "declared":
                add(f"eligibility[{i}].pending_evidence", "only a declared clause admits on pending evidence")
        if ev.regions and c.region is not None and ev.region(c.region) is None:
            add(
                f"eligibility[{i}].region",
                f"unknown region {c.region!r} (regions: {', '.join(r.id for r in ev.regions)})",
            )

    spelled: dict[str, str] = {}
    for i, r in enumerate(ev.regions):
        for n in r.names():
            k = place_key(n)
            if not k:
                add(f"regions[{i}]", f"empty place name {n!r}")
            elif spelled.setdefault(k, r.id) != r.id:
                add(f"regions[{i}]", f"{n!r} names both {spelled[k]!r} and {r.id!r}")

    stage_ids: dict[str, int] = {}
    for si, st in enumerate(ev.stages):
        if st.id in stage_ids:
            add(f"stages[{si}].id", f"duplicate stage id {st.id!r}")
        stage_ids[st.id] = si

    # section ids are event-wide unique
    where: dict[str, tuple[int, int]] = {}
    for si, st in enumerate(ev.stages):
        for xi, sec in enumerate(st.sections):
            if sec.id in where:
                add(f"stages[{si}].sections[{xi}].id", f"duplicate section id {sec.id!r}")
            else:
                where[sec.id] = (si, xi)

    for si, st in enumerate(ev.stages):
        sp = f"stages[{si}]"
        if st.fed_by is not None:
            if st.fed_by not in stage_ids:
                add(f"{sp}.fed_by", f"unknown stage {st.fed_by!r}")
            elif stage_ids[st.fed_by] >= si:
                add(f"{sp}.fed_by", f"stage {st.fed_by!r} must come before {st.id!r}")
        for k, seed in enumerate(st.seeded):
            for sid in seed.sections:
                if where.get(sid, (None,))[0] != si:
                    add(f"{sp}.seeded[{k}].sections", f"unknown section {sid!r} in stage {st.id!r}")
        local = {s.id: s for s in st.sections}
        for xi, sec in enumerate(st.sections):
            p = f"{sp}.sections[{xi}]"
            _check_section(ev, st, sec, p, local, clause_ids, stage_ids, where, add)
    return issues


def _check_section(ev, st, sec, p, local, clause_ids, stage_ids, where, add) -> None:
    """One section's references and rules, in the order the issues are reported."""
    if sec.starts_on and not (st.starts_on <= sec.starts_on <= st.ends_on):
        add(f"{p}.starts_on", f"{sec.starts_on} is outside the stage {st.starts_on}..{st.ends_on}")
    for k, cid in enumerate(sec.eligibility):
        if cid not in clause_ids:
            add(f"{p}.eligibility[{k}]", f"unknown eligibility clause {cid!r}")
    _check_team(ev, sec, p, where, add)
    _check_play(sec, p, add)
    _check_merge(st, sec, p, local, add)
    _check_awards(sec, p, add)
    _check_qualification(ev, st, sec, p, stage_ids, add)


def _check_team(ev, sec, p, where, add) -> None:
    # a team section's shape; team scores come from individual sections
    if sec.kind == "team":
        if sec.team is None:
            add(f"{p}.team", "a team section needs a team composition")
        if sec.team_match is None and sec.team_scoring is None:
            add(p, "a team section needs team_match (played) or team_scoring (from individual results)")
        if sec.team and sec.gender in ("male", "female"):
            other = "female" if sec.gender == "male" else "male"
            if getattr(sec.team, f"{other}_min") > 0:
                add(f"{p}.team.{other}_min", f"a {sec.gender} section cannot require {other} players")
        if sec.team_match and sec.team and sec.team_match.boards != sec.team.size_max:
            add(f"{p}.team_match.boards", f"{sec.team_match.boards} boards but teams of up to {sec.team.size_max}")
    else:
        for f in ("team", "team_match", "team_scoring"):
            if getattr(sec, f) is not None:
                add(f"{p}.{f}", "only team sections have this")
    if sec.team_scoring:
        for k, src in enumerate(sec.team_scoring.source_sections):
            if src not in where:
                add(f"{p}.team_scoring.source_sections[{k}]", f"unknown section {src!r}")
            elif ev.section(src).kind != "individual":
                add(f"{p}.team_scoring.source_sections[{k}]", f"{src!r} is not an individual section")


def _check_play(sec, p, add) -> None:
    # played sections need play rules; every tiebreak order must be known
    if sec.played:
        for f in ("format", "clock", "opening", "scoring", "no_show_minutes"):
            if getattr(sec, f) is None:
                add(f"{p}.{f}", "required for a section that plays games")
        if sec.team_match and sec.scoring and sec.scoring.match_win is None:
            add(f"{p}.scoring", "team matches need match_win, match_draw, match_loss (PAIR-9)")
        if sec.format:
            for fk in sec.format.allowed:
                if fk not in sec.tiebreaks:
                    add(f"{p}.tiebreaks", f"no tiebreak order for format {fk!r}")
        if sec.format and sec.format.games_per_round == 2 and sec.kind == "team":
            add(f"{p}.format.games_per_round", "two-game rounds are for individual sections")
    allowed = set(IndividualTiebreak.__args__) if sec.kind == "individual" else set(TeamTiebreak.__args__)
    for fk, order in sec.tiebreaks.items():
        if not order:
            add(f"{p}.tiebreaks.{fk}", "empty tiebreak order")
        for k, name in enumerate(order):
            if name not in allowed:
                add(f"{p}.tiebreaks.{fk}[{k}]", f"unknown {sec.kind} tiebreak {name!r}")
        if len(set(order)) != len(order):
            add(f"{p}.tiebreaks.{fk}", "a criterion is listed twice")


def _check_merge(st, sec, p, local, add) -> None:
    # merging is mutual, within one track, kind and age window (gender may differ)
    cl = sec.closing
    if cl.merge_with is not None:
        partner = local.get(cl.merge_with)
        if partner is None:
            add(f"{p}.closing.merge_with", f"unknown section {cl.merge_with!r} in stage {st.id!r}")
        elif partner.id == sec.id:
            add(f"{p}.closing.merge_with", "a section cannot merge with itself")
        else:
            if partner.track != sec.track:
                add(f"{p}.closing.merge_with", f"partner {partner.id!r} is on another rule track")
            if partner.kind != sec.kind:
                add(f"{p}.closing.merge_with", f"partner {partner.id!r} is of another kind")
            if partner.birth != sec.birth:
                add(f"{p}.closing.merge_with", f"partner {partner.id!r} has another age window")
            if partner.closing.merge_with != sec.id:
                add(
                    f"{p}.closing.merge_with",
                    f"partner {partner.id!r} must name {sec.id!r} as its merge_with (merging is mutual)",
                )


def _check_awards(sec, p, add) -> None:
    aw = sec.awards
    if aw.places is not None and aw.places_by_field:
        add(f"{p}.awards", "give places or places_by_field, not both")
    bands = [b.min_entries for b in aw.places_by_field]
    if bands != sorted(bands, reverse=True):
        add(f"{p}.awards.places_by_field", "bands must be ordered by min_entries, largest first")
    max_places = aw.places or max((b.places for b in aw.places_by_field), default=None)
    covered: set[int] = set()
    for k, pa in enumerate(aw.place_items):
        rng = set(range(pa.from_place, pa.to_place + 1))
        if rng & covered:
            add(f"{p}.awards.place_items[{k}]", "overlaps an earlier band")
        covered |= rng
        if max_places is not None and pa.to_place > max_places:
            add(f"{p}.awards.place_items[{k}].to_place", f"beyond the {max_places} places awarded")
    ids: set[str] = set()
    for k, pt in enumerate(aw.prizes):
        if pt.id in ids:
            add(f"{p}.awards.prizes[{k}].id", f"duplicate prize table {pt.id!r}")
        ids.add(pt.id)
        if pt.non_increasing and any(a < b for a, b in zip(pt.amounts, pt.amounts[1:])):
            add(f"{p}.awards.prizes[{k}].amounts", "must be non-increasing by place")
        if any(a < 0 for a in pt.amounts):
            add(f"{p}.awards.prizes[{k}].amounts", "amounts must be >= 0")
        if pt.gender and sec.gender != "mixed" and pt.gender != sec.gender:
            add(f"{p}.awards.prizes[{k}].gender", f"a {sec.gender} section has no {pt.gender} ranking")
    last = 0
    for k, tb in enumerate(aw.titles):
        if tb.from_place != last + 1 or tb.to_place < tb.from_place:
            add(f"{p}.awards.titles[{k}]", f"bands must be contiguous from place 1 (expected from_place {last + 1})")
        last = tb.to_place
    if aw.best_board and sec.kind != "team":
        add(f"{p}.awards.best_board", "best-board awards are for team sections")


def _check_qualification(ev, st, sec, p, stage_ids, add) -> None:
    q = sec.qualification
    if q is not None:
        if q.to_stage not in stage_ids:
            add(f"{p}.qualification.to_stage", f"unknown stage {q.to_stage!r}")
        else:
            target = ev.stages[stage_ids[q.to_stage]]
            if target.fed_by != st.id:
                add(f"{p}.qualification.to_stage", f"stage {q.to_stage!r} is not fed by {st.id!r}")
            tids = {s.id for s in target.sections}
            for g, sid in q.to_section.items():
                if sid not in tids:
                    add(f"{p}.qualification.to_section.{g}", f"unknown section {sid!r} in stage {q.to_stage!r}")
        genders = {"male", "female"} if sec.gender == "mixed" or sec.closing.merge_with else {sec.gender}
        missing = genders - set(q.to_section)
        if missing:
            add(f"{p}.qualification.to_section", f"no destination for {sorted(missing)}")
