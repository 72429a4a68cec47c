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


cdef int _suspect_cells(const Board* b, int* cells) noexcept nogil:
    """Empty cells that pass the filter above, as cell indices (y * 15 + x); returns how many."""
    cdef uint64_t black[PACK_WORDS]
    cdef uint64_t open_[PACK_WORDS]     # on the board and not white
    cdef uint64_t free[PACK_WORDS]
    cdef uint64_t mb[7][PACK_WORDS]     # black stones at offset k - 3 along the line
    cdef uint64_t mo[7][PACK_WORDS]     # open cells at offset k - 3
    cdef uint64_t c1[PACK_WORDS]
    cdef uint64_t c2[PACK_WORDS]
    cdef uint64_t c3[PACK_WORDS]
    cdef uint64_t any2[PACK_WORDS]
    cdef uint64_t pair2[PACK_WORDS]
    cdef uint64_t bits, m, a, bb, c, line2
    cdef int d, k, s, w, y, n = 0, bit, j
    cdef int others[3]
    cdef uint32_t row
    for w in range(PACK_WORDS):
        black[w] = 0
        free[w] = 0
        open_[w] = 0
        c3[w] = 0
        any2[w] = 0
        pair2[w] = 0
    for y in range(SIZE):
        row = b.black[0][y] >> PAD
        black[y >> 2] |= (<uint64_t>(row & 0x7FFF)) << (16 * (y & 3))
        row = ~(b.block[0][y] >> PAD)
        open_[y >> 2] |= (<uint64_t>(row & 0x7FFF)) << (16 * (y & 3))
        row = ~((b.black[0][y] | b.block[0][y]) >> PAD)
        free[y >> 2] |= (<uint64_t>(row & 0x7FFF)) << (16 * (y & 3))
    for d in range(4):
        for w in range(PACK_WORDS):
            c1[w] = 0
            c2[w] = 0
        for k in range(7):
            if k == 3:
                continue
            # a cell sees the stone at offset k - 3 when the stones move by 3 - k
            _move(black, mb[k], (3 - k) * DX[d], (3 - k) * DY[d])
            _move(open_, mo[k], (3 - k) * DX[d], (3 - k) * DY[d])
            for w in range(PACK_WORDS):
                m = mb[k][w]
                c3[w] |= c2[w] & m
                c2[w] |= c1[w] & m
                c1[w] |= m
        # a three or a four on this line: a window of 4 cells through the cell, its other 3
        # cells open (no white, on the board) and 2 of them black
        for w in range(PACK_WORDS):
            line2 = 0
            for s in range(4):
                j = 0
                for k in range(s, s + 4):
                    if k != 3:
                        others[j] = k
                        j += 1
                a = mb[others[0]][w]
                bb = mb[others[1]][w]
                c = mb[others[2]][w]
                line2 |= ((a & bb) | (a & c) | (bb & c)) & mo[others[0]][w] & mo[others[1]][w] & mo[others[2]][w]
            pair2[w] |= any2[w] & line2
            any2[w] |= line2
        # c3 only gains this line's bits (c2 restarts per line): 3 black within 3 on some line
    for w in range(PACK_WORDS):
        bits = (pair2[w] | c3[w]) & free[w]
        while bits:
            bit = __builtin_ctzll(bits)
            bits &= bits - 1
            cells[n] = ((w << 2) + (bit >> 4)) * SIZE + (bit & 15)
            n += 1
    return n
