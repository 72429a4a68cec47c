"""Gomoku rules engine (placeholder until the engine lands)."""
