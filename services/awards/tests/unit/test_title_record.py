"""Titles that accumulate over a season (issue 32): DA 九(三)'s title table grants by place
(AWD-5, 不顺延), the grants accumulate on the person, a higher title supersedes and a grant never
lowers one."""

from __future__ import annotations

from datetime import date

import pytest

from awards.domain.title_record import TitleGrant, TitleLadder, current_title, title_history

LADDER = TitleLadder.kyu_dan()


def grant(title: str, day: date, event: str = "DA2023", place: int = 5) -> TitleGrant:
    return TitleGrant("p1", title, event, "junior", place, day)


def test_the_ladder_orders_kyu_below_dan_and_1k_above_6k() -> None:
    assert LADDER.rank("6k") < LADDER.rank("1k") < LADDER.rank("1d") < LADDER.rank("2d")
    with pytest.raises(ValueError):
        LADDER.rank("二段")
    with pytest.raises(ValueError):
        TitleLadder(("1k", "1k"))


def test_da_grants_accumulate_and_a_higher_title_supersedes() -> None:
    """DA 九(三): 第23-26名 六级 in one event, 第2-3名 一段 in a later one: 1d since the later."""
    first = grant("6k", date(2023, 8, 22), place=24)
    later = grant("1d", date(2024, 8, 20), "DA2024", place=2)
    now = current_title([later, first], LADDER)
    assert now is not None and now.title == "1d" and now.since == later
    then = current_title([first, later], LADDER, on=date(2024, 1, 1))
    assert then is not None and then.title == "6k"
    assert current_title([], LADDER) is None


def test_a_grant_never_lowers_a_title_and_an_equal_one_keeps_the_first_date() -> None:
    high = grant("2d", date(2023, 8, 22), place=1)
    lower = grant("1k", date(2024, 8, 20), "DA2024", place=4)
    again = grant("2d", date(2025, 8, 20), "DA2025", place=1)
    now = current_title([high, lower, again], LADDER)
    assert now is not None and now.title == "2d" and now.since == high
    assert [raised for _, raised in title_history([again, lower, high], LADDER)] == [True, False, False]


def test_a_withdrawn_grant_corrects_the_current_title() -> None:
    """Computed from the grants: a result corrected after publication (AWD-8) takes its grant
    away and the title falls back to the best that remains."""
    kept = grant("3k", date(2023, 8, 22))
    withdrawn = grant("1d", date(2024, 8, 20), "DA2024", place=2)
    assert current_title([kept, withdrawn], LADDER).title == "1d"  # type: ignore[union-attr]
    assert current_title([kept], LADDER).title == "3k"  # type: ignore[union-attr]
