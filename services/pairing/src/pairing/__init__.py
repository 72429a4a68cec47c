"""Pairing service: Swiss (FIDE Dutch) and round-robin (Berger) pairing, results, standings with tiebreaks, playoffs, the round lifecycle."""
