"""The live board as drawn from gameplay's game view (no rules in the portal: the forbidden points,
the fifth-move offers and the opening come from the view)."""

from __future__ import annotations

from starlette.requests import Request

from portal import board
from portal.settings import PortalSettings
from portal.site import Site

VIEW = {
    "game_id": "g1",
    "event_code": "EV",
    "section_id": "S1",
    "round": 1,
    "pairing_id": "r1.b3",
    "black": "a",
    "white": "b",
    "status": "active",
    "phase": "play",
    "to_act": "a",
    "seq": 9,
    "rules": {"track": "professional"},
    "moves": ["h8", "h9", "j10", "i9", "g9"],
    "board": [
        {"point": "h8", "colour": "black"},
        {"point": "h9", "colour": "white"},
        {"point": "j10", "colour": "black"},
        {"point": "i9", "colour": "white"},
        {"point": "g9", "colour": "black"},
    ],
    "forbidden": {"i10": "double_three", "k12": "overline"},
    "clocks": {"black_ms": 61000, "white_ms": 5000, "running": "black"},
    "opening": {"code": "D4", "name": "Kagetsu", "n": 2, "swapped": True, "offers": ["g9", "k7"], "chosen": "g9"},
    "draw_offer_by": None,
}


def _page(view: dict, lang: str = "zh") -> str:
    site = Site(None, PortalSettings(), None)  # type: ignore[arg-type]  # only the templates are used
    request = Request(
        {"type": "http", "path": "/games/g1/board", "query_string": f"lang={lang}".encode(), "headers": []}
    )
    return site.html(request, "board.html", game=view, names={}, section=None, layout=board.layout(view))


def test_black_s_forbidden_points_are_marked_with_their_kind_in_professional_games():
    """PLAY-3: gameplay lists the points black may not play; the board crosses them out."""
    html = _page(VIEW)
    assert html.count('class="forbidden"') == 2
    assert "I10（三三）" in html and "K12（长连）" in html


def test_the_opening_by_its_chinese_name_swap_and_offers_and_the_last_move():
    """PLAY-2: 26 openings by name, the swap, the fifth-move offers (shown on the board only
    while white chooses)."""
    html = _page(VIEW)
    assert "花月" in html and "已交换" in html and '五手打点：<span class="offers-list">G9 K7</span>' in html
    assert html.count('class="offer"') == 0  # chosen already: no open offers on the board
    choosing = _page({**VIEW, "phase": "choose", "forbidden": {}})
    assert choosing.count('class="offer"') == 2
    assert 'class="stone black last"' in html and '最后一手：<b class="last-move">G9</b>' in html


def test_english_words_and_no_forbidden_marks_under_free_rules():
    free = {**VIEW, "rules": {"track": "free"}, "forbidden": {}, "opening": None}
    html = _page(free, "en")
    assert 'class="forbidden"' not in html and "Black" in html and "Kagetsu" not in html


def test_play2_the_number_of_fifth_move_offers_in_words_one_and_many():
    """PLAY-2: the declared number of fifth-move offers, in the page's language ("1 fifth-move
    offer", "2 fifth-move offers", "五手 2 打")."""
    one = {**VIEW, "opening": {**VIEW["opening"], "n": 1, "offers": ["g9"]}}
    assert "1 fifth-move offer ·" in " ".join(_page(one, "en").split())
    assert "2 fifth-move offers" in _page(VIEW, "en") and "五手 2 打" in _page(VIEW)
