"""The end of a run: final standings with tiebreaks, prizes, titles, team results and
qualifiers printed as text, every published list written as CSV, and where to find it all."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO
from zoneinfo import ZoneInfo

from .client import Platform


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return "" if value is None else str(value)


def _table(rows: list[list[str]], out: TextIO, indent: str = "  ") -> None:
    if not rows:
        return
    widths = [max(len(r[i]) if i < len(r) else 0 for r in rows) for i in range(max(len(r) for r in rows))]
    for r in rows:
        out.write(indent + "  ".join(c.ljust(widths[i]) for i, c in enumerate(r)).rstrip() + "\n")


def print_standings(summary: Mapping[str, Any], out: TextIO, top: int = 12) -> None:
    for sid, sec in summary.get("sections", {}).items():
        rows = sec.get("standings") or []
        if isinstance(rows, Mapping):
            rows = rows.get("standings", [])
        out.write(f"\n== {sid} ({sec.get('status')}, {sec.get('rounds')} rounds)\n")
        if not rows:
            out.write("  (no standings)\n")
            continue
        tb_names = list((rows[0].get("tiebreaks") or {}).keys())
        table = [["place", "name", "unit", "pts", *tb_names, "g.place"]]
        for row in rows[:top]:
            table.append(
                [
                    _fmt(row.get("place")) + ("=" if row.get("shared") else ""),
                    _fmt(row.get("name")),
                    _fmt(row.get("unit")),
                    _fmt(row.get("points")),
                    *[_fmt((row.get("tiebreaks") or {}).get(k)) for k in tb_names],
                    _fmt(row.get("gender_place")),
                ]
            )
        _table(table, out)
        if len(rows) > top:
            out.write(f"  … {len(rows) - top} more\n")


def _prize_row(prize: Mapping[str, Any]) -> list[str]:
    return [
        _fmt(prize.get("place")),
        _fmt(prize.get("name") or prize.get("entrant_id")),
        _fmt(prize.get("table")),
        f"{_fmt(prize.get('amount'))} {_fmt(prize.get('currency'))}",
    ]


def _title_row(title: Mapping[str, Any]) -> list[str]:
    return [_fmt(title.get("place")), _fmt(title.get("name") or title.get("entrant_id")), _fmt(title.get("title"))]


def _place_row(place: Mapping[str, Any]) -> list[str]:
    return [
        _fmt(place.get("place")),
        _fmt(place.get("name") or place.get("entrant_id")),
        ", ".join(place.get("items") or []),
    ]


def _team_row(team: Mapping[str, Any]) -> list[str]:
    return [
        _fmt(team.get("place")),
        _fmt(team.get("unit_name") or team.get("unit_id")),
        _fmt(team.get("score")),
        ", ".join(team.get("members") or []),
        _fmt(team.get("note")),
    ]


def _board_row(board: Mapping[str, Any]) -> list[str]:
    return [
        f"board {_fmt(board.get('board'))}",
        _fmt(board.get("name") or board.get("player_id")),
        _fmt(board.get("team_name")),
        f"{_fmt(board.get('points'))} pts",
        f"{board.get('wins')} wins",
        f"{board.get('games_played')}/{board.get('board_games')} games",
    ]


#: the tables of one award publication, in print order: (its key, its heading, one row of it)
_AWARD_TABLES: tuple[tuple[str, str, Callable[[Mapping[str, Any]], list[str]]], ...] = (
    ("prizes", "prizes", _prize_row),
    ("titles", "titles", _title_row),
    ("places", "places", _place_row),
    ("team_ranking", "team ranking", _team_row),
    ("best_boards", "best boards", _board_row),
)


def print_awards(summary: Mapping[str, Any], out: TextIO) -> None:
    current: dict[str, Mapping[str, Any]] = {}
    for publication in summary.get("publications", []):
        payload = publication.get("payload", publication)
        current[payload.get("section_id", "?")] = payload
    for sid, pub in sorted(current.items()):
        if pub.get("cancelled"):
            out.write(f"\n-- awards {sid}: cancelled (no awards)\n")
            continue
        out.write(f"\n-- awards {sid} (revision {pub.get('revision')})\n")
        for key, heading, row in _AWARD_TABLES:
            items = pub.get(key) or []
            if key == "places":  # a place without items prints nothing
                items = [item for item in items if item.get("items")]
            if items:
                out.write(f"  {heading}:\n")
                _table([row(item) for item in items], out, "    ")
        squad = pub.get("squad") or []
        if squad:
            out.write(
                "  training squad: "
                + ", ".join(_fmt(x.get("name")) + f" ({_fmt(x.get('role'))})" for x in squad)
                + "\n"
            )


async def round_times(platform: Platform, code: str) -> dict[str, list[dict[str, Any]]]:
    """EVT-7: pairing's round times of every section of the event (scheduled and actual start)."""
    sections = (await platform.get("pairing", f"/v1/events/{code}/sections"))["sections"]
    out = {}
    for section in sorted(sections, key=lambda s: s["section_id"]):
        sid = section["section_id"]
        out[sid] = (await platform.get("pairing", f"/v1/events/{code}/sections/{sid}/round-times"))["rounds"]
    return out


def _local(stamp: str | None, zone: ZoneInfo) -> str:
    return datetime.fromisoformat(stamp).astimezone(zone).strftime("%Y-%m-%d %H:%M") if stamp else "-"


