"""Shared vocabulary of the event configuration: the strict, frozen base model and literals."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Gender = Literal["male", "female"]
GenderRule = Literal["male", "female", "mixed"]
RuleTrack = Literal["free", "professional"]
SectionKind = Literal["individual", "team"]
FormatKind = Literal["swiss", "round_robin"]

#: tiebreak criteria known to the pairing service (PAIR-7 individual, PAIR-10 team)
IndividualTiebreak = Literal[
    "points",  # 大分 / 积分
    "buchholz",  # 小分 (SZ online) / 对手分: sum of opponents' points
    "buchholz_of_buchholz",  # 小小分: sum of opponents' buchholz
    "median_buchholz",  # 中间对手分: buchholz without highest and lowest
    "sonneborn_berger",  # round-robin 小分 (Decision in PAIR-7)
    "wins",  # 胜局
]
TeamTiebreak = Literal[
    "match_points",
    "opp_match_points",
    "median_opp_match_points",
    "total_game_points",
    "sonneborn_berger_match",
    "board_1_points",
    "board_2_points",
    "board_3_points",
]


class _Model(BaseModel):
    # Presets are strict (typos in a preset must fail loudly) and configs are values. The
    # validators are built at first use, not at import: a service start-up needs few of them.
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
