"""The Dutch engine's speed-up, an adapter behind the domain's port ``swiss.SwissEngine`` (ADR
0002, ADR 0013): gacrux's algorithm with its hot spots replaced by code computing the same values
(``fast``, ``crosstable``, ``records``), the per-pair loops compiled (``_dutch_core.pyx``; the
round's edges in arrays, each pair's dict made when first read: ``_edge_store.pxi``) and
networkx's blossom matching compiled step for step (``matching``: ``_blossom_core.pxi`` in a
128-bit and a 384-bit build). The domain keeps the reference it is held to, gacrux as published
(``GacruxDutch``); ``FastGacruxDutch`` pairs every round the same.

Importing this package imports nothing else: the service, the ``pairing-engine`` command and the
benches import ``fast`` when they pair.
"""
