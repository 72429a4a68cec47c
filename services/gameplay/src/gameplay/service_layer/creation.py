"""Games from events: a round's games from ``round.paired``, a playoff's from
``playoff.required``, and the next game of a pairing when one ends (two-game rounds, playoffs).
A new game is announced with ``game.created`` (its players may join); the next game of a
pairing whose players are present starts at once, with ``game.started`` too (else that comes
when both have joined: ``finishing.save_change``). A game whose pairing the arbiter decided
before it existed starts closed by that decision."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from gomoku_shared.contracts.events import PairingSpec, PlayoffRequired, RoundPaired

from ..domain.clocks import ClockState
from ..domain.game_ids import event_id, game_id_for, round_key
from ..domain.game_started import game_created, game_started
from . import arbiter_decisions
from .unit_of_work import GameplayUnitOfWork


def epoch_ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


@dataclass(frozen=True)
class NewGame:
    """One game to create: where it belongs, who plays it, how it starts."""

    event_code: str
    stage: str
    section_id: str
    round_no: int
    spec: PairingSpec
    #: single | two_game | playoff: how the pairing continues after this game
    unit_kind: str
    game_no: int
    #: the pairing player ("a" or "b") who moves first in this game
    first_mover: str
    clock: dict[str, Any]
    playoff_id: str | None
    no_show_due: int | None
    extra: dict[str, Any] | None = None
    #: from the pairing's previous game: both present (the clock starts at once), a round clock
    carry: dict[str, Any] | None = None
    #: EVT-7: the round's scheduled start (epoch ms); None: the game starts when both are present
    starts_ms: int | None = None
    #: PLAY-9: "offline": over the board (no server clock, no no-show deadline, no player acts here)
    mode: str = "online"

    @property
    def game_id(self) -> str:
        return game_id_for(
            self.event_code,
            self.stage,
            self.section_id,
            self.round_no,
            self.spec.pairing_id,
            self.game_no,
            self.playoff_id,
        )


async def on_round_paired(uow: GameplayUnitOfWork, paired: RoundPaired, occurred_at: datetime) -> None:
    start_ms = epoch_ms(paired.starts_at or occurred_at)
    for spec in paired.pairings:
        game = NewGame(
            paired.event_code,
            paired.stage,
            paired.section_id,
            paired.round,
            spec,
            "two_game" if spec.games >= 2 else "single",
            1,
            first_mover="a",
            clock=spec.clock.model_dump(),
            playoff_id=None,
            no_show_due=start_ms + paired.no_show_minutes * 60_000,
            # EVT-7: no move before the round's start; clock and no-show limit run from it
            starts_ms=start_ms,
            mode=paired.mode,
        )
        await create(uow, game)


async def on_playoff_required(uow: GameplayUnitOfWork, required: PlayoffRequired, occurred_at: datetime) -> None:
    start_ms = epoch_ms(required.starts_at or occurred_at)
    due = None if required.no_show_minutes is None else start_ms + required.no_show_minutes * 60_000
    for spec in required.pairings:
        game = NewGame(
            required.event_code,
            required.stage,
            required.section_id,
            0,
            spec,
            "playoff",
            1,
            first_mover="a",
            clock=spec.clock.model_dump(),
            playoff_id=required.playoff_id,
            no_show_due=due,
            extra={"decider_clock": (required.decider_clock or spec.clock).model_dump()},
            mode=required.mode,
        )
        await create(uow, game)


async def create(uow: GameplayUnitOfWork, new: NewGame) -> None:
    game_id = new.game_id
    if await uow.games.exists(game_id):
        return  # already created (a redelivered event whose inbox row was lost with a crash)
    now = epoch_ms(uow.clock.now())
    columns = _columns(new, now)
    first, second = columns["first_id"], columns["second_id"]
    created = {"game_id": game_id, "black": first, "white": second, "game_no": new.game_no, "status": columns["status"]}
    key = round_key(new.event_code, new.section_id, new.round_no)
    await uow.games.add(columns, dict(seq=1, round_key=key, kind="created", data=created, at_ms=now))
    await uow.emit(game_created(columns), event_id=event_id(game_id, "created"))
    if columns["status"] == "active":  # both present from the pairing's previous game
        await uow.emit(game_started(columns, now), event_id=event_id(game_id, "started"))
    decided = await uow.decisions.for_game(columns)
    if decided is not None:  # the arbiter's result arrived before the game existed
        stored = await uow.games.get(game_id)
        assert stored is not None
        await arbiter_decisions.apply(uow, [stored.columns], decided)


def _columns(new: NewGame, now: int) -> dict[str, Any]:
    """The stored state of a new game: waiting for both players, or (its pairing's next game,
    both present) started at once with the clock running."""
    spec = new.spec
    player_a, player_b = spec.first, spec.second
    first, second = (player_a, player_b) if new.first_mover == "a" else (player_b, player_a)
    base = int(new.clock["base_s"]) * 1000
    increment = int(new.clock.get("increment_s", 0)) * 1000 if new.clock.get("kind") == "fischer" else 0
    clocks = {"first": base, "second": base}
    carry = new.carry or {}
    if carry.get("clock"):  # two-game round clock kept for the pair (PLAY-5, SZ)
        clocks = {"first": carry["clock"][first], "second": carry["clock"][second]}
    # PLAY-9: over the board nobody joins on the server and no server clock runs
    offline = new.mode == "offline"
    present = bool(carry.get("present")) and not offline
    clock = ClockState(clocks["first"], clocks["second"], increment)
    if present:
        clock = clock.start("first", now)
    spec_json = spec.model_dump(mode="json")
    spec_json.update(new.extra or {})
    return dict(
        game_id=new.game_id,
        event_code=new.event_code,
        stage=new.stage,
        section_id=new.section_id,
        round=new.round_no,
        pairing_id=spec.pairing_id,
        game_no=new.game_no,
        unit_kind=new.unit_kind,
        playoff_id=new.playoff_id,
        player_a=player_a,
        player_b=player_b,
        partner_a=spec.first_partner,
        partner_b=spec.second_partner,
        first_id=first,
        second_id=second,
        black=first,
        white=second,
        rules=spec.ruleset.model_dump(mode="json"),
        clock_spec=dict(new.clock),
        spec=spec_json,
        status="active" if present else "waiting",
        phase="opening" if spec.ruleset.track == "professional" else "play",
        to_act=first if present else None,
        version=1,
        seq=1,
        n_actions=0,
        joined_first=present,
        joined_second=present,
        draw_offer_by=None,
        clock_first_ms=clock.first_ms,
        clock_second_ms=clock.second_ms,
        increment_ms=increment,
        clock_running=clock.running,
        clock_since_ms=clock.since_ms,
        flag_due_ms=clock.flag_due_ms,
        no_show_due_ms=None if present or offline else new.no_show_due,
        created_ms=now,
        starts_ms=new.starts_ms,
        mode=new.mode,
    )
