"""AWD-QUAL / AWD-8: domain outputs fit the shared event contracts as plain data."""

from __future__ import annotations

from awards.domain import compute_section_awards, plain, section_publication, select_qualifiers
from gomoku_shared.contracts.events import AwardsPublished, QualifiersSelected


def test_awd_qual_selection_fits_qualifiers_selected(seed, section, ranked_rows):
    """AWD-QUAL: a selection maps 1:1 onto the qualifiers.selected payload."""
    rule = next(r for r in seed.SZ_ONLINE.qualification if r.source_section_id == "online-pro-men")
    (sel,) = select_qualifiers(section(ranked_rows(10), "online-pro-men"), rule, seed.SZ_ONLINE.seeded)
    data = plain(sel)
    payload = QualifiersSelected(
        event_code="sz2022",
        from_stage="online",
        to_stage="final",
        section_id=data["source_section_id"],
        target_section_id=data["target_section_id"],
        qualifiers=data["qualifiers"],
        substitutes=data["substitutes"],
        seeded=data["seeded"],
    )
    assert [q.entrant_id for q in payload.qualifiers] == ["p1", "p2", "p3", "p4"]
    assert [q.place for q in payload.substitutes] == [5, 6, 7, 8]
    assert [q.entrant_id for q in payload.seeded] == [f"cup-men-{i}" for i in range(1, 5)]


def test_awd8_section_publication_fits_awards_published(seed, section, ranked_rows):
    """AWD-8: section_publication fills the awards.published lists."""
    pub = section_publication(compute_section_awards(section(ranked_rows(10), "da-open"), seed.DA_OPEN))
    payload = AwardsPublished(
        event_code="da2023",
        stage="main",
        section_id=pub["section_id"],
        revision=1,
        places=pub["places"],
        prizes=pub["prizes"],
        titles=pub["titles"],
        cancelled=pub["cancelled"],
    )
    assert len(payload.prizes) == 8 and payload.places[0]["items"] == ["certificate", "medal"]
