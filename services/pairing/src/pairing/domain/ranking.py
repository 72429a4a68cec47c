"""Ranking rows by points and a section's tiebreak order, with shared places (PAIR-7, PAIR-8)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class StandingRow:
    place: int  # first place of the tie group (1-based)
    place_to: int  # last place of the tie group (== place when not shared)
    id: int  # start number (player) or team id
    name: str
    values: Mapping[str, float]  # every tiebreak value listed, in the section's order
    gender: str = ""

    @property
    def shared(self) -> bool:
        return self.place_to != self.place

    @property
    def place_label(self) -> str:
        return f"{self.place}-{self.place_to}" if self.shared else str(self.place)

    def as_dict(self) -> dict:
        return {
            "place": self.place,
            "place_label": self.place_label,
            "shared": self.shared,
            "id": self.id,
            "name": self.name,
            "gender": self.gender,
            **dict(self.values),
        }


def rank(
    ids: Sequence[int],
    values: Mapping[int, Mapping[str, float]],
    order: Sequence[str],
    names: Mapping[int, str] | None = None,
    genders: Mapping[int, str] | None = None,
) -> list[StandingRow]:
    """Sort by ``order`` (all descending); players equal on every key share the places.

    Inside a shared group rows are listed by id, only so the output is deterministic.
    """

    def key(pid: int) -> tuple[float, ...]:
        return tuple(-round(float(values[pid][name]), 9) for name in order)

    ordered = sorted(ids, key=lambda i: (key(i), i))
    rows: list[StandingRow] = []
    pos = 0
    while pos < len(ordered):
        end = pos
        while end + 1 < len(ordered) and key(ordered[end + 1]) == key(ordered[pos]):
            end += 1
        for pid in ordered[pos : end + 1]:
            rows.append(
                StandingRow(
                    pos + 1,
                    end + 1,
                    pid,
                    (names or {}).get(pid, ""),
                    {name: values[pid][name] for name in order},
                    (genders or {}).get(pid, ""),
                )
            )
        pos = end + 1
    return rows
