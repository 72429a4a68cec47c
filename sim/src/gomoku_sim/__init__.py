"""Bot players and the event driver: they use the platform only through its public HTTP API."""
