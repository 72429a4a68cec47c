"""AWD-10 (NY 十(三)(四); DA, NT 八): appeals to the arbitration committee — the fee the event
configures, who may sign, the window, one decision, the refund of an upheld appeal. Pure rules."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pairing.domain import appeals as rules

NOW = datetime(2022, 8, 12, 15, 0, tzinfo=UTC)
NY = rules.Terms(fee_fen=50_000)  # NY 十(四): 仲裁费500元, 胜诉后退回
DA = rules.Terms(fee_fen=0)  # DA 八(二): a committee, no fee named
CLOSED = rules.Terms(accepted=False)
WINDOW = rules.Terms(fee_fen=0, window_minutes=30)  # no seed names a window: a configuration value


def _lodging(fee: int = 50_000, role: str = "leader", currency: str = "CNY", completed: datetime | None = None):
    return rules.Lodging(role, fee, currency, NOW, completed)


@pytest.mark.parametrize(
    ("clause", "terms", "lodging", "refused"),
    [
        ("AWD-10, NY 十(四): the 500 CNY fee is lodged", NY, _lodging(), None),
        ("AWD-10, NY 十(四): a coach signs it", NY, _lodging(role="coach"), None),
        ("AWD-10, NY 十(四): 499 CNY is not the fee", NY, _lodging(fee=49_900), "wrong_fee"),
        ("AWD-10, NY 十(四): 5 000 CNY is not the fee", NY, _lodging(fee=500_000), "wrong_fee"),
        ("AWD-10, NY 十(四): without the fee", NY, _lodging(fee=0), "wrong_fee"),
        ("AWD-10, NY 十(四): the fee in CNY only", NY, _lodging(currency="USD"), "wrong_currency"),
        ("AWD-10, NY 十(三): signed by a leader or coach", NY, _lodging(role="player"), "signatory_not_allowed"),
        ("AWD-10, DA 八(二): no fee named, none taken", DA, _lodging(fee=0), None),
        ("AWD-10, DA 八(二): no fee named, a fee is refused", DA, _lodging(fee=50_000), "wrong_fee"),
        ("AWD-10: no committee, no appeal", CLOSED, _lodging(fee=0), "appeals_not_accepted"),
        ("AWD-10: within the window", WINDOW, _lodging(fee=0, completed=NOW - timedelta(minutes=29)), None),
        (
            "AWD-10: the first minute past the window",
            WINDOW,
            _lodging(fee=0, completed=NOW - timedelta(minutes=30)),
            "appeal_window_closed",
        ),
        ("AWD-10: no window while the round is being played", WINDOW, _lodging(fee=0, completed=None), None),
        ("AWD-10, NY: no window configured", NY, _lodging(completed=NOW - timedelta(days=3)), None),
    ],
)
def test_awd10_lodging(clause, terms, lodging, refused):
    if refused is None:
        rules.check_lodging(terms, lodging)
        return
    with pytest.raises(rules.AppealRefused) as caught:
        rules.check_lodging(terms, lodging)
    assert caught.value.code == refused, clause
    assert caught.value.conflict == (refused == "appeal_window_closed"), clause


@pytest.mark.parametrize(
    ("clause", "status", "upheld", "expected"),
    [
        ("AWD-10: the committee upholds a lodged appeal", rules.LODGED, True, rules.UPHELD),
        ("AWD-10: the committee rejects a lodged appeal", rules.LODGED, False, rules.REJECTED),
        ("AWD-10: no decision twice (upheld)", rules.UPHELD, False, "appeal_decided"),
        ("AWD-10: no decision twice (rejected)", rules.REJECTED, True, "appeal_decided"),
    ],
)
def test_awd10_one_decision(clause, status, upheld, expected):
    if expected in rules.STATUSES:
        assert rules.decide(status, upheld) == expected, clause
        return
    with pytest.raises(rules.AppealRefused) as caught:
        rules.decide(status, upheld)
    assert caught.value.code == expected and caught.value.conflict, clause


@pytest.mark.parametrize(
    ("clause", "terms", "fee", "upheld", "refund"),
    [
        ("AWD-10, NY 十(四) 胜诉后退回: upheld, the whole fee back", NY, 50_000, True, 50_000),
        ("AWD-10, NY 十(四): rejected, no refund", NY, 50_000, False, 0),
        ("AWD-10, DA 八: no fee, nothing to refund", DA, 0, True, 0),
        ("AWD-10: an event keeping the fee", rules.Terms(fee_fen=100, refund_if_upheld=False), 100, True, 0),
    ],
)
def test_awd10_refund(clause, terms, fee, upheld, refund):
    assert rules.refund_fen(terms, fee, upheld) == refund, clause


@pytest.mark.parametrize(
    ("clause", "upheld", "rnd", "pairing", "result", "refused"),
    [
        ("AWD-10: upheld against a pairing, the result changes", True, 2, "r2.b1", "second_wins", None),
        ("AWD-10: upheld, result kept", True, 2, "r2.b1", None, None),
        ("AWD-10: rejected keeps the result", False, 2, "r2.b1", "second_wins", "result_needs_upheld"),
        ("AWD-10: a dispute not about one result changes none", True, None, None, "draw", "no_pairing_appealed"),
    ],
)
def test_awd10_changed_result(clause, upheld, rnd, pairing, result, refused):
    if refused is None:
        rules.check_changed_result(upheld, rnd, pairing, result)
        return
    with pytest.raises(rules.AppealRefused) as caught:
        rules.check_changed_result(upheld, rnd, pairing, result)
    assert caught.value.code == refused, clause


@pytest.mark.parametrize(
    ("name", "masked"), [("张三丰", "张**"), ("欧阳子轩", "欧**"), ("Li", "L**"), ("王", "王**"), (" ", "")]
)
def test_awd10_signatory_names_are_masked(name, masked):
    """Issue 27 finding 10: the first character, then a mask of one width whatever the length."""
    assert rules.masked_name(name) == masked


@pytest.mark.parametrize(
    ("reference", "masked"),
    [("ICBC-2026-000123", "**************0123"), ("TX99", "*" * 18), ("", "")],
)
def test_awd10_payment_references_are_masked(reference, masked):
    """Issue 27 finding 10: an appeal's payment reference is shown as its tail behind a mask of one width."""
    assert rules.masked_reference(reference) == masked
