# The blossom matching itself, included by _blossom.pyx (128-bit integers) and
# _blossom_wide.pyx (384-bit integers): each defines ``Num`` (the integer type of weights,
# duals and slacks, with + - * // and comparisons), ``_to_num`` (a Python int to Num) and
# ``MAX_BITS`` before including this file. See _blossom.pyx for what the code transcribes.

from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy


cdef enum:
    NONE = -1
    NONODE = -2


cdef inline int _pyidx(int j, int length) noexcept nogil:
    """Python's ``seq[j]`` index for ``-length <= j < length``."""
    return j + length if j < 0 else j


cdef class _Matcher:
    """One run of the algorithm on a graph given as adjacency arrays (vertex ids 0..n-1 in
    the graph's node order, each vertex's neighbours in the graph's adjacency order); blossom
    ids are n..2n-1, reused once a blossom is expanded."""

    cdef int n
    cdef int *nstart
    cdef int *nbr
    cdef Num *nwt
    cdef bint maxcardinality
    cdef int *mate
    cdef int *mate_seq
    cdef int nmate_seq
    cdef int *label
    cdef int *le_v
    cdef int *le_w
    cdef int *inblossom
    cdef int *bparent
    cdef int *bbase
    cdef int *be_v
    cdef int *be_w
    cdef Num *be_wt
    cdef Num *dualvar
    cdef Num *bdual
    cdef int *allow
    cdef int stage
    cdef int *queue
    cdef int qlen
    cdef int qcap
    cdef int **childs
    cdef int *nchilds
    cdef int **bedges
    cdef int **mbe_vw
    cdef Num **mbe_wt
    cdef int *nmbe
    cdef int *border
    cdef int nborder
    cdef int *freeids
    cdef int nfree
    cdef int *stack
    cdef int *leafbuf
    cdef int *pathbuf
    cdef int *edgebuf
    cdef int *bt_pos
    cdef int *bt_v
    cdef int *bt_w
    cdef Num *bt_wt
    cdef int *bt_key
    cdef int *snapshot

    def __cinit__(self):
        self.n = 0

    cdef int setup(self, int n, int *nstart, int *nbr, Num *nwt, bint maxcardinality) except -1:
        cdef int i, nb = 2 * n
        self.n = n
        self.nstart = nstart
        self.nbr = nbr
        self.nwt = nwt
        self.maxcardinality = maxcardinality
        self.mate = <int *>malloc(n * sizeof(int))
        self.mate_seq = <int *>malloc(n * sizeof(int))
        self.label = <int *>calloc(nb, sizeof(int))
        self.le_v = <int *>malloc(nb * sizeof(int))
        self.le_w = <int *>malloc(nb * sizeof(int))
        self.inblossom = <int *>malloc(n * sizeof(int))
        self.bparent = <int *>malloc(nb * sizeof(int))
        self.bbase = <int *>malloc(nb * sizeof(int))
        self.be_v = <int *>malloc(nb * sizeof(int))
        self.be_w = <int *>malloc(nb * sizeof(int))
        self.be_wt = <Num *>malloc(nb * sizeof(Num))
        self.dualvar = <Num *>malloc(n * sizeof(Num))
        self.bdual = <Num *>calloc(nb, sizeof(Num))
        self.allow = <int *>calloc(<size_t>n * <size_t>n, sizeof(int))
        self.qcap = 4 * n + 16
        self.queue = <int *>malloc(self.qcap * sizeof(int))
        self.childs = <int **>calloc(nb, sizeof(int *))
        self.nchilds = <int *>calloc(nb, sizeof(int))
        self.bedges = <int **>calloc(nb, sizeof(int *))
        self.mbe_vw = <int **>calloc(nb, sizeof(int *))
        self.mbe_wt = <Num **>calloc(nb, sizeof(Num *))
        self.nmbe = <int *>malloc(nb * sizeof(int))
        self.border = <int *>malloc((n + 1) * sizeof(int))
        self.freeids = <int *>malloc((n + 1) * sizeof(int))
        self.stack = <int *>malloc((nb + 1) * sizeof(int))
        self.leafbuf = <int *>malloc((n + 1) * sizeof(int))
        self.pathbuf = <int *>malloc((nb + 1) * sizeof(int))
        self.edgebuf = <int *>malloc((2 * nb + 2) * sizeof(int))
        self.bt_pos = <int *>malloc(nb * sizeof(int))
        self.bt_v = <int *>malloc((nb + 1) * sizeof(int))
        self.bt_w = <int *>malloc((nb + 1) * sizeof(int))
        self.bt_wt = <Num *>malloc((nb + 1) * sizeof(Num))
        self.bt_key = <int *>malloc((nb + 1) * sizeof(int))
        self.snapshot = <int *>malloc((n + 1) * sizeof(int))
        if (
            not self.mate or not self.mate_seq or not self.label or not self.le_v or not self.le_w
            or not self.inblossom or not self.bparent or not self.bbase or not self.be_v or not self.be_w
            or not self.be_wt or not self.dualvar or not self.bdual or not self.allow or not self.queue
            or not self.childs or not self.nchilds or not self.bedges or not self.mbe_vw or not self.mbe_wt
            or not self.nmbe or not self.border or not self.freeids or not self.stack or not self.leafbuf
            or not self.pathbuf or not self.edgebuf or not self.bt_pos or not self.bt_v or not self.bt_w
            or not self.bt_wt or not self.bt_key or not self.snapshot
        ):
            raise MemoryError()
        for i in range(n):
            self.mate[i] = NONE
            self.inblossom[i] = i
            self.bbase[i] = i
        for i in range(nb):
            self.bparent[i] = NONE
            self.le_v[i] = NONE
            self.le_w[i] = NONE
            self.be_v[i] = NONE
            self.be_w[i] = NONE
            self.nmbe[i] = NONE
            self.bt_pos[i] = NONE
        for i in range(n, nb):
            self.bbase[i] = NONE
        # free blossom ids, the lowest on top (networkx has no ids: only creation order matters)
        self.nfree = n
        for i in range(n):
            self.freeids[i] = nb - 1 - i
        self.nborder = 0
        self.nmate_seq = 0
        self.stage = 0
        return 0

    def __dealloc__(self):
        cdef int i
        if self.childs:
            for i in range(2 * self.n):
                free(self.childs[i])
                free(self.bedges[i])
                free(self.mbe_vw[i])
                free(self.mbe_wt[i])
        free(self.mate); free(self.mate_seq); free(self.label); free(self.le_v); free(self.le_w)
        free(self.inblossom); free(self.bparent); free(self.bbase); free(self.be_v); free(self.be_w)
        free(self.be_wt); free(self.dualvar); free(self.bdual); free(self.allow); free(self.queue)
        free(self.childs); free(self.nchilds); free(self.bedges); free(self.mbe_vw); free(self.mbe_wt)
        free(self.nmbe); free(self.border); free(self.freeids); free(self.stack); free(self.leafbuf)
        free(self.pathbuf); free(self.edgebuf); free(self.bt_pos); free(self.bt_v); free(self.bt_w)
        free(self.bt_wt); free(self.bt_key); free(self.snapshot)

    # -- small helpers -------------------------------------------------------------------

    cdef inline Num slack(self, int v, int w, Num wt) noexcept:
        return self.dualvar[v] + self.dualvar[w] - 2 * wt

    cdef inline bint allowed(self, int v, int w) noexcept:
        return self.allow[<size_t>v * self.n + w] == self.stage

    cdef inline void set_allowed(self, int v, int w) noexcept:
        self.allow[<size_t>v * self.n + w] = self.stage
        self.allow[<size_t>w * self.n + v] = self.stage

    cdef inline void set_mate(self, int v, int w) noexcept:
        if self.mate[v] == NONE:
            self.mate_seq[self.nmate_seq] = v
            self.nmate_seq += 1
        self.mate[v] = w

    cdef int push(self, int v) except -1:
        cdef int *grown
        if self.qlen == self.qcap:
            grown = <int *>realloc(self.queue, 2 * self.qcap * sizeof(int))
            if not grown:
                raise MemoryError()
            self.queue = grown
            self.qcap *= 2
        self.queue[self.qlen] = v
        self.qlen += 1
        return 0

    cdef int leaves(self, int b) noexcept:
        """``Blossom.leaves(b)`` into ``leafbuf`` (same order); returns how many."""
        cdef int top = 0, count = 0, t, k
        cdef int *ch = self.childs[b]
        for k in range(self.nchilds[b]):
            self.stack[top] = ch[k]
            top += 1
        while top > 0:
            top -= 1
            t = self.stack[top]
            if t >= self.n:
                ch = self.childs[t]
                for k in range(self.nchilds[t]):
                    self.stack[top] = ch[k]
                    top += 1
            else:
                self.leafbuf[count] = t
                count += 1
        return count

    cdef int index_of_child(self, int b, int t) noexcept:
        cdef int k
        for k in range(self.nchilds[b]):
            if self.childs[b][k] == t:
                return k
        return -1

    # -- the algorithm -------------------------------------------------------------------

    cdef int assign_label(self, int w, int t, int v) except -1:
        cdef int b = self.inblossom[w], count, k, base
        self.label[w] = t
        self.label[b] = t
        if v != NONE:
            self.le_v[w] = v
            self.le_w[w] = w
            self.le_v[b] = v
            self.le_w[b] = w
        else:
            self.le_v[w] = NONE
            self.le_w[w] = NONE
            self.le_v[b] = NONE
            self.le_w[b] = NONE
        self.be_v[w] = NONE
        self.be_v[b] = NONE
        if t == 1:
            if b >= self.n:
                count = self.leaves(b)
                for k in range(count):
                    self.push(self.leafbuf[k])
            else:
                self.push(b)
        elif t == 2:
            base = self.bbase[b]
            self.assign_label(self.mate[base], 1, base)
        return 0

    cdef int scan_blossom(self, int v, int w) noexcept:
        cdef int npath = 0, base = NONODE, b, k, tmp
        while v != NONODE:
            b = self.inblossom[v]
            if self.label[b] & 4:
                base = self.bbase[b]
                break
            self.pathbuf[npath] = b
            npath += 1
            self.label[b] = 5
            if self.le_v[b] == NONE:
                v = NONODE
            else:
                v = self.le_v[b]
                b = self.inblossom[v]
                v = self.le_v[b]
            if w != NONODE:
                tmp = v
                v = w
                w = tmp
        for k in range(npath):
            self.label[self.pathbuf[k]] = 1
        return base

    cdef int consider_best(self, int b, int i0, int j0, Num wt, int *nbt) noexcept:
        """One candidate ``k = (i0, j0)`` of ``addBlossom``'s ``bestedgeto`` loop."""
        cdef int i = i0, j = j0, bj, pos
        if self.inblossom[j] == b:
            i = j0
            j = i0
        bj = self.inblossom[j]
        if bj != b and self.label[bj] == 1:
            pos = self.bt_pos[bj]
            if pos == NONE:
                pos = nbt[0]
                nbt[0] += 1
                self.bt_pos[bj] = pos
                self.bt_key[pos] = bj
                self.bt_v[pos] = i0
                self.bt_w[pos] = j0
                self.bt_wt[pos] = wt
            elif self.slack(i, j, wt) < self.slack(self.bt_v[pos], self.bt_w[pos], self.bt_wt[pos]):
                self.bt_v[pos] = i0
                self.bt_w[pos] = j0
                self.bt_wt[pos] = wt
        return 0

    cdef int add_blossom(self, int base, int v, int w) except -1:
        cdef int n = self.n
        cdef int bb = self.inblossom[base], bv = self.inblossom[v], bw = self.inblossom[w]
        cdef int b, npath = 0, nedge = 0, k, tmp, count, x, y, s, nbt = 0, length
        cdef int *ch
        cdef int *ed
        cdef Num kslack, best = 0
        b = self.freeids[self.nfree - 1]
        self.nfree -= 1
        self.border[self.nborder] = b
        self.nborder += 1
        self.bbase[b] = base
        self.bparent[b] = NONE
        self.bparent[bb] = b
        # path / edgs built in pathbuf / edgebuf as networkx builds its lists
        self.edgebuf[0] = v
        self.edgebuf[1] = w
        nedge = 1
        while bv != bb:
            self.bparent[bv] = b
            self.pathbuf[npath] = bv
            npath += 1
            self.edgebuf[2 * nedge] = self.le_v[bv]
            self.edgebuf[2 * nedge + 1] = self.le_w[bv]
            nedge += 1
            v = self.le_v[bv]
            bv = self.inblossom[v]
        self.pathbuf[npath] = bb
        npath += 1
        for k in range(npath // 2):
            tmp = self.pathbuf[k]
            self.pathbuf[k] = self.pathbuf[npath - 1 - k]
            self.pathbuf[npath - 1 - k] = tmp
        for k in range(nedge // 2):
            tmp = self.edgebuf[2 * k]
            self.edgebuf[2 * k] = self.edgebuf[2 * (nedge - 1 - k)]
            self.edgebuf[2 * (nedge - 1 - k)] = tmp
            tmp = self.edgebuf[2 * k + 1]
            self.edgebuf[2 * k + 1] = self.edgebuf[2 * (nedge - 1 - k) + 1]
            self.edgebuf[2 * (nedge - 1 - k) + 1] = tmp
        while bw != bb:
            self.bparent[bw] = b
            self.pathbuf[npath] = bw
            npath += 1
            self.edgebuf[2 * nedge] = self.le_w[bw]
            self.edgebuf[2 * nedge + 1] = self.le_v[bw]
            nedge += 1
            w = self.le_v[bw]
            bw = self.inblossom[w]
        ch = <int *>malloc(npath * sizeof(int))
        ed = <int *>malloc(2 * nedge * sizeof(int))
        if not ch or not ed:
            free(ch)
            free(ed)
            raise MemoryError()
        memcpy(ch, self.pathbuf, npath * sizeof(int))
        memcpy(ed, self.edgebuf, 2 * nedge * sizeof(int))
        self.childs[b] = ch
        self.bedges[b] = ed
        self.nchilds[b] = npath
        self.label[b] = 1
        self.le_v[b] = self.le_v[bb]
        self.le_w[b] = self.le_w[bb]
        self.bdual[b] = 0
        count = self.leaves(b)
        for k in range(count):
            x = self.leafbuf[k]
            if self.label[self.inblossom[x]] == 2:
                self.push(x)
            self.inblossom[x] = b
        # bestedgeto: the least-slack edge to each neighbouring S-blossom, in insertion order
        for k in range(npath):
            s = ch[k]
            if s >= n:
                if self.nmbe[s] != NONE:
                    for x in range(self.nmbe[s]):
                        self.consider_best(b, self.mbe_vw[s][2 * x], self.mbe_vw[s][2 * x + 1], self.mbe_wt[s][x], &nbt)
                    self.nmbe[s] = NONE
                    free(self.mbe_vw[s])
                    free(self.mbe_wt[s])
                    self.mbe_vw[s] = NULL
                    self.mbe_wt[s] = NULL
                else:
                    count = self.leaves(s)
                    for x in range(count):
                        v = self.leafbuf[x]
                        for y in range(self.nstart[v], self.nstart[v + 1]):
                            self.consider_best(b, v, self.nbr[y], self.nwt[y], &nbt)
            else:
                for y in range(self.nstart[s], self.nstart[s + 1]):
                    self.consider_best(b, s, self.nbr[y], self.nwt[y], &nbt)
            self.be_v[s] = NONE
        self.mbe_vw[b] = <int *>malloc((2 * nbt + 2) * sizeof(int))
        self.mbe_wt[b] = <Num *>malloc((nbt + 1) * sizeof(Num))
        if not self.mbe_vw[b] or not self.mbe_wt[b]:
            raise MemoryError()
        self.nmbe[b] = nbt
        self.be_v[b] = NONE
        for k in range(nbt):
            self.mbe_vw[b][2 * k] = self.bt_v[k]
            self.mbe_vw[b][2 * k + 1] = self.bt_w[k]
            self.mbe_wt[b][k] = self.bt_wt[k]
            kslack = self.slack(self.bt_v[k], self.bt_w[k], self.bt_wt[k])
            if self.be_v[b] == NONE or kslack < best:
                self.be_v[b] = self.bt_v[k]
                self.be_w[b] = self.bt_w[k]
                self.be_wt[b] = self.bt_wt[k]
                best = kslack
        # bt_pos is indexed by blossom id: clear the entries used
        for k in range(nbt):
            self.bt_pos[self.bt_key[k]] = NONE
        return 0

    cdef int delete_blossom(self, int b) noexcept:
        cdef int k, found = 0
        self.label[b] = 0
        self.le_v[b] = NONE
        self.le_w[b] = NONE
        self.be_v[b] = NONE
        self.bparent[b] = NONE
        self.bbase[b] = NONE
        self.bdual[b] = 0
        free(self.childs[b])
        free(self.bedges[b])
        free(self.mbe_vw[b])
        free(self.mbe_wt[b])
        self.childs[b] = NULL
        self.bedges[b] = NULL
        self.mbe_vw[b] = NULL
        self.mbe_wt[b] = NULL
        self.nchilds[b] = 0
        self.nmbe[b] = NONE
        for k in range(self.nborder):
            if found:
                self.border[k - 1] = self.border[k]
            elif self.border[k] == b:
                found = 1
        self.nborder -= 1
        self.freeids[self.nfree] = b
        self.nfree += 1
        return 0

    cdef int expand_blossom(self, int b, bint endstage) except -1:
        cdef int n = self.n, k, s, count, x, length, j, jstep, v, w, p, q, bw, bv, entrychild
        cdef int *ch = self.childs[b]
        cdef int *ed = self.bedges[b]
        length = self.nchilds[b]
        for k in range(length):
            s = ch[k]
            self.bparent[s] = NONE
            if s >= n:
                if endstage and self.bdual[s] == 0:
                    self.expand_blossom(s, endstage)
                else:
                    count = self.leaves(s)
                    for x in range(count):
                        self.inblossom[self.leafbuf[x]] = s
            else:
                self.inblossom[s] = s
        if (not endstage) and self.label[b] == 2:
            entrychild = self.inblossom[self.le_w[b]]
            j = self.index_of_child(b, entrychild)
            if j & 1:
                j -= length
                jstep = 1
            else:
                jstep = -1
            v = self.le_v[b]
            w = self.le_w[b]
            while j != 0:
                if jstep == 1:
                    p = ed[2 * _pyidx(j, length)]
                    q = ed[2 * _pyidx(j, length) + 1]
                else:
                    q = ed[2 * _pyidx(j - 1, length)]
                    p = ed[2 * _pyidx(j - 1, length) + 1]
                self.label[w] = 0
                self.label[q] = 0
                self.assign_label(w, 2, v)
                self.set_allowed(p, q)
                j += jstep
                if jstep == 1:
                    v = ed[2 * _pyidx(j, length)]
                    w = ed[2 * _pyidx(j, length) + 1]
                else:
                    w = ed[2 * _pyidx(j - 1, length)]
                    v = ed[2 * _pyidx(j - 1, length) + 1]
                self.set_allowed(v, w)
                j += jstep
            bw = ch[_pyidx(j, length)]
            self.label[w] = 2
            self.label[bw] = 2
            self.le_v[w] = v
            self.le_w[w] = w
            self.le_v[bw] = v
            self.le_w[bw] = w
            self.be_v[bw] = NONE
            j += jstep
            while ch[_pyidx(j, length)] != entrychild:
                bv = ch[_pyidx(j, length)]
                if self.label[bv] == 1:
                    j += jstep
                    continue
                if bv >= n:
                    count = self.leaves(bv)
                    for x in range(count):
                        v = self.leafbuf[x]
                        if self.label[v]:
                            break
                else:
                    v = bv
                if self.label[v]:
                    self.label[v] = 0
                    self.label[self.mate[self.bbase[bv]]] = 0
                    self.assign_label(v, 2, self.le_v[v])
                j += jstep
        self.delete_blossom(b)
        return 0

    cdef int augment_blossom(self, int b, int v) except -1:
        cdef int t = v, i, j, jstep, length, w, x, k
        cdef int *ch
        cdef int *ed
        cdef int *rot
        while self.bparent[t] != b:
            t = self.bparent[t]
        if t >= self.n:
            self.augment_blossom(t, v)
        ch = self.childs[b]
        ed = self.bedges[b]
        length = self.nchilds[b]
        i = j = self.index_of_child(b, t)
        if i & 1:
            j -= length
            jstep = 1
        else:
            jstep = -1
        while j != 0:
            j += jstep
            t = ch[_pyidx(j, length)]
            if jstep == 1:
                w = ed[2 * _pyidx(j, length)]
                x = ed[2 * _pyidx(j, length) + 1]
            else:
                x = ed[2 * _pyidx(j - 1, length)]
                w = ed[2 * _pyidx(j - 1, length) + 1]
            if t >= self.n:
                self.augment_blossom(t, w)
            j += jstep
            t = ch[_pyidx(j, length)]
            if t >= self.n:
                self.augment_blossom(t, x)
            self.set_mate(w, x)
            self.set_mate(x, w)
        if i:
            rot = <int *>malloc(2 * length * sizeof(int))
            if not rot:
                raise MemoryError()
            for k in range(length):
                rot[k] = ch[(k + i) % length]
            memcpy(ch, rot, length * sizeof(int))
            for k in range(length):
                rot[2 * k] = ed[2 * ((k + i) % length)]
                rot[2 * k + 1] = ed[2 * ((k + i) % length) + 1]
            memcpy(ed, rot, 2 * length * sizeof(int))
            free(rot)
        self.bbase[b] = self.bbase[ch[0]]
        return 0

    cdef int augment_matching(self, int v, int w) except -1:
        cdef int s, j, bs, t, bt, side
        for side in range(2):
            if side == 0:
                s = v
                j = w
            else:
                s = w
                j = v
            while True:
                bs = self.inblossom[s]
                if bs >= self.n:
                    self.augment_blossom(bs, s)
                self.set_mate(s, j)
                if self.le_v[bs] == NONE:
                    break
                t = self.le_v[bs]
                bt = self.inblossom[t]
                s = self.le_v[bt]
                j = self.le_w[bt]
                if bt >= self.n:
                    self.augment_blossom(bt, j)
                self.set_mate(j, s)
        return 0

    cdef int run(self) except -1:
        cdef int n = self.n, nb = 2 * n, v, w, b, bv, bw, y, k, base, deltatype, augmented
        cdef int de_v = NONE, de_w = NONE, deltablossom = NONE, nsnap
        cdef Num kslack = 0, delta = 0, d, maxweight = 0, lowest
        for v in range(n):
            for y in range(self.nstart[v], self.nstart[v + 1]):
                if self.nwt[y] > maxweight:
                    maxweight = self.nwt[y]
        for v in range(n):
            self.dualvar[v] = maxweight
        while True:
            self.stage += 1  # allowedge.clear(): entries of earlier stages no longer count
            for k in range(nb):
                self.label[k] = 0
                self.le_v[k] = NONE
                self.le_w[k] = NONE
                self.be_v[k] = NONE
            for k in range(self.nborder):
                b = self.border[k]
                if self.nmbe[b] != NONE:
                    free(self.mbe_vw[b])
                    free(self.mbe_wt[b])
                    self.mbe_vw[b] = NULL
                    self.mbe_wt[b] = NULL
                    self.nmbe[b] = NONE
            self.qlen = 0
            for v in range(n):
                if self.mate[v] == NONE and self.label[self.inblossom[v]] == 0:
                    self.assign_label(v, 1, NONE)
            augmented = 0
            while True:
                while self.qlen > 0 and not augmented:
                    self.qlen -= 1
                    v = self.queue[self.qlen]
                    for y in range(self.nstart[v], self.nstart[v + 1]):
                        w = self.nbr[y]
                        bv = self.inblossom[v]
                        bw = self.inblossom[w]
                        if bv == bw:
                            continue
                        if not self.allowed(v, w):
                            kslack = self.slack(v, w, self.nwt[y])
                            if kslack <= 0:
                                self.set_allowed(v, w)
                        if self.allowed(v, w):
                            if self.label[bw] == 0:
                                self.assign_label(w, 2, v)
                            elif self.label[bw] == 1:
                                base = self.scan_blossom(v, w)
                                if base != NONODE:
                                    self.add_blossom(base, v, w)
                                else:
                                    self.augment_matching(v, w)
                                    augmented = 1
                                    break
                            elif self.label[w] == 0:
                                self.label[w] = 2
                                self.le_v[w] = v
                                self.le_w[w] = w
                        elif self.label[bw] == 1:
                            if self.be_v[bv] == NONE or kslack < self.slack(self.be_v[bv], self.be_w[bv], self.be_wt[bv]):
                                self.be_v[bv] = v
                                self.be_w[bv] = w
                                self.be_wt[bv] = self.nwt[y]
                        elif self.label[w] == 0:
                            if self.be_v[w] == NONE or kslack < self.slack(self.be_v[w], self.be_w[w], self.be_wt[w]):
                                self.be_v[w] = v
                                self.be_w[w] = w
                                self.be_wt[w] = self.nwt[y]
                if augmented:
                    break
                deltatype = -1
                if not self.maxcardinality:
                    deltatype = 1
                    delta = self.dualvar[0]
                    for v in range(1, n):
                        if self.dualvar[v] < delta:
                            delta = self.dualvar[v]
                for v in range(n):
                    if self.label[self.inblossom[v]] == 0 and self.be_v[v] != NONE:
                        d = self.slack(self.be_v[v], self.be_w[v], self.be_wt[v])
                        if deltatype == -1 or d < delta:
                            delta = d
                            deltatype = 2
                            de_v = self.be_v[v]
                            de_w = self.be_w[v]
                # blossomparent's keys: the vertices, then the blossoms in creation order
                for k in range(n + self.nborder):
                    b = k if k < n else self.border[k - n]
                    if self.bparent[b] == NONE and self.label[b] == 1 and self.be_v[b] != NONE:
                        kslack = self.slack(self.be_v[b], self.be_w[b], self.be_wt[b])
                        d = kslack // 2
                        if deltatype == -1 or d < delta:
                            delta = d
                            deltatype = 3
                            de_v = self.be_v[b]
                            de_w = self.be_w[b]
                for k in range(self.nborder):
                    b = self.border[k]
                    if self.bparent[b] == NONE and self.label[b] == 2 and (deltatype == -1 or self.bdual[b] < delta):
                        delta = self.bdual[b]
                        deltatype = 4
                        deltablossom = b
                if deltatype == -1:
                    deltatype = 1
                    lowest = self.dualvar[0]
                    for v in range(1, n):
                        if self.dualvar[v] < lowest:
                            lowest = self.dualvar[v]
                    delta = lowest if lowest > 0 else 0
                for v in range(n):
                    if self.label[self.inblossom[v]] == 1:
                        self.dualvar[v] -= delta
                    elif self.label[self.inblossom[v]] == 2:
                        self.dualvar[v] += delta
                for k in range(self.nborder):
                    b = self.border[k]
                    if self.bparent[b] == NONE:
                        if self.label[b] == 1:
                            self.bdual[b] += delta
                        elif self.label[b] == 2:
                            self.bdual[b] -= delta
                if deltatype == 1:
                    break
                elif deltatype == 2 or deltatype == 3:
                    self.set_allowed(de_v, de_w)
                    self.push(de_v)
                elif deltatype == 4:
                    self.expand_blossom(deltablossom, False)
            if not augmented:
                break
            nsnap = self.nborder
            memcpy(self.snapshot, self.border, nsnap * sizeof(int))
            for k in range(nsnap):
                b = self.snapshot[k]
                if self.bbase[b] == NONE:
                    continue  # already expanded
                if self.bparent[b] == NONE and self.label[b] == 1 and self.bdual[b] == 0:
                    self.expand_blossom(b, True)
        return 0


cdef object _run(list labels, int n, list adjacency, list weights, bint maxcardinality):
    """The matching of the graph whose vertex ``v`` is ``labels[v]`` and whose neighbours of
    ``v`` are ``adjacency[v]`` (ids, in order) with weights ``weights[v]`` (Python ints, at most ``MAX_BITS`` bits), as
    the set networkx would return."""
    cdef int v, y, m = 0, k
    cdef int *nstart = <int *>malloc((n + 1) * sizeof(int))
    cdef int *nbr = NULL
    cdef Num *nwt = NULL
    cdef _Matcher matcher
    cdef list row
    cdef list wrow
    try:
        if not nstart:
            raise MemoryError()
        for v in range(n):
            nstart[v] = m
            m += len(<list>adjacency[v])
        nstart[n] = m
        nbr = <int *>malloc((m + 1) * sizeof(int))
        nwt = <Num *>malloc((m + 1) * sizeof(Num))
        if not nbr or not nwt:
            raise MemoryError()
        for v in range(n):
            row = adjacency[v]
            wrow = weights[v]
            for k in range(len(row)):
                nbr[nstart[v] + k] = row[k]
                nwt[nstart[v] + k] = _to_num(wrow[k])
        matcher = _Matcher()
        matcher.setup(n, nstart, nbr, nwt, maxcardinality)
        matcher.run()
        # matching_dict_to_set over networkx's mate dict (insertion order = first assignment)
        matching = set()
        for k in range(matcher.nmate_seq):
            v = matcher.mate_seq[k]
            y = matcher.mate[v]
            if (labels[y], labels[v]) in matching:
                continue
            matching.add((labels[v], labels[y]))
        return matching
    finally:
        free(nstart)
        free(nbr)
        free(nwt)


def max_weight_matching(list nodes, list edges, bint maxcardinality=False):
    """networkx's ``max_weight_matching`` of the graph with ``nodes`` (in order) and ``edges``
    ``(u, v, weight)`` added in order (no pair twice, weights non-negative ``int``), as the
    same set; ``None`` when the weights are outside what is handled here."""
    cdef dict index = {}
    cdef list adjacency = []
    cdef list weights = []
    cdef int a, b
    for node in nodes:
        if node not in index:
            index[node] = len(index)
            adjacency.append([])
            weights.append([])
    for first, second, weight in edges:
        if type(weight) is not int or weight < 0 or weight.bit_length() > MAX_BITS:
            return None
        for node in (first, second):
            if node not in index:
                index[node] = len(index)
                adjacency.append([])
                weights.append([])
        a = index[first]
        b = index[second]
        if a == b:
            continue  # self-loops never match (networkx skips them)
        (<list>adjacency[a]).append(b)
        (<list>weights[a]).append(weight)
        (<list>adjacency[b]).append(a)
        (<list>weights[b]).append(weight)
    if not index:
        return set()
    return _run(list(index), len(index), adjacency, weights, maxcardinality)


def min_weight_matching(list edges):
    """``networkx.min_weight_matching`` of the graph built from ``edges`` ``(u, v, weight)``
    (same set; see ``matching.networkx_min_weight_matching`` for how the graph is read back);
    ``None`` when the weights are outside what is handled here."""
    cdef dict index = {}
    cdef list labels = []
    cdef dict pair_id = {}
    cdef list ends = []
    cdef list last_weight = []
    cdef list first_adj
    cdef list ordered
    cdef int a, b, e, node, nb, count
    cdef dict inv_index = {}
    cdef list inv_labels = []
    cdef list adjacency = []
    cdef list weights = []
    # the first graph: nodes where they first appear, each pair once (its first place, last weight)
    for first, second, weight in edges:
        if type(weight) is not int:
            return None
        if first not in index:
            index[first] = len(labels)
            labels.append(first)
        if second not in index:
            index[second] = len(labels)
            labels.append(second)
        a = index[first]
        b = index[second]
        key = (a, b) if a <= b else (b, a)
        e = pair_id.get(key, -1)
        if e < 0:
            pair_id[key] = len(ends)
            ends.append((a, b))
            last_weight.append(weight)
        else:
            last_weight[e] = weight
    count = len(labels)
    if not ends:
        return set()
    # its adjacency (pairs in first-appearance order), read back as Graph.edges would
    first_adj = [[] for _ in range(count)]
    for e in range(len(ends)):
        a, b = ends[e]
        (<list>first_adj[a]).append((b, e))
        if a != b:
            (<list>first_adj[b]).append((a, e))
    ordered = []
    for node in range(count):
        for nb, e in first_adj[node]:
            if nb >= node:  # not yet seen
                ordered.append((node, nb, e))
    max_weight = 1 + max([last_weight[e] for _, _, e in ordered])
    # the inverted graph: nodes where they first appear in the edges read back
    for a, b, e in ordered:
        for node in (a, b):
            if node not in inv_index:
                inv_index[node] = len(inv_labels)
                inv_labels.append(labels[node])
                adjacency.append([])
                weights.append([])
    for a, b, e in ordered:
        if a == b:
            continue  # a self-loop never matches (networkx skips it)
        weight = max_weight - last_weight[e]
        if weight.bit_length() > MAX_BITS:
            return None
        a = inv_index[a]
        b = inv_index[b]
        (<list>adjacency[a]).append(b)
        (<list>weights[a]).append(weight)
        (<list>adjacency[b]).append(a)
        (<list>weights[b]).append(weight)
    return _run(inv_labels, len(inv_labels), adjacency, weights, True)
