"""One truth for every result: do the services agree about an event? Read only through their
public HTTP APIs with an operator key (never their databases), so the same check runs after a
simulation and against live services.

    report = await check(reader, "sz-2022")
    report.assert_consistent()     # AssertionError naming the first disagreement

Three parts, each optional (``parts``):

* ``games``: every round game in gameplay belongs to a pairing that pairing knows; every pairing
  with a result has its games finished in gameplay with that same result (the pairing's outcome
  as gameplay's games give it: winner, round points, forfeit, double forfeit); where pairing
  scored the games themselves, each game's result equals the one pairing recorded; playoff games
  give the match winners pairing recorded.
* ``awards``: the standings awards published for each completed section (its current
  publication) are pairing's final standings, of the same revision.
* ``field``: every accepted entry (not marked absent; accepted pending evidence included) of a
  closed registration section appears exactly once in the field of the pairing section that
  plays it (itself, or the one it was merged into); a team entry's players, board by board,
  are the members pairing pairs (REG-9).

``reader`` is anything with ``async get(service, path, params=None)`` returning the decoded JSON
and raising on a 4xx (``gomoku_sim.client.Platform`` is one).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Protocol

from .client import all_games

PARTS = ("games", "awards", "field")
#: entry statuses of registration's views that are in the field (accepted; accepted while an
#: arbiter has still to approve the evidence, REG-18)
ACCEPTED = ("accepted", "accepted_pending_evidence")


class Reader(Protocol):
    async def get(self, service: str, path: str, params: dict[str, Any] | None = None) -> Any: ...


@dataclass(frozen=True)
class Disagreement:
    part: str
    where: str
    what: str

    def __str__(self) -> str:
        return f"[{self.part}] {self.where}: {self.what}"


@dataclass
class Report:
    event_code: str
    disagreements: list[Disagreement] = field(default_factory=list)
    #: how much was compared, by kind (pairings, games, standings rows, entries ...)
    checked: Counter = field(default_factory=Counter)

    @property
    def ok(self) -> bool:
        return not self.disagreements

    def add(self, part: str, where: str, what: str) -> None:
        self.disagreements.append(Disagreement(part, where, what))

    def assert_consistent(self) -> None:
        if self.disagreements:
            more = len(self.disagreements) - 1
            raise AssertionError(
                f"{self.event_code}: the services disagree: {self.disagreements[0]}"
                + (f" (and {more} more)" if more else "")
            )


async def check(reader: Reader, event_code: str, parts: tuple[str, ...] = PARTS) -> Report:
    report = Report(event_code)
    sections = (await reader.get("pairing", f"/v1/events/{event_code}/sections"))["sections"]
    if "games" in parts:
        await _games(reader, event_code, sections, report)
    if "awards" in parts:
        await _awards(reader, event_code, sections, report)
    if "field" in parts:
        await _field(reader, event_code, sections, report)
    return report


# ---------------------------------------------------------------- games


def pairing_result_of_games(games: list[dict[str, Any]]) -> str | None:
    """A pairing's result as gameplay's games give it, in pairing's result names; None while a
    game is open or the pairing goes on. Round points are on the last game, from the pairing's
    first player's side; a forfeit ends the pairing with a no-show (PAIR-6, PLAY-7)."""
    games = sorted(games, key=lambda g: g["game_no"])
    last = games[-1]
    if any(g["status"] != "finished" for g in games) or not last.get("outcome"):
        return None
    if last["result"] == "double_forfeit":
        return "double_forfeit"
    first_points, second_points = last["outcome"]["first_points"], last["outcome"]["second_points"]
    forfeit = "_forfeit_win" if last["reason"] == "no_show" else "_wins"
    if first_points > second_points:
        return "first" + forfeit
    if second_points > first_points:
        return "second" + forfeit
    return "draw"


async def _games(reader: Reader, code: str, sections: list[dict], report: Report) -> None:
    listed = await all_games(reader, {"event_code": code})
    by_pairing: dict[tuple, list[dict]] = defaultdict(list)
    by_playoff: dict[tuple, list[dict]] = defaultdict(list)
    for g in listed:
        if g.get("playoff_id"):
            by_playoff[(g["section_id"], g["playoff_id"], g["pairing_id"])].append(g)
        else:
            by_pairing[(g["section_id"], g["round"], g["pairing_id"])].append(g)
    report.checked["games"] += len(listed)
    known: set[tuple] = set()
    for section in sections:
        sid = section["section_id"]
        if section["status"] == "cancelled":
            continue
        for round_no in range(1, (section.get("current_round") or 0) + 1):
            try:
                rnd = await reader.get("pairing", f"/v1/events/{code}/sections/{sid}/rounds/{round_no}")
            except Exception as exc:  # noqa: BLE001
                if getattr(exc, "status", None) == 404:
                    continue  # a round the arbiter has not paired (yet)
                raise
            if rnd["status"] == "draft":
                continue
            for pairing in rnd["pairings"]:
                key = (sid, round_no, pairing["pairing_id"])
                known.add(key)
                _one_pairing(
                    report,
                    f"{sid} round {round_no} {pairing['pairing_id']}",
                    pairing,
                    by_pairing.get(key, []),
                    complete=section["status"] == "completed",
                )
        await _playoffs(reader, code, sid, by_playoff, report)
    for key in sorted(set(by_pairing) - known):
        report.add(
            "games",
            f"{key[0]} round {key[1]} {key[2]}",
            f"gameplay has games {[g['game_id'] for g in by_pairing[key]]} of a pairing pairing does not know",
        )


