"""Issue 29, times in words: the staff pages say a time in the event's zone (the platform's
events: Asia/Shanghai) with words a person reads, never "UTC" after a bare ISO time; audits
name the person without their account id."""

from __future__ import annotations

from portal.dates_in_words import PLATFORM_ZONE, say_time
from portal.i18n import Words
from portal.staff_event_names import who_acted


def test_issue_29_times_in_words_an_invitations_expiry_in_beijing_time_zh_and_en():
    at = "2023-08-26T06:30:00+00:00"
    assert say_time(at, PLATFORM_ZONE, Words("zh")) == "2023年8月26日 14:30（北京时间）"
    assert say_time(at, PLATFORM_ZONE, Words("en")) == "26 Aug 2023, 14:30 (Beijing time)"
    # a time without an offset is the services' UTC; no zone given is the platform's
    assert say_time("2023-08-26T06:30:00", None, Words("zh")) == "2023年8月26日 14:30（北京时间）"


def test_issue_29_times_in_words_other_zones_by_their_offset_and_nothing_as_a_dash():
    at = "2023-01-05T23:10:00Z"
    assert say_time(at, "Europe/Paris", Words("en")) == "6 Jan 2023, 00:10 (UTC+1)"
    assert say_time(at, "Asia/Kolkata", Words("zh")) == "2023年1月6日 04:40（UTC+5:30）"
    assert say_time(at, "UTC", Words("zh")) == "2023年1月5日 23:10（协调世界时）"
    for nothing in (None, "", "not a time"):
        assert say_time(nothing, PLATFORM_ZONE, Words("en")) == "—"
    assert say_time(at, "No/Such_Zone", Words("en")) == "—"


def test_issue_29_audits_name_the_person_without_their_account_id():
    assert who_acted("李组委 (acct:4f2a9c)") == "李组委"
    assert who_acted("arbiter:desk-1") == "arbiter:desk-1"
    assert who_acted(None) == "—" and who_acted("") == "—"