def print_schedule(times: Mapping[str, list[dict[str, Any]]], timezone: str, out: TextIO) -> None:
    """EVT-7: the rounds played, by time slot (the sections of a slot start together): the
    scheduled start, the sections and rounds in it, and when they started on the event's clock."""
    zone = ZoneInfo(timezone)
    slots: dict[tuple[str, str], list[str]] = {}
    for sid, rounds in times.items():
        for rnd in rounds:
            if rnd.get("status") not in ("published", "complete") or not rnd.get("scheduled_at"):
                continue
            key = (_local(rnd["scheduled_at"], zone), _local(rnd.get("starts_at"), zone))
            slots.setdefault(key, []).append(f"{sid} r{rnd.get('round')}")
    out.write(f"\n== schedule (EVT-7: every round starts at its scheduled time; {timezone})\n")
    if not slots:
        out.write("  (no scheduled rounds were played)\n")
        return
    table = [["scheduled", "started", "on time", "sections (round)"]]
    for (scheduled, started), played in sorted(slots.items()):
        table.append([scheduled, started, "yes" if scheduled == started else "DELAYED", ", ".join(played)])
    _table(table, out)


def print_venue(summary: Mapping[str, Any], venue: Any, out: TextIO) -> None:
    """PLAY-9 / PLAY-10: how each stage was played, and what happened at the venue: result slips
    entered and confirmed, moves by the live recorder, records entered after the game (and the
    flagged one the arbiter corrected)."""
    out.write("\n== how the games were played (PLAY-9 over the board, PLAY-10 live recorder)\n")
    modes: dict[str, dict[str, int]] = {}
    for gid, game in summary.get("games", {}).items():
        stage = modes.setdefault(gid.split(".")[1], {})
        stage[game.get("mode") or "online"] = stage.get(game.get("mode") or "online", 0) + 1
    for stage_id, counted in modes.items():
        played = ", ".join(f"{n} {mode}" for mode, n in sorted(counted.items()))
        out.write(f"  stage {stage_id}: {played} games\n")
    if not any("offline" in counted for counted in modes.values()):
        return
    out.write(
        f"  at the venue: {venue.slips} result slips entered and confirmed (double entry), "
        f"{venue.recorded} steps by the live recorder, {venue.records} records entered after the game\n"
    )
    for entry in venue.flagged:
        for flag in entry.get("flags", []):
            out.write(
                f"  record flagged to the arbiter: {entry['game_id']} ply {flag['ply']} {flag['code']}: "
                f"{flag['reason']} -> corrected record entered\n"
            )


def print_qualifiers(summary: Mapping[str, Any], out: TextIO) -> None:
    q = summary.get("qualifiers")
    if not q:
        return
    lists = q.get("selections") or q.get("lists") or q.get("qualifiers") or []
    if not lists:
        return
    out.write("\n-- qualifiers\n")
    for item in lists:
        head = (
            f"  {item.get('section_id')}"
            + (f" ({item['gender']})" if item.get("gender") else "")
            + f" -> {item.get('target_section_id') or item.get('to_section')}: "
        )
        quals = ", ".join(f"{x.get('place')}. {x.get('name')}" for x in item.get("qualifiers", []))
        subs = ", ".join(f"{x.get('place')}. {x.get('name')}" for x in item.get("substitutes", []))
        out.write(head + quals + (f"; substitutes {subs}" if subs else "") + "\n")


async def write_csvs(platform: Platform, code: str, summary: Mapping[str, Any], out_dir: Path) -> list[Path]:
    """Every CSV the services publish for this event, plus the canonical summary JSON."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    async def save(service: str, path: str, name: str) -> None:
        try:
            text = await platform.request("GET", service, path, raw=True)
        except Exception:  # noqa: BLE001 - a list a section does not have (e.g. titles)
            return
        publication = out_dir / name
        publication.write_text(text, encoding="utf-8")
        written.append(publication)

    for sid in summary.get("sections", {}):
        await save("pairing", f"/v1/events/{code}/sections/{sid}/standings?format=csv", f"{sid}-standings.csv")
        for what in ("prizes", "titles", "certificates", "best-boards"):
            await save("awards", f"/v1/events/{code}/sections/{sid}/{what}.csv", f"{sid}-{what}.csv")
    await save("awards", f"/v1/events/{code}/teams.csv", "teams.csv")
    await save("awards", f"/v1/events/{code}/qualifiers.csv", "qualifiers.csv")
    p = out_dir / "summary.json"
    p.write_text(json.dumps(summary, indent=1, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    written.append(p)
    return written


def where_to_find(code: str, mode: str, urls: Mapping[str, str], out_dir: Path | None, out: TextIO) -> None:
    base = {s: (urls.get(s) or f"http://127.0.0.1:8000/{s}") for s in ("registration", "pairing", "gameplay", "awards")}
    out.write("\nFull results:\n")
    out.write(
        f"  standings   GET {base['pairing']}/v1/events/{code}/sections/<section>/standings[?format=csv] (crosstable, trf)\n"
    )
    out.write(
        f"  awards      GET {base['awards']}/v1/events/{code}/sections/<section>/awards | prizes | titles | certificates[.csv]\n"
    )
    out.write(
        f"  teams       GET {base['awards']}/v1/events/{code}/teams[.csv]   qualifiers: /v1/events/{code}/qualifiers[.csv]\n"
    )
    out.write(
        f"  games       GET {base['gameplay']}/v1/games?event_code={code}  record: /v1/games/<id>/record?format=psq\n"
    )
    if mode == "embedded":
        out.write(
            "  (embedded: serve the same data with `.venv/bin/python -m gomoku_shared.embedded` and DATA_DIR "
            "pointing at the run's data directory)\n"
        )
    if out_dir is not None:
        out.write(f"  CSV files   {out_dir}/\n")
