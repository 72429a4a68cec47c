"""Start a service's fake clock at a given time (simulations only).

The distributed simulations put this directory on PYTHONPATH of the service processes and set
GOMOKU_SIM_CLOCK_START: with CLOCK=fake the service's clock then starts at that time instead of
the built-in 2026-01-01 — so a 2022 event can be replayed, and a service restarted in the middle
of a run comes back at the simulation's current time. Without the variable nothing changes.
"""
import os

_start = os.environ.get("GOMOKU_SIM_CLOCK_START")
if _start:
    from datetime import datetime

    import gomoku_shared.clock as _clock

    _original_init = _clock.FakeClock.__init__

    def _init(self, start=None):
        _original_init(self, start or datetime.fromisoformat(_start))

    _clock.FakeClock.__init__ = _init
