"""REG-11: personal documents are personal data — never shown in full (reprs, logs, API)."""

from __future__ import annotations

from dataclasses import dataclass

from gomoku_shared.masking import mask_tail


def mask_id_number(value: str | None, keep_tail: int = 4) -> str:
    """'440301199001011234' -> '**************1234'. Only the tail is shown: the head of a
    Chinese ID number is the place of registration and the middle the birth date, so showing
    them next to a name, gender and birth year would narrow the number down to a handful of
    candidates (REG-11; views show the birth year only). Short values are masked entirely, and
    every mask has the same width whatever the number's length (a mask that kept the
    length told a passport from an ID card)."""
    return mask_tail(value, keep_tail)


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

    def __str__(self) -> str:
        return self.masked

    def __format__(self, spec: str) -> str:
        return format(self.masked, spec)


def mask_phone(value: str) -> str:
    """'13812345678' -> '138****5678': the first three and last four digits (how phone numbers
    are masked in China); a short number is masked but for its last two digits."""
    digits = "".join(ch for ch in value if ch.isdigit())
    if len(digits) < 9:
        return "*" * 6 + digits[-2:]
    return digits[:3] + "****" + digits[-4:]
