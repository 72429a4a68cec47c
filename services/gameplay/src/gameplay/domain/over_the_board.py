"""Over-the-board games (PLAY-9, PLAY-10): result slips entered twice, game records checked by
the rules engine, and the moves of a live recorder. Pure functions, no I/O.

A game of an offline section has no server clock and no player acts in it over the API. Its
result is a **result slip** an arbiter (or a recorder) enters and a second entry by another
person confirms (issue 29: never the one who entered it): the confirmation names the slip it
confirms and must repeat its result and reason; a mismatch is kept beside the slip and nothing
counts until a new slip is confirmed.

Its **record** (NT 十二(五): every player records every game) is entered after the game, or
built move by move by a **recorder** while it is played. Either way the engine replays it; the
first step the rules refuse — an opening that is not one of the 26, a swap or fifth-move step out
of order, a forbidden move of black (professional rules), a move after the game was won — is
**flagged** with its ply and reason. A flagged record is stored and shown to the arbiter, who
accepts it or enters a corrected one; it is never accepted or dropped silently.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..engine import IllegalAction
from .errors import GameConflict, InvalidAction
from .live import SLIP_REASONS, LiveGame, Rules, colour_result
from .outcome import REASONS
from .played_game import Change, PlayedGame, illegal

#: PLAY-9: the results a slip can carry; its reasons are the keys of ``live.SLIP_REASONS``
SLIP_RESULTS = ("black", "white", "draw", "double_forfeit")
#: reasons of a drawn slip; every other reason names a winner
DRAW_REASONS = frozenset({"agreement", "arbiter", "passes", "full_board"})


# ---------------------------------------------------------------- result slips


@dataclass(frozen=True)
class Slip:
    """One entry of a result slip: what the arbiter read off the slip, and who entered it."""

    idx: int
    result: str
    reason: str
    entered_by: str
    #: pending (awaits its confirmation) | confirmed | mismatch (a confirmation that disagreed)
    #: | disputed (a pending slip a mismatching confirmation challenged)
    status: str = "pending"
    #: the slip this entry confirms (a confirmation), None for a first entry
    confirms: int | None = None
    #: issue 29: the person's stable id (``acct:<account>``, or the API key's id) and name;
    #: None on slips entered before staff accounts
    entered_by_id: str | None = None
    entered_by_name: str | None = None

    def same_result(self, other: Slip) -> bool:
        return (self.result, self.reason) == (other.result, other.reason)

    @property
    def person(self) -> str:
        """Who entered it: the stable id, or for an older slip the key id at the end of its
        ``entered_by`` (``role:partner:key``)."""
        return self.entered_by_id or self.entered_by.split(":", 2)[-1]


@dataclass(frozen=True)
class SlipVerdict:
    """What an entry does: the entry as stored, the status an earlier slip takes, and whether the
    game's result is now confirmed (it counts: the game ends with it)."""

    entry: Slip
    updated: Slip | None = None
    confirmed: bool = False
    #: the entry is a repeat of the pending first entry (a retried request): nothing changes
    repeat: bool = False


def check_slip_values(result: str, reason: str) -> None:
    """A slip's result and reason must fit together (a draw has no winner's reason)."""
    if result not in SLIP_RESULTS:
        raise InvalidAction("bad_result", f"a slip's result is one of {list(SLIP_RESULTS)}")
    if reason not in SLIP_REASONS:
        raise InvalidAction("bad_reason", f"a slip's reason is one of {list(SLIP_REASONS)}")
    if result == "draw" and reason not in DRAW_REASONS:
        raise InvalidAction("bad_reason", f"a drawn game's reason is one of {sorted(DRAW_REASONS)}")
    if result == "double_forfeit" and reason not in ("no_show", "arbiter"):
        raise InvalidAction("bad_reason", "a double forfeit's reason is no_show or arbiter")
    if result in ("black", "white") and reason in DRAW_REASONS - {"arbiter"}:
        raise InvalidAction("bad_reason", f"{reason} ends a game drawn, not won")


