"""Registration service: Events from presets, entries, eligibility with evidence, teams, check-in, section closing and merging."""
