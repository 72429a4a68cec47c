"""Arbiters' writes name the result revision they saw (PAIR-11; issue 27 finding 9).

A pairing's result has a revision: 0 before any result, one more for every change (a game's
result, an arbiter's entry or correction, an upheld appeal). A write that would change the result
must name the revision it was decided on; one that names an older revision was decided on a result
that is no longer there, and is refused, so two arbiters never overwrite each other unseen.

The first result of a pairing may be entered without a revision (there is nothing to overwrite:
whoever is first sets revision 1 and the others then hold a stale view); once a result stands, a
write without one is refused like a stale one. A write of the result that already stands changes
nothing and is never refused.
"""

from __future__ import annotations


def is_stale(expected: int | None, current: int, has_result: bool) -> bool:
    """True when a write naming ``expected`` must not change a result now at ``current``."""
    if expected is None:
        return has_result
    return expected != current
