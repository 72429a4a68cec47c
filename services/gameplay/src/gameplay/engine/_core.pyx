# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled Renju rules core (PLAY-1 line length, PLAY-3 forbidden moves).

Protocol shared with ``gameplay.engine.reference``; points are 0-based (x, y) on a
15x15 board, x = column a..o, y = row from the bottom.

Design (why it is fast):
- Each of the 4 directions keeps one bit mask per board line for black stones and
  one for "blocked" cells (white stones and the 5-cell border beyond the edge), so
  the 10 cells around a point (5 each side) are two shifts and a mask away.
- Those 10 cells (empty/black/blocked) form a base-3 index into a 59,049-entry
  pattern table built once at import. An entry says, for a black stone on the
  centre: exactly five, overline, how many fours, and which empty points would turn
  the line into a straight four (the candidate completions of a three).
- Only directions whose entry can be a three pay for the recursive check: the
  completion point is classified itself (with the stone placed) and must be legal.
- A stone list is read in one tight loop over the list's items, the ints' digits read in
  place, each stone placed on the line masks and the packed rows at once; any other shape or
  a mistake goes to the validating loader, which words the error (``_suspects.pxi``).
- From a stone list, only the few cells a packed-bitboard filter flags are classified
  (``_suspects.pxi``); a game keeps its board (``KeptBoard``, ``_kept_board.pxi``) with
  every empty cell's pattern entries updated move by move, so judging a position there
  classifies only the cells whose entries make a foul possible.
