"""FIDE TRF-16 import/export (player lines ``001`` plus records 142, 152, 162, 260).

Column positions (0-based) follow the TRF-16 layout: start number [4:8], sex [9], name [14:47],
rating [48:52], points [80:84], rank [85:89]; round r occupies [91+10(r-1) : 99+10(r-1)] as
``OOOO c r`` (opponent, colour w/b/-, result letter). ``w`` is the player who moves first.
"""

from __future__ import annotations

from .model import Code, Colour, ForbiddenGroup, Player, PointSystem, RoundEntry, Tournament


class TrfError(ValueError):
    """A malformed TRF file; the message names the line."""


_CODES = {c.value: c for c in Code}
# Letters other programs write that we fold onto our codes.
_CODES.update({"W": Code.WIN, "D": Code.DRAW, "L": Code.LOSS})


def _fmt_points(x: float) -> str:
    return f"{x:4.1f}"


def export_trf(t: Tournament, ranks: dict[int, int] | None = None, name: str | None = None) -> str:
    """Serialise a tournament as TRF-16 text (lines end with ``\\n``)."""
    lines = [f"012 {name or t.name or 'Tournament'}"]
    n_rounds = t.rounds_done
    for p in sorted(t.players, key=lambda p: p.id):
        pts = t.score(p.id)
        line = (
            f"001 {p.id:4d} {(p.gender or ' ')[:1]}    {p.name[:33]:<33} {p.rating:4d}"
            + " " * 28
            + _fmt_points(pts)
            + f" {(ranks or {}).get(p.id, 0):4d}"
        )
        assert len(line) == 89, len(line)
        for e in t.entries(p.id):
            if e.opponent is None:
                line += f"  0000 - {e.code.value}"
            else:
                col = e.colour.value if e.colour else "-"
                line += f"  {e.opponent:4d} {col} {e.code.value}"
        lines.append(line.rstrip() if n_rounds == 0 else line)
    lines.append(f"142 {t.rounds_planned}")
    lines.append(f"152 {'W' if t.top_seed_colour is Colour.FIRST else 'B'}")
    ps = t.points
    rec162 = f"162  W{ps.win:4.1f}    D{ps.draw:4.1f}    L{ps.loss:4.1f}"
    pab = ps.points(Code.PAIRING_BYE)
    if pab != ps.win:
        rec162 += f"    P{pab:4.1f}"  # pairing-allocated bye, when it is not scored as a win
    lines.append(rec162)
    for g in t.forbidden:
        lines.append(f"260 {g.first_round:3d} {g.last_round:3d} " + " ".join(f"{x:4d}" for x in g.players))
    return "\n".join(lines) + "\n"


def _parse_int(s: str, what: str, lineno: int) -> int:
    s = s.strip()
    if not s:
        return 0
    try:
        return int(s)
    except ValueError:
        raise TrfError(f"line {lineno}: {what} is not a number: {s!r}") from None


def _parse_float(s: str, what: str, lineno: int) -> float:
    try:
        return float(s.strip() or 0)
    except ValueError:
        raise TrfError(f"line {lineno}: {what} is not a number: {s!r}") from None


