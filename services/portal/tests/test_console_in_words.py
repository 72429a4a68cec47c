"""Issue 28, the staff console in people's words: amounts typed in yuan and sent in fen, boards
said as "第 3 轮 第 2 台" (in a team match "第 3 轮 第 1 场 第 2 台"), the confirmation that names a
result's change, an appeal's board chosen from a list, evidence clauses in words."""

from __future__ import annotations

import pytest

from portal import i18n
from portal.console_teams import board_of, board_words, match_no
from portal.staff_appeals import AppealForm, board_choice, form_problem
from portal.staff_evidence import clause_words
from portal.staff_round import change_words
from portal.yuan import fen_of

ZH, EN = i18n.Words("zh"), i18n.Words("en")


@pytest.mark.parametrize(
    ("typed", "fen"),
    [("380", 38000), ("380.5", 38050), ("380.50", 38050), ("1,000", 100000), (" 0.01 ", 1), ("1，000.00", 100000)],
)
def test_issue28_yuan_as_typed_is_sent_in_fen(typed, fen):
    assert fen_of(typed) == fen


@pytest.mark.parametrize("typed", ["", "abc", "五百", "380.505", "-1", "0", "NaN", "Infinity", "10000000.01", "1e3x"])
def test_issue28_what_is_not_an_amount_in_yuan_is_refused(typed):
    assert fen_of(typed) is None


def test_issue28_an_appeal_fee_may_be_nil_where_the_event_sets_none():
    """DA 2023 sets no appeal fee: 0 yuan is an amount there (and nowhere a negative one)."""
    assert fen_of("0", zero=True) == 0 and fen_of("0.00", zero=True) == 0
    assert fen_of("-0.01", zero=True) is None


def test_issue28_boards_in_words_individual_and_team():
    single = {"pairing_id": "r3.b2", "board": 2, "match_id": None}
    team = {"pairing_id": "r3.m1.b2", "board": 2, "match_id": "r3.m1"}
    assert (match_no(single), match_no(team)) == (None, 1)
    assert board_words(ZH, 3, single) == "第 3 轮 第 2 台"
    assert board_words(EN, 3, single) == "Round 3, board 2"
    assert board_words(ZH, 3, team) == "第 3 轮 第 1 场 第 2 台"
    assert board_words(EN, 3, team) == "Round 3, match 1, board 2"


def test_issue28_a_games_board_from_its_pairing_id_where_only_that_is_at_hand():
    """The record flags list games by pairing id: said as the board, "第 1 轮 第 1 场 第 3 台"."""
    assert board_words(ZH, 1, board_of("r1.m1.b3")) == "第 1 轮 第 1 场 第 3 台"
    assert board_words(EN, 2, board_of("r2.b4")) == "Round 2, board 4"
    assert board_of("nonsense") == {"board": "—", "match_id": None}


NAMES = {"a": {"name": "张三"}, "b": {"name": "李四"}}


def test_issue28_the_confirmation_names_the_board_players_and_change():
    """PAIR-11: "第3轮第2台 张三 对 李四：把 先列胜 改为 和棋？" before anything is saved."""
    pairing = {"pairing_id": "r3.b2", "board": 2, "first": "a", "second": "b", "result": "first_wins"}
    assert change_words(ZH, 3, pairing, NAMES, "draw") == "第 3 轮 第 2 台 张三 对 李四：把 先列胜 改为 和棋？"
    said = change_words(EN, 3, pairing, NAMES, "draw")
    assert said == "Round 3, board 2, 张三 v 李四: change first-listed wins to draw?"
    empty = {**pairing, "result": None}
    assert change_words(ZH, 3, empty, NAMES, "second_wins") == "第 3 轮 第 2 台 张三 对 李四：录入 后列胜？"


def test_issue28_an_appeals_board_is_chosen_not_typed():
    """AWD-10: the list's choice carries the section, round and pairing; the server maps it."""
    assert board_choice("open|3|r3.b2") == ("open", 3, "r3.b2")
    assert board_choice("open|3|") == ("open", 3, None)  # the whole round
    form = AppealForm(section_id="junior", board="open|3|r3.b2", signatory_role="leader")
    assert form_problem(form, "open", 0) == "refusal.console_board_section"  # another section's board
    assert form_problem(form, "junior", None) == "refusal.console_fee_yuan"
    assert form_problem(AppealForm(section_id="open", signatory_role="mayor"), "open", 0) == "refusal.console_signatory"
    assert form_problem(AppealForm(section_id="open", signatory_role="coach"), "open", 50000) == ""
    for key in ("refusal.console_board_section", "refusal.console_fee_yuan", "refusal.console_signatory"):
        assert ZH.t(key) != "—" and EN.t(key) != "—"


SZ = {
    "eligibility": [{"id": "sz-residency", "rule": "REG-6", "region": "Shenzhen"}],
    "regions": [{"id": "Shenzhen", "name": "Shenzhen", "name_zh": "深圳市"}],
}


def test_issue28_reg6_evidence_clause_in_words_not_its_id():
    """SZ 六(1): "sz-residency/household" is the residency in Shenzhen by household registration."""
    assert clause_words(ZH, "sz-residency/household", SZ) == "居住资格（深圳市）：本地户籍"
    assert clause_words(EN, "sz-residency/household", SZ) == "Residency (Shenzhen): local household registration"
    assert clause_words(ZH, "sz-residency", SZ) == "居住资格（深圳市）"
    said = clause_words(EN, "sz-residency/an_option_of_tomorrow", SZ)
    assert said == "Residency (Shenzhen): an eligibility clause" and "tomorrow" not in said
    assert clause_words(ZH, "nobody-knows/this", SZ) == "参赛资格条款"
    assert clause_words(ZH, None, SZ) == "—"
