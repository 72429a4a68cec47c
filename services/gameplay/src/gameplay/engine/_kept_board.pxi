# Included by _core.pyx: the board a game keeps, with its forbidden-point state kept move by move.
#
# Why: judging a position from scratch tests every empty cell that has enough black stones near
# it (about 50 in a mid-game position). A game changes one cell per move, and a move only changes
# the pattern entries of the empty cells within 5 of it on its 4 lines (at most 40). So the board
# keeps, for every empty cell, its 4 pattern entries (the same table lookups ``_classify`` starts
# with), a per-cell summary of them, and a 225-bit set of "suspect" cells: those whose entries
# make a foul possible (an overline, two fours, or two lines that may be threes, and no five).
# Classifying a position is then classifying its suspects, usually none to a handful; only the
# double-three suspects pay for the recursive check, which works on the same bit masks.

# Summary of a cell's 4 entries, as a sum of per-entry contributions: 3 bits of five lines,
# 3 bits of overline lines, 4 bits of fours, 3 bits of lines holding a possible three.
cdef enum:
    S_OVER_SHIFT = 3
    S_FOURS_SHIFT = 6
    S_THREES_SHIFT = 10

cdef uint16_t CONTRIB[1024]     # pattern entry (10 bits) -> its share of the summary
cdef int STEP[4]                # cell-index step along each direction


cdef void _build_kept_tables() noexcept nogil:
    cdef int e
    for e in range(1024):
        CONTRIB[e] = <uint16_t>(
            (e & F_FIVE)
            | (((e & F_OVERLINE) >> 1) << S_OVER_SHIFT)
            | (((e >> FOURS_SHIFT) & 3) << S_FOURS_SHIFT)
            | ((1 if e >> THREE_SHIFT else 0) << S_THREES_SHIFT)
        )
    STEP[0] = 1
    STEP[1] = SIZE
    STEP[2] = SIZE + 1
    STEP[3] = 1 - SIZE


_build_kept_tables()


cdef inline bint _suspect(uint16_t s) noexcept nogil:
    """A foul is possible: no five, and an overline, two fours or two possible threes."""
    if s & 7:
        return False
    return ((s >> S_OVER_SHIFT) & 7) != 0 or ((s >> S_FOURS_SHIFT) & 15) >= 2 or ((s >> S_THREES_SHIFT) & 7) >= 2


