"""PLAY-2: the designated-opening procedure (swap after three, N fifth-move offers) and the
professional game it leads into."""

from __future__ import annotations

import pytest

from gameplay.engine import (
    Colour,
    IllegalAction,
    OpeningConfig,
    OpeningProtocol,
    Phase,
    Reason,
    RuleSet,
    from_notation,
    reference,
)
from gameplay.engine.errors import CONFLICT_CODES, INPUT_CODES

P = from_notation


def new(n_fixed=None, **cfg):
    return OpeningProtocol(OpeningConfig(fixed_n=n_fixed, **cfg), RuleSet.professional(), reference)


def through_move4(swap: str = "white", n: int = 2, opening=("h8", "h9", "i9")):
    proto = new()
    proto.place_opening("first", list(opening), n=n)
    proto.choose_colour("second", swap)
    proto.play(proto.white_player, "g7")
    return proto


def refused(code, fn, *args, **kwargs):
    with pytest.raises(IllegalAction) as info:
        fn(*args, **kwargs)
    assert info.value.code == code, info.value
    assert info.value.message
    assert code in CONFLICT_CODES | INPUT_CODES  # every code is classified for the service edge
    return info.value


def test_play2_full_procedure_without_swap():
    """PLAY-2: opening + N, no swap, move 4, N offers, white chooses move 5 and plays move 6."""
    proto = new()
    assert (proto.phase, proto.expected_player) == (Phase.OPENING, "first")
    opening = proto.place_opening("first", ["h8", "h9", "j10"], n=3)
    assert (opening.code, proto.n) == ("D3", 3)
    assert (proto.phase, proto.expected_player) == (Phase.SWAP, "second")
    assert proto.choose_colour("second", "white") == "first"
    assert proto.swapped is False
    assert (proto.phase, proto.expected_player) == (Phase.MOVE4, "second")
    proto.play("second", "i9")
    assert (proto.phase, proto.expected_player) == (Phase.OFFERS, "first")
    offers = proto.offer_fifth("first", ["g7", "k8", "a1"])
    assert len(offers) == 3
    assert (proto.phase, proto.expected_player) == (Phase.CHOOSE, "second")
    action = proto.choose_fifth("second", "k8")
    assert (action.ply, action.colour, action.point) == (5, Colour.BLACK, P("k8"))
    assert proto.game.stone_at(P("g7")) is None  # the other offers vanish
    assert (proto.phase, proto.expected_player) == (Phase.MOVE6, "second")
    proto.play("second", "g9")
    assert proto.phase is Phase.PLAY and proto.opening_complete
    assert proto.expected_player == "first"
    assert [a.notation for a in proto.game.history] == ["h8", "h9", "j10", "i9", "k8", "g9"]


def test_play2_swap_gives_second_player_black():
    """PLAY-2: after the swap the second player holds black and makes the offers; the first
    player (now white) plays move 4, chooses move 5 and plays move 6."""
    proto = new()
    proto.place_opening("first", ["h8", "i9", "j8"], n=2)
    assert proto.choose_colour("second", "black") == "second"
    assert proto.swapped is True and proto.black_player == "second" and proto.white_player == "first"
    refused("not_your_turn", proto.play, "second", "g7")
    proto.play("first", "g7")
    refused("not_your_turn", proto.offer_fifth, "first", ["a1", "k10"])
    proto.offer_fifth("second", ["a1", "k10"])
    proto.choose_fifth("first", "a1")
    proto.play("first", "g9")
    assert proto.colour_of("second") is Colour.BLACK
    assert proto.expected_player == "second"


def test_play2_swap_only_once():
    """PLAY-2: the swap after three is the only swap point -- a second swap is refused."""
    proto = through_move4(swap="black")
    refused("swap_used", proto.choose_colour, "second", "white")
    refused("swap_used", proto.choose_colour, "first", "black")
    assert proto.black_player == "second"


def test_play2_swap_needs_a_colour_and_the_right_player():
    """PLAY-2: only the second player decides the swap, with black or white."""
    proto = new()
    refused("wrong_phase", proto.choose_colour, "second", "black")  # no opening yet
    proto.place_opening("first", ["h8", "h9", "h10"], n=1)
    refused("not_your_turn", proto.choose_colour, "first", "black")
    refused("swap_choice", proto.choose_colour, "second", "red")
    refused("bad_player", proto.choose_colour, "third", "black")