"""
from libc.stdint cimport uint16_t, uint32_t
from cpython.long cimport PyLong_AsLongAndOverflow
from cpython.object cimport PyObject
from cpython.sequence cimport PySequence_Fast_GET_SIZE, PySequence_Fast_ITEMS
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE
from libc.stdint cimport uint64_t
from libc.string cimport memcpy, memset


cdef extern from *:
    int __builtin_ctz(unsigned int x) nogil
    int __builtin_ctzll(unsigned long long x) nogil

cdef enum:
    SIZE = 15
    CELLS = 225
    NLINES = 29           # 2 * SIZE - 1 diagonals; rows/columns use the first 15
    PAD = 5               # border cells modelled beyond each edge
    NPATTERNS = 59049     # 3 ** 10

# Kind codes; KINDS maps them to the protocol's strings.
cdef enum:
    K_NONE = 0
    K_FIVE = 1
    K_OVERLINE = 2
    K_DOUBLE_FOUR = 3
    K_DOUBLE_THREE = 4

# Pattern-table entry bits.
cdef enum:
    F_FIVE = 1
    F_OVERLINE = 2
    FOURS_SHIFT = 2       # 2 bits: fours formed through the centre (0..3)
    THREE_SHIFT = 4       # 6 bits: straight-four points at offsets -3,-2,-1,1,2,3

KINDS = ("none", "five", "overline", "double_four", "double_three")
BOARD_SIZE = SIZE
cdef tuple KIND_NAMES = KINDS
# the (x, y) key of every cell, made once: a result's keys are these tuples, not new ones
cdef tuple POINTS = tuple([(c % SIZE, c // SIZE) for c in range(CELLS)])

cdef struct Board:
    uint32_t black[4][NLINES]
    uint32_t block[4][NLINES]

cdef uint32_t BLOCK_TEMPLATE[4][NLINES]
cdef uint16_t PATTERN[NPATTERNS]
cdef uint16_t TERN[1024]        # 10-bit mask -> base-3 value with digit 1 per set bit
cdef uint16_t WINDOW_TERN[2048] # 11-bit window (centre bit ignored) -> TERN of the other 10
cdef int LID[4][CELLS]          # line index of a cell per direction
cdef int LPOS[4][CELLS]         # position along that line (0..14)
cdef int DX[4]
cdef int DY[4]
cdef int THREE_OFFSETS[6]


# ---------------------------------------------------------------- table building

cdef void _run(const int* cells, int i, int* left, int* right) noexcept nogil:
    """Extent of the black run through window index i (window is 11 cells)."""
    cdef int lo = i, hi = i
    while lo > 0 and cells[lo - 1] == 1:
        lo -= 1
    while hi < 10 and cells[hi + 1] == 1:
        hi += 1
    left[0] = lo
    right[0] = hi


cdef uint16_t _analyse(int* cells) noexcept nogil:
    """Classify one direction for a black stone at window centre 5.

    cells: 11 values, 0 empty, 1 black, 2 blocked. A run of exactly five containing
    the centre always lies within indices 1..9, so its two ends are visible; a run
    reaching index 0 or 10 through the centre is at least six long.
    """
    cdef int lo, hi, q, s, k, nfours = 0, ok
    cdef uint16_t entry = 0
    cdef uint32_t four_sets[8]
    cdef uint32_t stones
    cdef int j
    _run(cells, 5, &lo, &hi)
    if hi - lo + 1 == 5:
        entry |= F_FIVE
    elif hi - lo + 1 >= 6:
        entry |= F_OVERLINE
    # Fours: empty q whose stone makes exactly five together with the centre. Two
    # completions count as one four when they complete the same four stones (a
    # straight four); otherwise they are two fours on one line (X.XXX.X etc.).
    for q in range(1, 10):
        if q == 5 or cells[q] != 0:
            continue
        cells[q] = 1
        _run(cells, q, &lo, &hi)
        if lo <= 5 <= hi and hi - lo + 1 == 5:
            stones = 0
            for k in range(lo, hi + 1):
                if k != q:
                    stones |= (<uint32_t>1) << k
            ok = 1
            for j in range(nfours):
                if four_sets[j] == stones:
                    ok = 0
            if ok:
                four_sets[nfours] = stones
                nfours += 1
        cells[q] = 0
    if nfours > 3:
        nfours = 3
    entry |= nfours << FOURS_SHIFT
    # Three candidates: empty q (offset -3..3) after which cells s..s+3 (containing
    # the centre and q) are black, both ends empty, and each end makes exactly five.
    for j in range(6):
        q = 5 + THREE_OFFSETS[j]
        if cells[q] != 0:
            continue
        cells[q] = 1
        for s in range(2, 6):
            if q < s or q > s + 3:
                continue
            if (cells[s] == 1 and cells[s + 1] == 1 and cells[s + 2] == 1
                    and cells[s + 3] == 1 and cells[s - 1] == 0 and cells[s + 4] == 0
                    and cells[s - 2] != 1 and cells[s + 5] != 1):
                entry |= (1 << (THREE_SHIFT + j))
                break
        cells[q] = 0
    return entry


cdef void _build_tables() noexcept nogil:
    cdef int t, v, i, d, x, y, cell, line, pos, lo, hi, bit
    cdef int cells[11]
    cdef int p3
    THREE_OFFSETS[0] = -3
    THREE_OFFSETS[1] = -2
    THREE_OFFSETS[2] = -1
    THREE_OFFSETS[3] = 1
    THREE_OFFSETS[4] = 2
    THREE_OFFSETS[5] = 3
    DX[0] = 1; DY[0] = 0      # row
    DX[1] = 0; DY[1] = 1      # column
    DX[2] = 1; DY[2] = 1      # diagonal
    DX[3] = 1; DY[3] = -1     # anti-diagonal
    for t in range(1024):
        v = 0
        p3 = 1
        for i in range(10):
            if t & (1 << i):
                v += p3
            p3 *= 3
        TERN[t] = <uint16_t>v
    for t in range(2048):
        WINDOW_TERN[t] = TERN[(t & 0x1F) | ((t >> 6) << 5)]
    for t in range(NPATTERNS):
        v = t
        cells[5] = 1
        for i in range(10):
            cells[i if i < 5 else i + 1] = v % 3
            v = v // 3
        PATTERN[t] = _analyse(cells)
    for x in range(SIZE):
        for y in range(SIZE):
            cell = y * SIZE + x
            LID[0][cell] = y
            LPOS[0][cell] = x
            LID[1][cell] = x
            LPOS[1][cell] = y
            LID[2][cell] = x - y + SIZE - 1
            LPOS[2][cell] = x
            LID[3][cell] = x + y
            LPOS[3][cell] = x
    # Border template: every bit of a line that is not a board cell is blocked.
    for d in range(4):
        for line in range(NLINES):
            BLOCK_TEMPLATE[d][line] = 0
            if d < 2:
                lo = 0 if line < SIZE else SIZE
                hi = SIZE - 1 if line < SIZE else -1
            else:
                lo = line - (SIZE - 1) if line > SIZE - 1 else 0
                hi = line if line < SIZE - 1 else SIZE - 1
            for bit in range(SIZE + 2 * PAD):
                pos = bit - PAD
                if pos < lo or pos > hi:
                    BLOCK_TEMPLATE[d][line] |= (<uint32_t>1) << bit


_build_tables()


# ---------------------------------------------------------------- board primitives

cdef inline void _clear(Board* b) noexcept nogil:
    memset(b.black, 0, sizeof(b.black))
    memcpy(b.block, BLOCK_TEMPLATE, sizeof(b.block))


cdef inline bint _is_empty(const Board* b, int cell) noexcept nogil:
    cdef int line = LID[0][cell]
    return not (((b.black[0][line] | b.block[0][line]) >> (LPOS[0][cell] + PAD)) & 1)


cdef inline void _set(Board* b, int cell, bint black) noexcept nogil:
    cdef int d
    cdef uint32_t bit
    for d in range(4):
        bit = (<uint32_t>1) << (LPOS[d][cell] + PAD)
        if black:
            b.black[d][LID[d][cell]] |= bit
        else:
            b.block[d][LID[d][cell]] |= bit


cdef inline void _unset_black(Board* b, int cell) noexcept nogil:
    cdef int d
    for d in range(4):
        b.black[d][LID[d][cell]] &= ~((<uint32_t>1) << (LPOS[d][cell] + PAD))


cdef inline uint16_t _pattern(const Board* b, int d, int cell) noexcept nogil:
    """Pattern entry of direction d for a black stone on (empty) cell."""
    cdef int line = LID[d][cell]
    cdef int pos = LPOS[d][cell]
    # Window bits: cell offsets -5..+5 are line bits pos..pos+10; the table drops the centre.
    cdef uint32_t wb = (b.black[d][line] >> pos) & 0x7FF
    cdef uint32_t wk = (b.block[d][line] >> pos) & 0x7FF
    return PATTERN[WINDOW_TERN[wb] + 2 * WINDOW_TERN[wk]]


cdef int _classify(Board* b, int cell) noexcept nogil:
    """Kind of a black stone on the empty cell (board left unchanged)."""
    cdef uint16_t e[4]
    cdef int d
    for d in range(4):
        e[d] = _pattern(b, d, cell)
    return _classify_entries(b, cell, e)


cdef inline int _foul_kind(Board* b, int cell, int lines) noexcept nogil:
    """``_classify`` looking up only the lines flagged in ``lines`` (bit d): the suspect
    filter knows the entries of the others are 0. Only fouls are told apart: a five or no foul
    is K_NONE, and most cells the filter passes are settled here, as the kept board settles
    them, from their entries' summary (``_kept_board.pxi``)."""
    cdef uint16_t e[4]
    cdef uint16_t s = 0
    cdef int d
    for d in range(4):
        e[d] = _pattern(b, d, cell) if (lines >> d) & 1 else 0
        s += CONTRIB[e[d]]
    if not _suspect(s):
        return K_NONE
    return _classify_entries(b, cell, e)


