"""Issue 29: who may take which staff action in an event (``gomoku_shared.event_access``), as a
table — every role of ``staff_roles`` against every action of ``ACTIONS``, held in the event's
organisation, in the event only, or in another organisation; arbiters' API keys of the time before
staff accounts (their own organisation only); the operator's keys (every event); partner apps
chosen per event. Each refusal is a 403 whose words say why in Chinese and English."""

from __future__ import annotations

import itertools

import pytest

from gomoku_shared.auth import Principal
from gomoku_shared.errors import ServiceError
from gomoku_shared.event_access import EventAccess, authorize, check_partner, held_roles
from gomoku_shared.staff_roles import (
    ACTIONS,
    DEFAULT_ORGANISATION,
    EVENT_ROLES,
    LEGACY_ARBITER_KEY_ROLES,
    STAFF_ROLES,
    action_words,
    role_words,
)
from gomoku_shared.tokens import PersonClaims

OURS = EventAccess("ev-a", "org-a")
THEIRS = EventAccess("ev-b", "org-b")
TABLE = list(itertools.product(STAFF_ROLES, sorted(ACTIONS)))


def person(*, orgs: dict[str, set[str]] | None = None, events: dict[str, set[str]] | None = None) -> Principal:
    claims = PersonClaims(
        account_id="a-1",
        name="王芳",
        orgs={k: frozenset(v) for k, v in (orgs or {}).items()},
        events={k: frozenset(v) for k, v in (events or {}).items()},
    )
    return Principal("arbiter", None, key_id="acct:a-1", client_id="acct:a-1", person=claims)


def arbiter_key(organisation: str | None) -> Principal:
    return Principal("arbiter", None, key_id="k2", organisation=organisation)


OPERATOR = Principal("operator", None, key_id="k1")


def refusal(principal: Principal, action: str, access: EventAccess) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        authorize(principal, action, access)
    error = caught.value
    assert error.status == 403
    assert error.details["words"]["zh"] and error.details["words"]["en"]
    assert error.details["action"] == action
    return error


@pytest.mark.parametrize(("role", "action"), TABLE)
def test_issue29_a_role_held_in_the_organisation_allows_exactly_its_actions(role, action):
    """Issue 29, the table: a person holding ``role`` in the event's organisation may take the
    action iff the table lists the role for it; otherwise 403 role_not_held naming the roles needed
    and held, in Chinese and English."""
    who = person(orgs={"org-a": {role}})
    assert held_roles(who, OURS) == {role}
    needed = ACTIONS[action][0]
    if role in needed:
        assert authorize(who, action, OURS) == {role}
        return
    error = refusal(who, action, OURS)
    assert error.code == "role_not_held"
    assert error.details["needs"] == sorted(needed) and error.details["holds"] == [role]
    words = error.details["words"]
    assert action_words(action, "zh") in words["zh"] and role_words(needed, "zh") in words["zh"]
    assert action_words(action, "en") in words["en"] and role_words({role}, "en") in words["en"]


@pytest.mark.parametrize(("role", "action"), TABLE)
def test_issue29_a_role_held_in_one_event_counts_there_only(role, action):
    """Issue 29: a role held in the event itself counts as one of its organisation's; in another
    event of the same organisation the person holds nothing (not_your_event)."""
    who = person(events={"ev-a": {role}})
    assert held_roles(who, OURS) == {role}
    if role in ACTIONS[action][0]:
        assert authorize(who, action, OURS) == {role}
    else:
        assert refusal(who, action, OURS).code == "role_not_held"
    assert held_roles(who, EventAccess("ev-a2", "org-a")) == frozenset()
    assert refusal(who, action, EventAccess("ev-a2", "org-a")).code == "not_your_event"


@pytest.mark.parametrize(("role", "action"), TABLE)
def test_issue29_another_organisations_role_holds_nothing(role, action):
    """Issue 29: a role in organisation A (or in A's event) gives nothing in B's event: 403
    not_your_event, with words."""
    who = person(orgs={"org-a": {role}}, events={"ev-a": {role}})
    assert held_roles(who, THEIRS) == frozenset()
    error = refusal(who, action, THEIRS)
    assert error.code == "not_your_event"
    assert "其他组织" in error.details["words"]["zh"] and "another organisation" in error.details["words"]["en"]


