# Included by _core.pyx: a position loaded from a stone list, and its cells that may be forbidden.
#
# Why: a position given as a stone list has no kept state (``_kept_board.pxi``), and testing
# every cell with black stones near it costs more than the rest of the call. This filter is
# exact enough to leave a handful of cells and cheap: black's stones are 16-bit rows in an array
# padded with 3 empty rows each side, so reading 4 rows as one 64-bit word from row y + dy and
# shifting it by dx sees, for 4 rows of cells at once, the stones at offset (dx, dy); bit-sliced
# counters over those words count the black stones within 3 of every cell on each line.
#
# Nothing outside the filter can be forbidden (PLAY-3):
# - a three needs a straight four of 4 consecutive cells through the cell, 2 of them black
#   besides it: 2 black stones within 3 on that line;
# - a four needs 3 black stones in a window of 5 through the cell, at least 2 of them within 3;
# - so a double three or a double four on two lines needs 2 lines with 2 black stones within 3;
# - two fours on one line (X.XXX.X, XX.XX.XX, XXX.X.XXX) and an overline need 3 within 3 on it.
# A line without 2 black stones in a window of 4 through the cell holds no three, four, five or
# overline through it (each has such a window), so its pattern entry is 0 and is not looked up.

# Loading: the stone lists callers pass (lists or tuples of (x, y) tuples of small ints) are read
# in one tight loop straight from the objects' memory (an int's single digit in place: CPython's
# layout up to 3.11, its compact-int API from 3.12), no reference counting or conversion calls,
# placing each stone on the line masks and the packed form at once (the "taken" bits double as
# the duplicate check). Anything else, or any mistake, falls back to the validating loader
# (``_load_checked``), which words the error; so the quick path never changes an answer. Building
# the masks from the packed rows afterwards (transposing them) would cost more than 4 ORs a stone.

cdef extern from *:
    """
    /* y * 16 + x of an (x, y) tuple of two exact ints on the 15x15 board, or -1 for anything
       else (the validating loader then decides); reads the int objects' digits in place */
    static CYTHON_INLINE int gomoku_packed_cell(PyObject *p) {
        PyObject *ox, *oy;
        size_t x, y;
        if (!PyTuple_CheckExact(p) || PyTuple_GET_SIZE(p) != 2) return -1;
        ox = PyTuple_GET_ITEM(p, 0);
        oy = PyTuple_GET_ITEM(p, 1);
        if (!PyLong_CheckExact(ox) || !PyLong_CheckExact(oy)) return -1;
    #if PY_VERSION_HEX >= 0x030C0000
        if (!PyUnstable_Long_IsCompact((PyLongObject *)ox) || !PyUnstable_Long_IsCompact((PyLongObject *)oy))
            return -1;
        x = (size_t)PyUnstable_Long_CompactValue((PyLongObject *)ox);
        y = (size_t)PyUnstable_Long_CompactValue((PyLongObject *)oy);
    #else
        /* 0 or 1 digit and not negative (a negative size is huge as size_t) */
        if ((size_t)Py_SIZE(ox) > 1 || (size_t)Py_SIZE(oy) > 1) return -1;
        x = Py_SIZE(ox) ? (size_t)((PyLongObject *)ox)->ob_digit[0] : 0;
        y = Py_SIZE(oy) ? (size_t)((PyLongObject *)oy)->ob_digit[0] : 0;
    #endif
        if (x >= 15 || y >= 15) return -1;
        return (int)(y * 16 + x);
    }

    /* 4 consecutive 16-bit rows as one word, the first in the low bits */
    static CYTHON_INLINE uint64_t gomoku_rows4(const uint16_t *rows) {
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        uint64_t w;
        memcpy(&w, rows, sizeof w);
        return w;
    #else
        return (uint64_t)rows[0] | ((uint64_t)rows[1] << 16) | ((uint64_t)rows[2] << 32) | ((uint64_t)rows[3] << 48);
    #endif
    }
    """
    int _packed_cell "gomoku_packed_cell" (PyObject* p) noexcept
    uint64_t _rows4 "gomoku_rows4" (const uint16_t* rows) noexcept nogil


