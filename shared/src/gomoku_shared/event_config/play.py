"""Play rules of a section (gameplay and pairing read them): clock, format, opening, scoring,
team matches and playoffs."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from .base import FormatKind, _Model


class ClockConfig(_Model):
    """PLAY-5: sudden death (包干) or Fischer (每走一步加N秒). Seconds per player per game."""

    #: the kind of clock. The contracts' ClockSpec names the same thing `kind`; both travel in
    #: event payloads (event.configured carries this model), so renaming either changes the
    #: bytes of published events: left as it is until a contract version bump (issue 13)
    mode: Literal["sudden_death", "fischer"]
    base_s: Annotated[int, Field(gt=0)]
    increment_s: Annotated[int, Field(ge=0)] = 0

    @model_validator(mode="after")
    def _increment_matches_mode(self) -> ClockConfig:
        if self.mode == "sudden_death" and self.increment_s != 0:
            raise ValueError("increment_s must be 0 for a sudden_death clock")
        if self.mode == "fischer" and self.increment_s <= 0:
            raise ValueError("increment_s must be > 0 for a fischer clock")
        return self


class TwoGameRound(_Model):
    """PAIR-5 / PLAY-6: a round of two games, each player moving first once."""

    #: the player allotted the first move in game 1 plays black (DA: 先手方执黑); game 2 swaps
    first_mover_plays_black: bool = True
    game2_swaps_first_move: bool = True
    #: SZ: 30 min per player for the pair of games (15 per game): the shared budget, if any
    round_budget_s: Annotated[int, Field(gt=0)] | None = None
    #: PLAY-6 (SZ): a time loss in game 1 loses the whole round
    time_loss_in_game1_loses_round: bool = False


class FormatConfig(_Model):
    """PAIR-1: Swiss or round robin, fixed or chosen by the number of entries."""

    allowed: Annotated[list[FormatKind], Field(min_length=1)]
    #: fixed: allowed has one kind; by_entries: round robin up to round_robin_max_entries;
    #: arbiter: the chief arbiter chooses at closing (the seeds mostly say "视参赛人数而定")
    choice: Literal["fixed", "by_entries", "arbiter"] = "fixed"
    round_robin_max_entries: Annotated[int, Field(ge=2)] | None = None
    #: Swiss rounds when the seed fixes them (SZ online free 7 / pro 5); None = by entries
    rounds: Annotated[int, Field(ge=1)] | None = None
    #: PAIR-1: the most rounds of either format, checked at closing (NT 七(二) 不超过7轮)
    max_rounds: Annotated[int, Field(ge=1)] | None = None
    #: strict: closing refuses more; in_principle (DA 七(四) 原则上不超过7轮): the organiser may
    #: close with more rounds by giving a reason, which the close records
    max_rounds_binding: Literal["strict", "in_principle"] = "strict"
    games_per_round: Literal[1, 2] = 1
    two_game: TwoGameRound | None = None

    @model_validator(mode="after")
    def _consistent(self) -> FormatConfig:
        if len(set(self.allowed)) != len(self.allowed):
            raise ValueError("allowed lists a format twice")
        if self.choice == "fixed" and len(self.allowed) != 1:
            raise ValueError("choice 'fixed' needs exactly one allowed format")
        if self.choice == "by_entries":
            if set(self.allowed) != {"swiss", "round_robin"}:
                raise ValueError("choice 'by_entries' needs allowed = [swiss, round_robin]")
            if self.round_robin_max_entries is None:
                raise ValueError("choice 'by_entries' needs round_robin_max_entries")
        if (self.games_per_round == 2) != (self.two_game is not None):
            raise ValueError("two_game must be given exactly when games_per_round is 2")
        if self.rounds and self.max_rounds and self.rounds > self.max_rounds:
            raise ValueError(f"rounds {self.rounds} exceeds max_rounds {self.max_rounds}")
        if self.choice == "by_entries" and self.max_rounds and self.round_robin_max_entries:
            # PAIR-1: the round robin the preset picks by itself must keep the maximum (an odd
            # field of n plays n rounds, an even one n - 1)
            largest = max(n if n % 2 else n - 1 for n in range(2, self.round_robin_max_entries + 1))
            if largest > self.max_rounds:
                raise ValueError(
                    f"a round robin of up to {self.round_robin_max_entries} entries takes up to {largest} rounds,"
                    f" more than max_rounds {self.max_rounds}"
                )
        return self


class OpeningConfig(_Model):
    """PLAY-1..3: free opening (自由开局) or designated opening (指定开局, RIF/China 2013)."""

    rule: Literal["free", "designated"]
    swap_after_three: bool = False
    #: N of 五手N打 fixed by the section (NY: 2); None = declared by tentative black
    fifth_move_offers: Annotated[int, Field(ge=1)] | None = None
    forbidden_moves_for_black: bool = False
    forbidden_move_policy: Literal["loss", "reject"] = "loss"
    #: free rules: six or more also wins (PLAY-1 Decision); False = exactly five
    overline_wins: bool = True

    @model_validator(mode="after")
    def _consistent(self) -> OpeningConfig:
        if self.rule == "free" and (self.swap_after_three or self.fifth_move_offers):
            raise ValueError("a free opening has no swap or fifth-move offers")
        if self.forbidden_moves_for_black and self.overline_wins:
            raise ValueError("overline_wins must be false when black has forbidden moves")
        return self


class ScoringConfig(_Model):
    """PAIR-4 game points; PAIR-9 match points (required for team matches)."""

    win: int
    draw: int
    loss: int
    match_win: int | None = None
    match_draw: int | None = None
    match_loss: int | None = None

    @model_validator(mode="after")
    def _ordered(self) -> ScoringConfig:
        if not (self.win > self.draw >= self.loss):
            raise ValueError("points must satisfy win > draw >= loss")
        match_win, match_draw, match_loss = self.match_win, self.match_draw, self.match_loss
        if match_win is None and match_draw is None and match_loss is None:
            return self
        if match_win is None or match_draw is None or match_loss is None:
            raise ValueError("give all of match_win, match_draw, match_loss or none")
        if not (match_win > match_draw >= match_loss):
            raise ValueError("match points must satisfy win > draw >= loss")
        return self


class TeamMatchConfig(_Model):
    """PAIR-9: boards per match and which boards the first-listed team plays black on."""

    boards: Annotated[int, Field(ge=1)]
    first_team_black_on_boards: list[int]

    @model_validator(mode="after")
    def _boards_exist(self) -> TeamMatchConfig:
        bad = [b for b in self.first_team_black_on_boards if not 1 <= b <= self.boards]
        if bad:
            raise ValueError(f"first_team_black_on_boards has boards outside 1..{self.boards}: {bad}")
        return self


class PlayoffStage(_Model):
    games: Annotated[int, Field(ge=1)]
    clock: ClockConfig
    #: repeat single games until one is won (PLAY-PLAYOFF second phase)
    repeat_until_decided: bool = False


class PlayoffConfig(_Model):
    """PAIR-8 / PLAY-PLAYOFF."""

    #: playoff: play it; arbiter_decision: flag the tie for the arbiter (SZ online); shared: never
    policy: Literal["playoff", "arbiter_decision", "shared"]
    #: ties touching places 1..N are resolved (NY: medals only = 3); None = every awarded place
    places: Annotated[int, Field(ge=1)] | None = None
    #: ties at a qualification cut are also resolved
    qualification_cut: bool = True
    #: individual: the tied players; board_1: the teams' board-1 players (NT)
    played_by: Literal["individual", "board_1"] = "individual"
    stages: list[PlayoffStage] = []

    @model_validator(mode="after")
    def _stages_when_played(self) -> PlayoffConfig:
        if self.policy == "playoff" and not self.stages:
            raise ValueError("policy 'playoff' needs at least one playoff stage")
        return self
