"""The portal's own storage: only the staff sign-in sessions (no domain data, see ADR 0009)."""