cdef int _classify_entries(Board* b, int cell, const uint16_t* e) noexcept nogil:
    """``_classify`` given the cell's four pattern entries (a kept board has them)."""
    cdef int d, j, fours = 0, candidates = 0, threes = 0, x, y, qx, qy, off
    cdef uint16_t flags = 0, mask
    for d in range(4):
        flags |= e[d]
        fours += (e[d] >> FOURS_SHIFT) & 3
        if e[d] >> THREE_SHIFT:
            candidates += 1
    if flags & F_FIVE:
        return K_FIVE
    if flags & F_OVERLINE:
        return K_OVERLINE
    if fours >= 2:
        return K_DOUBLE_FOUR
    if candidates < 2:
        return K_NONE
    # Possible double three: a direction is a three only if one of its
    # straight-four points is itself legal with this stone placed (recursively).
    x = cell % SIZE
    y = cell // SIZE
    _set(b, cell, True)
    for d in range(4):
        mask = e[d] >> THREE_SHIFT
        if not mask:
            continue
        for j in range(6):
            if mask & (1 << j):
                off = THREE_OFFSETS[j]
                qx = x + off * DX[d]
                qy = y + off * DY[d]
                if _classify(b, qy * SIZE + qx) == K_NONE:
                    threes += 1
                    break
        candidates -= 1
        if threes >= 2 or threes + candidates < 2:
            break
    _unset_black(b, cell)
    return K_DOUBLE_THREE if threes >= 2 else K_NONE


# ---------------------------------------------------------------- Python API