def judge_slip(slips: Sequence[Slip], entry: Slip) -> SlipVerdict:
    """PLAY-9 double entry: a first entry waits for its confirmation; a confirmation that repeats
    the pending slip's result and reason confirms it; one that differs is a mismatch (shown,
    nothing scored: the pending slip is disputed and a new slip must be entered)."""
    check_slip_values(entry.result, entry.reason)
    if any(slip.status == "confirmed" for slip in slips):
        raise GameConflict("slip_confirmed", "this game's result slip is confirmed already")
    pending = next((slip for slip in reversed(slips) if slip.status == "pending"), None)
    if entry.confirms is None:
        if pending is not None and pending.same_result(entry) and pending.person == entry.person:
            return SlipVerdict(pending, repeat=True)
        if pending is not None:
            raise GameConflict(
                "slip_pending",
                f"slip {pending.idx} awaits its confirmation: confirm it (confirms={pending.idx}) first",
                {"pending": slip_view(pending)},
            )
        return SlipVerdict(entry)
    if pending is None or pending.idx != entry.confirms:
        raise GameConflict(
            "no_such_pending_slip",
            f"slip {entry.confirms} is not awaiting a confirmation",
            {"pending": slip_view(pending) if pending else None},
        )
    if pending.person == entry.person:
        raise same_person_confirms(pending)
    if pending.same_result(entry):
        return SlipVerdict(_with(entry, "confirmed"), _with(pending, "confirmed"), confirmed=True)
    return SlipVerdict(_with(entry, "mismatch"), _with(pending, "disputed"))


#: issue 29: the words of the refusal of a confirmation by the person who entered the slip
SAME_PERSON_WORDS = {
    "zh": "记分单须由录入者以外的另一位裁判确认：录入者本人不能确认自己录入的记分单。",
    "en": "A result slip must be confirmed by another person: whoever entered it cannot confirm it.",
}


def same_person_confirms(pending: Slip) -> GameConflict:
    """409 ``same_person_confirms`` (issue 29): the double entry needs two people."""
    return GameConflict(
        "same_person_confirms",
        SAME_PERSON_WORDS["en"],
        {"slip": pending.idx, "entered_by": pending.entered_by_name or pending.person, "words": SAME_PERSON_WORDS},
    )


def _with(slip: Slip, status: str) -> Slip:
    return replace(slip, status=status)


def slip_view(slip: Slip) -> dict[str, Any]:
    return {
        "slip": slip.idx,
        "result": slip.result,
        "reason": slip.reason,
        "status": slip.status,
        "confirms": slip.confirms,
        "entered_by": slip.entered_by,
        "entered_by_id": slip.person,
        "entered_by_name": slip.entered_by_name,
    }


def slip_action(slip: Slip, note: str) -> dict[str, Any]:
    """The ``slip`` action that ends the game (LiveGame)."""
    return {"result": slip.result, "reason": slip.reason, "note": note or f"result slip {slip.idx}"}


# ---------------------------------------------------------------- records


@dataclass(frozen=True)
class Flag:
    """A step of a record the rules refuse: its ply (1-based stone count), code and reason."""

    ply: int
    code: str
    reason: str
    move: str | None = None

    def view(self) -> dict[str, Any]:
        return {"ply": self.ply, "code": self.code, "reason": self.reason, "move": self.move}


@dataclass
class RecordCheck:
    """A record replayed on the engine: the actions accepted, the first flag (None when valid),
    and the result the moves give (None when the record does not end the game)."""

    actions: list[tuple[str, str | None, dict[str, Any]]] = field(default_factory=list)
    flags: list[Flag] = field(default_factory=list)
    result: str | None = None
    reason: str | None = None

    @property
    def flagged(self) -> bool:
        return bool(self.flags)


def record_steps(rules: Rules, moves: Sequence[str], opening: Mapping[str, Any] | None) -> list[tuple[str, dict]]:
    """A record (the stones in order, plus the opening's choices under professional rules: N,
    the swap, black's fifth-move offers) as the action steps a game would have logged."""
    points = [move.lower() for move in moves]
    if rules.track != "professional":
        return [("pass", {}) if point == "pass" else ("move", {"point": point}) for point in points]
    opening = opening or {}
    steps: list[tuple[str, dict]] = []
    if len(points) >= 3:
        steps.append(("opening", {"stones": points[:3], "n": opening.get("n")}))
        steps.append(("swap", {"swap": bool(opening.get("swapped", False))}))
    else:
        steps.extend(("move", {"point": point}) for point in points)
        return steps
    if len(points) >= 4:
        steps.append(("move", {"point": points[3]}))
    if len(points) >= 5:
        offers = [str(point).lower() for point in opening.get("offers") or [points[4]]]
        steps.append(("offers", {"points": offers}))
        steps.append(("choose", {"point": points[4]}))
    steps.extend(("pass", {}) if point == "pass" else ("move", {"point": point}) for point in points[5:])
    return steps


def after_end(live: LiveGame, ply: int, shown: str | None) -> Flag:
    """A step after five in a row (or another end the moves reached)."""
    how = live.result.reason.value if live.result is not None else "over"
    return Flag(ply, "after_end", f"a move after the game ended ({how})", shown)


def _plies(kind: str) -> int:
    return {"opening": 3, "move": 1, "choose": 1, "pass": 1}.get(kind, 0)


