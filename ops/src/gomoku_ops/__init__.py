"""The operators' repair tool: ``gomoku-ops --help``."""
