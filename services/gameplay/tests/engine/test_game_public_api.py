"""The public API of ``gameplay.engine`` (names other services and outside checks rely on)."""

from __future__ import annotations

import gameplay.engine as engine
from gameplay.engine import backend, reference

PUBLIC = [
    "classify",
    "forbidden_points",
    "line_length",
    "IMPLEMENTATION",
    "to_notation",
    "from_notation",
    "Game",
    "RuleSet",
    "Colour",
    "Reason",
    "Result",
    "OpeningProtocol",
    "OpeningConfig",
    "OPENINGS",
    "identify_opening",
    "ClockConfig",
    "two_game_round_points",
    "PairGame",
    "Playoff",
    "GameRecord",
    "record_game",
    "parse_psq",
    "IllegalAction",
]


def test_public_names_exported():
    """PLAY-1..PLAY-8: the engine's API is importable from gameplay.engine."""
    missing = [n for n in PUBLIC if not hasattr(engine, n)]
    assert missing == []
    assert set(PUBLIC) <= set(engine.__all__)


def test_play3_classify_uses_the_selected_core(monkeypatch):
    """PLAY-3: classify / forbidden_points / line_length go to backend.core, the core chosen by
    GAMEPLAY_ENGINE; IMPLEMENTATION names it."""
    assert engine.IMPLEMENTATION == backend.IMPLEMENTATION
    seen = []

    class Spy:
        @staticmethod
        def classify(black, white, point):
            seen.append("classify")
            return reference.classify(black, white, point)

        @staticmethod
        def forbidden_points(black, white):
            seen.append("forbidden_points")
            return reference.forbidden_points(black, white)

        @staticmethod
        def line_length(stones, point):
            seen.append("line_length")
            return reference.line_length(stones, point)

    monkeypatch.setattr(backend, "core", Spy)
    black = {(6, 7), (8, 7), (7, 8), (7, 9)}
    assert engine.classify(black, set(), (7, 7)) == "double_three"
    assert engine.forbidden_points(black, set()) == {(7, 7): "double_three"}
    assert engine.line_length(black, (7, 7)) == 3
    assert seen == ["classify", "forbidden_points", "line_length"]


def test_play1_notation_examples():
    """PLAY-1: h8 is the centre (7, 7)."""
    assert engine.to_notation((7, 7)) == "h8"
    assert engine.from_notation("h8") == (7, 7)
