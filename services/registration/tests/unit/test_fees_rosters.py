"""REG-14 for a delegation with a roster (issue 34, DA 十一(一)): what its entries owe is each
person's nights at the rate of that person's room, not the event's fixed days in one room; the
leader's and coaches' lodging goes with the delegation's first entry; the shuttle (DA 十二) is
charged but never decides validity."""

from __future__ import annotations

import pytest
from registration_kit import cst

from gomoku_shared.event_config import EventConfig
from registration import presets
from registration.domain import Entry, EntryStatus, RegistrationError
from registration.domain.fees import (
    Announcement,
    FeeNotices,
    LedgerLine,
    check_line,
    delegation_fees,
    fee_deadline,
    fee_statuses,
    invalid_for_fees,
)
from registration.domain.rosters import Booking, charges, total_fen

STANDARD, SINGLE, SHUTTLE = 36_000, 52_000, 4_500  # DA 十一(一) 360元/520元 per person per day, 十二 45元


@pytest.fixture(scope="module")
def da() -> EventConfig:
    return presets.load("da-2023")


def entry(
    n: int, people: tuple[str, ...], *, section: str = "open", status: EntryStatus = EntryStatus.ACCEPTED
) -> Entry:
    return Entry(
        id=f"da23:e{n}",
        event_id="da23",
        section_id=section,
        person_ids=people,
        unit_id="hk",
        status=status,
        received_at=None,
    )


def unit_pays(fen: int, item: str = "lodging-standard", *, n: int = 1, at=None) -> LedgerLine:
    return LedgerLine(f"l{n}", "payment", item, fen, at or cst(2023, 8, 10), None, "hk")


#: a delegation of mixed rooms and nights: the leader in a single room 3 nights with one shuttle
#: trip, player A standard 4 nights and two trips, player B single 2 nights, player C local (no room)
ROSTER = [
    Booking("王领队", "leader", "single", 3, {"shuttle": 1}),
    Booking("陈一", "player", "standard", 4, {"shuttle": 2}, person_id="pa"),
    Booking("陈二", "player", "single", 2, {}, person_id="pb"),
    Booking("陈三", "player", None, 0, {}, person_id="pc"),
]
FIRST_DUE = 3 * SINGLE + 4 * STANDARD  # the leader's lodging goes with the first entry
SECOND_DUE = 2 * SINGLE
SERVICES = 3 * SHUTTLE


def test_reg14_da_11_1_each_person_owes_their_room_times_their_nights(da):
    """DA 十一(一): 标准间360元/人/天, 单间520元/人/天 — per person at their own room and nights; a
    local player booking no room owes nothing for lodging (not the event's 4 days)."""
    a, b, c = entry(1, ("pa",)), entry(2, ("pb",)), entry(3, ("pc",))
    status = fee_statuses(da, [a, b, c], [], by=fee_deadline(da), rosters={"hk": ROSTER})
    assert {i.item: i.due_fen for i in status[a.id].items} == {
        "lodging-single": 3 * SINGLE,
        "lodging-standard": 4 * STANDARD,
    }
    assert status[b.id].due_fen == SECOND_DUE
    assert status[c.id].items == () and status[c.id].complete
    # without the roster the old rule: 4 days in the default room per person
    assert fee_statuses(da, [a], [], by=fee_deadline(da))[a.id].due_fen == 4 * STANDARD


def test_reg14_da_10_1_3_a_unit_paying_the_roster_less_one_fen_leaves_its_last_entry_invalid(da):
    """DA 十(一)3 (以收到参赛报名材料和食宿费为准): the unit's money covers its entries in order;
    one fen short of the roster's lodging, the second entry is invalid and not paired."""
    a, b = entry(1, ("pa",)), entry(2, ("pb",))
    short = [unit_pays(FIRST_DUE + SECOND_DUE - 1)]
    refused = invalid_for_fees(da, [a, b], short, rosters={"hk": ROSTER})
    assert [e.id for e, _ in refused] == [b.id]
    assert "lodging-single: 103999 of 104000 fen" in refused[0][1].reason
    full = [unit_pays(FIRST_DUE + SECOND_DUE)]
    assert invalid_for_fees(da, [a, b], full, rosters={"hk": ROSTER}) == []


