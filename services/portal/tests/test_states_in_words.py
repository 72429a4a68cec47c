"""Issue 28: states said as the regulation says them — a registration's last day (the stored
close is exclusive), the winning five of a replay read from the game's record, and how a section
closed (REG-12) from the public schedule."""

from __future__ import annotations

from portal import board, deadlines, section_states
from portal.i18n import Words


def test_sz_13_registration_closing_at_midnight_shows_its_last_day():
    """SZ 十三(二): the regulation's "10月31日" is stored as 2022-11-01T00:00+08:00, exclusive;
    the page shows 31 October, in the event's zone, not the UTC day or the next day."""
    closes = "2022-11-01T00:00:00+08:00"
    assert deadlines.last_day(closes, "Asia/Shanghai", Words("zh")) == "2022年10月31日"
    assert deadlines.last_day(closes, "Asia/Shanghai", Words("en")) == "31 October 2022"
    # the same instant as the services answer it in UTC
    assert deadlines.last_day("2022-10-31T16:00:00+00:00", "Asia/Shanghai", Words("zh")) == "2022年10月31日"
    # a close during a day keeps that day and its time
    assert deadlines.last_day("2022-10-31T18:00:00+08:00", "Asia/Shanghai", Words("en")) == "31 October 2022 18:00"
    assert deadlines.first_day("2022-10-25T00:00:00+08:00", "Asia/Shanghai", Words("zh")) == "2022年10月25日"
    assert deadlines.last_day(None, "Asia/Shanghai", Words("zh")) == "—"


def _record(moves: list[str], winner: str | None, reason: str) -> dict:
    colours = ("black", "white")
    return {
        "result": {"winner": winner, "reason": reason},
        "moves": [{"ply": i + 1, "colour": colours[i % 2], "move": m} for i, m in enumerate(moves)],
    }


def test_play_the_winning_five_is_the_winners_line_through_their_last_stone():
    """The replay rings the five stones of the win (PLAY: a game won by five): black's diagonal
    d4..h8, finished by h8; white's stones and black's other stones are not in it."""
    moves = ["d4", "a1", "e5", "a2", "f6", "a3", "d5", "b1", "g7", "a5", "h8"]
    five = board.winning_five(_record(moves, "black", "five"))
    assert five is not None
    assert five["points"] == ["d4", "e5", "f6", "g7", "h8"]
    assert five["ply"] == 11
    assert five["start"] == board.xy("d4") and five["end"] == board.xy("h8")


def test_play_an_overline_win_marks_the_whole_line_and_other_endings_mark_none():
    """Free rules (overline wins): six in a row across are all marked; a resignation, or a record
    that says five without such a line, marks nothing."""
    moves = ["a8", "a1", "b8", "a2", "c8", "a3", "e8", "a4", "f8", "b1", "d8"]
    assert board.winning_five(_record(moves, "black", "five"))["points"] == ["a8", "b8", "c8", "d8", "e8", "f8"]
    assert board.winning_five(_record(moves, "black", "resignation")) is None
    assert board.winning_five(_record(["h8", "a1", "h9"], "black", "five")) is None
    assert board.replay(_record(moves, "black", "five"))["five"]["ply"] == 11


def test_reg12_closings_from_the_public_schedule():
    """REG-12: the sections the schedule says closed, each with its id; the Chinese names win on
    a section's names; the women of a merged men + women host are its merged women's players."""
    schedule = {
        "sections": {
            "men-free": {"name": "Men", "name_zh": "男子组", "closed": {"status": "ready", "rank_by_gender": True}},
            "women-free": {
                "name": "Women",
                "name_zh": "女子组",
                "closed": {"status": "merged", "merged_into": "men-free"},
            },
            "final-men": {"name": "Final", "name_zh": None, "closed": None},
        }
    }
    found = section_states.closings(schedule)
    assert sorted(found) == ["men-free", "women-free"]
    assert found["women-free"]["section_id"] == "women-free" and found["women-free"]["merged_into"] == "men-free"
    event = {"stages": [{"id": "online", "sections": [{"id": "men-free", "name": "Men"}, {"id": "x", "name": "X"}]}]}
    names = section_states.section_names(event, schedule)
    assert names["men-free"]["name_zh"] == "男子组" and names["x"] == {"name": "X"}
    host = {"entrants": [{"entrant_id": "m1", "gender": "male"}, {"entrant_id": "w1", "gender": "female"}]}
    assert [e["entrant_id"] for e in section_states.players_from(host, {"gender": "female"})] == ["w1"]
    assert len(section_states.players_from(host, {"gender": "mixed"})) == 2
