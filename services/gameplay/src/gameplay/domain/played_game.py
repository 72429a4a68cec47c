"""One game as the service plays it: the aggregate of its stored state and its engine state.

``PlayedGame`` holds the game's stored columns (what the ``games`` table keeps: players, clock,
status, version...) and the engine state rebuilt from its action log (``LiveGame``). Its methods
are the rules of play on top of the engine: who may act (partners for their own players only),
joining (PLAY-7), draws by agreement (PLAY-4), the server's clock and flag fall (PLAY-5), turn
order, no-show forfeits (PLAY-7) and the arbiter's corrections. Each returns a ``Change``, or
raises a ``GameRefusal``; ``prepare`` turns a change into the rows that store it. No I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..engine import IllegalAction
from ..engine.errors import CONFLICT_CODES
from .clocks import ClockState
from .errors import GameConflict, GameRefusal, InvalidAction, NotPermitted, game_over
from .game_ids import round_key
from .game_record import game_record
from .live import LiveGame, colour_result, other
from .outcome import REASONS, FinishedGame, Next, after_game, reason_name
from .round_start import clock_start, iso, refuse_before_start, rescheduled

#: the columns a plain move changes (besides version, phase, turn, colours, counters)
PLAIN_VALUES = frozenset(
    {"clock_first_ms", "clock_second_ms", "clock_running", "clock_since_ms", "flag_due_ms", "draw_offer_by"}
)
_ENGINE_REASONS = {contract: engine for engine, contract in REASONS.items()}


class Actor(Protocol):
    """Who acts: an API key's role, and the partner platform of a partner key (read only)."""

    @property
    def role(self) -> str: ...

    @property
    def partner_id(self) -> str | None: ...


@dataclass
class Change:
    """What one action does to a game: column values, logged actions, stream events, and a
    refusal to report after the change is stored (a flag that fell before the action)."""

    values: dict[str, Any] = field(default_factory=dict)
    actions: list[dict[str, Any]] = field(default_factory=list)
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    error: GameRefusal | None = None

    @property
    def empty(self) -> bool:
        return not (self.values or self.actions or self.events)


@dataclass
class GameWrite:
    """A change as it is stored: the game row's new values (``version`` included), the action
    rows and the stream-event rows, all checked against the version the change was judged on."""

    game_id: str
    judged_version: int
    values: dict[str, Any]
    actions: list[dict[str, Any]]
    events: list[dict[str, Any]]
    round_key: str
    at_ms: int
    #: one move that does not end the game and changes only the clock and draw-offer columns
    plain: bool = False


@dataclass(frozen=True)
class Ending:
    """How a game ends: its result columns and what follows in its pairing."""

    result: str | None
    reason: str
    winner: str | None
    foul: str | None
    outcome: dict[str, int] | None
    double_forfeit: bool
    next: Next

    def event_data(self) -> dict[str, Any]:
        return {
            "result": self.result,
            "reason": self.reason,
            "winner": self.winner,
            "foul": self.foul,
            "outcome": self.outcome,
            "double_forfeit": self.double_forfeit,
        }


def clock_of(columns: Mapping[str, Any]) -> ClockState:
    return ClockState(
        columns["clock_first_ms"],
        columns["clock_second_ms"],
        columns["increment_ms"],
        columns["clock_running"],
        columns["clock_since_ms"],
    )


def clock_after(columns: Mapping[str, Any], values: Mapping[str, Any]) -> ClockState:
    """The clock of ``columns`` with ``values`` written over them (without merging the two)."""
    return ClockState(
        values["clock_first_ms"] if "clock_first_ms" in values else columns["clock_first_ms"],
        values["clock_second_ms"] if "clock_second_ms" in values else columns["clock_second_ms"],
        columns["increment_ms"],
        values["clock_running"] if "clock_running" in values else columns["clock_running"],
        values["clock_since_ms"] if "clock_since_ms" in values else columns["clock_since_ms"],
    )


