"""Issue 32 rating band (ADR 0012): a section may admit only players whose published rating
lies in a band (``SectionConfig.rating_band``: ``at_least`` inclusive, ``under`` exclusive, and
whether unrated players are inside). The rating judged is the person's rating on the
organisation's latest published list when the entry is judged; the decision stands afterwards
(a later list does not re-judge an entry: it is not one of the REG-18 eligibility rules)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gomoku_shared.event_config import EventConfig, RatingBand, SectionConfig

from .model import Decision, Person, Verdict

#: the rule a rating band's decision names (no REG- id of its own: issue 32's rating band)
RATING_BAND_RULE = "RATING-BAND"


def band_words(band: RatingBand) -> str:
    """The band as the reason says it: "1400 to under 1600", "under 1600", "1600 and above"."""
    if band.at_least is not None and band.under is not None:
        return f"{band.at_least} to under {band.under}"
    if band.under is not None:
        return f"under {band.under}"
    return f"{band.at_least} and above"


def check_rating_band(section: SectionConfig, person: Person, rating: int | None) -> Decision | None:
    """Issue 32 rating band: one player's published rating (None or 0: unrated) against the
    section's band; None when the section has no band."""
    band = section.rating_band
    if band is None:
        return None
    clause = f"{section.id}/rating_band"
    params: tuple[tuple[str, str | int], ...] = (("band", band_words(band)), ("rating", rating or 0))
    if band.admits(rating):
        said = f"published rating {rating}" if rating else "unrated"
        return Decision(
            RATING_BAND_RULE, clause, Verdict.ADMITTED, f"{said}, within {band_words(band)}", person.id, params
        )
    if not rating:
        reason = f"{person.name} has no published rating; {section.name} admits rated players only ({band_words(band)})"
    else:
        reason = f"{person.name}'s published rating {rating} is outside {section.name}'s band ({band_words(band)})"
    return Decision(RATING_BAND_RULE, clause, Verdict.REFUSED, reason, person.id, params)


def rating_band_decisions(
    section: SectionConfig, members: Sequence[Person], ratings: Mapping[str, int]
) -> list[Decision]:
    """The band's decision for every player of an application (``ratings``: person id →
    published rating of those who have one)."""
    judged = (check_rating_band(section, person, ratings.get(person.id)) for person in members)
    return [decision for decision in judged if decision is not None]


def reads_rating_bands(config: EventConfig) -> bool:
    """Whether any section of the event has a rating band, for entry or for a prize table: then
    registration looks up published ratings whatever ``ratings.seed`` says."""
    sections = [section for stage in config.stages for section in stage.sections]
    return any(s.rating_band is not None or any(t.band is not None for t in s.awards.prizes) for s in sections)