def test_reg14_da_12_shuttle_money_is_recorded_but_pays_no_lodging(da):
    """DA 十二: the shuttle is paid through the ledger under its own item; it is never lodging
    money, and not paying it never makes an entry invalid."""
    check_line(
        da, kind="payment", item="shuttle", amount_fen=SERVICES, received_at=cst(2023, 8, 9), now=cst(2023, 8, 9)
    )
    with pytest.raises(RegistrationError, match="shuttle"):
        check_line(da, kind="payment", item="bus", amount_fen=1, received_at=cst(2023, 8, 9), now=cst(2023, 8, 9))
    a, b = entry(1, ("pa",)), entry(2, ("pb",))
    only_shuttle = [unit_pays(FIRST_DUE + SECOND_DUE, "shuttle")]
    assert len(invalid_for_fees(da, [a, b], only_shuttle, rosters={"hk": ROSTER})) == 2
    lodging_only = [unit_pays(FIRST_DUE + SECOND_DUE)]
    assert invalid_for_fees(da, [a, b], lodging_only, rosters={"hk": ROSTER}) == []


def test_a_player_in_two_entries_is_charged_once_and_a_withdrawn_entry_owes_nothing(da):
    """A player entered twice (two sections) pays one stay; the leader's lodging moves to the first
    entry still holding a place when the first one was withdrawn."""
    gone = entry(1, ("pb",), status=EntryStatus.WITHDRAWN)
    a, again = entry(2, ("pa",)), entry(3, ("pa",))
    status = fee_statuses(da, [gone, a, again], [], by=fee_deadline(da), rosters={"hk": ROSTER[:2]})
    assert status[gone.id].items == () and status[again.id].items == ()
    assert status[a.id].due_fen == FIRST_DUE


def test_the_delegations_figure_is_its_entries_dues_plus_services_and_matches_the_roster(da):
    """One figure: the ledger's sum for the delegation equals the roster's own charges (lodging at
    each person's room and nights, and the shuttle), and the money counted is its unit's and entries'."""
    a, b, c = entry(1, ("pa",)), entry(2, ("pb",)), entry(3, ("pc",))
    lines = [unit_pays(50_000), LedgerLine("l2", "payment", "shuttle", SHUTTLE, cst(2023, 8, 9), b.id, None)]
    by = fee_deadline(da)
    statuses = fee_statuses(da, [a, b, c], lines, by=by, rosters={"hk": ROSTER})
    figure = delegation_fees(da, "hk", [a, b, c], statuses, lines, ROSTER, by=by)
    rates = {i.id: i.amount_fen for i in da.fees.items}
    assert figure.due_fen == total_fen(charges(da, ROSTER, rates)) == FIRST_DUE + SECOND_DUE + SERVICES
    assert (figure.entries_due_fen, figure.services_fen) == (FIRST_DUE + SECOND_DUE, SERVICES)
    assert figure.paid_fen == 50_000 + SHUTTLE and not figure.complete


def test_reg14_a_rate_announced_later_prices_the_rostered_nights(da):
    """NY/NT 另行通知: before the announcement a rostered stay has no amount (the clerk confirms);
    after it, the stay is the announced rate times the nights booked."""
    nt = presets.load("nt-2023")
    roster = [Booking("领队", "leader", "standard", 2, {}), Booking("甲", "player", "standard", 3, {}, person_id="pa")]
    a = entry(1, ("pa",), section="mixed-team")
    before = fee_statuses(nt, [a], [], by=cst(2023, 6, 1), rosters={"hk": roster})
    assert before[a.id].due_fen is None
    notices = FeeNotices((Announcement("lodging", 30_000, cst(2023, 6, 2), 1),))
    after = fee_statuses(nt, [a], [], by=cst(2023, 6, 3), notices=notices, rosters={"hk": roster})
    assert after[a.id].due_fen == 5 * 30_000
