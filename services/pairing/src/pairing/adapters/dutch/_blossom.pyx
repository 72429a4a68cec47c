# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""networkx's ``min_weight_matching`` / ``max_weight_matching`` compiled: the same algorithm
(Edmonds' blossom, O(n^3), Van Rantwijk's formulation as networkx 3 publishes it), step for step
(the code is ``_blossom_core.pxi``, shared with ``_blossom_wide``).

The Dutch engine's results depend on which of several optimal matchings the algorithm returns,
so this is a transcription, not a re-implementation: every loop visits vertices, neighbours,
blossoms and candidate edges in the order networkx's dicts and generators would (vertices in
the graph's order, then blossoms in creation order; a blossom's leaves in ``Blossom.leaves``
order; ``bestedgeto`` in insertion order), every comparison keeps the same strictness, and the
returned set is built from the ``mate`` pairs in the order networkx's ``mate`` dict holds them.

Weights are integers: here duals and slacks are 128-bit integers, for weights of up to
``MAX_BITS`` bits (most of the engine's: a late round of 128 players stays under 100 bits).
:func:`min_weight_matching` returns ``None`` for what it does not cover (non-``int`` weights,
wider weights): the caller then tries ``_blossom_wide`` (384-bit integers), then networkx.
"""

cdef extern from *:
    ctypedef long long Num "__int128"

#: the largest weight (after inversion) handled here, in bits: duals and slacks stay within
#: a few times the largest weight, far inside 127 bits
MAX_BITS = 120


cdef inline Num _to_num(object w):
    """A non-negative Python int below 2**126 as a 128-bit integer."""
    cdef unsigned long long lo = <unsigned long long>(w & 0xFFFFFFFFFFFFFFFF)
    cdef long long hi = <long long>(w >> 64)
    return ((<Num>hi) << 64) | (<Num>lo)


include "_blossom_core.pxi"
