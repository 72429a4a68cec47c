"""Webhook rules without I/O: Standard Webhooks signatures (checked with the standardwebhooks
library, as a receiver checks them), the retry schedule, the disable rule, URL checks and
what a partner may see of an event."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from standardwebhooks import Webhook, WebhookVerificationError
from webhooks_kit import entry_accepted, entry_refused, pairing, round_paired

from partners.adapters.webhook_sender import signed_headers
from partners.domain import webhooks as rules
from partners.domain.model import PartnerRuleError
from partners.domain.webhook_payloads import VIEWS
from partners.domain.webhooks import RetrySchedule, Subscription

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def _subscription(**changes) -> Subscription:
    base = Subscription(
        "sub_1", "app", "https://example.org/h", ("round.paired",), "", rules.new_secret(), "active", T0
    )
    return Subscription(**{**base.__dict__, **changes})


def test_a_signed_delivery_verifies_with_the_standardwebhooks_library():
    secret = rules.new_secret()
    assert secret.startswith("whsec_")
    body = '{"data":{"x":1},"type":"round.paired"}'
    headers = signed_headers("msg_1", datetime.now(UTC), body, [secret])
    assert Webhook(secret).verify(body, headers) == {"data": {"x": 1}, "type": "round.paired"}
    with pytest.raises(WebhookVerificationError):
        Webhook(rules.new_secret()).verify(body, headers)
    with pytest.raises(WebhookVerificationError):
        Webhook(secret).verify(body.replace("1", "2"), headers)


def test_during_a_rotation_both_secrets_sign_and_after_the_grace_only_the_new_one():
    sub = _subscription()
    rotated = sub.rotated(rules.new_secret(), T0, timedelta(hours=1))
    body = "{}"
    during = signed_headers("msg_1", datetime.now(UTC), body, rotated.secrets_signing(T0 + timedelta(minutes=59)))
    assert len(during["webhook-signature"].split(" ")) == 2
    for secret in (sub.secret, rotated.secret):
        Webhook(secret).verify(body, during)
    after = signed_headers("msg_1", datetime.now(UTC), body, rotated.secrets_signing(T0 + timedelta(hours=1)))
    Webhook(rotated.secret).verify(body, after)
    with pytest.raises(WebhookVerificationError):
        Webhook(sub.secret).verify(body, after)


def test_the_default_retry_schedule_spans_more_than_24_hours_then_gives_up():
    schedule = RetrySchedule.parse("5,300,1800,7200,18000,36000,36000")
    assert schedule.total_s >= 24 * 3600 and schedule.attempts == 8
    assert schedule.next_attempt(1, T0) == T0 + timedelta(seconds=5)
    assert schedule.next_attempt(2, T0) == T0 + timedelta(seconds=300)
    assert schedule.next_attempt(7, T0) == T0 + timedelta(seconds=36000)
    assert schedule.next_attempt(8, T0) is None
    with pytest.raises(ValueError):
        RetrySchedule.parse("5,soon")


def test_a_subscription_is_disabled_after_n_failed_attempts_in_a_row_and_a_success_resets_the_count():
    sub = _subscription()
    for _ in range(2):
        sub = sub.failed(T0, disable_after=3)
    assert sub.status == "active" and sub.failure_streak == 2
    assert sub.succeeded().failure_streak == 0
    disabled = sub.failed(T0, disable_after=3)
    assert disabled.status == "disabled" and disabled.disabled_at == T0
    assert disabled.notice and "3 failed attempts" in disabled.notice
    assert disabled.enabled().status == "active" and disabled.enabled().failure_streak == 0


def test_event_types_come_from_the_fixed_list():
    assert rules.checked_types(["game.finished", "round.paired", "game.finished"]) == ("game.finished", "round.paired")
    with pytest.raises(PartnerRuleError):
        rules.checked_types(["entry.accepted"])
    with pytest.raises(PartnerRuleError):
        rules.checked_types([])


def test_a_partner_sees_only_the_pairings_of_its_own_players_and_no_personal_data():
    paired = round_paired(
        pairing("p1", "a", "b", "app", None),
        pairing("p2", "c", "d", "other", "other"),
        pairing("p3", "e", "f", "other", "app"),
    )
    payload = {**paired.model_dump(mode="json"), "byes": [{"entrant_id": "z", "kind": "pairing", "points": 2}]}
    view = rules.partner_view("round.paired", payload, "app")
    assert view is not None and [p["pairing_id"] for p in view["pairings"]] == ["p1", "p3"]
    assert "byes" not in view and set(view) == set(VIEWS["round.paired"].model_fields)
    assert rules.partner_view("round.paired", payload, "third") is None
    completed = {
        "event_code": "E",
        "stage": "main",
        "section_id": "S",
        "name": "Open",
        "rules": {"rounds": 1, "ruleset": {"track": "free"}, "clock": {"base_s": 60}},
        "standings": [{"place": 1, "entrant_id": "a", "name": "A", "points": 1.0}],
        "entrants": [{"entrant_id": "a", "name": "A", "birth_date": "2000-01-01"}],
        "rounds_played": 1,
    }
    shown = rules.partner_view("section.completed", completed, "app")
    assert shown is not None and "entrants" not in shown
    # issue 27 finding 10: a standings row names its entrant by id, without name or attributes
    assert shown["standings"][0]["entrant_id"] == "a" and "name" not in shown["standings"][0]
    awards = {"event_code": "E", "stage": "main", "section_id": "S", "revision": 1}
    places = rules.partner_view("awards.published", {**awards, "places": [{"name": "A", "birth_date": "x"}]}, "app")
    assert places is not None and places["places"] == [{"name": "A"}]
    # issue 27 finding 1: the birth year, all that leaves registration, does not reach partners either
    squad = rules.partner_view("awards.published", {**awards, "squad": [{"name": "A", "birth_year": 2000}]}, "app")
    assert squad is not None and squad["squad"] == [{"name": "A"}]


def test_entry_decided_is_the_registering_partners_alone_and_names_no_one():
    """entry.accepted / entry.refused as entry.decided: the entry's partner sees the decision, the
    entry id and its own external ids; another partner, or anyone for a staff entry, nothing."""
    accepted = rules.decided_entry("entry.accepted", entry_accepted("e1", "app", {"p1": "u-1"}).model_dump(mode="json"))
    view = rules.partner_view("entry.decided", accepted, "app")
    assert view is not None
    assert (view["decision"], view["entry_id"], view["external_ids"]) == ("accepted", "e1", {"p1": "u-1"})
    assert not {"entrant", "name", "birth_date", "partner_id"} & set(view)
    assert rules.partner_view("entry.decided", accepted, "other") is None
    refused = rules.decided_entry("entry.refused", entry_refused("e2", "app").model_dump(mode="json"))
    shown = rules.partner_view("entry.decided", refused, "app")
    assert shown is not None and (shown["decision"], shown["reason"]) == ("refused", refused["reason"])
    assert "entrant_name" not in shown and rules.partner_view("entry.decided", refused, "other") is None
    staff = rules.decided_entry("entry.refused", entry_refused("e3", None).model_dump(mode="json"))
    assert rules.partner_view("entry.decided", staff, "app") is None
    # a refusal from a publisher before entry_id: the application id names the entry
    older = rules.decided_entry("entry.refused", {**refused, "entry_id": None, "application_id": "a9"})
    assert rules.partner_view("entry.decided", older, "app")["entry_id"] == "a9"
