"""REG-12 invariants of closing, for any entry counts (property-based)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from registration import presets
from registration.domain import Entry, EntryStatus, close_stage, longest_consecutive_months

SZ = presets.load("sz-2022")
ONLINE = [s.id for s in SZ.stage("online").sections]


def _entries(counts):
    out = []
    for sid, n in zip(ONLINE, counts):
        for i in range(n):
            out.append(Entry(f"{sid}-{i}", SZ.id, sid, (f"{sid}-p{i}",), None, EntryStatus.ACCEPTED, None))
    return out


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 12), min_size=8, max_size=8))
def test_reg12_closing_invariants(counts):
    """REG-12: every accepted entry ends in exactly one played-or-cancelled field; played fields
    have > 4 entries; a section under its merge threshold with a non-empty partner is merged."""
    entries = _entries(counts)
    closed = {c.section_id: c for c in close_stage(SZ, "online", entries)}
    hosts = [c for c in closed.values() if c.status in ("ready", "cancelled") and c.merged_into is None]
    seen = [fe.entry_id for c in hosts for fe in c.entries]
    assert sorted(seen) == sorted(e.id for e in entries)
    for c in hosts:
        limit = SZ.section(c.section_id).closing.cancel_at_most
        assert (c.status == "cancelled") == (c.size <= limit)
    n = dict(zip(ONLINE, counts))
    for sid in ONLINE:
        cl = SZ.section(sid).closing
        if n[sid] and n[cl.merge_with] and n[sid] < cl.merge_below:
            c = closed[sid]
            assert c.merged_from or c.merged_into, (sid, counts)
            host = closed[c.merged_into] if c.merged_into else c
            assert host.size == n[sid] + n[cl.merge_with]
            if host.status == "ready":
                assert host.rank_genders_separately
        if closed[sid].merged_into:
            partner = closed[closed[sid].merged_into]
            assert {fe.entry_id for fe in closed[sid].entries} <= {fe.entry_id for fe in partner.entries}


@given(st.sets(st.integers(0, 60), max_size=40))
def test_reg6_longest_run_matches_brute_force(idx):
    """REG-6 (2): the consecutive-months count equals a brute-force longest run."""
    months = [f"{2019 + i // 12:04d}-{i % 12 + 1:02d}" for i in idx]
    best = 0
    for start in idx:
        k = 0
        while start + k in idx:
            k += 1
        best = max(best, k)
    assert longest_consecutive_months(months) == best
