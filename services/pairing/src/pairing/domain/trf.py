"""FIDE TRF-16 import/export (player lines ``001`` plus records 142, 152, 162, 260).

Column positions (0-based) follow the TRF-16 layout: start number [4:8], sex [9], name [14:47],
rating [48:52], points [80:84], rank [85:89]; round r occupies [91+10(r-1) : 99+10(r-1)] as
``OOOO c r`` (opponent, colour w/b/-, result letter). ``w`` is the player who moves first.
Text fields (the tournament's and players' names) are written on one line whatever they hold:
a line break or control character in a stored name becomes a space, so a name can neither add a
record nor shift the columns after it.
"""

from __future__ import annotations

from .model import Code, Colour, ForbiddenGroup, Player, PointSystem, RoundEntry, Tournament


class TrfError(ValueError):
    """A malformed TRF file; the message names the line."""


_CODES = {code.value: code for code in Code}
_COLOURS = {colour.value: colour for colour in Colour}  # Colour(letter), without the enum's call
# Letters other programs write that we fold onto our codes.
_CODES.update({"W": Code.WIN, "D": Code.DRAW, "L": Code.LOSS})


def _fmt_points(value: float) -> str:
    return f"{value:4.1f}"


def export_trf(tournament: Tournament, ranks: dict[int, int] | None = None, name: str | None = None) -> str:
    """Serialise a tournament as TRF-16 text (lines end with ``\\n``)."""
    from gomoku_shared.line_text import one_line  # imported here: reading TRF (pairing-engine) needs it not

    lines = [f"012 {one_line(name or tournament.name or 'Tournament')}"]
    n_rounds = tournament.rounds_done
    for player in sorted(tournament.players, key=lambda player: player.id):
        line = (
            f"001 {player.id:4d} {(player.gender or ' ')[:1]}    {one_line(player.name)[:33]:<33} {player.rating:4d}"
            + " " * 28
            + _fmt_points(tournament.score(player.id))
            + f" {(ranks or {}).get(player.id, 0):4d}"
        )
        assert len(line) == 89, len(line)
        for entry in tournament.entries(player.id):
            if entry.opponent is None:
                line += f"  0000 - {entry.code.value}"
            else:
                colour = entry.colour.value if entry.colour else "-"
                line += f"  {entry.opponent:4d} {colour} {entry.code.value}"
        lines.append(line.rstrip() if n_rounds == 0 else line)
    lines.append(f"142 {tournament.rounds_planned}")
    lines.append(f"152 {'W' if tournament.top_seed_colour is Colour.FIRST else 'B'}")
    system = tournament.points
    rec162 = f"162  W{system.win:4.1f}    D{system.draw:4.1f}    L{system.loss:4.1f}"
    pab = system.points(Code.PAIRING_BYE)
    if pab != system.win:
        rec162 += f"    P{pab:4.1f}"  # pairing-allocated bye, when it is not scored as a win
    lines.append(rec162)
    for group in tournament.forbidden:
        numbers = " ".join(f"{player:4d}" for player in group.players)
        lines.append(f"260 {group.first_round:3d} {group.last_round:3d} " + numbers)
    return "\n".join(lines) + "\n"


def _parse_int(text: str, what: str, lineno: int) -> int:
    text = text.strip()
    if not text:
        return 0
    try:
        return int(text)
    except ValueError:
        raise TrfError(f"line {lineno}: {what} is not a number: {text!r}") from None


def _parse_float(text: str, what: str, lineno: int) -> float:
    try:
        return float(text.strip() or 0)
    except ValueError:
        raise TrfError(f"line {lineno}: {what} is not a number: {text!r}") from None


def _round_cell(chunk: str, rnd: int, lineno: int) -> RoundEntry:
    """One round's ``OOOO c r`` cell of a player line."""
    if not chunk.strip():
        return RoundEntry(rnd, None, None, Code.ABSENT)
    try:
        opponent = int(chunk[0:4])  # int() strips the spaces itself; blank or bad: _parse_int's answer
    except ValueError:
        opponent = _parse_int(chunk[0:4], f"round {rnd} opponent", lineno)
    colour_letter = chunk[5].lower()
    result = chunk[7].upper() if chunk[7] != "=" else "="
    if result not in _CODES:
        raise TrfError(f"line {lineno}: round {rnd}: unknown result {chunk[7]!r}")
    code = _CODES[result]
    if colour_letter not in "wb- ":
        raise TrfError(f"line {lineno}: round {rnd}: unknown colour {chunk[5]!r}")
    if opponent != 0:
        return RoundEntry(rnd, opponent, _COLOURS[colour_letter] if colour_letter in "wb" else None, code)
    if code.has_opponent and code not in (Code.FORFEIT_WIN, Code.FORFEIT_LOSS):
        raise TrfError(f"line {lineno}: round {rnd}: result {result!r} without opponent")
    # '+'/'-' without opponent: FIDE writes these for byes of full/zero points.
    if code is Code.FORFEIT_WIN:
        code = Code.FULL_BYE
    elif code is Code.FORFEIT_LOSS:
        code = Code.ZERO_BYE
    return RoundEntry(rnd, None, None, code)


