"""REG-11: personal documents are personal data — never shown in full (reprs, logs, API)."""
from __future__ import annotations

from dataclasses import dataclass


def mask_id_number(value: str | None, keep_head: int = 4, keep_tail: int = 4) -> str:
    """'440301199001011234' -> '4403**********1234'. Short values are masked entirely."""
    if not value:
        return ""
    v = value.strip()
    if len(v) <= keep_head + keep_tail:
        return "*" * len(v)
    return v[:keep_head] + "*" * (len(v) - keep_head - keep_tail) + v[-keep_tail:]


@dataclass(frozen=True, eq=True)
class IdNumber:
    """An identity-document number. `str()`/`repr()` give the masked form; read `.value`
    only where the full number is really needed (e.g. the organiser's insurance list)."""

    value: str

    def __post_init__(self) -> None:
        if not self.value or not self.value.strip():
            raise ValueError("empty ID number")

    @property
    def masked(self) -> str:
        return mask_id_number(self.value)

    def __repr__(self) -> str:
        return f"IdNumber({self.masked!r})"

    __str__ = lambda self: self.masked  # noqa: E731

    def __format__(self, spec: str) -> str:
        return format(self.masked, spec)
