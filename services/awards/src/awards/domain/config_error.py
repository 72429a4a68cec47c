"""The refusal of an award configuration, in a leaf module: the configuration and the rating
band it names both raise it."""

from __future__ import annotations


class ConfigError(ValueError):
    """An award configuration that cannot be applied (overlaps, gaps, bad ranges)."""
