# Included by _core.pyx: the cells of a position loaded from a stone list that may be forbidden.
#
# Why: a position given as a stone list has no kept state (``_kept_board.pxi``), and testing
# every cell with black stones near it costs more than the rest of the call. This filter is
# exact enough to leave a handful of cells and cheap: the board is 4 words of 64 bits (16 bits
# a row, 4 rows a word), so one shift moves all black stones one step along a direction and
# bit-sliced counters count, for every cell at once, the black stones within 3 on each line.
#
# Nothing outside the filter can be forbidden (PLAY-3):
# - a three needs a straight four of 4 consecutive cells through the cell, 2 of them black
#   besides it: 2 black stones within 3 on that line;
# - a four needs 3 black stones in a window of 5 through the cell, at least 2 of them within 3;
# - so a double three or a double four on two lines needs 2 lines with 2 black stones within 3;
# - two fours on one line (X.XXX.X, XX.XX.XX, XXX.X.XXX) and an overline need 3 within 3 on it.
# A line without 2 black stones in a window of 4 through the cell holds no three, four, five or
# overline through it (each has such a window), so its pattern entry is 0 and is not looked up.

cdef enum:
    PACK_WORDS = 4                  # 16 rows of 16 bits (15 used each)

cdef uint64_t COLUMN_KEEP[7]       # by dx + 3: columns x whose x + dx stays on the board


cdef void _build_suspect_tables() noexcept nogil:
    cdef int dx, x, lane
    cdef uint64_t m
    for dx in range(-3, 4):
        m = 0
        for lane in range(4):
            for x in range(SIZE):
                if 0 <= x + dx < SIZE:
                    m |= (<uint64_t>1) << (lane * 16 + x)
        COLUMN_KEEP[dx + 3] = m


_build_suspect_tables()


cdef inline void _move(const uint64_t* src, uint64_t* out, int dx, int dy) noexcept nogil:
    """``out``: the stones of ``src`` moved by (dx, dy); stones leaving the board are dropped
    (the columns before the shift, the rows by falling off either end of the 256 bits)."""
    cdef uint64_t keep = COLUMN_KEEP[dx + 3]
    cdef uint64_t w0 = src[0] & keep, w1 = src[1] & keep, w2 = src[2] & keep, w3 = src[3] & keep
    cdef int s = dx + 16 * dy
    if s > 0:
        out[3] = (w3 << s) | (w2 >> (64 - s))
        out[2] = (w2 << s) | (w1 >> (64 - s))
        out[1] = (w1 << s) | (w0 >> (64 - s))
        out[0] = w0 << s
    else:
        s = -s
        out[0] = (w0 >> s) | (w1 << (64 - s))
        out[1] = (w1 >> s) | (w2 << (64 - s))
        out[2] = (w2 >> s) | (w3 << (64 - s))
        out[3] = w3 >> s


cdef int _suspect_cells(const Board* b, int* cells, unsigned char* lines) noexcept nogil:
    """Empty cells that pass the filter above, as cell indices (y * 15 + x), and for each the
    lines (bit d) that may hold a three, four, five or overline: on every other line its
    pattern entry is 0, so ``_classify_lines`` skips it. Returns how many cells."""
    cdef uint64_t black[PACK_WORDS]
    cdef uint64_t free[PACK_WORDS]
    cdef uint64_t mb[7][PACK_WORDS]     # black stones at offset k - 3 along the line
    cdef uint64_t c3[PACK_WORDS]
    cdef uint64_t line2[4][PACK_WORDS]
    cdef uint64_t bits, m, a, bb, c, e, f, g, left1, left2, right1, right2, any2, pair2
    cdef int d, k, w, y, n = 0, bit, cell
    cdef uint32_t row
    for w in range(PACK_WORDS):
        black[w] = 0
        free[w] = 0
        c3[w] = 0
    for y in range(SIZE):
        row = b.black[0][y] >> PAD
        black[y >> 2] |= (<uint64_t>(row & 0x7FFF)) << (16 * (y & 3))
        row = ~((b.black[0][y] | b.block[0][y]) >> PAD)
        free[y >> 2] |= (<uint64_t>(row & 0x7FFF)) << (16 * (y & 3))
    for d in range(4):
        for k in range(7):
            if k != 3:
                # a cell sees the stone at offset k - 3 when the stones move by 3 - k
                _move(black, mb[k], (3 - k) * DX[d], (3 - k) * DY[d])
        for w in range(PACK_WORDS):
            # left: offsets -3, -2, -1; right: +1, +2, +3. A window of 4 cells through the
            # cell with 2 of its 3 other cells black: -3..0, -2..1, -1..2 or 0..3.
            a = mb[0][w]
            bb = mb[1][w]
            c = mb[2][w]
            e = mb[4][w]
            f = mb[5][w]
            g = mb[6][w]
            left1 = a | bb | c
            left2 = (a & bb) | (c & (a | bb))
            right1 = e | f | g
            right2 = (e & f) | (g & (e | f))
            line2[d][w] = left2 | right2 | (bb & c) | (e & (bb | c)) | (c & e) | (f & (c | e))
            # 3 black within 3: 2 on one side and 1 on the other, or 3 on one side
            c3[w] |= (left2 & right1) | (left1 & right2) | (a & bb & c) | (e & f & g)
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
