"""EventConfig (gomoku_shared.event_config, the `config` of `event.configured`) → the awards
domain's configuration dataclasses.

One :class:`AwardsPlan` per event: per section what it awards (AWD-1..5), its best-board rule
(AWD-7), its qualification rule (AWD-QUAL), its training squad; per scored team section the
team-score rule (AWD-6). Every number comes from the preset.

Where the preset schema has no field for something the domain can do, a documented default
is used (module constants below) — see the awards README "Mapping defaults":

- ``DEFAULT_PLACE_ITEMS``: a section that awards places (``places`` / ``places_by_field``)
  but lists no ``place_items`` (NT: "录取前N名") gives each awarded place a certificate.
- ``MONEY_ITEM``: the ``prize_money`` label in ``place_items`` is dropped — money lines come
  from the prize tables (AWD-4), so certificates do not show a bare "prize_money".
- ``finisher_items`` go to every entrant who completed the section (domain default).
- Seeded direct qualifiers: ``SeededSource`` names a source and counts, not players, so no
  seeded list is built here (the registration service holds the seeded players).
- ``titles_carry_down: true`` and ``requires_full_complement: false`` are not supported by the
  domain: :class:`UnsupportedConfig` is raised rather than silently computing something else.
- Best board: ``per_board`` > 1 is not supported (one award per board, ties share it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from gomoku_shared import event_config as ec

from ..domain import Gender, config
from ..domain.rating_band import RatingBand

DEFAULT_PLACE_ITEMS: tuple[str, ...] = ("certificate",)
MONEY_ITEM = "prize_money"
SQUAD_NAME = "training squad"


class UnsupportedConfig(ValueError):
    """The preset asks for something the awards domain cannot compute."""


@dataclass(frozen=True)
class SectionPlan:
    """Everything the awards service does for one played section."""

    section_id: str
    stage_id: str
    name: str
    kind: str
    gender: str
    awards: config.SectionAwardConfig
    best_board: config.BestBoardConfig | None = None
    qualification: config.QualificationRule | None = None
    to_stage: str | None = None
    squad: config.SquadRule | None = None
    #: PAIR-8: ties touching places 1..N should have been decided by a playoff (None: shared)
    playoff_through: int | None = None


@dataclass(frozen=True)
class TeamPlan:
    """A team ranking computed from individual sections (AWD-6)."""

    section_id: str
    stage_id: str
    name: str
    rule: config.TeamScoreRule
    awards: config.SectionAwardConfig

    @property
    def sources(self) -> tuple[str, ...]:
        return tuple(sorted(self.rule.required_sections))


@dataclass(frozen=True)
class AwardsPlan:
    event_code: str
    sections: dict[str, SectionPlan] = field(default_factory=dict)
    teams: dict[str, TeamPlan] = field(default_factory=dict)
    #: stage id -> cap on entrants of that stage (AWD-QUAL: SZ final 48)
    stage_caps: dict[str, int] = field(default_factory=dict)

    def teams_fed_by(self, section_id: str) -> list[TeamPlan]:
        return [t for _, t in sorted(self.teams.items()) if section_id in t.rule.required_sections]

    def event_awards_config(self, stage_id: str | None = None) -> config.EventAwardsConfig:
        """The plan as the domain's one-call configuration (for ``compute_event_awards``)."""
        secs = [p for p in self.sections.values() if stage_id in (None, p.stage_id)]
        teams = [t for t in self.teams.values() if stage_id in (None, t.stage_id)]
        boards = next((p.best_board for p in secs if p.best_board is not None), None)
        quals = [p.qualification for p in secs if p.qualification is not None]
        cap = None
        if quals:
            targets = {p.to_stage for p in secs if p.to_stage}
            caps = [self.stage_caps[s] for s in sorted(t for t in targets if t) if s in self.stage_caps]
            cap = caps[0] if caps else None
        squads = tuple(
            config.SquadRule(p.squad.squad, p.squad.member_places, p.squad.substitute_places, (p.section_id,))
            for p in secs
            if p.squad is not None
        )
        return config.EventAwardsConfig(
            sections=tuple(p.awards for p in secs) + tuple(t.awards for t in teams),
            team_scores=tuple(t.rule for t in teams),
            best_board=boards,
            qualification=tuple(quals),
            squads=squads,
            max_next_stage_entrants=cap,
        )


# ------------------------------------------------------------------ AWD-1/2/3


