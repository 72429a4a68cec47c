"""Game state under both tracks: PLAY-1 free rules, PLAY-3 professional fouls, PLAY-4 endings."""

from __future__ import annotations

import pytest

from gameplay.engine import Colour, Game, IllegalAction, Reason, RuleSet, from_notation, parse_moves, reference

P = from_notation
FAR_WHITE = ["a1", "a3", "a5", "a7", "a9", "a11", "a13", "a15", "c1", "c3"]


def play_black_line(game: Game, blacks: list[str]):
    """Alternate the given black moves with far-away white moves; returns the last action."""
    action = None
    for i, b in enumerate(blacks):
        action = game.play(P(b))
        if game.is_over or i == len(blacks) - 1:
            break
        game.play(P(FAR_WHITE[i]))
    return action


FREE_CASES = [
    # (case, rules, black stones in order, expected winner or None)
    ("five wins", RuleSet.free(), ["d8", "e8", "f8", "g8", "h8"], Colour.BLACK),
    ("six wins (closing the gap)", RuleSet.free(), ["d8", "e8", "f8", "h8", "i8", "g8"], Colour.BLACK),
    ("exactly-five: five wins", RuleSet.free(exactly_five=True), ["d8", "e8", "f8", "g8", "h8"], Colour.BLACK),
    ("exactly-five: six does not win", RuleSet.free(exactly_five=True), ["d8", "e8", "f8", "h8", "i8", "g8"], None),
    ("free: no double three foul", RuleSet.free(), ["g8", "i8", "h9", "h10", "h8"], None),
]


@pytest.mark.parametrize("case,rules,blacks,winner", FREE_CASES, ids=[c[0] for c in FREE_CASES])
def test_play1_free_rules(case, rules, blacks, winner):
    """PLAY-1: five wins; six or more too unless the exactly-five variant is configured; no
    forbidden moves."""
    game = Game(rules, reference)
    action = play_black_line(game, blacks)
    assert action.foul is None
    if winner is None:
        assert game.result is None
    else:
        assert game.result.winner is winner and game.result.reason is Reason.FIVE


def test_play1_white_wins_with_five_under_free_rules():
    """PLAY-1: either colour wins with five."""
    game = Game(RuleSet.free(), reference)
    for m in parse_moves("a1 h8 a3 h9 a5 h10 a7 h11 a10 h12"):
        game.play(m)
    assert game.result.winner is Colour.WHITE and game.result.reason is Reason.FIVE


PRO_CASES = [
    # (case, black stones in order, expected reason, foul)
    ("black exactly five wins", ["d8", "e8", "f8", "g8", "h8"], Reason.FIVE, None),
    ("black overline loses", ["d8", "e8", "f8", "h8", "i8", "g8"], Reason.FORBIDDEN, "overline"),
    ("black double three loses", ["g8", "i8", "h9", "h10", "h8"], Reason.FORBIDDEN, "double_three"),
    ("black double four loses", ["e8", "f8", "g8", "h9", "h10", "h11", "h8"], Reason.FORBIDDEN, "double_four"),
    ("black 4-3 is legal", ["e8", "f8", "g8", "h9", "h10", "h8"], None, None),
]


@pytest.mark.parametrize("case,blacks,reason,foul", PRO_CASES, ids=[c[0] for c in PRO_CASES])
def test_play3_professional_black(ref_any_core, case, blacks, reason, foul):
    """PLAY-3: black's forbidden move loses (the move is kept with the kind of foul); exactly
    five wins; 4-3 is legal -- on every rules core."""
    game = Game(RuleSet.professional(), ref_any_core)
    action = play_black_line(game, blacks)
    assert action.foul == foul
    if reason is None:
        assert game.result is None
    else:
        assert game.result.reason is reason and game.result.foul == foul
        assert game.result.winner is (Colour.BLACK if reason is Reason.FIVE else Colour.WHITE)
        assert game.history[-1].point == P(blacks[-1])


def test_play3_reject_mode_refuses_the_forbidden_move():
    """PLAY-3: an event may configure "reject the move": the foul is refused, nothing changes,
    and the point is not among the legal moves."""
    game = Game(RuleSet.professional(on_forbidden="reject"), reference)
    play_black_line(game, ["g8", "i8", "h9", "h10"])
    game.play(P("a9"))
    assert P("h8") not in game.legal_actions().moves
    with pytest.raises(IllegalAction) as info:
        game.play(P("h8"))
    assert info.value.code == "forbidden" and info.value.details["kind"] == "double_three"
    assert game.stone_at(P("h8")) is None and game.to_move is Colour.BLACK and game.result is None
    assert game.forbidden_points() == {P("h8"): "double_three"}


def test_play3_white_wins_with_overline_under_professional_rules():
    """PLAY-3: white wins with five or more (no fouls for white)."""
    game = Game(RuleSet.professional(), reference)
    moves = "a1 d8 a3 e8 a5 f8 a7 h8 a10 i8 a13 g8"
    for m in parse_moves(moves):
        game.play(m)
    assert game.result.winner is Colour.WHITE and game.result.reason is Reason.FIVE


def test_play3_loss_mode_keeps_forbidden_points_playable():
    """PLAY-3: under the default "loss" decision a forbidden point is a legal (losing) move."""
    game = Game(RuleSet.professional(), reference)
    play_black_line(game, ["g8", "i8", "h9", "h10"])
    game.play(P("a9"))
    assert P("h8") in game.legal_actions().moves


