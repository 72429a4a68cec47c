# The edges of a round kept in compact arrays, their dicts made only when read (included by
# _dutch_core.pyx; see its docstring).
#
# gacrux's crosstable is a matrix of edge dicts, one per pair, 16 keys each (8,515 at 128
# players), but a late round reads the dicts of about a tenth of them: the brackets' pairs and
# the few its Python code looks at. ``EdgeTable`` keeps what ``build_edges`` used to write into
# every dict (the pair's ends, score levels, canmeet, games played, unplayed rounds) in arrays
# and makes a pair's dict, key for key the dict build_edges made, the first time anything reads
# it; from then on that dict is the pair's edge, as before (gacrux changes it in place). Rows of
# ``EdgeRow`` stand for the matrix's lists (``opponents[a][b]``, both ways the same dict).
#
# An ``EdgeList`` is a sequence of edges (gacrux's edge lists) held as keys into their source
# (the round's table, or a plain list of dicts) with each edge's ends and score levels (which
# nothing changes once an edge exists) alongside: the compiled filters read those arrays and
# never the dicts, so an edge list of the whole field makes no dict either.


cdef class _EdgeSource:
    """Where an ``EdgeList``'s edges live: their dicts by key."""

    cdef object get(self, Py_ssize_t key):
        raise NotImplementedError

    cdef void set_weight(self, Py_ssize_t key, object weight):
        self.get(key)["weight"] = weight


cdef class _ListSource(_EdgeSource):
    """A plain list of edge dicts (a copy: keys are its positions)."""

    cdef list edges

    def __cinit__(self, list edges):
        self.edges = edges

    cdef object get(self, Py_ssize_t key):
        return self.edges[key]


cdef inline Py_ssize_t _pair_key(Py_ssize_t first, Py_ssize_t second, Py_ssize_t width):
    return first * width + second if first <= second else second * width + first


cdef class EdgeTable(_EdgeSource):
    """Every pair's edge of a round (gacrux's ``opponents`` matrix), in arrays; a pair's dict is
    made on first read (``edge``) and kept. Key of the pair ``low <= high``: ``low * width + high``."""

    cdef readonly Py_ssize_t width
    cdef Py_ssize_t blob
    cdef list made  # the dict of each key once made, else None
    cdef bytearray meet  # canmeet, by key (forbidden pairs cleared: ``forbid``)
    cdef array.array played  # games the pair played, by key
    cdef bytearray weighted  # whether ``set_weight`` gave the key a weight before its dict was made
    cdef list weights  # those weights, by key (None elsewhere; made on the first set_weight)
    cdef list levels, unplayed  # per competitor, as build_edges read them: scorelevel, unplayed rounds

    def __cinit__(self, Py_ssize_t width, Py_ssize_t blob, list levels, list unplayed):
        self.width = width
        self.blob = blob
        self.made = [None] * (width * width)
        self.meet = bytearray(width * width)
        self.played = array.clone(_INTS, width * width, zero=True)
        self.weighted = None
        self.weights = None
        self.levels = levels
        self.unplayed = unplayed

    cdef object get(self, Py_ssize_t key):
        cdef object edge = <object>PyList_GET_ITEM(self.made, key)
        if edge is None:
            edge = self._make(key)
        return edge

    cdef dict _make(self, Py_ssize_t key):
        """The pair's dict as build_edges made it (template order, then the pair's values)."""
        cdef Py_ssize_t low = key // self.width, high = key % self.width
        cdef bint canmeet = self.meet[key]
        cdef dict edge = _EDGE_TEMPLATE.copy()
        edge["ca"] = low
        edge["cb"] = high
        edge["sa"] = self.levels[low]
        edge["sb"] = self.levels[high]
        edge["canmeet"] = canmeet
        edge["isblob"] = high == self.blob
        edge["played"] = self.played.data.as_ints[key]
        edge["unplayed"] = self.unplayed[high]
        edge["qc"] = canmeet
        if self.weighted is not None and self.weighted[key]:
            edge["weight"] = self.weights[key]
        self.made[key] = edge
        return edge

    cdef void set_weight(self, Py_ssize_t key, object weight):
        """``edge["weight"] = weight``, kept for the dict if it is not made yet."""
        cdef object edge = <object>PyList_GET_ITEM(self.made, key)
        if edge is not None:
            edge["weight"] = weight
            return
        if self.weighted is None:
            self.weighted = bytearray(self.width * self.width)
            self.weights = [None] * (self.width * self.width)
        self.weighted[key] = 1
        self.weights[key] = weight

    cdef Py_ssize_t key_of(self, Py_ssize_t first, Py_ssize_t second) except -1:
        cdef Py_ssize_t width = self.width
        if first < 0:
            first += width
        if second < 0:
            second += width
        if not (0 <= first < width and 0 <= second < width):
            raise IndexError("edge index out of range")
        return _pair_key(first, second, width)

    def edge(self, Py_ssize_t first, Py_ssize_t second):
        """``opponents[first][second]``: the pair's dict (made now if not yet)."""
        return self.get(self.key_of(first, second))

    def is_made(self, Py_ssize_t first, Py_ssize_t second):
        """Whether the pair's dict was made (read) already."""
        return self.made[self.key_of(first, second)] is not None

    def forbid(self, Py_ssize_t first, Py_ssize_t second):
        """gacrux's ``opponent["canmeet"] = opponent["qc"] = False`` for a forbidden pair."""
        cdef Py_ssize_t key = self.key_of(first, second)
        self.meet[key] = 0
        cdef object edge = self.made[key]
        if edge is not None:
            edge["canmeet"] = edge["qc"] = False

    def rows(self):
        """The matrix's rows (``opponents``)."""
        return [EdgeRow(self, index) for index in range(self.width)]

    cdef EdgeList sorted_edges(self):
        """The pairs that can meet (the blob's column left out), as ``sorted_edges`` sorts them."""
        cdef Py_ssize_t low, high, width = self.width, key
        cdef array.array levels = array.array("i", self.levels)
        cdef _LevelGroups groups = _LevelGroups(self, max(self.levels[:-1], default=-1) + 1)
        for low in range(width):
            for high in range(low + 1, width - 1):
                key = low * width + high
                if self.meet[key]:
                    groups.add(key, low, high, levels.data.as_ints[low], levels.data.as_ints[high])
        return groups.done()


