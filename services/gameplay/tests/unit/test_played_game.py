"""The rules of play on the game aggregate (``domain.played_game.PlayedGame``), no database:
presence and the start of the clock (PLAY-7), turn order and the engine's judgement (PLAY-1),
draws by agreement (PLAY-4), the server's flag fall (PLAY-5), no-shows (PLAY-7), who may act."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from gameplay_kit import played_game as game

from gameplay.domain.errors import GameConflict, InvalidAction, NotPermitted
from gameplay.domain.played_game import PlayedGame

MINUTE = 60_000


@dataclass(frozen=True)
class Key:
    role: str
    partner_id: str | None = None


OPERATOR = Key("operator")


def started(**columns: Any) -> PlayedGame:
    running = dict(joined_first=True, joined_second=True, status="active", clock_running="first", clock_since_ms=0)
    return game(**{**running, **columns})


def test_play7_the_second_to_join_starts_the_clock_of_the_first_mover():
    first = game().decide("first", "join", {}, 1_000)
    assert first.values == {"joined_first": True} and first.events == [("joined", {"player_id": "alice"})]
    both = game(joined_first=True).decide("second", "join", {}, 2_000)
    assert both.values["status"] == "active" and both.values["no_show_due_ms"] is None
    assert (both.values["clock_running"], both.values["clock_since_ms"]) == ("first", 2_000)
    assert [kind for kind, _ in both.events] == ["joined", "started"]
    assert game(joined_first=True).decide("first", "join", {}, 3_000).empty  # joining again changes nothing


def test_play7_no_move_before_both_joined():
    with pytest.raises(GameConflict) as refused:
        game(joined_first=True).decide("first", "move", {"point": "h8"}, 1_000)
    assert refused.value.code == "not_started"


def test_play1_turn_order_and_the_engine_judge_moves():
    played = started()
    with pytest.raises(GameConflict) as refused:
        played.decide("second", "move", {"point": "h8"}, 1_000)
    assert (refused.value.code, refused.value.details) == ("not_your_turn", {"expected": "alice"})
    move = played.decide("first", "move", {"point": "h8"}, 1_000)
    assert move.actions[0]["think_ms"] == 1_000 and move.values["clock_running"] == "second"
    with pytest.raises(GameConflict) as occupied:
        played.decide("second", "move", {"point": "h8"}, 2_000)
    assert occupied.value.code == "occupied"
    with pytest.raises(InvalidAction):
        played.decide("second", "move", {"point": "z99"}, 2_000)


def test_play4_draw_offer_agreement_and_decline():
    offered = started().decide("first", "draw", {"action": "offer"}, 1_000)
    assert offered.values == {"draw_offer_by": "alice"}
    assert started(draw_offer_by="alice").decide("first", "draw", {"action": "offer"}, 1_000).empty
    agreed = started(draw_offer_by="alice")
    change = agreed.decide("second", "draw", {"action": "offer"}, 1_000)  # two offers are an agreement
    assert change.actions[0]["kind"] == "draw_agreed" and agreed.live.result is not None
    assert agreed.live.result.reason.value == "draw_agreement"
    declined = started(draw_offer_by="alice").decide("second", "draw", {"action": "decline"}, 1_000)
    assert declined.values == {"draw_offer_by": None}
    with pytest.raises(GameConflict) as refused:
        started().decide("second", "draw", {"action": "accept"}, 1_000)
    assert refused.value.code == "no_draw_offer"


def test_play5_a_flag_that_fell_before_the_action_ends_the_game_first():
    late = started()
    change = late.decide("first", "move", {"point": "h8"}, MINUTE + 1)
    assert [action["kind"] for action in change.actions] == ["flag"]
    assert change.error is not None and change.error.code == "flagged"
    assert late.live.result is not None and late.live.winner_role() == "second"


def test_play7_no_show_forfeits_when_due():
    assert game().due_ending(15 * MINUTE - 1) is None
    counter, change = game(joined_first=True).due_ending(15 * MINUTE)
    assert counter == "no_shows" and change.actions[0]["player_id"] == "bob"
    counter, change = game().due_ending(15 * MINUTE)
    assert counter == "double_forfeits" and change.actions[0]["kind"] == "double_no_show"


def test_a_finished_game_refuses_every_action():
    over = game(status="finished", result="black", reason="five", winner="alice")
    for kind in ("join", "move", "resign", "draw"):
        with pytest.raises(GameConflict) as refused:
            over.decide("first", kind, {"point": "h8", "action": "offer"}, 1_000)
        assert refused.value.code == "game_over" and refused.value.details["winner"] == "alice"


@pytest.mark.parametrize(
    "key,player,refusal,code",
    [
        (Key("viewer"), "alice", NotPermitted, "read_only_key"),
        (Key("partner", "pb"), "alice", NotPermitted, "not_your_player"),
        (OPERATOR, "carol", InvalidAction, "not_a_player"),
    ],
)
def test_partners_act_only_for_their_own_players(key, player, refusal, code):
    with pytest.raises(refusal) as refused:
        game().authorize(key, player)
    assert refused.value.code == code
    assert game().authorize(Key("partner", "pa"), "alice") == "first"
    assert game().authorize(OPERATOR, "bob") == "second"


def test_the_process_cache_keeps_games_in_play_and_lets_finished_games_go():
    """A finished game takes no more actions: the write-path cache drops it, so a process's memory
    follows the games in play, not every game of the event (bench.event_full's peak RSS)."""
    from gameplay.adapters.game_cache import GameCache

    cache = GameCache(size=100)
    playing, done = game(status="active"), game(game_id="EV.main.S1.r1.p2.g1", status="finished")
    cache.keep(playing)
    cache.keep(done)
    assert cache.take(playing.game_id) is playing
    assert cache.take(done.game_id) is None
    cache.keep(playing)
    cache.keep(game(status="finished"))  # the same game, finished by its last action
    assert cache.take(playing.game_id) is None


def _playoff_game() -> PlayedGame:
    """Game 1 of a playoff pairing, in play: alice (black) has moved."""
    played = started(
        game_id="EV.main.S1.po.po1.pp.g1",
        round=0,
        pairing_id="pp",
        unit_kind="playoff",
        playoff_id="po1",
        foul=None,
    )
    played.live.apply("move", "first", {"point": "h8"})
    return played


def test_pair11_game_finished_of_a_playoff_game_closed_by_the_arbiter_carries_its_playoff():
    """PAIR-11 / PLAY-PLAYOFF: game.finished of a game the arbiter's decision closes is the one a
    played ending sends: its playoff id (not None), the colours and moves of the played game,
    the decided result and reason; the decided round points on the pairing's last game."""
    from gameplay.domain import decisions
    from gameplay.domain.game_finished import game_finished

    played = _playoff_game()
    decision = {"outcome": "second_wins", "reason": "arbiter", "note": "", "sequence": 1}
    played.stored(decisions.close(played, decision, True, now=MINUTE))
    finished = game_finished(played, {"moves": []})
    assert (finished.playoff_id, finished.game_id, finished.round) == ("po1", "EV.main.S1.po.po1.pp.g1", 0)
    assert (finished.black, finished.white, finished.moves) == ("alice", "bob", ["h8"])
    assert (finished.result, finished.reason, finished.winner, finished.foul) == ("white", "arbiter", "bob", None)
    assert finished.outcome is not None and (finished.outcome.first_points, finished.outcome.second_points) == (0, 2)
    assert (finished.first, finished.second, finished.double_forfeit) == ("alice", "bob", False)


def test_pair11_game_finished_of_a_played_ending_and_of_a_double_forfeit_decision():
    """PLAY-4 / PLAY-7: a resignation's game.finished carries the stored ending (no round points
    before the pairing's last game); an arbiter's double forfeit is 0:0 and never a draw."""
    from gameplay.domain import decisions
    from gameplay.domain.game_finished import game_finished

    resigned = _playoff_game()
    change = resigned.decide("second", "resign", {}, MINUTE)
    write = resigned.prepare(change, MINUTE)
    ending = resigned.finish(write, [], MINUTE)
    resigned.stored(write)
    finished = game_finished(resigned, {})
    assert (finished.playoff_id, finished.winner, finished.result) == ("po1", "alice", ending.result)
    assert (finished.reason, finished.outcome, finished.moves) == (ending.reason, None, ["h8"])
    forfeited = _playoff_game()
    decision = {"outcome": "double_forfeit", "reason": "no_show", "note": "", "sequence": 1}
    forfeited.stored(decisions.close(forfeited, decision, True, now=MINUTE))
    finished = game_finished(forfeited, {})
    assert (finished.result, finished.double_forfeit, finished.winner) == ("double_forfeit", True, None)
