"""Issue 29: every staff route of the gameplay service names its action, so a route added later
cannot forget to authorise per event. The app's routes are walked: a route whose credential
check admits arbiters and is closed to partners and viewers (a staff route) must carry the
``action`` ``gomoku_shared.auth.require`` records on its dependency. The routes open to partner
apps or viewers as well (public reads, the players' actions) carry none: a staff account is
refused on them (403 ``staff_account_not_allowed``) and an arbiter's key reads or acts there
as before."""

from __future__ import annotations

from fastapi.routing import iter_route_contexts

from gomoku_shared.staff_roles import ACTIONS

#: the actions the gameplay routes take (the brief of issue 29)
EXPECTED = {
    ("POST", "/v1/games/{game_id}/slips"): "slips.enter",  # confirming checks slips.confirm inside
    ("POST", "/v1/games/{game_id}/record-entries"): "games.record",
    ("POST", "/v1/games/{game_id}/recorder"): "games.record",
    ("POST", "/v1/games/{game_id}/record-entries/{entry}/accept"): "games.adjudicate",
    ("POST", "/v1/games/{game_id}/early-start"): "games.adjudicate",
    ("POST", "/v1/games/{game_id}/adjudicate"): "games.adjudicate",
    ("POST", "/v1/games/{game_id}/add-time"): "games.adjudicate",
    ("GET", "/v1/games/{game_id}/early-start"): "event.read",
    ("GET", "/v1/events/{event_code}/record-flags"): "event.read",
}


def _checks(dependant) -> list:
    """Every credential check (a ``require`` dependency) under a route's dependant."""
    found = []
    for sub in dependant.dependencies:
        if hasattr(sub.call, "required_roles"):
            found.append(sub.call)
        found.extend(_checks(sub))
    return found


def _routes(app):
    for route in iter_route_contexts(app.routes):
        dependant = getattr(route, "dependant", None)
        if dependant is not None:
            for method in sorted(route.methods or ()):
                yield method, route.path_format, _checks(dependant)


def test_issue_29_every_route_that_admits_arbiters_names_its_action(gp):
    """Issue 29: "a test that walks the app's routes and fails if a route admits arbiters
    without an action"."""
    forgot, actions, open_routes = [], {}, []
    for method, path, checks in _routes(gp.service.app):
        for check in checks:
            roles = set(check.required_roles)
            if roles and "arbiter" not in roles:
                continue  # the operator's routes: no staff account or arbiter key passes
            if check.required_action is not None:
                assert check.required_action in ACTIONS, (method, path)
                actions[(method, path)] = check.required_action
            elif not roles or {"partner", "viewer"} & roles:
                open_routes.append((method, path))  # public reads and players' actions
            else:
                forgot.append((method, path))
    assert forgot == [], f"staff routes without an action (require(..., action=...)): {forgot}"
    assert actions == EXPECTED
    assert ("POST", "/v1/games/{game_id}/move") in open_routes and ("GET", "/v1/games/{game_id}") in open_routes


async def test_issue_29_a_staff_route_refuses_a_staff_account_without_an_action(gp):
    """Issue 29: on the routes for partner apps and the operator (no action named), a staff
    account gets 403 ``staff_account_not_allowed`` with the words in Chinese and English."""
    from gomoku_shared.testing.people import StaffTokens

    people = StaffTokens()
    people.install(gp.service.app.state.keyring)
    token = people.token("Li Lei", orgs={"default": ["chief_arbiter"]}, issued_at=gp.clock.now().timestamp())
    answer = await gp.api.post("/v1/ops/sweep", headers={"authorization": f"Bearer {token}"})
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "staff_account_not_allowed", answer.text
    assert set(answer.json()["error"]["details"]["words"]) == {"zh", "en"}