def test_play3_moves_judged_on_the_kept_board_not_from_stone_lists():
    """PLAY-3 (per-move cost): a professional game keeps the core's board move by move and
    judges each black move there; the stone-list functions are never called."""
    from_lists = []
    placed = []
    judged = []

    class SpyKeptBoard(reference.KeptBoard):
        def place(self, point, black):
            placed.append((point, black))
            super().place(point, black)

        def classify(self, point):
            judged.append(point)
            return super().classify(point)

    class SpyCore:
        KeptBoard = SpyKeptBoard

        @staticmethod
        def classify(black, white, point):
            from_lists.append(point)
            return reference.classify(black, white, point)

    game = Game(RuleSet.professional(), SpyCore)
    moves = parse_moves("h8 a1 h9 a3 j8 a5 f10 a7 g9 a9 j10 a11")
    for m in moves:
        game.play(m)
    assert placed == [(m, i % 2 == 0) for i, m in enumerate(moves)]
    assert judged == moves[::2]
    game.play(P("i9"))  # g9 h9 | h8 j10 | j8 ... : crowded, and in fact a double three
    assert judged[-1] == P("i9") and from_lists == []
    assert game.result.foul == "double_three"
    assert Game(RuleSet.free(), SpyCore).forbidden_points() == {}  # free rules keep no such board


def test_play4_two_passes_in_succession_draw():
    """PLAY-4: draw when both players pass in succession; a pass then a move does not count."""
    game = Game(RuleSet.free(), reference)
    game.play(P("h8"))
    game.pass_()
    game.play(P("h9"))
    game.pass_()
    assert game.result is None and game.to_move is Colour.BLACK
    game.pass_()
    assert game.result.reason is Reason.DRAW_PASSES and game.result.is_draw
    assert [a.notation for a in game.history] == ["h8", "pass", "h9", "pass", "pass"]


def test_play4_full_board_draw():
    """PLAY-4: a full board without five is a draw."""
    black = [(x, y) for x in range(15) for y in range(15) if (x // 2 + y) % 2 == 0]
    white = [(x, y) for x in range(15) for y in range(15) if (x // 2 + y) % 2 == 1]
    game = Game(RuleSet.free(), reference)
    for i in range(len(white)):
        game.play(black[i])
        game.play(white[i])
    assert game.result is None
    game.play(black[-1])
    assert game.result.reason is Reason.DRAW_FULL_BOARD and game.result.winner is None


@pytest.mark.parametrize(
    "end,args,winner,reason",
    [
        ("resign", ("black",), Colour.WHITE, Reason.RESIGNATION),
        ("agree_draw", (), None, Reason.DRAW_AGREEMENT),
        ("time_forfeit", ("white",), Colour.BLACK, Reason.TIME_FORFEIT),
        ("both_flags", (), None, Reason.DRAW_BOTH_FLAGS),
        ("no_show", ("white",), Colour.BLACK, Reason.NO_SHOW),
        ("arbiter_decision", ("white", "illegal device"), Colour.WHITE, Reason.ARBITER),
    ],
)
def test_play4_endings_off_the_board(end, args, winner, reason):
    """PLAY-4 / PLAY-7: resignation, agreement, time forfeit, both flags, no-show, arbiter."""
    game = Game(RuleSet.free(), reference)
    game.play(P("h8"))
    result = getattr(game, end)(*args)
    assert (result.winner, result.reason) == (winner, reason)
    assert game.is_over and game.to_move is None
    with pytest.raises(IllegalAction) as info:
        game.play(P("h9"))
    assert info.value.code == "game_over"


def test_play4_illegal_moves_refused():
    """PLAY-1: one stone on an empty point of the board."""
    game = Game(RuleSet.free(), reference)
    game.play(P("h8"))
    for point, code in [(P("h8"), "occupied"), ((15, 3), "off_board"), ((-1, 0), "off_board")]:
        with pytest.raises(IllegalAction) as info:
            game.play(point)
        assert info.value.code == code
    assert len(game.history) == 1


def test_play1_turns_and_legal_actions():
    """PLAY-1: black first, then alternating; legal actions are the empty points."""
    game = Game(RuleSet.free(), reference)
    assert game.to_move is Colour.BLACK
    legal = game.legal_actions()
    assert len(legal.moves) == 225 and legal.can_pass and legal.colour is Colour.BLACK
    game.play(P("h8"))
    assert game.to_move is Colour.WHITE
    assert P("h8") not in game.legal_actions().moves and len(game.legal_actions().moves) == 224


def test_play1_default_core_is_the_selected_backend():
    """PLAY-3: a game without an explicit core uses the one GAMEPLAY_ENGINE selects."""
    from gameplay.engine import backend

    assert Game(RuleSet.professional()).core is backend.core


def test_ruleset_validation():
    """PLAY-1/PLAY-3: rule sets are checked when built."""
    with pytest.raises(ValueError):
        RuleSet("renju")
    with pytest.raises(ValueError):
        RuleSet("professional", exactly_five=True)
    with pytest.raises(ValueError):
        RuleSet.professional(on_forbidden="warn")  # type: ignore[arg-type]