def import_trf(text: str, points: PointSystem | None = None) -> Tournament:
    """Parse TRF-16 text. Accepts ``\\r``, ``\\n`` or ``\\r\\n`` line ends.

    ``points`` overrides record 162. Raises :class:`TrfError` with the line number on bad input.
    """
    raw = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    players: list[Player] = []
    history: dict[int, tuple[RoundEntry, ...]] = {}
    rounds_planned = 0
    top = Colour.FIRST
    win, draw, loss = 2.0, 1.0, 0.0
    pab: float | None = None
    forbidden: list[ForbiddenGroup] = []
    name = ""
    for lineno, line in enumerate(raw, 1):
        if not line.strip():
            continue
        tag = line[:3]
        if tag == "001":
            if len(line) < 89 and len(line.rstrip()) < 47:
                raise TrfError(f"line {lineno}: player line too short")
            pid = _parse_int(line[4:8], "start number", lineno)
            if pid <= 0:
                raise TrfError(f"line {lineno}: start number must be positive")
            if pid in history:
                raise TrfError(f"line {lineno}: start number {pid} appears twice")
            players.append(
                Player(
                    id=pid,
                    name=line[14:47].strip(),
                    rating=_parse_int(line[48:52], "rating", lineno),
                    gender=line[9:10].strip().lower(),
                )
            )
            entries = []
            r = 1
            while 91 + 10 * (r - 1) < len(line.rstrip()):
                chunk = line[91 + 10 * (r - 1) : 99 + 10 * (r - 1)].ljust(8)
                if not chunk.strip():
                    entries.append(RoundEntry(r, None, None, Code.ABSENT))
                    r += 1
                    continue
                opp = _parse_int(chunk[0:4], f"round {r} opponent", lineno)
                col = chunk[5].lower()
                res = chunk[7].upper() if chunk[7] != "=" else "="
                if res not in _CODES:
                    raise TrfError(f"line {lineno}: round {r}: unknown result {chunk[7]!r}")
                code = _CODES[res]
                if col not in "wb- ":
                    raise TrfError(f"line {lineno}: round {r}: unknown colour {chunk[5]!r}")
                if opp == 0:
                    if code.has_opponent and code not in (Code.FORFEIT_WIN, Code.FORFEIT_LOSS):
                        raise TrfError(f"line {lineno}: round {r}: result {res!r} without opponent")
                    # '+'/'-' without opponent: FIDE writes these for byes of full/zero points.
                    if code is Code.FORFEIT_WIN:
                        code = Code.FULL_BYE
                    elif code is Code.FORFEIT_LOSS:
                        code = Code.ZERO_BYE
                    entries.append(RoundEntry(r, None, None, code))
                else:
                    colour = Colour(col) if col in "wb" else None
                    entries.append(RoundEntry(r, opp, colour, code))
                r += 1
            history[pid] = tuple(entries)
        elif tag in ("142", "XXR"):
            rounds_planned = _parse_int(line[4:], "number of rounds", lineno)
        elif tag == "152":
            v = line[4:].strip().upper()[:1]
            if v not in ("W", "B"):
                raise TrfError(f"line {lineno}: record 152 must be W or B")
            top = Colour.FIRST if v == "W" else Colour.SECOND
        elif tag == "162":
            pos = 5
            while pos < len(line):
                sym = line[pos].upper()
                val = line[pos + 1 : pos + 5]
                if sym in "WDLP" and val.strip():
                    v = _parse_float(val, f"record 162 {sym}", lineno)
                    if sym == "P":
                        pab = v
                    elif sym == "W":
                        win = v
                    elif sym == "D":
                        draw = v
                    else:
                        loss = v
                pos += 9
        elif tag == "260":
            parts = line[4:].split()
            if len(parts) < 4:
                raise TrfError(f"line {lineno}: record 260 needs first, last round and 2+ players")
            nums = [_parse_int(x, "record 260", lineno) for x in parts]
            forbidden.append(ForbiddenGroup(nums[0], nums[1], tuple(nums[2:])))
        elif tag == "012":
            name = line[4:].strip()
    if not players:
        raise TrfError("no player lines (001) found")
    ids = {p.id for p in players}
    for pid, h in history.items():
        for e in h:
            if e.opponent is not None and e.opponent not in ids:
                raise TrfError(f"player {pid} round {e.round}: opponent {e.opponent} does not exist")
    done = max(len(h) for h in history.values())
    for pid in history:
        # Trailing rounds with nothing written mean the player was not in the event.
        h = history[pid]
        history[pid] = h + tuple(RoundEntry(r, None, None, Code.ABSENT) for r in range(len(h) + 1, done + 1))
    _check_symmetry(history)
    pts = points or PointSystem(win=win, draw=draw, loss=loss, pairing_bye=pab)
    return Tournament(
        players=tuple(sorted(players, key=lambda p: p.id)),
        rounds_planned=max(rounds_planned, done),
        history=history,
        points=pts,
        forbidden=tuple(forbidden),
        top_seed_colour=top,
        name=name,
    )


def _check_symmetry(history: dict[int, tuple[RoundEntry, ...]]) -> None:
    for pid, h in history.items():
        for e in h:
            if e.opponent is None:
                continue
            other = history[e.opponent]
            if len(other) < e.round or other[e.round - 1].opponent != pid:
                raise TrfError(f"round {e.round}: player {pid} lists {e.opponent} who does not list {pid}")