cdef enum:
    PACK_WORDS = 4                  # 16 rows of 16 bits (15 used each)
    ROW_PAD = 3                     # empty rows before and after, for offsets -3..3
    PADDED_ROWS = 24                # ROW_PAD + 16 + ROW_PAD, rounded up

cdef uint64_t ON_BOARD[PACK_WORDS]  # the bits that are board cells (x < 15, y < 15)


cdef struct Packed:
    uint16_t black[PADDED_ROWS]     # row y at ROW_PAD + y, bit x: a black stone
    uint64_t taken[PACK_WORDS]      # bit y * 16 + x: a stone of either colour


cdef inline uint64_t _keep(int dx) noexcept nogil:
    """The columns x whose x + dx stays on the board, in each of a word's 4 rows."""
    cdef uint64_t row
    if dx >= 0:
        row = ((<uint64_t>1) << (SIZE - dx)) - 1
    else:
        row = 0x7FFF & ~(((<uint64_t>1) << (-dx)) - 1)
    return row * 0x0001000100010001ULL


cdef void _build_suspect_tables() noexcept nogil:
    cdef int w
    for w in range(PACK_WORDS):
        ON_BOARD[w] = _keep(0) if w < 3 else _keep(0) & (((<uint64_t>1) << 48) - 1)


_build_suspect_tables()


cdef inline uint64_t _seen(const uint16_t* black, int w, int dx, int dy) noexcept nogil:
    """For the cells of word w (rows 4w..4w+3): is there a black stone at offset (dx, dy)?
    The rows come from the padded array; within a row, only stones whose shift stays in it."""
    cdef uint64_t rows = _rows4(&black[ROW_PAD + 4 * w + dy])
    if dx >= 0:
        return (rows >> dx) & _keep(dx)
    return (rows << (-dx)) & _keep(dx)


cdef inline void _direction(const uint16_t* black, int dx, int dy, uint64_t* line2, uint64_t* c3) noexcept nogil:
    """The filter's counts along one direction (dx, dy): ``line2``, the cells with a window of 4
    through them holding 2 black stones besides them; ``c3`` gains those with 3 within 3."""
    cdef uint64_t a, bb, c, e, f, g, left1, left2, right1, right2
    cdef int w
    for w in range(PACK_WORDS):
        # left: offsets -3, -2, -1; right: +1, +2, +3. A window of 4 cells through the
        # cell with 2 of its 3 other cells black: -3..0, -2..1, -1..2 or 0..3.
        a = _seen(black, w, -3 * dx, -3 * dy)
        bb = _seen(black, w, -2 * dx, -2 * dy)
        c = _seen(black, w, -dx, -dy)
        e = _seen(black, w, dx, dy)
        f = _seen(black, w, 2 * dx, 2 * dy)
        g = _seen(black, w, 3 * dx, 3 * dy)
        left1 = a | bb | c
        left2 = (a & bb) | (c & (a | bb))
        right1 = e | f | g
        right2 = (e & f) | (g & (e | f))
        line2[w] = left2 | right2 | (bb & c) | (e & (bb | c)) | (c & e) | (f & (c | e))
        # 3 black within 3: 2 on one side and 1 on the other, or 3 on one side
        c3[w] |= (left2 & right1) | (left1 & right2) | (a & bb & c) | (e & f & g)