cdef inline int _cell_of(object point, str what) except -1:
    """Cell index of an (x, y) pair; the common case (a tuple of two small ints) is checked
    inline, anything else takes the validating path."""
    cdef object ox, oy
    cdef long x, y
    cdef int overflow = 0
    if type(point) is tuple and PyTuple_GET_SIZE(point) == 2:
        ox = <object>PyTuple_GET_ITEM(point, 0)
        oy = <object>PyTuple_GET_ITEM(point, 1)
        if type(ox) is int and type(oy) is int:
            x = PyLong_AsLongAndOverflow(ox, &overflow)
            y = PyLong_AsLongAndOverflow(oy, &overflow)
            if not overflow and 0 <= x < SIZE and 0 <= y < SIZE:
                return y * SIZE + x
    return _cell_of_checked(point, what)


cdef int _cell_of_checked(object point, str what) except -1:
    cdef object ox, oy
    cdef long x, y
    try:
        ox, oy = point
    except (TypeError, ValueError):
        raise ValueError(f"{what} must be an (x, y) pair, not {point!r}") from None
    if type(ox) is bool or type(oy) is bool or not isinstance(ox, int) or not isinstance(oy, int):
        raise ValueError(f"{what} coordinates must be integers, not {point!r}")
    try:
        x = ox
        y = oy
    except OverflowError:
        x = -1
        y = -1
    if x < 0 or x >= SIZE or y < 0 or y >= SIZE:
        raise ValueError(f"{what} {tuple(point)!r} is off the {SIZE}x{SIZE} board")
    return y * SIZE + x


cdef object _iterate(object stones, str what):
    if isinstance(stones, (str, bytes)):
        raise ValueError(f"{what} must be a collection of (x, y) points, not {stones!r}")
    try:
        return iter(stones)
    except TypeError:
        raise ValueError(f"{what} must be a collection of (x, y) points, not {stones!r}") from None


cdef int _add(Board* b, uint64_t* seen, object point, bint black) except -1:
    cdef int cell = _cell_of(point, "black stone" if black else "white stone")
    cdef uint64_t bit = (<uint64_t>1) << (cell & 63)
    if seen[cell >> 6] & bit:
        if black:
            raise ValueError(f"black stone {tuple(point)!r} is listed twice")
        raise ValueError(f"white stone {tuple(point)!r} overlaps another stone")
    seen[cell >> 6] |= bit
    _set(b, cell, black)
    return 0


cdef int _add_all(Board* b, uint64_t* seen, object stones, bint black) except -1:
    for point in _iterate(stones, "black" if black else "white"):
        _add(b, seen, point, black)
    return 0


cdef int _load(Board* b, object black, object white) except -1:
    """The position of two stone lists on ``b`` (``_load_packed``, its packed form dropped)."""
    cdef Packed p
    _load_packed(b, &p, black, white)
    return 0


cdef int _load_checked(Board* b, object black, object white) except -1:
    """The validating loader: any iterable of (x, y) pairs, each checked, errors worded."""
    cdef uint64_t seen[4]
    memset(seen, 0, sizeof(seen))
    _clear(b)
    _add_all(b, seen, black, True)
    _add_all(b, seen, white, False)
    return 0


def classify(black, white, point):
    """What a black stone on the empty ``point`` would be (PLAY-3).

    Returns "five", "overline", "double_four", "double_three" or "none"; a move
    making exactly five is "five" even if it also forms a forbidden shape.
    """
    cdef Board b
    cdef int cell, kind
    _load(&b, black, white)
    cell = _cell_of(point, "point")
    if not _is_empty(&b, cell):
        raise ValueError(f"point {tuple(point)!r} is occupied")
    with nogil:
        kind = _classify(&b, cell)
    return KINDS[kind]


cdef int _candidates(const Board* b, int* cells) noexcept nogil:
    """Empty cells with at least 4 black stones within 5 along their 4 lines (in total).

    Nothing else can be forbidden: a double three needs 2 + 2 stones within 3, a double
    four 3 + 3 (or 4 on one line) within 4, an overline 5 within 5. Counted with bit-sliced
    saturating counters over 15-bit row masks, 40 shifted masks per row.
    """
    cdef uint32_t rows[SIZE + 2 * PAD]
    cdef uint32_t c1, c2, c3, c4, m, up, down, here, free
    cdef uint32_t masks[8]
    cdef int y, k, x, j, n = 0
    for y in range(SIZE + 2 * PAD):
        rows[y] = 0
    for y in range(SIZE):
        rows[y + PAD] = (b.black[0][y] >> PAD) & 0x7FFF
    for y in range(SIZE):
        c1 = c2 = c3 = c4 = 0
        for k in range(1, PAD + 1):
            here = rows[y + PAD]
            up = rows[y + PAD + k]
            down = rows[y + PAD - k]
            # row, column, diagonal and anti-diagonal neighbours at distance k
            masks[0] = here << k
            masks[1] = here >> k
            masks[2] = up
            masks[3] = down
            masks[4] = up >> k
            masks[5] = down << k
            masks[6] = down >> k
            masks[7] = up << k
            for j in range(8):
                m = masks[j] & 0x7FFF
                c4 |= c3 & m
                c3 |= c2 & m
                c2 |= c1 & m
                c1 |= m
        free = ~((b.black[0][y] | b.block[0][y]) >> PAD) & 0x7FFF
        c4 &= free
        while c4:
            x = __builtin_ctz(c4)
            c4 &= c4 - 1
            cells[n] = y * SIZE + x
            n += 1
    return n


