"""Issue 29: every pairing route that admits arbiters names the action it takes, so staff are
authorised per event; a route added later without one fails here."""

from __future__ import annotations

from pairing_kit import sqlite_settings

from gomoku_shared.testing.route_guards import NOT_ABOUT_AN_EVENT, staff_routes
from pairing.bootstrap import build

#: what each staff route of the pairing service does (gomoku_shared.staff_roles.ACTIONS)
EXPECTED = {
    ("POST", "/v1/events/{event_code}/sections/{section_id}/rounds/{n}/results"): "results.enter",
    ("POST", "/v1/events/{event_code}/sections/{section_id}/ties/{tie_id}/decision"): "results.correct",
    ("POST", "/v1/events/{event_code}/sections/{section_id}/appeals"): "appeals.lodge",
    ("POST", "/v1/events/{event_code}/sections/{section_id}/appeals/{appeal_id}/decision"): "appeals.decide",
    ("GET", "/v1/events/{event_code}/sections/{section_id}/audit"): "event.read",
    ("GET", "/v1/events/{event_code}/appeals"): "event.read",
    ("PUT", "/v1/events/{event_code}/sections/{section_id}/rounds/{n}/pairings"): "rounds.pair",
    ("POST", "/v1/events/{event_code}/sections/{section_id}/rounds/{n}/publish"): "rounds.pair",
    ("POST", "/v1/events/{event_code}/sections/{section_id}/rounds/{n}/delay"): "rounds.pair",
    ("POST", "/v1/events/{event_code}/sections/{section_id}/byes"): "rounds.pair",
}


def test_issue29_no_pairing_route_admits_arbiters_without_an_action(tmp_path):
    """Issue 29: a route whose roles include arbiter (staff accounts, legacy arbiter keys) must
    name its action (``require(..., action=...)``); the main ones name the expected one."""
    app = build(sqlite_settings(tmp_path)).app
    staff = [(route, action) for route, action in staff_routes(app) if route not in NOT_ABOUT_AN_EVENT]
    assert len(staff) >= 16  # every write of the arbiter's and the staff reads
    assert [route for route, action in staff if action is None] == []
    actions = dict(staff)
    assert {route: actions.get(route) for route in EXPECTED} == EXPECTED
