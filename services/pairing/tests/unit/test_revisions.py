"""The stale-write rule of arbiters' results (issue 27 finding 9; pairing.domain.revisions)."""

from __future__ import annotations

import pytest

from pairing.domain.revisions import is_stale


@pytest.mark.parametrize(
    ("expected", "current", "has_result", "stale"),
    [
        (None, 0, False, False),  # the first entry may leave the revision out
        (0, 0, False, False),
        (None, 1, True, True),  # once a result stands, a write must name what it saw
        (0, 1, True, True),  # decided on the result before the current one
        (1, 1, True, False),
        (2, 1, True, True),  # a revision nobody gave out
    ],
)
def test_issue27_finding9_a_write_names_the_current_revision(expected, current, has_result, stale):
    """Issue 27 finding 9: a write decided on another revision than the current one is stale."""
    assert is_stale(expected, current, has_result) is stale