def clock_values(clock: ClockState) -> dict[str, Any]:
    return dict(
        clock_first_ms=clock.first_ms,
        clock_second_ms=clock.second_ms,
        clock_running=clock.running,
        clock_since_ms=clock.since_ms,
        flag_due_ms=clock.flag_due_ms,
    )


def readings(clock: ClockState, live: LiveGame, now: int) -> dict[str, Any]:
    """The clocks by colour as a player sees them."""
    remaining = clock.readings(now)
    black_role = live.role_of_colour("black")
    running = None
    if clock.running is not None:
        running = "black" if clock.running == black_role else "white"
    return {"black_ms": remaining[black_role], "white_ms": remaining[other(black_role)], "running": running}


def summary_of(columns: Mapping[str, Any]) -> dict[str, Any]:
    """A game in lists and action answers (``_version``: for the service's own use)."""
    return {
        "game_id": columns["game_id"],
        "event_code": columns["event_code"],
        "stage": columns["stage"],
        "section_id": columns["section_id"],
        "round": columns["round"],
        "pairing_id": columns["pairing_id"],
        "game_no": columns["game_no"],
        "black": columns["black"],
        "white": columns["white"],
        "status": columns["status"],
        "phase": columns["phase"],
        "to_act": columns["to_act"],
        "seq": columns["seq"],
        "result": columns["result"],
        "reason": columns["reason"],
        #: EVT-7: the round's scheduled start (no move before it)
        "starts_at": iso(columns.get("starts_ms")),
        # PLAY-9: "offline": played over the board (slips, records, a recorder; no server clock)
        "mode": columns.get("mode") or "online",
        "_version": columns["version"],
    }


def actor_role(columns: Mapping[str, Any], actor: Actor, player_id: str) -> str:
    """The acting player's role; partners act only for their own players, viewers never."""
    if player_id == columns["first_id"]:
        role = "first"
    elif player_id == columns["second_id"]:
        role = "second"
    else:
        raise InvalidAction("not_a_player", f"{player_id!r} does not play game {columns['game_id']}")
    if actor.role == "viewer":
        raise NotPermitted("read_only_key", "a viewer key reads games and cannot act in them")
    if actor.role == "partner":
        partner = columns["partner_a"] if player_id == columns["player_a"] else columns["partner_b"]
        if partner is None or partner != actor.partner_id:
            raise NotPermitted("not_your_player", f"this key may not act for {player_id!r}")
    return role


def illegal(exc: IllegalAction) -> GameRefusal:
    """An engine refusal as a game refusal (a conflict with the position, or a wrong input)."""
    details = {name: _jsonable(value) for name, value in exc.details.items()} or None
    refusal = GameConflict if exc.code in CONFLICT_CODES else InvalidAction
    return refusal(exc.code, exc.message, details)


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(item) for item in value]
    return value


