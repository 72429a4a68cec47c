"""The per-player pairing data of a round, computed straight from the game list.

gacrux's crosstable starts a round by running its general tiebreak machinery
(``gacrux.tiebreak``) for eleven "tiebreaks" — points, pairing score, registration, games
played, colour difference and sequence, floats, topscorer — and then reads one value of each
per player. That machinery computes far more than pairing needs (ratings, wins, ranks after
every tiebreak, Decimal rating deltas), and it is about a quarter of a 128-player round.

:func:`pairing_records` computes those values alone, for the structure our adapter builds
(``swiss.gacrux_tournament``: an individual tournament, no acceleration, no score
adjustments, no game after the round before the one being paired). It follows the same
definitions, in the same Decimal arithmetic, so every value is equal and has the same
representation; :func:`supported` says when a tournament is outside that structure (the
caller then uses gacrux's own computation). The tests compare both on random and reference
tournaments, field by field.
"""

from __future__ import annotations

from decimal import Decimal

TYPE_CHECKING = False  # typing's own, without importing typing: pairing-engine's start-up (ADR 0013)
if TYPE_CHECKING:
    from typing import Any

    Record = dict[str, Any]

# Decimal constants parsed once, not per round and player (a Decimal is immutable)
_NO_POINTS = Decimal("0")
_POINT_FORMAT = Decimal("0.0")

# The float codes of one round (C.04.3 A.4): 1 down, 2 up; the previous round is shifted by 2 bits.
_DOWN, _UP = 1, 2
_FLOAT_MASK = 16


def supported(tournament: dict, current_round: int) -> bool:
    """Whether :func:`pairing_records` covers ``tournament`` (else use gacrux's tiebreaks)."""
    if tournament.get("teamTournament") or tournament.get("accelerated") is not None:
        return False
    if any(competitor.get("adjust") for competitor in tournament["competitors"]):
        return False
    return all(game["round"] <= current_round for game in tournament["gameList"])


def _points_of(scores: dict) -> Any:
    """A resolver of result letters to points, as gacrux's ``tiebreak.get_score`` resolves them
    (a letter may name another letter; an unplayed loss scores as ``Z``)."""
    resolved: dict[tuple[str, bool], Any] = {}

    def points(letter: str, played: bool) -> Any:
        key = (letter, played)
        if key not in resolved:
            value: Any = letter
            while isinstance(value, str) and value in scores:
                if value == "L" and played is False:
                    value = "Z"
                value = scores[value]
            resolved[key] = value
        return resolved[key]

    return points


def _rounds_of(tournament: dict, current_round: int, zero: Any) -> dict[int, list[tuple]]:
    """Per competitor, one (points, colour, played, opponent) per round 1..current_round
    (a round without a game: no points, white, unplayed, no opponent)."""
    points = _points_of(tournament["scoreSystem"]["game"])
    empty = (zero, "w", False, 0)
    rounds = {competitor["cid"]: [empty] * (current_round + 1) for competitor in tournament["competitors"]}
    for game in tournament["gameList"]:
        number, played = game["round"], game["played"]
        white, black = game["white"], game["black"]
        white_cid = white.get("cid", 0) if white is not None else 0
        black_cid = black.get("cid", 0) if black is not None else 0
        if white_cid > 0:
            rounds[white_cid][number] = (points(white["result"], played), "w", played, black_cid)
        if black_cid > 0:
            rounds[black_cid][number] = (points(black["result"], played), "b", played, white_cid)
    return rounds


def _history(games: list[tuple], current_round: int, win: Any, zero: Any) -> tuple[Any, list, dict, int, int, str]:
    """Points, the running pairing score per round, the opponents record (``NUM``), the rounds
    paired (``RIP``), the colour difference (``COD``) and sequence (``CSQ``) of one competitor."""
    total = zero
    running = _NO_POINTS
    scores = [_POINT_FORMAT]
    opponents: dict[str, Any] = {"desc": "NUM", "val": 0}  # as gacrux's tiebreak details
    paired = 0
    difference = 0
    sequence = ""
    for number in range(1, current_round + 1):
        points, colour, played, opponent = games[number]
        total += points
        running += points
        scores.append(running + _POINT_FORMAT)
        if played or opponent > 0:
            paired += 1
        if played and opponent > 0:
            difference += 1 if colour == "w" else -1
            sequence += colour
        if played:
            opponents[str(number)] = opponent
            if opponent > 0:
                opponents["val"] += 1
        elif points == win:
            opponents[str(number)] = 0
    return total, scores, opponents, paired, difference, sequence


def _floats(games: list[tuple], current_round: int, scores: list, all_scores: dict, loss: Any) -> int:
    """The float code of the last two rounds (``FLT``): a played game against a higher or lower
    pairing score floats up or down; a bye or an unplayed round with points floats down."""
    code = 0
    for number in range(1, current_round + 1):
        points, _, played, opponent = games[number]
        code *= 4
        if opponent > 0 and played:
            own, other = scores[number - 1], all_scores[opponent][number - 1]
        elif points > loss or played:
            own, other = 1, 0
        else:
            own, other = 0, 0
        if own > other:
            code += _DOWN
        elif own < other:
            code += _UP
    return code % _FLOAT_MASK


def pairing_records(tournament: dict, current_round: int) -> dict[int, Record]:
    """Per competitor id, the values gacrux's crosstable reads from its tiebreaks:
    ``rnk pts ptx acc acx rfp hst num rip cod csq flt top`` (``csq`` without the leading
    space, ``hst`` only its value: pairing, unlike checking, reads no more of it)."""
    scores_system = tournament["scoreSystem"]["game"]
    zero, win, loss = scores_system["Z"], scores_system["W"], scores_system["L"]
    rounds = _rounds_of(tournament, current_round, zero)
    histories = {cid: _history(games, current_round, win, zero) for cid, games in rounds.items()}
    all_scores = {cid: history[1] for cid, history in histories.items()}
    last = max(tournament.get("numRounds", 0), tournament.get("currentRound", 0)) - 1
    limit = win * last / Decimal("2.0")
    records = {}
    for competitor in tournament["competitors"]:
        cid = competitor["cid"]
        total, scores, opponents, paired, difference, sequence = histories[cid]
        present = competitor.get("present", True)
        records[cid] = {
            "rnk": competitor.get("rank", 0),
            "pts": total,
            "ptx": total,
            "acc": scores[-1],
            "acx": scores[-1],
            "rfp": present,
            "hst": {"val": "Y" if present else "N"},
            "num": opponents,
            "rip": paired,
            "cod": difference,
            "csq": sequence,
            "flt": _floats(rounds[cid], current_round, scores, all_scores, loss),
            "top": current_round >= last and scores[last] > limit,
        }
    return records
