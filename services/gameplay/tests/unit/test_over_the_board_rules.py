"""PLAY-9 / PLAY-10 as pure rules: the double entry of result slips and the engine's check of a
record entered after an over-the-board game (SZ final, NY, DA and NT are played at a venue;
NT 十二(五): every player records each game)."""

from __future__ import annotations

import pytest

from gameplay.domain.errors import GameConflict, InvalidAction
from gameplay.domain.live import Rules
from gameplay.domain.over_the_board import Slip, check_record, disagreement, judge_slip

PRO = Rules("professional")
FREE = Rules("free")
#: a professional opening (D1, N=1) and play up to black's turn, where i9 is a double three
PRO_MOVES = ["h8", "h9", "h10", "a1", "j8", "a3", "j10", "a5"]
PRO_OPENING = {"n": 1, "swapped": False, "offers": ["j8"]}
FIVE_FOR_BLACK = ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"]


def slip(idx: int, result: str, reason: str, by: str = "arb-1", status: str = "pending", confirms=None) -> Slip:
    return Slip(idx, result, reason, by, status, confirms)


# PLAY-9, NT 十二(五) / SZ final: results from result slips, a confirmation before they count
SLIP_CASES = [
    # (earlier slips, the new entry, confirmed, entry status, earlier slip's new status)
    ([], slip(1, "black", "five"), False, "pending", None),
    ([slip(1, "black", "five")], slip(2, "black", "five", "arb-2", confirms=1), True, "confirmed", "confirmed"),
    ([slip(1, "black", "five")], slip(2, "white", "five", "arb-2", confirms=1), False, "mismatch", "disputed"),
    ([slip(1, "black", "five")], slip(2, "black", "resignation", "arb-2", confirms=1), False, "mismatch", "disputed"),
    (
        [slip(1, "black", "five", status="disputed"), slip(2, "white", "five", status="mismatch", confirms=1)],
        slip(3, "white", "time"),
        False,
        "pending",
        None,
    ),
    ([slip(1, "draw", "agreement")], slip(2, "draw", "agreement", "arb-2", confirms=1), True, "confirmed", "confirmed"),
]


@pytest.mark.parametrize(("slips", "entry", "confirmed", "status", "earlier"), SLIP_CASES)
def test_play9_a_slip_counts_only_once_confirmed_and_a_mismatch_scores_nothing(
    slips, entry, confirmed, status, earlier
):
    """PLAY-9 (SZ final, NY, DA, NT at a venue): double entry — a confirmation repeating the slip
    confirms it (a second person: issue 29); a different one is a mismatch, nothing counts."""
    verdict = judge_slip(slips, entry)
    assert verdict.confirmed is confirmed
    assert verdict.entry.status == status
    assert (verdict.updated.status if verdict.updated else None) == earlier


@pytest.mark.parametrize(
    ("slips", "entry", "code"),
    [
        ([slip(1, "black", "five")], slip(2, "white", "five"), "slip_pending"),
        ([], slip(1, "black", "five", confirms=1), "no_such_pending_slip"),
        ([slip(1, "black", "five", status="confirmed")], slip(2, "black", "five"), "slip_confirmed"),
        ([slip(1, "black", "five", status="disputed")], slip(2, "black", "five", confirms=1), "no_such_pending_slip"),
    ],
)
def test_play9_slip_entries_out_of_order_are_refused(slips, entry, code):
    with pytest.raises(GameConflict) as refused:
        judge_slip(slips, entry)
    assert refused.value.code == code


