"""Issue 28: one way of saying dates (``portal.dates_in_words``): an event's days on the pages
(short months) and the printouts (months spelt out), the shared year and month said once."""

from __future__ import annotations

from portal.dates_in_words import say_days


def test_an_events_days_in_chinese():
    assert say_days("2022-11-05", "2022-11-13", "zh") == "2022年11月5日至13日"
    assert say_days("2023-08-30", "2023-09-02", "zh") == "2023年8月30日至9月2日"
    assert say_days("2022-12-30", "2023-01-02", "zh") == "2022年12月30日至2023年1月2日"
    assert say_days("2023-06-22", None, "zh") == say_days("2023-06-22", "2023-06-22", "zh") == "2023年6月22日"


def test_an_events_days_in_english_short_on_pages_long_on_printouts():
    assert say_days("2022-11-13", "2022-11-13", "en") == "13 Nov 2022"
    assert say_days("2022-11-05", "2022-11-13", "en") == "5–13 Nov 2022"
    assert say_days("2023-08-30", "2023-09-02", "en") == "30 Aug – 2 Sep 2023"
    assert say_days("2022-12-30", "2023-01-02", "en") == "30 Dec 2022 – 2 Jan 2023"
    assert say_days("2023-06-22", "2023-06-24", "en", long_months=True) == "22–24 June 2023"
    assert say_days("2022-10-30", "2022-11-13", "en", long_months=True) == "30 October – 13 November 2022"


def test_a_day_that_is_not_a_date_says_nothing():
    """The pages show a dash for it (``Site.html``), a printout leaves its line out."""
    assert say_days("not a day", None, "en") == "" and say_days(None, None, "zh") == ""