def test_issue29_roles_from_the_organisation_and_the_event_add_up():
    """Issue 29: a fee clerk of A who is chief arbiter in one of A's events holds both there."""
    who = person(orgs={"org-a": {"fee_clerk"}}, events={"ev-a": {"chief_arbiter"}})
    assert held_roles(who, OURS) == {"fee_clerk", "chief_arbiter"}
    assert authorize(who, "ledger.record", OURS) and authorize(who, "results.correct", OURS)
    assert refusal(who, "appeals.decide", OURS).details["holds"] == ["chief_arbiter", "fee_clerk"]
    assert held_roles(who, EventAccess("ev-a2", "org-a")) == {"fee_clerk"}


@pytest.mark.parametrize("action", sorted(ACTIONS))
def test_issue29_an_arbiter_key_holds_every_event_role_in_its_own_organisation(action):
    """Issue 29, keys from before staff accounts: ``key=arbiter:<org>`` holds every event role (not
    the administrator's) in its organisation's events and nothing elsewhere; without an
    organisation it is the default organisation's."""
    needed = ACTIONS[action][0]
    ours = arbiter_key("org-a")
    assert held_roles(ours, OURS) == LEGACY_ARBITER_KEY_ROLES == frozenset(EVENT_ROLES)
    if needed & LEGACY_ARBITER_KEY_ROLES:
        assert authorize(ours, action, OURS) == LEGACY_ARBITER_KEY_ROLES
    else:
        assert refusal(ours, action, OURS).code == "role_not_held"
    assert refusal(ours, action, THEIRS).code == "not_your_event"
    unnamed = arbiter_key(None)
    old_event = EventAccess("old", DEFAULT_ORGANISATION)
    assert held_roles(unnamed, old_event) == LEGACY_ARBITER_KEY_ROLES
    assert refusal(unnamed, action, OURS).code == "not_your_event"


@pytest.mark.parametrize("action", sorted(ACTIONS))
def test_issue29_the_operators_key_takes_every_action_in_every_event(action):
    """Issue 29: the platform operator's keys hold every role in every organisation's events."""
    for access in (OURS, THEIRS, EventAccess("old")):
        assert held_roles(OPERATOR, access) == frozenset(STAFF_ROLES)
        assert authorize(OPERATOR, action, access) == frozenset(STAFF_ROLES)


@pytest.mark.parametrize("role", ["partner", "viewer"])
def test_issue29_partner_and_viewer_credentials_hold_no_staff_role(role):
    """Issue 29: a partner's or the viewer's credential holds no staff role anywhere."""
    who = Principal(role, "partner-1" if role == "partner" else None, key_id="k3")
    assert held_roles(who, OURS) == frozenset()
    assert refusal(who, "event.read", OURS).code == "not_your_event"


def test_issue29_only_the_chosen_partner_apps_act_in_an_event():
    """Issue 29, partner apps per event: none chosen (null) lets every partner in; a list lets in
    those it names (403 partner_not_chosen, in words, for the others, and for a partner credential
    without a partner id); staff are not partner apps and pass."""
    p1, p2 = (Principal("partner", f"partner-{n}", key_id=f"k{n}") for n in (1, 2))
    check_partner(p1, OURS)
    chosen = EventAccess("ev-a", "org-a", frozenset({"partner-2"}))
    check_partner(p2, chosen)
    for who in (p1, Principal("partner", None, key_id="k9")):
        with pytest.raises(ServiceError) as caught:
            check_partner(who, chosen)
        assert caught.value.status == 403 and caught.value.code == "partner_not_chosen"
        assert caught.value.details["words"]["zh"] and caught.value.details["words"]["en"]
    closed = EventAccess("ev-a", "org-a", frozenset())
    for staff in (OPERATOR, arbiter_key("org-a"), person(orgs={"org-a": {"organiser"}})):
        check_partner(staff, closed)