@pytest.mark.parametrize(
    ("pending", "confirmation"),
    [
        (slip(1, "black", "five", "arbiter:-:k1"), slip(2, "black", "five", "arbiter:-:k1", confirms=1)),
        # a mismatching confirmation by the same person is refused too (nothing is stored)
        (slip(1, "black", "five", "arbiter:-:k1"), slip(2, "white", "five", "arbiter:-:k1", confirms=1)),
        # a slip entered before staff accounts (no stable id stored) and the same key now
        (
            slip(1, "black", "five", "arbiter:-:k1"),
            Slip(2, "black", "five", "arbiter:-:k1", "pending", 1, "k1", "k1"),
        ),
        # the same person with their account
        (
            Slip(1, "black", "five", "arbiter:-:acct:7", "pending", None, "acct:7", "Li Lei"),
            Slip(2, "black", "five", "arbiter:-:acct:7", "pending", 1, "acct:7", "Li Lei"),
        ),
    ],
)
def test_issue_29_a_slip_is_confirmed_by_another_person_than_its_entry(pending, confirmation):
    """Issue 29, "a slip's confirmation must come from a different person than its entry":
    409 ``same_person_confirms`` with the words in Chinese and English."""
    with pytest.raises(GameConflict) as refused:
        judge_slip([pending], confirmation)
    assert refused.value.code == "same_person_confirms" and refused.value.kind == "conflict"
    assert set(refused.value.details["words"]) == {"zh", "en"} and refused.value.details["slip"] == 1


def test_play9_a_retried_first_entry_changes_nothing():
    verdict = judge_slip([slip(1, "black", "five")], slip(2, "black", "five"))
    assert verdict.repeat and verdict.entry.idx == 1 and not verdict.confirmed


@pytest.mark.parametrize(("result", "reason"), [("draw", "five"), ("double_forfeit", "resignation"), ("x", "five")])
def test_play9_a_slip_result_and_reason_fit_together(result, reason):
    with pytest.raises(InvalidAction):
        judge_slip([], slip(1, result, reason))


# PLAY-9 with PLAY-2 / PLAY-3 (professional rules, NT 十二(五)): the record is checked by the engine
RECORD_CASES = [
    # (rules, moves, opening, flag code or None, flagged ply)
    (PRO, PRO_MOVES, PRO_OPENING, None, None),
    (PRO, [*PRO_MOVES, "i9"], PRO_OPENING, "forbidden", 9),  # black's double three
    (PRO, ["h8", "h9", "l12", "a1"], {"n": 1}, "illegal_opening", 3),  # not one of the 26
    (PRO, ["g7", "h9", "h10"], {"n": 1}, "illegal_opening", 3),  # black 1 not on h8
    (PRO, PRO_MOVES, {"n": 2, "offers": ["j8"]}, "illegal_opening", 5),  # N=2 but one offer
    (PRO, PRO_MOVES, {"n": 1, "offers": ["k11"]}, "illegal_opening", 5),  # move 5 was not offered
    (PRO, ["h8", "h9", "h10"], None, "illegal_opening", 3),  # N not declared
    (FREE, FIVE_FOR_BLACK, None, None, None),
    (FREE, [*FIVE_FOR_BLACK, "a5"], None, "after_end", 10),  # a move after five in a row
    (FREE, ["h8", "h8"], None, "occupied", 2),
]


@pytest.mark.parametrize(("rules", "moves", "opening", "code", "ply"), RECORD_CASES)
def test_play9_a_record_is_replayed_by_the_engine_and_the_first_refused_step_flagged(rules, moves, opening, code, ply):
    """PLAY-9 (NT 十二(五)): an illegal opening, black's forbidden move or a move after the end is
    flagged with its ply and reason — never accepted, never dropped."""
    check = check_record(rules, "alice", "bob", moves, opening)
    if code is None:
        assert not check.flagged
        return
    [flag] = check.flags
    assert (flag.code, flag.ply) == (code, ply)
    assert flag.reason


def test_play9_a_valid_record_that_contradicts_the_confirmed_slip_is_flagged():
    check = check_record(FREE, "alice", "bob", FIVE_FOR_BLACK, None)
    assert (check.result, check.reason) == ("black", "five")
    assert disagreement(check, "black", "five") is None
    flag = disagreement(check, "white", "resignation")
    assert flag is not None and flag.code == "slip_disagrees"