def _award_count(awards: ec.AwardsConfig) -> config.AwardCountRule | None:
    if awards.places_by_field:
        # bands are ordered by min_entries, largest first (checked by the schema)
        bands: list[config.AwardBand] = []
        upper: int | None = None
        for band in awards.places_by_field:
            bands.append(config.AwardBand(band.min_entries, upper, places=band.places))
            upper = band.min_entries - 1
        return config.AwardCountRule(tuple(bands))
    if awards.places is None:
        return None
    if awards.fewer_entries_award_entries_minus is not None and awards.places > 0:
        # AWD-2 (SZ teams): with fewer entries than `places`, award (entries - k) places
        return config.AwardCountRule(
            (
                config.AwardBand(awards.places, None, places=awards.places),
                config.AwardBand(0, awards.places - 1, field_minus=awards.fewer_entries_award_entries_minus),
            )
        )
    return config.AwardCountRule((config.AwardBand(0, None, places=awards.places),))


def place_awards_config(awards: ec.AwardsConfig) -> config.PlaceAwardsConfig:
    """AWD-1 items per place, AWD-2/3 award counts, finisher items."""
    by_place = [
        config.PlaceItems(p.from_place, p.to_place, tuple(i for i in p.items if i != MONEY_ITEM))
        for p in awards.place_items
    ]
    most = awards.places or max((b.places for b in awards.places_by_field), default=0)
    if not by_place and most:
        by_place = [config.PlaceItems(1, most, DEFAULT_PLACE_ITEMS)]
    return config.PlaceAwardsConfig(
        by_place=tuple(sorted(by_place, key=lambda p: p.first)),
        award_count=_award_count(awards),
        finisher_items=tuple(awards.finisher_items),
    )


# ------------------------------------------------------------------ AWD-4/5


def prize_config(awards: ec.AwardsConfig) -> config.PrizeConfig | None:
    if not awards.prizes:
        return None
    tables = tuple(
        config.PrizeTable.from_yuan(
            t.name,
            t.amounts,
            gender=Gender(t.gender) if t.gender else None,
            combinable=t.combinable,
            name_zh=t.name_zh,
            band=rating_band(t.band),
        )
        for t in awards.prizes
    )
    # overall tables first, as the domain applies them, then gendered, then rating bands (issue
    # 32; schema order kept otherwise)
    tables = tuple(sorted(tables, key=lambda t: (t.band is not None, t.gender is not None)))
    first = awards.prizes[0]
    return config.PrizeConfig(tables, currency=first.currency, before_tax=first.before_tax)


def rating_band(band: ec.RatingBand | None) -> RatingBand | None:
    """Issue 32: a prize table's band of published ratings."""
    if band is None:
        return None
    return RatingBand(band.at_least, band.under, include_unrated=band.unrated == "inside")


def title_table(awards: ec.AwardsConfig) -> config.TitleTable | None:
    if not awards.titles:
        return None
    if awards.titles_carry_down:
        raise UnsupportedConfig("titles_carry_down: true — AWD-5 titles are never carried down here")
    return config.TitleTable(
        tuple(config.TitleBand(b.from_place, b.to_place, b.title) for b in awards.titles),
        config.SharedPlacePolicy.SHARED_PLACE,
    )


def section_award_config(sec: ec.SectionConfig) -> config.SectionAwardConfig:
    awards = sec.awards
    return config.SectionAwardConfig(
        section_id=sec.id,
        places=place_awards_config(awards),
        prizes=prize_config(awards),
        titles=title_table(awards),
        cancel_if_entries_at_most=sec.closing.cancel_at_most,
    )


# ------------------------------------------------------------------ AWD-7


_CRITERIA = {
    "score": config.BoardCriterion.SCORE,
    "win_rate": config.BoardCriterion.WIN_RATE,
    "wins": config.BoardCriterion.WINS,
    "team_place": config.BoardCriterion.TEAM_PLACE,
}


def best_board_config(sec: ec.SectionConfig) -> config.BestBoardConfig | None:
    best_board = sec.awards.best_board
    if best_board is None:
        return None
    if best_board.per_board != 1:
        raise UnsupportedConfig(
            f"{sec.id}: best_board.per_board={best_board.per_board}; one award per board is supported"
        )
    boards = (
        sec.team_match.boards if sec.team_match else (sec.team.size_max if sec.team and sec.team.size_max else None)
    )
    if boards is None:
        raise UnsupportedConfig(f"{sec.id}: best_board needs a number of boards (team_match.boards)")
    return config.BestBoardConfig(
        boards=boards,
        # the schema holds a float percentage; str() keeps 70 as exactly 70
        min_played_percent=Decimal(str(best_board.min_participation_pct)),
        order=tuple(_CRITERIA[o] for o in best_board.order),
    )


# ------------------------------------------------------------------ AWD-QUAL


