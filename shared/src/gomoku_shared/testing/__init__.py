"""Test support for the platform: the pytest plugin (``gomoku_shared.testing.plugin``)."""
