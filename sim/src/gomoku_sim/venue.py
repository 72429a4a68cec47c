"""Over-the-board games of the simulation (PLAY-9, PLAY-10): the bots play at the venue, off
the server, on the engine referee (``offline.EngineGame``); a live recorder enters each step as
it is played (so spectators follow it like an online game), and when the game ends two arbiter
entries of the result slip (an entry and its confirmation) give gameplay the result.

After the game the players' written record is entered (PLAY-9, NT 十二(五): every player records
every game) and checked by the rules engine. Once per run a record comes in with a writing slip —
black's stone on a forbidden point (PLAY-3) — so the path of a flagged record is played too: the
engine flags it, the arbiter finds it in the event's flagged records and enters the corrected one.

A player who never comes to the board loses by no-show, one who stops moving loses on time
(both as the arbiters would write it on the slip); nothing waits for a server clock. Every
choice is the bots' pure function of the game (``bots.decide``), so runs are reproducible.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gameplay.engine import Game, RuleSet, to_notation

from .bots import BotPolicy, decide
from .client import ApiError, Platform, all_items
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
    #: PLAY-9: records entered after the game (valid as entered, or as corrected by the arbiter)
    records: int = 0
    #: how many written records still come in with a forbidden move (the flagged path, once a run)
    misrecords_left: int = 1
    #: the flagged entries the arbiter found in the event's list, and the corrections entered
    flagged: list[dict[str, Any]] = field(default_factory=list)
    corrected: int = 0

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
        await self._enter_record(game_id, referee)
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

    async def _enter_record(self, game_id: str, referee: EngineGame) -> None:
        """PLAY-9: the players' written record, entered after the game; a record with a forbidden
        move must come back flagged, be listed for the arbiter, and be corrected."""
        written = written_record(referee)
        if written is None:  # nothing was played at the board (a no-show)
            return
        path = f"/v1/games/{game_id}/record-entries"
        slipped = misrecorded(referee) if self.misrecords_left > 0 else None
        if slipped is not None:
            self.misrecords_left -= 1
            entry = await self.platform.post("gameplay", path, {**written, "moves": slipped}, role="arbiter")
            if entry["status"] != "flagged":
                raise RuntimeError(f"a record of {game_id} with a forbidden move was not flagged: {entry}")
            event_code = game_id.split(".", 1)[0]
            path_flags = f"/v1/events/{event_code}/record-flags"
            listed = await all_items(self.platform, "gameplay", path_flags, "entries", role="arbiter")
            self.flagged.extend(item for item in listed if item["game_id"] == game_id)
        entry = await self.platform.post("gameplay", path, written, role="arbiter")
        if entry["status"] != "valid":
            raise RuntimeError(f"the record of {game_id} as played was flagged: {entry['flags']}")
        self.records += 1
        self.corrected += slipped is not None


def written_record(referee: EngineGame) -> dict[str, Any] | None:
    """The record body of a game as it was played: its stones (``h8`` ... or ``pass``) and, under
    professional rules, the opening's choices (declared N, swap, fifth-move offers)."""
    moves = ["pass" if point is None else to_notation(point) for point in referee.game.moves]
    if not moves:
        return None
    body: dict[str, Any] = {"moves": moves}
    if referee.professional:
        opening: dict[str, Any] = {"n": None, "swapped": False, "offers": []}
        for _player, verb, data in referee.actions:
            if verb == "opening":
                opening["n"] = data.get("n")
            elif verb == "swap":
                opening["swapped"] = bool(data["swap"])
            elif verb == "offers":
                opening["offers"] = list(data["points"])
        body["opening"] = opening
    return body


def misrecorded(referee: EngineGame) -> list[str] | None:
    """A writing slip in the record of a professional game: at the first of black's moves after
    the opening where black had a forbidden point (PLAY-3), the record shows black's stone there
    (and stops). None when the game never offered one."""
    if not referee.professional:
        return None
    replay = Game(RuleSet.professional())
    moves = referee.game.moves
    for ply, point in enumerate(moves):
        if ply >= 6 and replay.next_colour.value == "black" and not replay.is_over:
            forbidden = sorted(replay.forbidden_points())
            if forbidden:
                played = ["pass" if stone is None else to_notation(stone) for stone in moves[:ply]]
                return [*played, to_notation(forbidden[0])]
        if point is None:
            replay.pass_()
        else:
            replay.play(point)
    return None


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
