"""Over-the-board games of the simulation (PLAY-9, PLAY-10): the bots play at the venue, off
the server, on the engine referee (``offline.EngineGame``); a live recorder enters each step as
it is played (so spectators follow it like an online game), and when the game ends two arbiter
entries of the result slip (an entry and its confirmation) give gameplay the result.

A player who never comes to the board loses by no-show, one who stops moving loses on time
(both as the arbiters would write it on the slip); nothing waits for a server clock. Every
choice is the bots' pure function of the game (``bots.decide``), so runs are reproducible.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .bots import BotPolicy, decide
from .client import ApiError, Platform
from .offline import EngineGame

#: the bots' actions that are steps on the board (the recorder enters them)
BOARD_STEPS = ("opening", "swap", "move", "offers", "choose", "pass")
#: the engine's reasons as a slip writes them (gameplay's GameReason names)
SLIP_REASONS = {
    "five": "five",
    "forbidden": "forbidden",
    "resignation": "resignation",
    "draw_agreement": "agreement",
    "draw_passes": "passes",
    "draw_full_board": "full_board",
    "time_forfeit": "time",
}


@dataclass
class BoardGame:
    """One game at the venue: the referee, the recorder's secret and its next step number."""

    referee: EngineGame
    secret: str
    steps: int = 0


@dataclass
class Venue:
    platform: Platform
    policy: BotPolicy
    seed: int | str
    games: dict[str, BoardGame] = field(default_factory=dict)
    #: slips entered and confirmed, steps recorded (for the run's summary)
    slips: int = 0
    recorded: int = 0

    async def step(self, game_id: str) -> None:
        """One thing happens at the board of ``game_id``: a player's action (recorded when it is
        a step on the board), or the end of the game (its slip, entered and confirmed)."""
        board = self.games.get(game_id) or await self._sit_down(game_id)
        referee = board.referee
        view = referee.view()
        if not view.over:
            for player in sorted(set(view.players)):
                action = decide(view, player, self.policy, self.seed)
                if action is None:
                    continue
                referee.apply(player, action)
                if action.verb in BOARD_STEPS:
                    await self._record(game_id, board, action.verb, action.body)
                return
        result, reason = slip_of(referee)
        await self._enter_slip(game_id, result, reason)
        self.games.pop(game_id, None)

    async def _sit_down(self, game_id: str) -> BoardGame:
        game = await self.platform.get("gameplay", f"/v1/games/{game_id}")
        rules = game.get("rules") or {}
        referee = EngineGame(
            game_id,
            game["first"],
            game["second"],
            professional=rules.get("track") == "professional",
            fixed_n=rules.get("fixed_n"),
        )
        issued = await self.platform.post("gameplay", f"/v1/games/{game_id}/recorder", {}, role="arbiter")
        board = BoardGame(referee, issued["recorder_secret"])
        self.games[game_id] = board
        return board

    async def _record(self, game_id: str, board: BoardGame, verb: str, body: dict[str, Any]) -> None:
        step = {key: value for key, value in body.items() if key != "player_id"}
        board.steps += 1
        answer = await self.platform.post(
            "gameplay",
            f"/v1/games/{game_id}/recorded",
            {"kind": verb, **step, "step": board.steps},
            role=None,
            headers={"X-Recorder-Secret": board.secret},
        )
        if answer.get("flag"):
            raise RuntimeError(f"the recorder's step {verb} {step} in {game_id} was flagged: {answer['flag']}")
        self.recorded += 1

    async def _enter_slip(self, game_id: str, result: str, reason: str) -> None:
        """The slip, then its confirmation by a second entry (PLAY-9 double entry)."""
        path = f"/v1/games/{game_id}/slips"
        body = {"result": result, "reason": reason, "note": "simulated result slip"}
        first = await self.platform.post("gameplay", path, body, role="arbiter")
        pending = [slip for slip in first["slips"] if slip["status"] == "pending"]
        if pending:
            try:
                await self.platform.post("gameplay", path, {**body, "confirms": pending[-1]["slip"]}, role="operator")
            except ApiError as exc:
                if exc.code != "slip_confirmed":  # a retried confirmation that landed already
                    raise
        self.slips += 1


def over_the_board(game: Mapping[str, Any]) -> bool:
    """A game of an offline section (PLAY-9): played at the venue, not over the API."""
    return game.get("mode") == "offline"


def slip_of(referee: EngineGame) -> tuple[str, str]:
    """The result and reason the arbiters write on the slip of a game played (or abandoned) at
    the board."""
    result = referee.game.result
    if result is not None:
        reason = SLIP_REASONS.get(result.reason.value, "arbiter")
        return ("draw" if result.winner is None else result.winner.value), reason
    view = referee.view()
    absent = [player for player in (referee.first, referee.second) if player not in referee.joined]
    if len(absent) == 2:
        return "double_forfeit", "no_show"
    if absent:  # the one at the board wins by no-show; the first player holds black until a swap
        return ("white" if absent[0] == referee.first else "black"), "no_show"
    # both came, one stopped moving: the side to move loses on time
    loser = view.to_act
    return ("black" if loser == view.white else "white"), "time"
