"""Money as integer fen (1/100 yuan): no floats anywhere near prize arithmetic."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation


def yuan(amount: int | str | Decimal) -> int:
    """Yuan → fen. Accepts int, decimal string or Decimal with at most 2 decimals."""
    if isinstance(amount, float):
        raise TypeError("money must not be a float")
    try:
        value = Decimal(amount) * 100
    except InvalidOperation as exc:
        raise ValueError(f"not an amount: {amount!r}") from exc
    if value != value.to_integral_value():
        raise ValueError(f"{amount!r} has more than 2 decimals")
    return int(value)


def format_fen(fen: int) -> str:
    """1234567 → '12345.67' (yuan with two decimals)."""
    sign = "-" if fen < 0 else ""
    whole, cents = divmod(abs(fen), 100)
    return f"{sign}{whole}.{cents:02d}"


def split_fen(total: int, ways: int) -> tuple[int, int]:
    """Equal shares rounded down to the fen: (share each, fen left undistributed)."""
    if ways < 1:
        raise ValueError("ways must be >= 1")
    share, remainder = divmod(total, ways)
    return share, remainder