def _one_pairing(report: Report, where: str, pairing: dict, games: list[dict], complete: bool) -> None:
    report.checked["pairings"] += 1
    scored = pairing["result"]
    if scored is None:
        if complete:
            report.add("games", where, "the section is complete but pairing has no result for this pairing")
        return
    if not games:
        report.add("games", where, f"pairing scored {scored} ({pairing['result_source']}) but gameplay has no game")
        return
    open_ = [g["game_id"] for g in games if g["status"] != "finished"]
    if open_:
        report.add("games", where, f"pairing scored {scored} but gameplay's {open_} are not finished")
        return
    shown = pairing_result_of_games(games)
    if shown != scored:
        detail = [(g["game_id"], g["result"], g["reason"], g.get("outcome")) for g in games]
        report.add(
            "games", where, f"pairing scored {scored} ({pairing['result_source']}), gameplay shows {shown}: {detail}"
        )
        return
    if pairing["result_source"] != "game":
        return  # an arbiter's result: gameplay's games were closed or corrected to it (checked above)
    recorded = {x["game_id"]: x for x in pairing.get("game_results", [])}
    for g in games:
        report.checked["game results"] += 1
        x = recorded.get(g["game_id"])
        if x is None:
            report.add("games", where, f"pairing never recorded game {g['game_id']} it scored")
        elif (x["result"], x["winner"], x["reason"]) != (g["result"], g["winner"], g["reason"]):
            report.add(
                "games",
                where,
                f"game {g['game_id']}: gameplay {g['result']}/{g['winner']}/{g['reason']}, "
                f"pairing recorded {x['result']}/{x['winner']}/{x['reason']}",
            )


async def _playoffs(reader: Reader, code: str, sid: str, by_playoff: dict[tuple, list[dict]], report: Report) -> None:
    mine = {k: v for k, v in by_playoff.items() if k[0] == sid}
    if not mine:
        return
    ties = (await reader.get("pairing", f"/v1/events/{code}/sections/{sid}/ties"))["ties"]
    for tie in ties:
        for match in tie.get("matches") or []:
            games = mine.get((sid, tie["playoff_id"], match["pairing_id"]), [])
            where = f"{sid} playoff {tie['playoff_id']} {match['pairing_id']}"
            report.checked["playoff matches"] += 1
            if not match["done"]:
                continue
            shown = pairing_result_of_games(games) if games else None
            winner = {
                "first_wins": match["first_entrant"],
                "first_forfeit_win": match["first_entrant"],
                "second_wins": match["second_entrant"],
                "second_forfeit_win": match["second_entrant"],
            }.get(shown or "")
            if shown is None or winner != match["winner"]:
                report.add("games", where, f"pairing recorded winner {match['winner']}, gameplay's games show {shown}")
    for key, games in sorted(mine.items()):
        open_ = [g["game_id"] for g in games if g["status"] != "finished"]
        if open_:
            report.add("games", f"{sid} playoff {key[1]} {key[2]}", f"gameplay's {open_} are not finished")


# ---------------------------------------------------------------- awards


def _row(standing: dict) -> tuple:
    return (
        standing["place"],
        standing["entrant_id"],
        float(standing["points"]),
        tuple(sorted((k, float(v)) for k, v in (standing.get("tiebreaks") or {}).items())),
    )


