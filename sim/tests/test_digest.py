"""The result digest compares outcomes (the embedded and the distributed run of one seed; a
release before and after a change): what varies per run and what says nothing of the outcome
is left out, everything else counts."""

from __future__ import annotations

from gomoku_sim.digest import canonical, canonical_json, result_digest

OUTCOME = {"prizes": [{"entrant_id": "e1", "place": 1, "amount_fen": 50000, "table_zh": None}]}


def test_an_optional_field_left_empty_digests_as_absent():
    """A release that adds an optional field (None here) digests the same outcome alike."""
    grown = {"prizes": [{**OUTCOME["prizes"][0], "band_at_least": None, "band_under": None}]}
    assert result_digest(grown) == result_digest(OUTCOME)
    assert canonical_json(grown) == '{"prizes":[{"amount_fen":50000,"entrant_id":"e1","place":1}]}'
    # the summary a run keeps still holds every key (the e2e checks read them)
    assert canonical(grown)["prizes"][0]["band_under"] is None


def test_times_and_ids_of_the_run_are_left_out():
    assert result_digest({**OUTCOME, "published_at": "2026-12-06T10:00:00Z"}) == result_digest(OUTCOME)


def test_a_changed_outcome_changes_the_digest():
    moved = {"prizes": [{**OUTCOME["prizes"][0], "place": 2}]}
    filled = {"prizes": [{**OUTCOME["prizes"][0], "band_under": 1600}]}
    zero = {"prizes": [{**OUTCOME["prizes"][0], "amount_fen": 0}]}
    digests = {result_digest(case) for case in (OUTCOME, moved, filled, zero)}
    assert len(digests) == 4
