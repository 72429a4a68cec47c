"""Test support for the platform: the pytest plugin (``gomoku_shared.testing.plugin``), the
service harness every service's test kit builds on (``gomoku_shared.testing.harness``), bus
helpers (``gomoku_shared.testing.bus``) and the one-game round the served-process tests publish
(``gomoku_shared.testing.rounds``)."""
