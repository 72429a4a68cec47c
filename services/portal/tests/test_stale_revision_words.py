"""Issue 27 finding 9 in the staff console's words: pairing's 409 ``stale_revision`` (a result, or a
tie, changed since the page showed it) is said in plain words, zh-CN and English — what the result
is now, who set it (an arbiter's key id, or the game itself), when, its revision — never as JSON;
the forms' revision field is passed on only when it is a number."""

from __future__ import annotations

import pytest

from portal import i18n
from portal.staff_pages import stale_result
from portal.staff_round import revision

BY_ARBITER = {
    "expected_revision": 1,
    "current": {
        "pairing_id": "r2.b1",
        "round": 2,
        "result": "draw",
        "revision": 2,
        "result_source": "arbiter",
        "changed_by": "k3",
        "changed_at": "2026-05-01T09:30:00+00:00",
    },
}
BY_GAME = {"expected_revision": None, "current": {**BY_ARBITER["current"], "result": "first_wins", "revision": 1}}
BY_GAME["current"].update(result_source="game", changed_by="game")


@pytest.mark.parametrize(
    ("lang", "details", "expected"),
    [
        (
            "zh",
            BY_ARBITER,
            ["另一位裁判已先改了这个结果", "和棋", "由裁判 k3 录入", "2026-05-01 09:30:00 +0000", "第 2 版"],
        ),
        (
            "en",
            BY_ARBITER,
            ["Another arbiter changed this result first", "draw", "entered by arbiter k3", "revision 2"],
        ),
        ("zh", BY_GAME, ["先列胜", "对局结果", "第 1 版"]),
        ("en", BY_GAME, ["first-listed wins", "from the game itself", "revision 1"]),
        ("zh", {"current": {"tie_id": "t1-2", "revision": 3}}, ["这个并列", "第 3 版", "没有保存"]),
        ("en", {"current": {"tie_id": "t1-2", "revision": 3}}, ["This tie was opened again", "revision 3"]),
        ("zh", None, ["没有保存", "刷新页面"]),
        ("en", {"current": "?"}, ["not saved", "Reload the page"]),
    ],
)
def test_issue27_finding9_a_stale_write_is_said_in_words(lang, details, expected):
    """Issue 27 finding 9: the refusal's words, filled from the current result in the details."""
    text = stale_result(i18n.Words(lang), details)
    assert all(part in text for part in expected), text
    assert "{" not in text and "}" not in text and "stale_revision" not in text


def test_issue27_finding9_a_form_sends_its_revision_only_as_a_number():
    """The hidden revision field: digits are sent as a number, anything else as none."""
    assert [revision(text) for text in ("0", " 12 ", "", "-1", "1e3", "x")] == [0, 12, None, None, None, None]