def _player_line(line: str, lineno: int) -> tuple[Player, tuple[RoundEntry, ...]]:
    if len(line) < 89 and len(line.rstrip()) < 47:
        raise TrfError(f"line {lineno}: player line too short")
    pid = _parse_int(line[4:8], "start number", lineno)
    if pid <= 0:
        raise TrfError(f"line {lineno}: start number must be positive")
    player = Player(
        id=pid,
        name=line[14:47].strip(),
        rating=_parse_int(line[48:52], "rating", lineno),
        gender=line[9:10].strip().lower(),
    )
    entries = []
    rnd = 1
    end = len(line.rstrip())
    while 91 + 10 * (rnd - 1) < end:
        chunk = line[91 + 10 * (rnd - 1) : 99 + 10 * (rnd - 1)].ljust(8)
        entries.append(_round_cell(chunk, rnd, lineno))
        rnd += 1
    return player, tuple(entries)


def _points_record(line: str, lineno: int, system: dict[str, float | None]) -> None:
    """Record 162 (``W`` win, ``D`` draw, ``L`` loss, ``P`` pairing-allocated bye) into ``system``."""
    pos = 5
    while pos < len(line):
        symbol = line[pos].upper()
        text = line[pos + 1 : pos + 5]
        if symbol in "WDLP" and text.strip():
            system[symbol] = _parse_float(text, f"record 162 {symbol}", lineno)
        pos += 9


def import_trf(text: str, points: PointSystem | None = None) -> Tournament:
    """Parse TRF-16 text. Accepts ``\\r``, ``\\n`` or ``\\r\\n`` line ends.

    ``points`` overrides record 162. Raises :class:`TrfError` with the line number on bad input.
    """
    raw = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    players: list[Player] = []
    history: dict[int, tuple[RoundEntry, ...]] = {}
    rounds_planned = 0
    top = Colour.FIRST
    system: dict[str, float | None] = {"W": 2.0, "D": 1.0, "L": 0.0, "P": None}
    forbidden: list[ForbiddenGroup] = []
    name = ""
    for lineno, line in enumerate(raw, 1):
        if not line.strip():
            continue
        tag = line[:3]
        if tag == "001":
            player, entries = _player_line(line, lineno)
            if player.id in history:
                raise TrfError(f"line {lineno}: start number {player.id} appears twice")
            players.append(player)
            history[player.id] = entries
        elif tag in ("142", "XXR"):
            rounds_planned = _parse_int(line[4:], "number of rounds", lineno)
        elif tag == "152":
            letter = line[4:].strip().upper()[:1]
            if letter not in ("W", "B"):
                raise TrfError(f"line {lineno}: record 152 must be W or B")
            top = Colour.FIRST if letter == "W" else Colour.SECOND
        elif tag == "162":
            _points_record(line, lineno, system)
        elif tag == "260":
            parts = line[4:].split()
            if len(parts) < 4:
                raise TrfError(f"line {lineno}: record 260 needs first, last round and 2+ players")
            numbers = [_parse_int(part, "record 260", lineno) for part in parts]
            forbidden.append(ForbiddenGroup(numbers[0], numbers[1], tuple(numbers[2:])))
        elif tag == "012":
            name = line[4:].strip()
    if not players:
        raise TrfError("no player lines (001) found")
    done = _complete_history(history, {player.id for player in players})
    win, draw, loss = (float(system[letter] or 0) for letter in "WDL")
    return Tournament(
        players=tuple(sorted(players, key=lambda player: player.id)),
        rounds_planned=max(rounds_planned, done),
        history=history,
        points=points or PointSystem(win=win, draw=draw, loss=loss, pairing_bye=system["P"]),
        forbidden=tuple(forbidden),
        top_seed_colour=top,
        name=name,
    )


def _complete_history(history: dict[int, tuple[RoundEntry, ...]], ids: set[int]) -> int:
    """Check the opponents, pad every history to the rounds played; the number of rounds played."""
    for pid, entries in history.items():
        for entry in entries:
            if entry.opponent is not None and entry.opponent not in ids:
                raise TrfError(f"player {pid} round {entry.round}: opponent {entry.opponent} does not exist")
    done = max(len(entries) for entries in history.values())
    for pid, entries in history.items():
        # Trailing rounds with nothing written mean the player was not in the event.
        history[pid] = entries + tuple(
            RoundEntry(rnd, None, None, Code.ABSENT) for rnd in range(len(entries) + 1, done + 1)
        )
    _check_symmetry(history)
    return done


def _check_symmetry(history: dict[int, tuple[RoundEntry, ...]]) -> None:
    for pid, entries in history.items():
        for entry in entries:
            if entry.opponent is None:
                continue
            other = history[entry.opponent]
            if len(other) < entry.round or other[entry.round - 1].opponent != pid:
                raise TrfError(f"round {entry.round}: player {pid} lists {entry.opponent} who does not list {pid}")