cdef class EdgeRow:
    """One row of the matrix: ``row[column]`` is the pair's edge dict (made on first read)."""

    cdef EdgeTable table
    cdef Py_ssize_t index

    def __cinit__(self, EdgeTable table, Py_ssize_t index):
        self.table = table
        self.index = index

    def __len__(self):
        return self.table.width

    def __getitem__(self, object column):
        if isinstance(column, slice):
            return [self[at] for at in range(*column.indices(self.table.width))]
        return self.table.get(self.table.key_of(self.index, column))

    def __iter__(self):
        cdef Py_ssize_t column
        for column in range(self.table.width):
            yield self.table.get(_pair_key(self.index, column, self.table.width))


cdef class EdgeList:
    """A list of edges (read-only): keys into their source, the ends and score levels alongside.
    Indexing, slicing and iteration give the dicts; equal to any list of the same dicts."""

    cdef readonly _EdgeSource source
    cdef array.array key, ca, cb, sa, sb

    def __len__(self):
        return len(self.key)

    cdef inline object at(self, Py_ssize_t index):
        return self.source.get(self.key.data.as_ints[index])

    def __getitem__(self, object index):
        cdef Py_ssize_t at, count = len(self.key)
        if isinstance(index, slice):
            start, stop, step = index.indices(count)
            if step == 1:
                return _slice(self, start, stop)
            return [self.at(at) for at in range(start, stop, step)]
        at = index
        if at < 0:
            at += count
        if not 0 <= at < count:
            raise IndexError("edge list index out of range")
        return self.at(at)

    def __iter__(self):
        cdef Py_ssize_t index
        for index in range(len(self.key)):
            yield self.at(index)

    def __eq__(self, other):
        if not isinstance(other, (list, tuple, EdgeList)):
            return NotImplemented
        return list(self) == list(other)

    def __ne__(self, other):
        if not isinstance(other, (list, tuple, EdgeList)):
            return NotImplemented
        return list(self) != list(other)

    __hash__ = None

    def __repr__(self):
        return f"EdgeList({list(self)!r})"


cdef EdgeList _slice(EdgeList source, Py_ssize_t start, Py_ssize_t stop):
    cdef EdgeList out = EdgeList.__new__(EdgeList)
    if stop < start:
        stop = start
    out.source = source.source
    out.key = source.key[start:stop]
    out.ca = source.ca[start:stop]
    out.cb = source.cb[start:stop]
    out.sa = source.sa[start:stop]
    out.sb = source.sb[start:stop]
    return out


