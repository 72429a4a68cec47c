"""Amounts as the console's people type them: yuan ("380", "380.50", "1,000"), sent to the
services in fen (issue 28: amounts in yuan everywhere in the console, converted on the server)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

#: the most a typed amount may be, in yuan (a typo of a few zeros is refused before any call)
MAX_YUAN = Decimal(10_000_000)


def fen_of(text: str, *, zero: bool = False) -> int | None:
    """Yuan as typed in fen; None for anything else, more than two decimals, or outside
    (0, MAX_YUAN] ([0, MAX_YUAN] with ``zero``: an event whose appeal fee is nil)."""
    try:
        yuan = Decimal(text.strip().replace(",", "").replace("，", ""))
    except InvalidOperation:
        return None
    if not yuan.is_finite() or yuan > MAX_YUAN or yuan != yuan.quantize(Decimal("0.01")):
        return None
    if yuan < 0 or (yuan == 0 and not zero):
        return None
    return int(yuan * 100)