@pytest.mark.parametrize(
    "stones,code",
    [
        (["g8", "h9", "i9"], "not_centre"),
        (["h8", "h10", "i9"], "not_an_opening"),
        (["h8", "h9", "l12"], "not_an_opening"),
        (["h8", "h9"], "not_an_opening"),
        (["h8", "h9", "z9"], "off_board"),
    ],
)
def test_play2_opening_must_be_designated(stones, code):
    """PLAY-2: black 1 on h8, and moves 2-3 forming one of the 26 openings; else refused."""
    proto = new()
    refused(code, proto.place_opening, "first", stones, n=2)
    assert proto.phase is Phase.OPENING and not proto.game.history


def test_play2_only_first_player_lays_out_the_opening():
    """PLAY-2: the tentative black lays out the opening."""
    refused("not_your_turn", new().place_opening, "second", ["h8", "h9", "i9"], n=2)


def test_play2_n_declared_with_the_opening():
    """PLAY-2: N is declared in the same act, within the section's range."""
    refused("n_required", new().place_opening, "first", ["h8", "h9", "i9"])
    refused("n_out_of_range", new().place_opening, "first", ["h8", "h9", "i9"], n=0)
    refused("n_out_of_range", new(max_n=4).place_opening, "first", ["h8", "h9", "i9"], n=5)


def test_play2_section_fixes_n():
    """PLAY-2: a section may fix N (junior N = 2, 五手两打): N may be omitted but not changed."""
    proto = new(n_fixed=2)
    refused("n_fixed", proto.place_opening, "first", ["h8", "h9", "i9"], n=3)
    proto.place_opening("first", ["h8", "h9", "i9"])
    assert proto.n == 2


@pytest.mark.parametrize(
    "offers,code",
    [
        (["a1"], "offer_count"),
        (["a1", "b2", "c3"], "offer_count"),
        (["a1", "a1"], "offer_duplicate"),
        (["h8", "a1"], "offer_occupied"),
        (["g7", "a1"], "offer_occupied"),  # move 4
        (["a1", "p1"], "offer_off_board"),
    ],
)
def test_play2_invalid_offer_sets_refused(offers, code):
    """PLAY-2: black must offer exactly N distinct empty points; otherwise refused and black
    stays to move."""
    proto = through_move4(n=2)
    refused(code, proto.offer_fifth, "first", offers)
    assert proto.phase is Phase.OFFERS and proto.expected_player == "first"


def symmetric_position(opening, move4):
    """Protocol at the offers phase with black 1, white 2, black 3 and white 4 given."""
    proto = new()
    proto.place_opening("first", list(opening), n=2)
    proto.choose_colour("second", "white")
    proto.play("second", move4)
    return proto


def test_play2_rotation_or_reflection_equivalent_offers_refused():
    """PLAY-2: D4 Kagetsu h8 h9 i9 with white 4 on i8 is symmetric about the diagonal through
    h8 and i9; offers mirrored in it are equivalent."""
    proto = symmetric_position(("h8", "h9", "i9"), "i8")
    err = refused("offers_equivalent", proto.offer_fifth, "first", ["g9", "i7"])
    assert set(err.details["points"]) == {P("g9"), P("i7")}
    proto.offer_fifth("first", ["g9", "g7"])  # not mirror images: accepted


def test_play2_translation_equivalent_offers_refused():
    """PLAY-2 decision: congruence allows translation (board edge ignored). D6 Ugetsu h8 h9 i8
    with white 4 on i9 is symmetric about the line between columns h and i -- a reflection
    that does not fix h8 -- so g8 and j8 give congruent positions."""
    proto = symmetric_position(("h8", "h9", "i8"), "i9")
    refused("offers_equivalent", proto.offer_fifth, "first", ["g8", "j8"])
    refused("offers_equivalent", proto.offer_fifth, "first", ["h6", "i6"])
    proto.offer_fifth("first", ["g8", "k8"])