cdef inline bint _put_quick(Board* b, Packed* p, object stones, bint black) noexcept:
    """Put a list or tuple of (x, y) tuples of small ints on the board and its packed form;
    False (nothing raised) at the first other item, point off the board or point taken twice."""
    cdef PyObject** items
    cdef Py_ssize_t i, n
    cdef int k, x, y
    cdef uint64_t bit
    cdef uint32_t* lines = &b.black[0][0] if black else &b.block[0][0]
    if type(stones) is not list and type(stones) is not tuple:
        return False
    items = PySequence_Fast_ITEMS(stones)
    n = PySequence_Fast_GET_SIZE(stones)
    for i in range(n):
        k = _packed_cell(items[i])
        if k < 0:
            return False
        bit = (<uint64_t>1) << (k & 63)
        if p.taken[k >> 6] & bit:
            return False
        p.taken[k >> 6] |= bit
        if black:
            p.black[ROW_PAD + (k >> 4)] |= <uint16_t>(1 << (k & 15))
        x = k & 15
        y = k >> 4
        # the 4 lines through (x, y), as ``_set`` (LID/LPOS) computed directly
        lines[y] |= (<uint32_t>1) << (x + PAD)
        lines[NLINES + x] |= (<uint32_t>1) << (y + PAD)
        lines[2 * NLINES + x - y + SIZE - 1] |= (<uint32_t>1) << (x + PAD)
        lines[3 * NLINES + x + y] |= (<uint32_t>1) << (x + PAD)
    return True


cdef void _pack(const Board* b, Packed* p) noexcept nogil:
    """The packed form of a board loaded another way."""
    cdef int y
    memset(p, 0, sizeof(Packed))
    for y in range(SIZE):
        p.black[ROW_PAD + y] = <uint16_t>((b.black[0][y] >> PAD) & 0x7FFF)
        p.taken[y >> 2] |= (<uint64_t>(((b.black[0][y] | b.block[0][y]) >> PAD) & 0x7FFF)) << (16 * (y & 3))


cdef int _load_packed(Board* b, Packed* p, object black, object white) except -1:
    """Load a position from stone lists: the quick path, or the validating one (which raises
    on a malformed position)."""
    memset(p, 0, sizeof(Packed))
    _clear(b)
    if _put_quick(b, p, black, True) and _put_quick(b, p, white, False):
        return 0
    _load_checked(b, black, white)
    _pack(b, p)
    return 0


cdef int _suspect_cells(const Packed* p, int* cells, unsigned char* lines) noexcept nogil:
    """Empty cells that pass the filter above, as cell indices (y * 15 + x), and for each the
    lines (bit d) that may hold a three, four, five or overline: on every other line its
    pattern entry is 0, so ``_foul_kind`` skips it. Returns how many cells."""
    cdef uint64_t free[PACK_WORDS]
    cdef uint64_t c3[PACK_WORDS]
    cdef uint64_t line2[4][PACK_WORDS]
    cdef uint64_t bits, any2, pair2
    cdef int d, w, n = 0, bit, cell
    for w in range(PACK_WORDS):
        free[w] = ~p.taken[w] & ON_BOARD[w]
        c3[w] = 0
    # the directions of DX/DY, spelled out so that each call's shifts are constants
    _direction(p.black, 1, 0, line2[0], c3)
    _direction(p.black, 0, 1, line2[1], c3)
    _direction(p.black, 1, 1, line2[2], c3)
    _direction(p.black, 1, -1, line2[3], c3)
    for w in range(PACK_WORDS):
        any2 = 0
        pair2 = 0
        for d in range(4):
            pair2 |= any2 & line2[d][w]
            any2 |= line2[d][w]
        bits = (pair2 | c3[w]) & free[w]
        while bits:
            bit = __builtin_ctzll(bits)
            bits &= bits - 1
            cell = ((w << 2) + (bit >> 4)) * SIZE + (bit & 15)
            cells[n] = cell
            lines[n] = <unsigned char>(
                ((line2[0][w] >> bit) & 1)
                | (((line2[1][w] >> bit) & 1) << 1)
                | (((line2[2][w] >> bit) & 1) << 2)
                | (((line2[3][w] >> bit) & 1) << 3)
            )
            n += 1
    return n