include "_suspects.pxi"


def forbidden_points(black, white):
    """Every empty point where black may not play, mapped to its kind (PLAY-3)."""
    cdef Board b
    cdef Packed p
    cdef int cell, kind, n = 0, i, ncand
    cdef unsigned char kinds[CELLS]
    cdef int cells[CELLS]
    cdef int cand[CELLS]
    cdef unsigned char lines[CELLS]
    _load_packed(&b, &p, black, white)
    # the GIL is kept: releasing and taking it back would cost more than the work below
    ncand = _suspect_cells(&p, cand, lines)
    for i in range(ncand):
        cell = cand[i]
        kind = _foul_kind(&b, cell, lines[i])
        if kind >= K_OVERLINE:
            cells[n] = cell
            kinds[n] = <unsigned char>kind
            n += 1
    result = {}
    for i in range(n):
        result[POINTS[cells[i]]] = KIND_NAMES[kinds[i]]
    return result


def _forbidden_points_scan(black, white):
    """``forbidden_points`` as it was before the suspect filter: every cell with 4 black stones
    within 5 is classified. Kept for the benchmark's baseline and the tests."""
    cdef Board b
    cdef int cell, n = 0, i, ncand
    cdef unsigned char kinds[CELLS]
    cdef int cells[CELLS]
    cdef int cand[CELLS]
    _load(&b, black, white)
    with nogil:
        ncand = _candidates(&b, cand)
        for i in range(ncand):
            cell = cand[i]
            kinds[n] = <unsigned char>_classify(&b, cell)
            if kinds[n] >= K_OVERLINE:
                cells[n] = cell
                n += 1
    result = {}
    for i in range(n):
        result[(cells[i] % SIZE, cells[i] // SIZE)] = KINDS[kinds[i]]
    return result


def line_length(stones, point):
    """Longest line through ``point`` in the 4 directions, the point counted as a
    stone (PLAY-1: five or more for either colour)."""
    cdef unsigned char occupied[CELLS]
    cdef int cell, d, x, y, px, py, n, best = 0
    memset(occupied, 0, sizeof(occupied))
    for s in _iterate(stones, "stones"):
        cell = _cell_of(s, "stone")
        if occupied[cell]:
            raise ValueError(f"stone {tuple(s)!r} is listed twice")
        occupied[cell] = 1
    cell = _cell_of(point, "point")
    px = cell % SIZE
    py = cell // SIZE
    for d in range(4):
        n = 1
        x = px + DX[d]
        y = py + DY[d]
        while 0 <= x < SIZE and 0 <= y < SIZE and occupied[y * SIZE + x]:
            n += 1
            x += DX[d]
            y += DY[d]
        x = px - DX[d]
        y = py - DY[d]
        while 0 <= x < SIZE and 0 <= y < SIZE and occupied[y * SIZE + x]:
            n += 1
            x -= DX[d]
            y -= DY[d]
        if n > best:
            best = n
    return best


def _needs_recursion(black, white, point):
    """True when judging ``point`` reaches the recursive three check: no five, overline or
    double four, and two or more lines that could be threes. For the benchmark."""
    cdef Board b
    cdef int cell, d, fours = 0, candidates = 0
    cdef uint16_t e, flags = 0
    _load(&b, black, white)
    cell = _cell_of(point, "point")
    if not _is_empty(&b, cell):
        raise ValueError(f"point {tuple(point)!r} is occupied")
    for d in range(4):
        e = _pattern(&b, d, cell)
        flags |= e
        fours += (e >> FOURS_SHIFT) & 3
        if e >> THREE_SHIFT:
            candidates += 1
    return not (flags & (F_FIVE | F_OVERLINE)) and fours < 2 and candidates >= 2



include "_kept_board.pxi"