async def _awards(reader: Reader, code: str, sections: list[dict], report: Report) -> None:
    for section in sections:
        sid = section["section_id"]
        if section["status"] != "completed":
            continue
        ours = await reader.get("pairing", f"/v1/events/{code}/sections/{sid}/standings")
        try:
            theirs = await reader.get("awards", f"/v1/events/{code}/sections/{sid}/standings")
        except Exception as exc:  # noqa: BLE001
            if getattr(exc, "status", None) != 404:
                raise
            report.add(
                "awards", sid, f"pairing completed revision {ours['revision']}, awards shows no standings ({exc})"
            )
            continue
        used = theirs["publication"].get("source_revision")
        if used != ours["revision"]:
            report.add("awards", sid, f"awards used section revision {used}, pairing's final is {ours['revision']}")
            continue
        ours_rows = [_row(r) for r in ours["standings"]]
        theirs_rows = [_row(r) for r in theirs["rows"]]
        report.checked["standings rows"] += len(ours_rows)
        if ours_rows != theirs_rows:
            diff = next(
                (i for i, (x, y) in enumerate(zip(ours_rows, theirs_rows)) if x != y),
                min(len(ours_rows), len(theirs_rows)),
            )
            report.add(
                "awards",
                sid,
                f"standings differ at row {diff + 1}: pairing "
                f"{ours_rows[diff] if diff < len(ours_rows) else None}, awards {theirs_rows[diff] if diff < len(theirs_rows) else None}",
            )


# ---------------------------------------------------------------- field


async def _field(reader: Reader, code: str, sections: list[dict], report: Report) -> None:
    event = await reader.get("registration", f"/v1/events/{code}")
    fields: dict[str, Counter] = {}
    statuses = {section["section_id"]: section["status"] for section in sections}
    #: a team's players in board order as pairing plays them (REG-9, PAIR-9)
    boards: dict[str, list[tuple[str, str]]] = {}
    for section in sections:
        detail = await reader.get("pairing", f"/v1/events/{code}/sections/{section['section_id']}")
        fields[section["section_id"]] = Counter(e["entrant_id"] for e in detail["entrants"])
        for e in detail["entrants"]:
            if "members" in e:
                ordered = sorted(e["members"], key=lambda m: m["board"])
                boards[e["entrant_id"]] = [(m["player_id"], m["name"]) for m in ordered]
    for stage in event["stages"]:
        view = await reader.get("registration", f"/v1/events/{code}/stages/{stage['id']}")
        if view.get("status") != "closed":
            continue
        plays = {}
        for sec in view["sections"]:
            closed = sec.get("closed") or {}
            if closed.get("status") in ("ready", "cancelled"):
                plays[sec["section_id"]] = sec["section_id"]
            elif closed.get("status") == "merged":
                plays[sec["section_id"]] = closed.get("merged_into")
            _closed_as_played(report, f"{stage['id']}/{sec['section_id']}", closed, statuses)
        entries = (await reader.get("registration", f"/v1/events/{code}/entries", params={"stage": stage["id"]}))[
            "entries"
        ]
        for e in entries:
            if e["status"] not in ACCEPTED or e.get("no_show") or e["section_id"] not in plays:
                continue  # marked absent at check-in (REG-11), or a section nobody plays (scored)
            report.checked["entries"] += 1
            target = plays[e["section_id"]]
            count = fields.get(target, Counter())[e["entrant_id"]]
            if target not in fields:
                report.add(
                    "field",
                    f"{stage['id']}/{e['section_id']}",
                    f"accepted entry {e['entry_id']} is to play in {target}, which pairing does not have",
                )
            elif count != 1:
                report.add(
                    "field",
                    f"{stage['id']}/{target}",
                    f"accepted entry {e['entry_id']} appears {count} times in pairing's field",
                )
            elif e["entrant_id"] in boards:
                _same_boards(report, f"{stage['id']}/{target}", e, boards[e["entrant_id"]])


def _closed_as_played(report: Report, where: str, closed: dict, statuses: dict[str, str]) -> None:
    """REG-12: how registration closed a section is how pairing has it: a section closed ready is
    a pairing section that is not cancelled, one merged plays in a section pairing has, one
    cancelled is cancelled in pairing (or never reached it)."""
    status = closed.get("status")
    if status not in ("ready", "merged", "cancelled"):
        return
    report.checked["sections closed"] += 1
    sid = where.split("/", 1)[1]
    if status == "ready" and statuses.get(sid, "cancelled") == "cancelled":
        report.add("field", where, f"closed ready in registration, {statuses.get(sid, 'absent')} in pairing")
    elif status == "merged" and closed.get("merged_into") not in statuses:
        report.add("field", where, f"merged into {closed.get('merged_into')}, which pairing does not have")
    elif status == "cancelled" and statuses.get(sid, "cancelled") != "cancelled":
        report.add("field", where, f"cancelled in registration, {statuses[sid]} in pairing")


def _same_boards(report: Report, where: str, entry: dict, played: list[tuple[str, str]]) -> None:
    """A team entry's players, board by board, are the members pairing pairs (REG-9 fixed boards)."""
    report.checked["team boards"] += len(played)
    registered = [(p["player_id"], p["name"]) for p in entry["players"]]
    if registered != played:
        report.add(
            "field",
            where,
            f"team entry {entry['entry_id']}: registration has boards {registered}, pairing plays {played}",
        )
