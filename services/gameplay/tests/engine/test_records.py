"""PLAY-8: game records -- JSON round trip, standard notation, Gomocup PSQ export."""

from __future__ import annotations

import json

import pytest

from gameplay.engine import (
    Game,
    GameRecord,
    OpeningConfig,
    OpeningProtocol,
    Reason,
    RuleSet,
    format_moves,
    from_notation,
    parse_moves,
    parse_psq,
    record_game,
    reference,
    to_notation,
)


def professional_game():
    """A finished professional game: D1 Kansei, swap, 1 offer, black fouls with a double three."""
    proto = OpeningProtocol(OpeningConfig(), RuleSet.professional(), reference)
    proto.place_opening("first", ["h8", "h9", "h10"], n=2)
    proto.choose_colour("second", "black")
    proto.play("first", "a1")
    proto.offer_fifth("second", ["i10", "g6"])
    proto.choose_fifth("first", "i10")
    for m in ["a3", "j11", "a5", "j12", "a7", "j10"]:
        proto.play(proto.expected_player, m)
    return proto


def meta_for(n: int):
    return [
        {"at": f"2026-11-29T10:{i:02d}:00Z", "think_ms": 1000 * i, "clock": {"black": 1800.0 - i, "white": 1795.5 - i}}
        for i in range(1, n + 1)
    ]


def test_play8_record_holds_moves_opening_and_result():
    """PLAY-8: moves with timestamps and clock readings, opening choices, result and reason."""
    proto = professional_game()
    record = record_game(
        proto,
        players={"first": "p-17", "second": "p-42"},
        move_meta=meta_for(12),
        clock={"initial": 1800, "increment": 15},
        meta={"event": "SZ", "round": 3},
    )
    assert record.notation() == "h8 h9 h10 a1 i10 a3 j11 a5 j12 a7 j10"
    assert [m.player for m in record.moves[:5]] == ["first", "first", "first", "first", "second"]
    assert record.moves[4].at == "2026-11-29T10:05:00Z" and record.moves[4].clock == {"black": 1795.0, "white": 1790.5}
    assert record.moves[-1].foul == "double_three"
    o = record.opening
    assert (o.code, o.name, o.n, o.swapped, o.black_player) == ("D1", "Kansei", 2, True, "second")
    assert (o.offers, o.chosen) == (["i10", "g6"], "i10")
    r = record.result
    assert (r.winner, r.winner_player, r.reason, r.foul) == ("white", "first", "forbidden", "double_three")


def test_play8_json_round_trip():
    """PLAY-8: the JSON record parses back to an equal record (and equal JSON)."""
    record = record_game(professional_game(), move_meta=meta_for(11), clock={"initial": 1800, "increment": 15})
    text = json.dumps(record.to_dict(), ensure_ascii=False)
    again = GameRecord.from_dict(json.loads(text))
    assert again == record
    assert json.dumps(again.to_dict(), ensure_ascii=False) == text
    data = json.loads(text)
    assert data["schema"] == "gomoku-game-record/1" and data["opening"]["name_zh"] == "寒星"


def test_play8_record_replays_to_the_same_result():
    """PLAY-8: replaying the recorded moves gives the recorded result."""
    record = GameRecord.from_dict(json.loads(json.dumps(record_game(professional_game()).to_dict())))
    game = record.replay(reference)
    assert game.result.reason is Reason.FORBIDDEN and game.result.foul == record.result.foul


def test_play8_psq_export():
    """PLAY-8: Gomocup PSQ text: header, then x,y,time per move with 1-based coordinates."""
    game = Game(RuleSet.free(), reference)
    for m in parse_moves("h8 h9 j10 a1 o15"):
        game.play(m)
    record = record_game(game, move_meta=[{"think_ms": 1500}, {"think_ms": 20}, {}, {"think_ms": 7}, {}])
    psq = record.to_psq()
    assert psq.splitlines() == ["Piskvorky 15x15, 11:11, 0", "8,8,1500", "8,9,20", "10,10,0", "1,1,7", "15,15,0"]
    assert [p for p, _ in parse_psq(psq + "-1\nbrain.exe\n")] == game.moves


def test_play8_psq_cannot_hold_a_pass():
    """PLAY-8: PSQ has no pass; exporting a game with one is refused."""
    game = Game(RuleSet.free(), reference)
    game.play(from_notation("h8"))
    game.pass_()
    with pytest.raises(ValueError):
        record_game(game).to_psq()
    assert record_game(game).notation() == "h8 pass"


def test_play8_free_game_result_maps_to_players():
    """PLAY-8: in a free game black is the player given for black."""
    game = Game(RuleSet.free(), reference)
    game.play(from_notation("h8"))
    game.resign("white")
    record = record_game(game, players={"black": "p-1", "white": "p-2"})
    assert (record.result.winner, record.result.winner_player, record.result.reason) == ("black", "p-1", "resignation")
    assert record.moves[0].player == "p-1"
    assert record.rules == {"track": "free", "exactly_five": False, "on_forbidden": "loss"}


def test_play8_bad_records_refused():
    """PLAY-8: only well-formed records parse."""
    good = record_game(professional_game()).to_dict()
    with pytest.raises(ValueError):
        GameRecord.from_dict({**good, "schema": "other"})
    with pytest.raises(ValueError):
        GameRecord.from_dict({**good, "moves": [{"ply": 1, "colour": "black", "move": "z99"}]})
    with pytest.raises(ValueError):
        GameRecord.from_dict({**good, "moves": [{"ply": 1, "bogus": True}]})


def test_notation_helpers():
    """PLAY-8: standard notation -- columns a..o, rows 1..15 from the bottom."""
    assert to_notation((7, 7)) == "h8" and from_notation("h8") == (7, 7)
    assert to_notation((0, 0)) == "a1" and to_notation((14, 14)) == "o15"
    assert from_notation(" J10 ") == (9, 9)
    assert format_moves([(7, 7), None, (9, 9)]) == "h8 pass j10"
    assert parse_moves("h8, pass j10") == [(7, 7), None, (9, 9)]
    for bad in ["p1", "a0", "a16", "h", "88", ""]:
        with pytest.raises(ValueError):
            from_notation(bad)
