# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled bot strategy: ``choose_move``, ``lost_position`` and ``winning_points`` of
``gomoku_sim.strategy`` (the plain-Python reference), with the same decisions.

Same point for the same position, colour, forbidden set and generator, and the same numbers
drawn from the ``random.Random`` in the same order: the noise of the heuristic step draws one
number per candidate (in the candidates' order), the miss and blunder draws happen under the same
conditions. The key ``value * (1.0 + noise * r)`` is the same double arithmetic as Python's (the
build turns off fused multiply-add contraction), so ties and ranks are the reference's.

The board is read once per call into C arrays: the 572 five-cell windows' sums (black = 1,
white = 8, as ``WindowScores``), each window's value to black and to white, and a point's
attack/defence score is the sum over the windows through it.
"""

from .strategy import BLACK as _PY_BLACK
from .strategy import WHITE as _PY_WHITE
from .strategy import Choice
from . import strategy as _reference

cdef enum:
    SIZE = 15
    CELLS = 225
    NWIN = 572
    MAXTHROUGH = 20
    MAXNEAR = 25
    C_BLACK = 1
    C_WHITE = 2
    FIVE_VALUE = 100000
    FOUR_VALUE = 2500

assert _PY_BLACK == C_BLACK and _PY_WHITE == C_WHITE

cdef int WIN[NWIN][5]
cdef int THROUGH[CELLS][MAXTHROUGH]
cdef int NTHROUGH[CELLS]
cdef int NEAR2[CELLS][MAXNEAR]
cdef int NNEAR2[CELLS]
cdef int FOR_BLACK[46]
cdef int FOR_WHITE[46]
cdef int CODE[3]
cdef int DX[4]
cdef int DY[4]

cdef struct Board:
    int cell[CELLS]        # 0 empty, 1 black, 2 white; flat index x * SIZE + y
    int professional
    int stones
    int sums[NWIN]         # b + 8w of each window
    int black_val[NWIN]    # what the window is worth to black (0 if it holds white)
    int white_val[NWIN]


cdef void _build_tables():
    cdef int window_value[6]
    cdef int d, x, y, k, w, dx, dy, c, b, wh, nx, ny
    window_value[:] = [0, 1, 12, 160, 2500, 0]  # strategy._WINDOW
    DX[:] = [1, 0, 1, 1]
    DY[:] = [0, 1, 1, -1]
    CODE[:] = [0, 1, 8]
    for c in range(CELLS):
        NTHROUGH[c] = 0
        NNEAR2[c] = 0
    w = 0
    for d in range(4):
        dx = DX[d]
        dy = DY[d]
        for x in range(SIZE):
            for y in range(SIZE):
                if 0 <= x + 4 * dx < SIZE and 0 <= y + 4 * dy < SIZE:
                    for k in range(5):
                        c = (x + k * dx) * SIZE + y + k * dy
                        WIN[w][k] = c
                        THROUGH[c][NTHROUGH[c]] = w
                        NTHROUGH[c] += 1
                    w += 1
    if w != NWIN:
        raise AssertionError(w)
    for k in range(46):
        FOR_BLACK[k] = 0
        FOR_WHITE[k] = 0
    for b in range(6):
        for wh in range(6 - b):
            FOR_BLACK[b + 8 * wh] = 0 if wh else (window_value[b + 1] if b < 4 else FIVE_VALUE)
            FOR_WHITE[b + 8 * wh] = 0 if b else (window_value[wh + 1] if wh < 4 else FIVE_VALUE)
    for x in range(SIZE):
        for y in range(SIZE):
            c = x * SIZE + y
            for dx in range(-2, 3):
                for dy in range(-2, 3):
                    nx = x + dx
                    ny = y + dy
                    if 0 <= nx < SIZE and 0 <= ny < SIZE:
                        NEAR2[c][NNEAR2[c]] = nx * SIZE + ny
                        NNEAR2[c] += 1


_build_tables()

#: the point of each flat cell, and the cell of each point (for looking up given points)
cdef tuple POINTS = tuple(divmod(c, SIZE) for c in range(CELLS))
cdef dict CELL_OF = {p: c for c, p in enumerate(POINTS)}


cdef int _read(object pos, Board* board) except -1:
    cdef tuple grid = pos.grid
    cdef tuple column
    cdef int x, y, v, w, total
    cdef int* cells = board.cell
    board.professional = 1 if pos.professional else 0
    board.stones = 0
    if len(grid) != SIZE:
        raise ValueError("a position is a 15 x 15 grid")
    for x in range(SIZE):
        column = <tuple>grid[x]
        if len(column) != SIZE:
            raise ValueError("a position is a 15 x 15 grid")
        for y in range(SIZE):
            v = column[y]
            if v < 0 or v > 2:
                raise ValueError(f"not a cell value: {v!r}")
            cells[x * SIZE + y] = v
            if v:
                board.stones += 1
    for w in range(NWIN):
        total = (
            CODE[cells[WIN[w][0]]] + CODE[cells[WIN[w][1]]] + CODE[cells[WIN[w][2]]]
            + CODE[cells[WIN[w][3]]] + CODE[cells[WIN[w][4]]]
        )
        board.sums[w] = total
        board.black_val[w] = FOR_BLACK[total]
        board.white_val[w] = FOR_WHITE[total]
    return 0


cdef inline bint _makes_five(Board* board, int cell, int colour) nogil:
    """strategy.makes_five: ``colour`` on ``cell`` (counted as if it stood there) completes five;
    black under professional rules needs exactly five."""
    cdef int px = cell // SIZE
    cdef int py = cell % SIZE
    cdef int d, sign, x, y, length
    cdef bint exact = board.professional and colour == C_BLACK
    for d in range(4):
        length = 1
        for sign in range(-1, 2, 2):
            x = px + sign * DX[d]
            y = py + sign * DY[d]
            while 0 <= x < SIZE and 0 <= y < SIZE and board.cell[x * SIZE + y] == colour:
                length += 1
                x += sign * DX[d]
                y += sign * DY[d]
        if length == 5 or (length > 5 and not exact):
            return True
    return False


cdef int _wins_after(Board* board, int cell, int colour) nogil:
    """strategy._wins_after: winning points of ``colour`` on the lines through ``cell`` once it
    plays there (each ray from the cell is its own set of points, so none is counted twice)."""
    cdef int px = cell // SIZE
    cdef int py = cell % SIZE
    cdef int d, sign, step, x, y, stone, found = 0
    cdef int saved = board.cell[cell]
    board.cell[cell] = colour
    for d in range(4):
        for sign in range(-1, 2, 2):
            for step in range(1, 5):
                x = px + sign * step * DX[d]
                y = py + sign * step * DY[d]
                if not (0 <= x < SIZE and 0 <= y < SIZE):
                    break
                stone = board.cell[x * SIZE + y]
                if stone == 0:
                    if _makes_five(board, x * SIZE + y, colour):
                        found += 1
                elif stone != colour:
                    break
    board.cell[cell] = saved
    return found


cdef void _four_gaps(Board* board, int colour, char* gaps) nogil:
    """WindowScores.four_gaps: the empty cells of windows holding four ``colour`` stones and none
    of the other."""
    cdef int target = 4 if colour == C_BLACK else 32
    cdef int w, k, c
    for c in range(CELLS):
        gaps[c] = 0
    for w in range(NWIN):
        if board.sums[w] == target:
            for k in range(5):
                c = WIN[w][k]
                if board.cell[c] == 0:
                    gaps[c] = 1


cdef int _winning_cells(Board* board, int colour, int* out) nogil:
    """The cells where ``colour`` completes five now, in board order (strategy.winning_points
    without ``among``: only a window's four-gap can, and every such point is next to a stone)."""
    cdef char gaps[CELLS]
    cdef int c, found = 0
    _four_gaps(board, colour, gaps)
    for c in range(CELLS):
        if gaps[c] and _makes_five(board, c, colour):
            out[found] = c
            found += 1
    return found


cdef inline bint _better(long long value, int cell, long long best_value, int best_cell) nogil:
    """max(..., key=lambda q: (value[q], q)): a point's tuple order is its flat index order."""
    return best_cell < 0 or value > best_value or (value == best_value and cell > best_cell)


def winning_points(pos, int colour, among=None):
    """strategy.winning_points."""
    cdef Board board
    cdef int out[CELLS]
    cdef char gaps[CELLS]
    cdef int found, i, c
    _read(pos, &board)
    if among is None:
        found = _winning_cells(&board, colour, out)
        return [POINTS[out[i]] for i in range(found)]
    _four_gaps(&board, colour, gaps)
    result = []
    for p in among:
        index = CELL_OF.get(p)
        if index is None:
            continue
        c = index
        if gaps[c] and board.cell[c] == 0 and _makes_five(&board, c, colour):
            result.append(p)
    return result


def lost_position(pos, int colour, forbidden=()):
    """strategy.lost_position: the opponent (of ``colour``, to move) has two winning points we
    cannot both cover."""
    cdef Board board
    cdef int out[CELLS]
    cdef int other = C_WHITE if colour == C_BLACK else C_BLACK
    cdef int found
    _read(pos, &board)
    found = _winning_cells(&board, other, out)
    if found >= 2:
        return True
    if found == 1 and colour == C_BLACK and POINTS[out[0]] in set(forbidden):
        return _winning_cells(&board, colour, out) == 0
    return False


def choose_move(
    pos,
    int colour,
    rng,
    *,
    forbidden=(),
    double noise=0.0,
    double blunder_rate=0.0,
    double miss_rate=0.0,
    double miss_four_rate=0.0,
):
    """strategy.choose_move, step for step (see the module docstring)."""
    cdef Board board
    cdef char banned[CELLS]
    cdef char near[CELLS]
    cdef int cands[CELLS]
    cdef int attack[CELLS]
    cdef int defence[CELLS]
    cdef long long value[CELLS]
    cdef double keys[CELLS]
    cdef char taken[CELLS]
    cdef int other = C_WHITE if colour == C_BLACK else C_BLACK
    cdef int ncand = 0, i, k, c, w, best, top, rank, pick
    cdef int black_score, white_score
    cdef long long best_value
    cdef double best_key
    _read(pos, &board)
    for c in range(CELLS):
        banned[c] = 0
        near[c] = 0
    if colour == C_BLACK:
        for point in set(forbidden):
            index = CELL_OF.get(point)
            if index is not None:
                banned[<int>index] = 1
    # pos.near_two without the banned points (the centre on an empty board)
    if board.stones == 0:
        if not banned[7 * SIZE + 7]:
            cands[0] = 7 * SIZE + 7
            ncand = 1
    else:
        for c in range(CELLS):
            if board.cell[c]:
                for k in range(NNEAR2[c]):
                    near[NEAR2[c][k]] = 1
        for c in range(CELLS):
            if near[c] and board.cell[c] == 0 and not banned[c]:
                cands[ncand] = c
                ncand += 1
    if ncand == 0:  # every nearby point forbidden (or a full board): the reference's rare paths
        return _reference.choose_move(
            pos,
            colour,
            rng,
            forbidden=forbidden,
            noise=noise,
            blunder_rate=blunder_rate,
            miss_rate=miss_rate,
            miss_four_rate=miss_four_rate,
        )
    for i in range(ncand):
        c = cands[i]
        black_score = 0
        white_score = 0
        for k in range(NTHROUGH[c]):
            w = THROUGH[c][k]
            black_score += board.black_val[w]
            white_score += board.white_val[w]
        if colour == C_BLACK:
            attack[i], defence[i] = black_score, white_score
        else:
            attack[i], defence[i] = white_score, black_score
    # 1. win
    for i in range(ncand):
        if attack[i] >= FIVE_VALUE and _makes_five(&board, cands[i], colour):
            return Choice(POINTS[cands[i]], "win")
    for i in range(ncand):
        value[i] = <long long>attack[i] * 12 + <long long>defence[i] * 8
    # 2. block five
    best = -1
    best_value = 0
    for i in range(ncand):
        c = cands[i]
        if defence[i] >= FIVE_VALUE and _makes_five(&board, c, other) and _better(value[i], c, best_value, best):
            best, best_value = c, value[i]
    if best >= 0 and not (miss_four_rate != 0.0 and rng.random() < miss_four_rate):
        return Choice(POINTS[best], "block_five")
    # 3. an unstoppable four
    best = -1
    for i in range(ncand):
        c = cands[i]
        if attack[i] >= FOUR_VALUE and _wins_after(&board, c, colour) >= 2 and _better(value[i], c, best_value, best):
            best, best_value = c, value[i]
    if best >= 0:
        return Choice(POINTS[best], "open_four")
    # 4. the opponent's open three
    best = -1
    for i in range(ncand):
        c = cands[i]
        if defence[i] >= FOUR_VALUE and _wins_after(&board, c, other) >= 2 and _better(value[i], c, best_value, best):
            best, best_value = c, value[i]
    if best >= 0 and not (miss_rate != 0.0 and rng.random() < miss_rate):
        return Choice(POINTS[best], "block_three")
    # 5. heuristic: one draw per candidate, ranked by (key, point) descending
    draw = rng.random
    for i in range(ncand):
        keys[i] = <double>value[i] * (1.0 + noise * <double>draw())
    pick = 0
    if blunder_rate != 0.0 and rng.random() < blunder_rate:
        pick = rng.randrange(min(8, ncand))
    for i in range(ncand):
        taken[i] = 0
    top = -1
    for rank in range(pick + 1):  # the pick-th of the ranking: pick + 1 rounds of selection
        top = -1
        for i in range(ncand):
            if taken[i]:
                continue
            if top < 0 or keys[i] > best_key or (keys[i] == best_key and cands[i] > cands[top]):
                top, best_key = i, keys[i]
        taken[top] = 1
    return Choice(POINTS[cands[top]], "score")
