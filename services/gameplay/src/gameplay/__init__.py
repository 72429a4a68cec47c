"""Gameplay service: Server-judged online games: moves, openings, forbidden points, authoritative clocks, live streams, records."""