cdef class KeptBoard:
    """A board kept move by move, judging black's forbidden points (PLAY-3) from state kept
    incrementally. ``place``/``undo`` change it; ``classify``/``forbidden_points`` answer
    what the module functions of the same name answer for its stones."""

    cdef Board board
    cdef uint16_t entries[4][CELLS]   # pattern entries of each empty cell (0 on a stone)
    cdef uint16_t summary[CELLS]
    cdef uint64_t suspects[4]         # bit c: cell c is a suspect
    cdef unsigned char stone[CELLS]   # 0 empty, 1 black, 2 white
    cdef short placed[CELLS]          # the cells in the order they were placed
    cdef int count

    def __cinit__(self):
        _clear(&self.board)
        memset(self.entries, 0, sizeof(self.entries))
        memset(self.summary, 0, sizeof(self.summary))
        memset(self.suspects, 0, sizeof(self.suspects))
        memset(self.stone, 0, sizeof(self.stone))
        self.count = 0

    def __reduce__(self):
        return (_kept_board_from_moves, (self.moves(),))

    # ------------------------------------------------------------ incremental upkeep

    cdef inline void _set_entry(self, int d, int cell, uint16_t new) noexcept nogil:
        cdef uint16_t old = self.entries[d][cell]
        cdef uint16_t s
        if new == old:
            return
        self.entries[d][cell] = new
        s = self.summary[cell] - CONTRIB[old] + CONTRIB[new]
        self.summary[cell] = s
        if _suspect(s):
            self.suspects[cell >> 6] |= (<uint64_t>1) << (cell & 63)
        else:
            self.suspects[cell >> 6] &= ~((<uint64_t>1) << (cell & 63))

    cdef void _refresh(self, int cell) noexcept nogil:
        """Recompute the entries of the empty cells within 5 of ``cell`` on its 4 lines."""
        cdef int d, j, at, pos, line
        cdef uint32_t black, block, empty, wb, wk
        for d in range(4):
            line = LID[d][cell]
            pos = LPOS[d][cell]
            black = self.board.black[d][line]
            block = self.board.block[d][line]
            # bit j: the cell at offset j - 5 (line bit pos + j); off the board counts as blocked
            empty = ~(black | block) >> pos & 0x7FF
            while empty:
                j = __builtin_ctz(empty)
                empty &= empty - 1
                at = pos + j - 5        # its line position; its window is line bits at..at+10
                wb = (black >> at) & 0x7FF
                wk = (block >> at) & 0x7FF
                wb = (wb & 0x1F) | ((wb >> 6) << 5)
                wk = (wk & 0x1F) | ((wk >> 6) << 5)
                self._set_entry(d, cell + (j - 5) * STEP[d], PATTERN[TERN[wb] + 2 * TERN[wk]])

    cdef void _place(self, int cell, bint black) noexcept nogil:
        cdef int d
        _set(&self.board, cell, black)
        self.stone[cell] = 1 if black else 2
        self.placed[self.count] = <short>cell
        self.count += 1
        for d in range(4):
            self._set_entry(d, cell, 0)
        self._refresh(cell)

    cdef void _undo(self) noexcept nogil:
        cdef int d, cell
        cdef uint32_t bit
        self.count -= 1
        cell = self.placed[self.count]
        for d in range(4):
            bit = ~((<uint32_t>1) << (LPOS[d][cell] + PAD))
            if self.stone[cell] == 1:
                self.board.black[d][LID[d][cell]] &= bit
            else:
                self.board.block[d][LID[d][cell]] &= bit
        self.stone[cell] = 0
        self._refresh(cell)

    cdef int _kind(self, int cell) noexcept nogil:
        cdef uint16_t s = self.summary[cell]
        cdef uint16_t e[4]
        cdef int d
        if not _suspect(s):
            return K_FIVE if s & 7 else K_NONE
        for d in range(4):
            e[d] = self.entries[d][cell]
        return _classify_entries(&self.board, cell, e)

    # ------------------------------------------------------------ Python API

    def place(self, point, bint black):
        """Put a black (``black`` true) or white stone on the empty ``point``."""
        cdef int cell = _cell_of(point, "point")
        if self.stone[cell]:
            raise ValueError(f"point {tuple(point)!r} is occupied")
        self._place(cell, black)

    def undo(self):
        """Take back the last stone placed; returns its point."""
        cdef int cell
        if self.count == 0:
            raise ValueError("no stone to take back")
        cell = self.placed[self.count - 1]
        self._undo()
        return (cell % SIZE, cell // SIZE)

    def classify(self, point):
        """What a black stone on the empty ``point`` would be (as ``classify``)."""
        cdef int cell = _cell_of(point, "point")
        if self.stone[cell]:
            raise ValueError(f"point {tuple(point)!r} is occupied")
        return KINDS[self._kind(cell)]

    def forbidden_points(self):
        """Every empty point where black may not play, mapped to its kind (PLAY-3)."""
        cdef int w, cell, kind, n = 0, i
        cdef uint64_t bits
        cdef int cells[CELLS]
        cdef unsigned char kinds[CELLS]
        with nogil:
            for w in range(4):
                bits = self.suspects[w]
                while bits:
                    cell = (w << 6) + __builtin_ctzll(bits)
                    bits &= bits - 1
                    kind = self._kind(cell)
                    if kind >= K_OVERLINE:
                        cells[n] = cell
                        kinds[n] = <unsigned char>kind
                        n += 1
        result = {}
        for i in range(n):
            result[(cells[i] % SIZE, cells[i] // SIZE)] = KINDS[kinds[i]]
        return result

    def forbidden_count(self):
        """How many forbidden points the position has (``forbidden_points`` without the dict:
        for the benchmark, which times the classification itself)."""
        cdef int w, cell, n = 0
        cdef uint64_t bits
        with nogil:
            for w in range(4):
                bits = self.suspects[w]
                while bits:
                    cell = (w << 6) + __builtin_ctzll(bits)
                    bits &= bits - 1
                    if self._kind(cell) >= K_OVERLINE:
                        n += 1
        return n

    def _forbidden_count_scan(self):
        """``forbidden_count`` the way positions were judged before this board kept state:
        every cell with 4 black stones within 5 classified (the benchmark's baseline)."""
        cdef int i, n = 0, ncand
        cdef int cand[CELLS]
        with nogil:
            ncand = _candidates(&self.board, cand)
            for i in range(ncand):
                if _classify(&self.board, cand[i]) >= K_OVERLINE:
                    n += 1
        return n

    def moves(self):
        """The stones in the order placed: a list of ((x, y), is_black)."""
        return [((self.placed[i] % SIZE, self.placed[i] // SIZE), self.stone[self.placed[i]] == 1)
                for i in range(self.count)]

    def _state(self):
        """The kept state (entries of the 4 directions, summaries, suspect cells); compared in
        the tests with ``_rebuilt_state`` after any sequence of moves and undos."""
        return (
            [[self.entries[d][c] for c in range(CELLS)] for d in range(4)],
            [self.summary[c] for c in range(CELLS)],
            [c for c in range(CELLS) if (self.suspects[c >> 6] >> (c & 63)) & 1],
        )

    def _rebuilt_state(self):
        """The same state computed from scratch from the stones alone."""
        cdef int d, c
        cdef uint16_t s
        entries = [[0] * CELLS for _ in range(4)]
        summaries = [0] * CELLS
        suspects = []
        for c in range(CELLS):
            if self.stone[c]:
                continue
            s = 0
            for d in range(4):
                entries[d][c] = _pattern(&self.board, d, c)
                s += CONTRIB[entries[d][c]]
            summaries[c] = s
            if _suspect(s):
                suspects.append(c)
        return entries, summaries, suspects


def _kept_board_from_moves(moves):
    board = KeptBoard()
    for point, black in moves:
        board.place(point, black)
    return board