@dataclass
class PlayedGame:
    columns: dict[str, Any]
    live: LiveGame

    @property
    def game_id(self) -> str:
        return self.columns["game_id"]

    @property
    def version(self) -> int:
        return self.columns["version"]

    @property
    def status(self) -> str:
        return self.columns["status"]

    @property
    def over_the_board(self) -> bool:
        """PLAY-9: a game of an offline section."""
        return self.columns.get("mode") == "offline"

    @property
    def is_over(self) -> bool:
        if self.over_the_board:  # the recorded moves may end it; only the arbiters' result does
            return self.status == "finished" or self.live.decided
        return self.status == "finished" or self.live.is_over

    def clock(self) -> ClockState:
        return clock_of(self.columns)

    def summary(self) -> dict[str, Any]:
        return summary_of(self.columns)

    def refuse_if_over(self) -> None:
        if self.is_over:
            raise game_over(self.columns["result"], self.columns["reason"], self.columns["winner"])

    # ------------------------------------------------------------------ player actions

    def authorize(self, actor: Actor, player_id: str) -> str:
        return actor_role(self.columns, actor, player_id)

    def decide(self, role: str, kind: str, data: dict[str, Any], now: int) -> Change:
        """What a player's action does to the game (mutates only the engine state)."""
        if self.over_the_board:
            raise GameConflict(
                "over_the_board",
                "this game is played over the board (PLAY-9): no player acts in it here; the "
                "arbiters enter its result slip and record, a recorder its moves",
            )
        self.refuse_if_over()
        if kind == "join":
            return self._join(role, now)
        if kind == "resign":
            return self._ending("resign", role)
        refuse_before_start(self.columns, now)
        if self.status != "active":
            raise GameConflict("not_started", "both players must join before the game starts (PLAY-7)")
        # the server decides time: a flag that fell before this action ends the game first (PLAY-5)
        clock = self.clock()
        flagged = clock.flagged(now)
        if flagged:
            change = self._flag_fall(flagged)
            change.error = GameConflict(
                "flagged", "the time ran out before this action", {"player_id": self.live.player(flagged[0])}
            )
            return change
        if kind == "draw":
            return self._draw(role, data.get("action"))
        return self._play(role, kind, data, now, clock)

    def _join(self, role: str, now: int) -> Change:
        """PLAY-7: presence; the second to join starts the clock of the side to move."""
        change = Change()
        column = f"joined_{role}"
        if self.columns[column]:
            return change
        change.values[column] = True
        change.events.append(("joined", {"player_id": self.live.player(role)}))
        if self.columns[f"joined_{other(role)}"] and self.status == "waiting":
            # EVT-7: the clock runs from the scheduled start (or from now, if later)
            started = self.clock().start(self.live.expected_role or "first", clock_start(self.columns, now))
            change.values.update(status="active", no_show_due_ms=None)
            change.values.update(clock_values(started))
            change.events.append(("started", {}))
        return change

    def _ending(self, kind: str, role: str | None) -> Change:
        """An action that ends the game without a move (resignation, agreed draw, no-show...)."""
        change = Change()
        self.live.apply(kind, role, {})
        change.actions.append(dict(kind=kind, role=role, player_id=self.live.player(role), data={}))
        return change

    def _flag_fall(self, flagged: list[str]) -> Change:
        """PLAY-5 / PLAY-4: one flag down loses on time; both down is a draw."""
        return self._ending("flag" if len(flagged) == 1 else "both_flags", flagged[0])

    def _draw(self, role: str, action: str | None) -> Change:
        """PLAY-4: offer, accept or decline a draw; two offers are an agreement."""
        player = self.live.player(role)
        offer = self.columns["draw_offer_by"]
        change = Change()
        if action == "offer":
            if offer == player:
                return change
            if offer is None:
                change.values["draw_offer_by"] = player
                change.events.append(("draw_offer", {"player_id": player}))
                return change
            action = "accept"  # both offered: that is agreement
        if offer is None or offer == player:
            raise GameConflict("no_draw_offer", "there is no draw offer from the opponent to answer")
        if action == "accept":
            return self._ending("draw_agreed", role)
        change.values["draw_offer_by"] = None
        change.events.append(("draw_declined", {"player_id": player}))
        return change

    def _play(self, role: str, kind: str, data: dict[str, Any], now: int, clock: ClockState) -> Change:
        """A move (or an opening step, or a pass) in turn, judged by the engine (``clock``: the
        game's clock before it)."""
        live = self.live
        if role != live.expected_role:
            raise GameConflict(
                "not_your_turn", "it is the other player's turn", {"expected": live.player(live.expected_role)}
            )
        try:
            live.apply(kind, role, data)
        except IllegalAction as exc:
            raise illegal(exc) from None
        player = live.player(role)
        think = now - clock.since_ms if clock.running == role and clock.since_ms is not None else None
        change = Change()
        change.actions.append(dict(kind=kind, role=role, player_id=player, data=data, think_ms=think))
        if self.columns["draw_offer_by"] is not None and self.columns["draw_offer_by"] != player:
            change.values["draw_offer_by"] = None  # a move declines the opponent's offer
        next_side = live.expected_role  # None once the game is over
        change.values.update(clock_values(clock.complete(role, next_side, now)))
        return change

    # ------------------------------------------------------------------ nobody acting

    def due_ending(self, now: int) -> tuple[str, Change] | None:
        """A no-show forfeit (PLAY-7) or a flag fall (PLAY-5) due at ``now``, as
        (``no_shows`` | ``double_forfeits`` | ``flags``, the change); None if nothing is due."""
        due = self.columns["no_show_due_ms"]
        if self.status == "waiting" and due is not None and due <= now:
            absent = [role for role in ("first", "second") if not self.columns[f"joined_{role}"]]
            if len(absent) == 2:
                return "double_forfeits", self._ending("double_no_show", None)
            return "no_shows", self._ending("no_show", absent[0])
        flagged = self.clock().flagged(now)
        if not flagged:
            return None
        return "flags", self._flag_fall(flagged)

    # ------------------------------------------------------------------ the arbiter

    def reschedule(self, new_starts: int, now: int) -> Change:
        """EVT-7: the arbiter delayed the round; nothing changes in a game under way or over."""
        values = rescheduled(self.columns, new_starts, now)
        if values is None:
            return Change()
        return Change(values=values, events=[("rescheduled", {"starts_at": iso(new_starts)})])

    def adjudicate(self, result: str, reason: str, decided_by: Mapping[str, str] | None = None) -> Change:
        """PLAY-4: the arbiter's decision with its recorded reason; ``decided_by``: who decided it
        (issue 29: ``by``, the person's name, and ``by_id``, their stable id), logged with it."""
        self.refuse_if_over()
        data = {"result": result, "note": reason, **(decided_by or {})}
        self.live.apply("arbiter", None, data)
        return Change(actions=[dict(kind="arbiter", role=None, player_id=None, data=dict(data))])

    def add_time(self, player_id: str, seconds: float, now: int, decided_by: Mapping[str, str] | None = None) -> Change:
        """PLAY-5: the arbiter adds (or deducts) time on a player's clock (``decided_by``: who, as
        for ``adjudicate``)."""
        self.refuse_if_over()
        role = self.live.role_of(player_id)
        if role is None:
            raise InvalidAction("not_a_player", f"{player_id!r} does not play game {self.game_id}")
        corrected = self.clock().add(role, int(round(seconds * 1000)), now)
        change = Change(values=clock_values(corrected))
        change.events.append(("time_added", {"player_id": player_id, "seconds": seconds, **(decided_by or {})}))
        return change

    # ------------------------------------------------------------------ storing a change

    def is_plain(self, change: Change) -> bool:
        """A move in an active game that does not end it: one action row, no other event, only
        the clock and draw-offer columns change (what the group-committed writer stores)."""
        return (
            change.error is None
            and len(change.actions) == 1
            and not change.events
            and not self.live.is_over
            and self.status == "active"
            and change.values.keys() <= PLAIN_VALUES
        )

    def ends_with(self) -> bool:
        """The last change ended the game (it was not finished before); an over-the-board game
        ends only with the arbiters' result (PLAY-9), not with the recorder's fifth stone."""
        if self.over_the_board and not self.live.decided:
            return False
        return self.live.is_over and self.status != "finished"

    def prepare(self, change: Change, now: int) -> GameWrite:
        """The game-row values, action rows and stream-event rows of a change."""
        live = self.live
        values = dict(change.values)
        clock = clock_after(self.columns, values)
        if self.ends_with():
            clock = clock.stop(now)
            values.update(clock_values(clock))
        seq = self.columns["seq"]
        n_actions = self.columns["n_actions"]
        clocks = readings(clock, live, now)
        moved: dict[str, Any] = {"moves": live.game.plies, "clocks": clocks}
        if live.game.rules.forbidden_moves:  # black's, after it: a page follows a white move unread
            moved["forbidden"] = live.forbidden()
        action_rows, event_rows = [], []
        for action in change.actions:
            n_actions += 1
            action_rows.append(
                dict(
                    game_id=self.game_id,
                    idx=n_actions,
                    kind=action["kind"],
                    role=action["role"],
                    player_id=action["player_id"],
                    data=action["data"],
                    at_ms=now,
                    think_ms=action.get("think_ms"),
                    clock=clocks,
                )
            )
            seq += 1
            data = {"action": action["kind"], "player_id": action["player_id"], **action["data"], **moved}
            event_rows.append(dict(seq=seq, kind="action", data=data))
        for kind, data in change.events:
            seq += 1
            event_rows.append(dict(seq=seq, kind=kind, data={**data, "clocks": clocks}))
        to_act = None
        if values.get("status", self.status) == "active" and not live.is_over:
            to_act = live.player(live.expected_role)
        values.update(phase=live.phase, to_act=to_act, n_actions=n_actions, black=live.black, white=live.white, seq=seq)
        values["version"] = self.version + 1
        key = round_key(self.columns["event_code"], self.columns["section_id"], self.columns["round"])
        return GameWrite(
            self.game_id, self.version, values, action_rows, event_rows, key, now, plain=self.is_plain(change)
        )

    def finish(self, write: GameWrite, earlier: list[tuple[str | None, str | None]], now: int) -> Ending:
        """The result columns of a game that just ended and what follows in its pairing;
        ``earlier``: (winner, contract reason) of the pairing's earlier games, in order."""
        result = self.live.result
        assert result is not None
        # both absent (PLAY-7) is a double forfeit, 0:0, never a draw
        colour = "double_forfeit" if self.live.double_forfeit else colour_result(result)
        reason = reason_name(result)
        winner = self.live.player(self.live.winner_role())
        write.values.update(
            status="finished",
            result=colour,
            reason=reason,
            foul=result.foul,
            winner=winner,
            flag_due_ms=None,
            no_show_due_ms=None,
            finished_ms=now,
            draw_offer_by=None,
            to_act=None,
        )
        # the pairing: its earlier games, then this one, seen as players a / b
        history = [FinishedGame(self.pairing_side(won), _ENGINE_REASONS.get(why, why)) for won, why in earlier]  # type: ignore[arg-type]
        history.append(FinishedGame(self.pairing_side(winner), result.reason.value, self.live.double_forfeit))
        following = after_game(self.columns["unit_kind"], history)
        outcome = None
        if following.game_no is None:
            outcome = {"first_points": following.a_points, "second_points": following.b_points}
            write.values["outcome"] = outcome
        ending = Ending(colour, reason, winner, result.foul, outcome, self.live.double_forfeit, following)  # type: ignore[arg-type]
        write.values["seq"] += 1
        finished = ending.event_data() | {"clocks": readings(clock_after(self.columns, write.values), self.live, now)}
        write.events.append(dict(seq=write.values["seq"], kind="finished", data=finished))
        return ending

    def pairing_side(self, player_id: str | None) -> str | None:
        """The pairing player ("a" moves first in game 1, or "b") a player id is."""
        return None if player_id is None else "a" if player_id == self.columns["player_a"] else "b"

    def after(self, write: GameWrite) -> dict[str, Any]:
        """The game's columns once ``write`` is stored."""
        return {**self.columns, **write.values}

    def stored(self, write: GameWrite, columns: dict[str, Any] | None = None) -> None:
        """The state after ``write`` was stored (``columns``: ``after(write)``, if made already)."""
        self.columns = self.after(write) if columns is None else columns

    # ------------------------------------------------------------------ the record

    def record(self, metas: list[dict[str, Any]], zone: Any) -> dict[str, Any]:
        """The game's record (PLAY-8): moves with timestamps, think time and clocks, opening, result."""
        return game_record(self.columns, self.live, metas, zone)