cdef class _Builder:
    """Collects edges (their keys and four numbers) of one source into an ``EdgeList``."""

    cdef _EdgeSource source
    cdef array.array key, ca, cb, sa, sb
    cdef Py_ssize_t count

    def __cinit__(self, _EdgeSource source, Py_ssize_t capacity):
        self.source = source
        self.key = array.clone(_INTS, capacity, zero=False)
        self.ca = array.clone(_INTS, capacity, zero=False)
        self.cb = array.clone(_INTS, capacity, zero=False)
        self.sa = array.clone(_INTS, capacity, zero=False)
        self.sb = array.clone(_INTS, capacity, zero=False)
        self.count = 0

    cdef inline void add(self, Py_ssize_t key, int ca, int cb, int sa, int sb):
        cdef Py_ssize_t at = self.count
        if at == len(self.key):
            self.grow(2 * at + 16)
        self.key.data.as_ints[at] = key
        self.ca.data.as_ints[at] = ca
        self.cb.data.as_ints[at] = cb
        self.sa.data.as_ints[at] = sa
        self.sb.data.as_ints[at] = sb
        self.count = at + 1

    cdef inline void add_from(self, EdgeList edges, Py_ssize_t index):
        self.add(
            edges.key.data.as_ints[index], edges.ca.data.as_ints[index], edges.cb.data.as_ints[index],
            edges.sa.data.as_ints[index], edges.sb.data.as_ints[index],
        )

    cdef void grow(self, Py_ssize_t capacity):
        array.resize(self.key, capacity)
        array.resize(self.ca, capacity)
        array.resize(self.cb, capacity)
        array.resize(self.sa, capacity)
        array.resize(self.sb, capacity)

    cdef void extend(self, _Builder other):
        """Append every edge of ``other`` (in its order)."""
        cdef Py_ssize_t at = self.count, more = other.count
        if at + more > len(self.key):
            self.grow(at + more)
        memcpy(&self.key.data.as_ints[at], other.key.data.as_ints, more * sizeof(int))
        memcpy(&self.ca.data.as_ints[at], other.ca.data.as_ints, more * sizeof(int))
        memcpy(&self.cb.data.as_ints[at], other.cb.data.as_ints, more * sizeof(int))
        memcpy(&self.sa.data.as_ints[at], other.sa.data.as_ints, more * sizeof(int))
        memcpy(&self.sb.data.as_ints[at], other.sb.data.as_ints, more * sizeof(int))
        self.count = at + more

    cdef EdgeList done(self):
        cdef EdgeList out = EdgeList.__new__(EdgeList)
        array.resize(self.key, self.count)
        array.resize(self.ca, self.count)
        array.resize(self.cb, self.count)
        array.resize(self.sa, self.count)
        array.resize(self.sb, self.count)
        out.source = self.source
        out.key, out.ca, out.cb, out.sa, out.sb = self.key, self.ca, self.cb, self.sa, self.sb
        return out


cdef class _LevelGroups:
    """Edges grouped by their two score levels (low first), in the order added; ``done`` joins
    the groups, the highest first (``sorted_edges``' order). Levels in ``0..count - 1`` index a
    list of groups (no tuple per edge); any other goes to a dict."""

    cdef _EdgeSource source
    cdef Py_ssize_t count, total
    cdef list buckets
    cdef dict others

    def __cinit__(self, _EdgeSource source, Py_ssize_t count):
        self.source = source
        self.count = count
        self.total = 0
        self.buckets = [None] * (count * count)
        self.others = {}

    cdef int add(self, Py_ssize_t key, int ca, int cb, int first, int second) except -1:
        cdef int low = first if first < second else second
        cdef int high = second if first < second else first
        cdef _Builder group
        if 0 <= low and high < self.count:
            group = self.buckets[low * self.count + high]
            if group is None:
                group = _Builder(self.source, 0)
                self.buckets[low * self.count + high] = group
        else:
            group = self.others.get((low, high))
            if group is None:
                group = _Builder(self.source, 0)
                self.others[(low, high)] = group
        group.add(key, ca, cb, first, second)
        self.total += 1
        return 0

    cdef EdgeList done(self):
        cdef Py_ssize_t low, high, count = self.count
        cdef dict groups = dict(self.others)
        for low in range(count):
            for high in range(low, count):
                if self.buckets[low * count + high] is not None:
                    groups[(low, high)] = self.buckets[low * count + high]
        cdef _Builder out = _Builder(self.source, self.total)
        for level_key in sorted(groups, key=_descending):
            out.extend(groups[level_key])
        return out.done()


def _descending(key):
    return (-key[0], -key[1])


cdef EdgeList _compacted(object edges):
    """``edges`` as an ``EdgeList`` (itself when it is one; a list's dicts read once)."""
    if type(edges) is EdgeList:
        return <EdgeList>edges
    cdef list copied = list(edges)
    cdef _Builder out = _Builder(_ListSource(copied), len(copied))
    cdef dict edge
    cdef Py_ssize_t index
    for index in range(len(copied)):
        edge = copied[index]
        out.add(index, edge["ca"], edge["cb"], edge["sa"], edge["sb"])
    return out.done()