def qualification_rule(sec: ec.SectionConfig) -> config.QualificationRule | None:
    qualification = sec.qualification
    if qualification is None:
        return None
    targets: dict[Gender | None, str] = {Gender(g): sid for g, sid in sorted(qualification.to_section.items())}
    if sec.gender in ("male", "female") and sec.gender in qualification.to_section:
        # a single-gender section goes to its gender's target unless it was merged (REG-12:
        # the merged section's standings carry rank_by_gender and each gender is selected)
        targets[None] = qualification.to_section[sec.gender]
    elif len(set(qualification.to_section.values())) == 1:
        targets[None] = next(iter(qualification.to_section.values()))
    return config.QualificationRule(
        source_section_id=sec.id,
        targets=targets,
        qualifiers=qualification.top,
        substitutes=qualification.substitutes,
        # a mixed section with per-gender targets ranks each gender separately
        by_gender=sec.gender == "mixed" and None not in targets,
        skip_seeded=True,
    )


def squad_rule(sec: ec.SectionConfig) -> config.SquadRule | None:
    squad = sec.awards.training_squad
    if squad is None:
        return None
    return config.SquadRule(
        SQUAD_NAME, (1, squad.members_to_place), (squad.members_to_place + 1, squad.substitutes_to_place), (sec.id,)
    )


# ------------------------------------------------------------------ AWD-6


_TIEBREAKS = {"best_single_place": config.TeamTieKind.BEST_SINGLE_PLACE, "place_sum": config.TeamTieKind.PLACE_SUM}


def team_score_rule(event: ec.EventConfig, sec: ec.SectionConfig) -> config.TeamScoreRule:
    team_scoring = sec.team_scoring
    assert team_scoring is not None
    if not team_scoring.requires_full_complement:
        raise UnsupportedConfig(f"{sec.id}: requires_full_complement: false is not supported (AWD-6)")
    components: list[config.TeamScoreComponent] = []
    for gender, count in team_scoring.picks.items():
        sources = [s for s in team_scoring.source_sections if event.section(s).gender in (gender, "mixed")]
        if len(sources) != 1:
            raise UnsupportedConfig(f"{sec.id}: {gender} picks need exactly one source section, found {sources}")
        components.append(config.TeamScoreComponent(sources[0], count, Gender(gender), label=gender))
    tiebreaks: list[config.TeamTiebreak] = []
    for name in team_scoring.tiebreaks:
        if name == "male_place":
            index = next((i for i, c in enumerate(components) if c.gender is Gender.MALE), None)
            if index is None:
                raise UnsupportedConfig(f"{sec.id}: male_place tiebreak without male picks")
            tiebreaks.append(config.TeamTiebreak(config.TeamTieKind.COMPONENT_PLACE, index))
        else:
            tiebreaks.append(config.TeamTiebreak(_TIEBREAKS[name]))
    measure = (
        config.TeamScoreMeasure.PLACE_SUM if team_scoring.metric == "place_sum" else config.TeamScoreMeasure.POINTS_SUM
    )
    return config.TeamScoreRule(sec.id, sec.name, tuple(components), measure, tuple(tiebreaks))


def playoff_through(sec: ec.SectionConfig) -> int | None:
    """PAIR-8: the places a playoff decides (policy playoff: ``places``, else every awarded place)."""
    if sec.playoffs.policy != "playoff":
        return None
    awards = sec.awards
    return sec.playoffs.places or awards.places or max((b.places for b in awards.places_by_field), default=None)


# ------------------------------------------------------------------ event


def awards_plan(event: ec.EventConfig) -> AwardsPlan:
    """The whole event's award plan (raises UnsupportedConfig / domain ConfigError)."""
    sections: dict[str, SectionPlan] = {}
    teams: dict[str, TeamPlan] = {}
    for stage in event.stages:
        for sec in stage.sections:
            awards = section_award_config(sec)
            if sec.team_scoring is not None:
                teams[sec.id] = TeamPlan(sec.id, stage.id, sec.name, team_score_rule(event, sec), awards)
                continue
            sections[sec.id] = SectionPlan(
                section_id=sec.id,
                stage_id=stage.id,
                name=sec.name,
                kind=sec.kind,
                gender=sec.gender,
                awards=awards,
                best_board=best_board_config(sec),
                qualification=qualification_rule(sec),
                to_stage=sec.qualification.to_stage if sec.qualification else None,
                squad=squad_rule(sec),
                playoff_through=playoff_through(sec),
            )
    caps = {s.id: s.cap_total for s in event.stages if s.cap_total is not None}
    return AwardsPlan(event.id, sections, teams, caps)