def test_play2_equivalence_matches_independent_oracle():
    """PLAY-2: offer equivalence agrees with the renju package's symmetric-candidate grouping."""
    from renju import RenjuBoard

    from gameplay.engine import offer_key

    cases = [(("h8", "h9", "i9"), "i8"), (("h8", "h9", "i8"), "i9"), (("h8", "i9", "j10"), "g7")]
    for opening, move4 in cases:
        moves = [P(m) for m in (*opening, move4)]
        board = RenjuBoard(moves=[list(m) for m in moves])
        empty = [(x, y) for x in range(15) for y in range(15) if (x, y) not in moves]
        _, groups = board.find_symmetric_candidates(empty)
        black, white = [moves[0], moves[2]], [moves[1], moves[3]]
        ours = {}
        for p in empty:
            ours.setdefault(offer_key(black, white, p), set()).add(p)
        assert sorted(map(sorted, ours.values())) == sorted(map(sorted, groups))


def test_play2_choice_must_be_an_offer():
    """PLAY-2: white chooses one of black's offers as move 5."""
    proto = through_move4(n=2)
    proto.offer_fifth("first", ["a1", "k10"])
    refused("not_your_turn", proto.choose_fifth, "first", "a1")
    refused("not_an_offer", proto.choose_fifth, "second", "b2")
    proto.choose_fifth("second", "k10")
    assert proto.chosen == P("k10")


def test_play2_steps_out_of_order_refused():
    """PLAY-2: every step in its phase only."""
    proto = new()
    refused("wrong_phase", proto.play, "first", "h8")
    refused("wrong_phase", proto.offer_fifth, "first", ["a1"])
    proto.place_opening("first", ["h8", "h9", "i9"], n=1)
    refused("wrong_phase", proto.play, "second", "a1")
    refused("wrong_phase", proto.choose_fifth, "second", "a1")


def test_play2_no_pass_before_opening_complete():
    """PLAY-2/PLAY-4: no pass before the opening is complete; passes allowed afterwards and two
    in succession draw."""
    proto = through_move4(n=1)
    refused("pass_not_allowed", proto.pass_, "first")
    proto.offer_fifth("first", ["k10"])
    proto.choose_fifth("second", "k10")
    refused("pass_not_allowed", proto.pass_, "second")
    proto.play("second", "a1")
    proto.pass_("first")
    proto.pass_("second")
    assert proto.result.reason is Reason.DRAW_PASSES and proto.phase is Phase.OVER


def test_play3_forbidden_move_after_opening_loses_for_black_player():
    """PLAY-3: in the professional game a forbidden black move loses; the move stays in the
    game with its foul, and the result maps back to the players (after the swap the second
    player holds black)."""
    proto = new()
    proto.place_opening("first", ["h8", "h9", "h10"], n=1)  # D1 Kansei
    proto.choose_colour("second", "black")
    proto.play("first", "a1")
    proto.offer_fifth("second", ["i10"])
    proto.choose_fifth("first", "i10")
    proto.play("first", "a3")
    for black, white in [("j11", "a5"), ("j12", "a7")]:
        proto.play("second", black)
        proto.play("first", white)
    action = proto.play("second", "j10")  # open threes h10 i10 j10 and j10 j11 j12
    assert action.foul == "double_three"
    assert proto.result.reason is Reason.FORBIDDEN and proto.result.foul == "double_three"
    assert proto.winner_player() == "first"
    assert proto.game.history[-1].point == P("j10")


def test_play4_resignation_and_time_map_to_players():
    """PLAY-4: endings name the player who lost."""
    proto = through_move4(swap="black")
    proto.resign("first")  # first holds white
    assert proto.result.winner is Colour.BLACK and proto.winner_player() == "second"
    refused("game_over", proto.offer_fifth, "second", ["a1", "k10"])
    proto2 = through_move4(swap="white")
    proto2.time_forfeit("first")
    assert proto2.result.reason is Reason.TIME_FORFEIT and proto2.winner_player() == "second"


def test_play2_offer_key_invariant_under_congruence():
    """PLAY-2 decision: moving the whole position by any rotation/reflection and translation
    leaves each offer's equivalence class unchanged."""
    from gameplay.engine import offer_key, transform

    black, white = [P("h8"), P("j10")], [P("i9"), P("g7")]
    offer = P("k8")
    base = offer_key(black, white, offer)
    for k in range(8):
        for shift in [(0, 0), (3, -2), (-5, 4)]:

            def move(p):
                q = transform(p, k)
                return (q[0] + shift[0], q[1] + shift[1])

            assert offer_key([move(p) for p in black], [move(p) for p in white], move(offer)) == base
    assert offer_key(black, white, P("k9")) != base
