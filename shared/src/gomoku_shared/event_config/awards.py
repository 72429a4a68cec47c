"""Awards configuration of a section (AWD-1..7): places, prizes, titles, team scores."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from .base import Gender, _Model


class TeamScoring(_Model):
    """AWD-6: a unit's team score computed from individual results."""

    #: individual section ids whose results count (SZ: final men + women)
    source_sections: Annotated[list[str], Field(min_length=1)]
    picks: dict[Gender, Annotated[int, Field(ge=1)]]
    #: place_sum: lower is better (SZ); points_sum: higher is better (NY)
    metric: Literal["place_sum", "points_sum"]
    #: criteria after the metric: best_single_place (SZ), place_sum, male_place (NY)
    tiebreaks: list[Literal["best_single_place", "place_sum", "male_place"]] = []
    #: units without the full complement get no team score
    requires_full_complement: bool = True


class PlaceAward(_Model):
    from_place: Annotated[int, Field(ge=1)]
    to_place: Annotated[int, Field(ge=1)]
    items: Annotated[list[str], Field(min_length=1)]

    @model_validator(mode="after")
    def _ordered(self) -> PlaceAward:
        if self.from_place > self.to_place:
            raise ValueError(f"from_place {self.from_place} > to_place {self.to_place}")
        return self


class PlacesByField(_Model):
    """AWD-3: number of places awarded by field size (first band whose min_entries fits)."""

    min_entries: Annotated[int, Field(ge=0)]
    places: Annotated[int, Field(ge=1)]


class RatingBand(_Model):
    """Issue 32 (ADR 0012): a band of published ratings, for a section's eligibility
    (``SectionConfig.rating_band``) and for a prize table ranking only the players inside it
    ("best under 1600": ``under: 1600``). ``at_least`` is inclusive and ``under`` exclusive, so
    adjacent bands (``under: 1600`` / ``at_least: 1600``) never overlap. A player without a
    published rating (unrated, rating 0 on the wire) is inside only with ``unrated: inside``.
    A provisional rating is a rating like any other (ADR 0012: provisional is a reading of the
    rating deviation; seeding reads it the same way)."""

    at_least: Annotated[int, Field(ge=1, le=4000)] | None = None
    under: Annotated[int, Field(ge=1, le=4000)] | None = None
    unrated: Literal["inside", "outside"] = "outside"

    @model_validator(mode="after")
    def _bounded(self) -> RatingBand:
        if self.at_least is None and self.under is None:
            raise ValueError("a rating band needs at_least or under")
        if self.at_least is not None and self.under is not None and self.under <= self.at_least:
            raise ValueError(f"under {self.under} must be above at_least {self.at_least}")
        return self

    def admits(self, rating: int | None) -> bool:
        """Whether a published rating (None or 0: unrated) lies in the band."""
        if not rating:
            return self.unrated == "inside"
        return (self.at_least is None or rating >= self.at_least) and (self.under is None or rating < self.under)


class PrizeTable(_Model):
    """AWD-4: prize amounts by place (index 0 = 1st)."""

    id: str
    name: str
    #: the table's Chinese name as the regulation writes it (公开组（女子）), shown in Chinese
    name_zh: str | None = None
    currency: str = "CNY"
    amounts: Annotated[list[int], Field(min_length=1)]
    #: ranking among this gender only (women's prizes)
    gender: Gender | None = None
    #: issue 32: ranking among the players whose published rating lies in this band only; not
    #: combinable: a player whom two tables would pay takes the better prize (awards.domain.band_prizes)
    band: RatingBand | None = None
    #: 兼得: received in addition to a prize from another table
    combinable: bool = False
    non_increasing: bool = True
    before_tax: bool = True


class TitleBand(_Model):
    """AWD-5: title by place (DA junior)."""

    from_place: Annotated[int, Field(ge=1)]
    to_place: Annotated[int, Field(ge=1)]
    title: str


class BestBoardAward(_Model):
    """AWD-7: one award per board; eligibility by share of the board's games played."""

    min_participation_pct: Annotated[float, Field(gt=0, le=100)]
    order: list[Literal["score", "win_rate", "wins", "team_place"]]
    exclude_playoff_games: bool = True
    per_board: Annotated[int, Field(ge=1)]


class TrainingSquad(_Model):
    """AWD-QUAL (SZ): champion joins the squad, places 2..substitutes_to are squad substitutes."""

    members_to_place: Annotated[int, Field(ge=1)]
    substitutes_to_place: Annotated[int, Field(ge=1)]


class AwardsConfig(_Model):
    """AWD-1..7 for one section."""

    #: fixed number of places awarded; or by field size; None = no place awards (qualifier)
    places: Annotated[int, Field(ge=1)] | None = None
    places_by_field: list[PlacesByField] = []
    #: SZ teams: with fewer entries than `places`, award (entries - 1) places
    fewer_entries_award_entries_minus: Annotated[int, Field(ge=0)] | None = None
    place_items: list[PlaceAward] = []
    finisher_items: list[str] = []
    prizes: list[PrizeTable] = []
    titles: list[TitleBand] = []
    titles_carry_down: bool = False
    training_squad: TrainingSquad | None = None
    best_board: BestBoardAward | None = None


class RatingSettings(_Model):
    """Issue 32 (ADR 0012): whether the event's games count for the federation's ratings.

    ``min_time_control_s``: a section's games count only when its clock's nominal time is at
    least this (base + 60 × increment seconds per player, the usual rating convention); None:
    any clock. Forfeits never count, whatever this says.

    ``seed``: the entrants' published ratings (the organisation's latest list) travel with
    their entries, so Swiss sections start in rating order (the TRF rating column); a person
    with no published rating keeps 0. False: entries carry no published rating."""

    rated: bool = False
    min_time_control_s: Annotated[int, Field(ge=1)] | None = None
    seed: bool = True