def check_record(
    rules: Rules, first: str, second: str, moves: Sequence[str], opening: Mapping[str, Any] | None
) -> RecordCheck:
    """PLAY-9 / PLAY-2 / PLAY-3: replay a record on the engine, flagging the first step it
    refuses (or a forbidden move of black it would score as a loss, or a move after the end)."""
    live = LiveGame(rules, first, second)
    check = RecordCheck()
    ply = 0
    for kind, data in record_steps(rules, moves, opening):
        role = live.expected_role
        step_ply = ply + max(1, _plies(kind))
        shown = data.get("point") or (" ".join(data["stones"]) if "stones" in data else None)
        if live.is_over:
            check.flags.append(after_end(live, step_ply, shown))
            break
        try:
            live.apply(kind, role, data)
        except IllegalAction as exc:
            code = "illegal_opening" if kind in ("opening", "swap", "offers", "choose") else exc.code
            check.flags.append(Flag(step_ply, code, exc.message, shown))
            break
        ply += _plies(kind)
        check.actions.append((kind, role, data))
        history = live.game.history
        if kind in ("move", "choose") and history and history[-1].foul:
            foul = history[-1].foul
            check.flags.append(Flag(ply, "forbidden", f"black's {shown} is a forbidden {foul} (PLAY-3)", shown))
            break
    if live.result is not None:
        check.result = colour_result(live.result)
        check.reason = REASONS.get(live.result.reason.value, live.result.reason.value)
    return check


def disagreement(check: RecordCheck, result: str | None, reason: str | None) -> Flag | None:
    """A valid record whose moves end the game otherwise than the confirmed slip says."""
    if check.flagged or result is None or check.result is None or result == "double_forfeit":
        return None
    if check.result != result:
        return Flag(
            len(check.actions), "slip_disagrees", f"the moves give {check.result} ({check.reason}), the slip {result}"
        )
    return None


# ---------------------------------------------------------------- the live recorder

#: the recorder's steps (PLAY-10): what the players do at the board, in order
RECORDER_KINDS = ("opening", "swap", "move", "offers", "choose", "pass")
#: engine refusals that are a typing slip of the recorder (refused at once, nothing stored)
TYPING_CODES = frozenset({"off_board", "occupied"})


def is_repeat(game: PlayedGame, step: int | None) -> bool:
    """PLAY-10: the recorder numbers its steps (1, 2 ...): a step the game holds already is a
    retried request (nothing changes); one past the next is refused."""
    if step is None:
        return False
    done = int(game.columns["n_actions"])
    if step > done + 1:
        raise GameConflict("step_gap", f"the game holds {done} recorded steps: the next is step {done + 1}")
    return step <= done


def recorder_step(game: PlayedGame, kind: str, data: dict[str, Any]) -> tuple[Change, Flag | None]:
    """PLAY-10: one step the recorder saw at the board, for the side to move. A step the rules
    refuse (an illegal opening step, black's forbidden point, a move after five) is not put on
    the board: it comes back as a flag (stored for the arbiter, shown on the live stream)."""
    if not game.over_the_board:
        raise GameConflict("not_over_the_board", "only a game of an offline section has a recorder (PLAY-10)")
    if game.status == "finished" or game.live.decided:
        raise GameConflict("game_over", "the game's result is in: nothing more is recorded")
    if kind not in RECORDER_KINDS:
        raise InvalidAction("bad_step", f"a recorded step is one of {list(RECORDER_KINDS)}")
    live = game.live
    role = live.expected_role
    shown = data.get("point") or (" ".join(data.get("stones") or []) or None)
    ply = len(live.game.history) + 1
    if live.is_over:
        return _flagged(game, after_end(live, ply, shown))
    point = data.get("point")
    if kind in ("move", "choose") and isinstance(point, str) and point in live.forbidden():
        foul = live.forbidden()[point]
        return _flagged(game, Flag(ply, "forbidden", f"black's {point} is a forbidden {foul} (PLAY-3)", point))
    try:
        live.apply(kind, role, data)
    except IllegalAction as exc:
        if exc.code in TYPING_CODES:
            raise illegal(exc) from None
        code = "illegal_opening" if kind in ("opening", "swap", "offers", "choose") else exc.code
        return _flagged(game, Flag(ply, code, exc.message, shown))
    change = Change(values={} if game.status == "active" else {"status": "active"})
    change.actions.append(dict(kind=kind, role=role, player_id=live.player(role), data=data, think_ms=None))
    return change, None


def _flagged(game: PlayedGame, flag: Flag) -> tuple[Change, Flag]:
    return Change(events=[("flagged", {"flag": flag.view(), "source": "recorder"})]), flag
