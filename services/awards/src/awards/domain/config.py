"""Award configuration of one event — the target of the preset files.

Every number of the seed regulations lives in these dataclasses, never in code. A preset
author maps a preset file onto them; each field's comment says what it means and which
rule (AWD-…) reads it. Places are 1-based and ranges are inclusive.

Money is integer *fen* (1/100 yuan); use :func:`awards.domain.money.yuan` or
:meth:`PrizeTable.from_yuan` to write tables in yuan.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from .config_error import ConfigError
from .model import Gender
from .money import yuan
from .rating_band import RatingBand

__all__ = ["ConfigError"]  # raised by the configuration's classes; importable from here as before


class SharedPlacePolicy(StrEnum):
    """What entrants sharing a place receive for place-bound *items and titles*.

    A two-way tie at 8th occupies places 8 and 9. ``SHARED_PLACE`` (default, Decision):
    both are "8th" and both receive what 8th receives — a shared place never shifts
    anything down (不顺延). ``WORST_OCCUPIED``: both receive what the last occupied place
    (9th) receives — the conservative reading. Money never follows this policy: it is
    split (AWD-4, :mod:`awards.domain.prizes`).
    """

    SHARED_PLACE = "shared_place"
    WORST_OCCUPIED = "worst_occupied"


def _check_range(first: int, last: int, what: str) -> None:
    if first < 1 or last < first:
        raise ConfigError(f"{what}: bad place range {first}..{last}")


def _check_disjoint(ranges: Iterable[tuple[int, int]], what: str) -> None:
    ordered = sorted(ranges)
    for (_, a_last), (b_first, _) in zip(ordered, ordered[1:]):
        if b_first <= a_last:
            raise ConfigError(f"{what}: place ranges overlap at {b_first}")


# --------------------------------------------------------------------- AWD-1


@dataclass(frozen=True)
class PlaceItems:
    """AWD-1: places ``first..last`` each receive ``items``.

    Items are display labels chosen by the preset (e.g. ``"trophy"``, ``"medal"``,
    ``"certificate"`` or ``"奖杯"``, ``"奖牌"``, ``"奖状"``). Prize money is *not* an item:
    it comes from :class:`PrizeConfig`.
    """

    first: int
    last: int
    items: tuple[str, ...]

    def __post_init__(self) -> None:
        _check_range(self.first, self.last, "PlaceItems")


@dataclass(frozen=True)
class AwardBand:
    """AWD-2/AWD-3: how many places are awarded when the field has ``min_field..max_field``
    entrants (inclusive; ``max_field=None`` = no upper bound).

    Exactly one of ``places`` (a fixed count, e.g. NT 11+ teams → 8) or ``field_minus``
    (field size minus this, e.g. SZ fewer than 4 teams → teams − 1) is set.
    """

    min_field: int
    max_field: int | None = None
    places: int | None = None
    field_minus: int | None = None

    def __post_init__(self) -> None:
        if (self.places is None) == (self.field_minus is None):
            raise ConfigError("AwardBand: set exactly one of places / field_minus")
        if self.min_field < 0 or (self.max_field is not None and self.max_field < self.min_field):
            raise ConfigError(f"AwardBand: bad field range {self.min_field}..{self.max_field}")

    def contains(self, size: int) -> bool:
        return self.min_field <= size and (self.max_field is None or size <= self.max_field)


@dataclass(frozen=True)
class AwardCountRule:
    """AWD-2/AWD-3: award count by field size — bands must not overlap; a field size no
    band covers is a configuration error."""

    bands: tuple[AwardBand, ...]

    def __post_init__(self) -> None:
        spans = [(b.min_field, b.max_field if b.max_field is not None else 10**9) for b in self.bands]
        _check_disjoint(spans, "AwardCountRule")


@dataclass(frozen=True)
class PlaceAwardsConfig:
    """AWD-1 (+ AWD-2/3 counts) for one section.

    - ``by_place``: what each awarded place receives.
    - ``award_count``: optional band table limiting how many places are awarded for the
      field size; without it the awarded places are the highest ``last`` in ``by_place``.
    - ``finisher_items``: given in addition to any place items (DA: finisher's medal and
      commemorative certificate) — to every entrant who completed the section, or to
      every entrant at all when ``finisher_items_require_completion`` is False (the DA
      seed says 所有参赛选手, "all participants").
    - ``shared_place_policy``: see :class:`SharedPlacePolicy`.
    """

    by_place: tuple[PlaceItems, ...] = ()
    award_count: AwardCountRule | None = None
    finisher_items: tuple[str, ...] = ()
    finisher_items_require_completion: bool = True
    shared_place_policy: SharedPlacePolicy = SharedPlacePolicy.SHARED_PLACE

    def __post_init__(self) -> None:
        _check_disjoint(((p.first, p.last) for p in self.by_place), "PlaceAwardsConfig")

    @property
    def max_place(self) -> int:
        return max((p.last for p in self.by_place), default=0)

    def items_for(self, place: int) -> tuple[str, ...]:
        for entry in self.by_place:
            if entry.first <= place <= entry.last:
                return entry.items
        return ()


# --------------------------------------------------------------------- AWD-4


@dataclass(frozen=True)
class PrizeTable:
    """AWD-4: one prize table of a section.

    - ``amounts``: fen per rank, index 0 = rank 1 (the table's length is the number of
      paid ranks).
    - ``gender``: ``None`` ranks the whole section by place (the overall table);
      ``Gender.FEMALE`` ranks only the women by their section places ("rank among women").
    - ``combinable`` (兼得, gendered tables only): True — a woman may hold this prize *and*
      an overall prize; False — women holding an overall prize are skipped and this
      table's prizes pass to the next women.
    """

    name: str
    amounts: tuple[int, ...]
    gender: Gender | None = None
    combinable: bool = True
    #: the Chinese name of the table where the configuration gives one
    name_zh: str | None = None
    #: issue 32: rank only the players whose published rating lies in this band
    #: (:mod:`awards.domain.band_prizes`: not combinable, a player takes the better prize)
    band: RatingBand | None = None

    def __post_init__(self) -> None:
        for amount in self.amounts:
            if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
                raise ConfigError(f"PrizeTable {self.name}: amounts are non-negative int fen")

    @classmethod
    def from_yuan(
        cls,
        name: str,
        amounts: Iterable[int | str | Decimal],
        *,
        gender: Gender | None = None,
        combinable: bool = True,
        name_zh: str | None = None,
        band: RatingBand | None = None,
    ) -> PrizeTable:
        return cls(name, tuple(yuan(a) for a in amounts), gender, combinable, name_zh, band)


@dataclass(frozen=True)
class PrizeConfig:
    """AWD-4: the prize tables of a section, applied in order (overall tables first).

    Shared places split money equally: each tied entrant gets
    ``floor(sum of the occupied ranks' amounts / number tied)`` fen; the fen left over
    (fewer than the number tied) is *not paid* and is reported as ``remainder_fen`` on the
    prize lines so the organiser can decide (Decision).
    """

    tables: tuple[PrizeTable, ...]
    currency: str = "CNY"
    before_tax: bool = True


# --------------------------------------------------------------------- AWD-5


@dataclass(frozen=True)
class TitleBand:
    """AWD-5: places ``first..last`` earn ``title`` (e.g. "2-dan", "二段")."""

    first: int
    last: int
    title: str

    def __post_init__(self) -> None:
        _check_range(self.first, self.last, "TitleBand")


@dataclass(frozen=True)
class TitleTable:
    """AWD-5: titles (段级位) by place, never carried down (不顺延): a place with nobody,
    or the extra places a tie occupies, leave those titles unawarded. Shared places follow
    ``shared_place_policy``."""

    bands: tuple[TitleBand, ...]
    shared_place_policy: SharedPlacePolicy = SharedPlacePolicy.SHARED_PLACE
    #: wording on certificates, e.g. "China Gomoku dan/kyu (by application)"
    note: str = ""

    def __post_init__(self) -> None:
        _check_disjoint(((b.first, b.last) for b in self.bands), "TitleTable")

    def title_for(self, place: int) -> str | None:
        for band in self.bands:
            if band.first <= place <= band.last:
                return band.title
        return None


# --------------------------------------------------------------------- section


@dataclass(frozen=True)
class SectionAwardConfig:
    """Everything awarded in one section (individual or team standings).

    - ``cancel_if_entries_at_most`` (AWD-2): a section whose field is this size or smaller
      is cancelled and awards nothing (SZ: 4). ``None`` = never cancelled.
    """

    section_id: str
    places: PlaceAwardsConfig = PlaceAwardsConfig()
    prizes: PrizeConfig | None = None
    titles: TitleTable | None = None
    cancel_if_entries_at_most: int | None = None


# --------------------------------------------------------------------- AWD-6


class TeamScoreMeasure(StrEnum):
    """What a unit's team score adds up."""

    PLACE_SUM = "place_sum"  # SZ: sum of places, lower is better
    POINTS_SUM = "points_sum"  # NY: sum of points, higher is better


class TeamTieKind(StrEnum):
    PLACE_SUM = "place_sum"  # lower better (NY 1st tiebreak)
    POINTS_SUM = "points_sum"  # higher better
    BEST_SINGLE_PLACE = "best_single_place"  # lowest place of any counted member (SZ)
    COMPONENT_PLACE = "component_place"  # place of the best counted member of one component (NY: the male)


@dataclass(frozen=True)
class TeamTiebreak:
    kind: TeamTieKind
    #: index into ``TeamScoreRule.components`` (COMPONENT_PLACE only)
    component: int = 0


@dataclass(frozen=True)
class TeamScoreComponent:
    """Take a unit's best ``count`` entrants (by final place) from ``section_id``,
    optionally only those of ``gender`` (for a merged section)."""

    section_id: str
    count: int
    gender: Gender | None = None
    label: str = ""


@dataclass(frozen=True)
class TeamScoreRule:
    """AWD-6: a team ranking computed from individual sections.

    SZ mixed team: components (men, 2) + (women, 1), measure PLACE_SUM, tiebreaks
    (BEST_SINGLE_PLACE,). NY youth team: (youth male, 1) + (youth female, 1), measure
    POINTS_SUM, tiebreaks (PLACE_SUM, COMPONENT_PLACE of component 0). A unit lacking
    any component's count gets no team score. Still tied after the tiebreaks: shared place.
    """

    team_section_id: str
    name: str
    components: tuple[TeamScoreComponent, ...]
    measure: TeamScoreMeasure
    tiebreaks: tuple[TeamTiebreak, ...] = ()

    def __post_init__(self) -> None:
        for tiebreak in self.tiebreaks:
            if tiebreak.kind is TeamTieKind.COMPONENT_PLACE and not 0 <= tiebreak.component < len(self.components):
                raise ConfigError(f"{self.team_section_id}: tiebreak component {tiebreak.component} out of range")

    @property
    def required_sections(self) -> frozenset[str]:
        return frozenset(c.section_id for c in self.components)


# --------------------------------------------------------------------- AWD-7


class BoardCriterion(StrEnum):
    SCORE = "score"  # game points on the board, higher better
    WIN_RATE = "win_rate"  # wins / games played, higher better
    WINS = "wins"  # higher better
    TEAM_PLACE = "team_place"  # the team's final place, lower better


@dataclass(frozen=True)
class BestBoardConfig:
    """AWD-7: one best-board award per board of a team section.

    - ``boards``: boards per team (NT: 3).
    - ``min_played_percent``: eligible when games played ≥ this percent of the board's
      games (NT: 70; "达到…70%以上" read as inclusive). Playoff games never count.
    - ``order``: ranking criteria in order (NT: score, win rate, wins, team place).
    - ``items``: what the winner receives (NT: certificate).
    """

    boards: int = 3
    min_played_percent: Decimal = Decimal(70)
    order: tuple[BoardCriterion, ...] = (
        BoardCriterion.SCORE,
        BoardCriterion.WIN_RATE,
        BoardCriterion.WINS,
        BoardCriterion.TEAM_PLACE,
    )
    items: tuple[str, ...] = ("certificate",)

    def __post_init__(self) -> None:
        if isinstance(self.min_played_percent, float):
            raise ConfigError("min_played_percent must be Decimal or int")


# --------------------------------------------------------------------- AWD-QUAL


@dataclass(frozen=True)
class QualificationRule:
    """AWD-QUAL: who of ``source_section_id`` goes on to the next stage.

    - ``qualifiers``: places taken per group (SZ online: 4).
    - ``substitutes``: ordered substitutes after them (SZ: 4, i.e. places 5–8).
    - ``by_gender``: rank each gender separately (a merged section, REG-12); also implied by
      ``SectionStandings.rank_by_gender``.
    - ``targets``: next-stage section per gender (``None`` key = any gender), e.g.
      ``{None: "final-men"}`` or, for a merged men+women section,
      ``{Gender.MALE: "final-men", Gender.FEMALE: "final-women"}``.
    - ``skip_seeded``: a player already seeded into the target is passed over and the
      place goes to the next player (Decision, like REG-7).
    """

    source_section_id: str
    targets: Mapping[Gender | None, str]
    qualifiers: int = 4
    substitutes: int = 4
    by_gender: bool = False
    skip_seeded: bool = True


@dataclass(frozen=True)
class SeededPlayer:
    entrant_id: str
    name: str
    gender: Gender | None = None
    #: place in the source event (e.g. the 2022 Shenzhen Cup), for the record
    place: int | None = None


@dataclass(frozen=True)
class SeededList:
    """AWD-QUAL: direct qualifiers from outside this stage (SZ: 2022 Shenzhen Cup
    professional top 4 per section; its places 5–8 as ordered substitutes)."""

    target_section_id: str
    source: str
    players: tuple[SeededPlayer, ...]
    substitutes: tuple[SeededPlayer, ...] = ()


@dataclass(frozen=True)
class SquadRule:
    """AWD-QUAL: city training squad from a section's final standings (SZ final:
    champion → member, places 2–4 → substitutes)."""

    squad: str
    member_places: tuple[int, int] = (1, 1)
    substitute_places: tuple[int, int] = (2, 4)
    #: sections it applies to; empty = every section handed in
    section_ids: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _check_range(*self.member_places, "SquadRule.member_places")
        _check_range(*self.substitute_places, "SquadRule.substitute_places")


# --------------------------------------------------------------------- event


@dataclass(frozen=True)
class EventAwardsConfig:
    """All award configuration of one event (one stage).

    - ``sections``: per individual or team section played (keyed by section id).
    - ``team_scores``: team rankings computed from individual sections (AWD-6); their
      awards are configured by a ``SectionAwardConfig`` in ``sections`` whose
      ``section_id`` equals the rule's ``team_section_id``.
    - ``best_board``: AWD-7, applied to every team section that has board records.
    - ``qualification`` / ``seeded`` / ``squads``: AWD-QUAL.
    - ``max_next_stage_entrants``: cap on everyone sent to the next stage (SZ final: 48);
      exceeding it is reported, not silently cut.
    """

    sections: tuple[SectionAwardConfig, ...] = ()
    team_scores: tuple[TeamScoreRule, ...] = ()
    best_board: BestBoardConfig | None = None
    qualification: tuple[QualificationRule, ...] = ()
    seeded: tuple[SeededList, ...] = ()
    squads: tuple[SquadRule, ...] = ()
    max_next_stage_entrants: int | None = None

    def section(self, section_id: str) -> SectionAwardConfig | None:
        for cfg in self.sections:
            if cfg.section_id == section_id:
                return cfg
        return None
