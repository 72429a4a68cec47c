"""gacrux's Dutch engine, imported without importing networkx.

gacrux's modules ``import networkx as nx`` at the top, for the matching its published engine
runs; the fast engine (the adapter ``pairing.adapters.dutch.fast``) replaces every such call
with the compiled matching, so a pairing never reads ``nx``. Importing networkx costs about 100 ms (a third of a
``pairing-engine`` run), so while gacrux is imported, ``networkx`` is a stand-in
(:class:`OnFirstUse`) that imports the real module on its first attribute read — from gacrux's
published engine (``swiss.GacruxDutch``, the tests' reference) — and hands that
attribute on. Once gacrux is imported the stand-in leaves ``sys.modules``: any other
``import networkx`` gets the real module, as before. A process that imported networkx already
keeps it.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any


class OnFirstUse(types.ModuleType):
    """A module that imports the real one of its name when an attribute is first read."""

    def __getattr__(self, attribute: str) -> Any:
        return getattr(importlib.import_module(self.__name__), attribute)


def _import_pairing_dutch() -> Any:
    stand_in = None
    if "networkx" not in sys.modules:
        stand_in = sys.modules["networkx"] = OnFirstUse("networkx")
    try:
        from gacrux.pairingdutch import pairing_dutch
    finally:
        if stand_in is not None and sys.modules.get("networkx") is stand_in:
            del sys.modules["networkx"]
    return pairing_dutch


if TYPE_CHECKING:
    from gacrux.pairingdutch import pairing_dutch
else:
    pairing_dutch = _import_pairing_dutch()

__all__ = ["OnFirstUse", "pairing_dutch"]
