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

import sys
import types

TYPE_CHECKING = False  # typing's own, without importing typing: pairing-engine's start-up (ADR 0013)
if TYPE_CHECKING:
    from collections.abc import Iterator
    from types import TracebackType
    from typing import Any

# importlib (with warnings) and contextlib are imported only when used: a pairing-engine
# process needs neither (ADR 0013)


class OnFirstUse(types.ModuleType):
    """A module that imports the real one of its name when an attribute is first read; the
    ``callables`` it names are read as functions that import it when first called (for a
    ``from module import name`` whose name is only ever called)."""

    def __init__(self, name: str, callables: tuple[str, ...] = ()):
        super().__init__(name)
        self._callables = callables

    def __getattr__(self, attribute: str) -> Any:
        if attribute in self._callables:
            return _called_on_first_use(self.__name__, attribute)
        if sys.modules.get(self.__name__) is self:
            # still standing in (the import system asks for ``__path__`` and the like)
            raise AttributeError(attribute)
        from importlib import import_module

        return getattr(import_module(self.__name__), attribute)


def _called_on_first_use(module: str, name: str) -> Any:
    def call(*args: Any, **kwargs: Any) -> Any:
        from importlib import import_module

        return getattr(import_module(module), name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    return call


class JSONEncoderOnFirstUse:
    """``json.JSONEncoder`` as a base class that imports json when first instantiated: gacrux's
    ``helpers.DecimalEncoder`` subclasses it at import, and only gacrux's JSON output (a verbose
    run, never a pairing) instantiates it. It encodes as ``json.JSONEncoder`` with the same
    options, with the subclass's ``default`` (whose ``super().default`` refuses as json's does)."""

    def __init__(self, **options: Any) -> None:
        import json

        if options.get("default") is None:
            options["default"] = self.default
        self.encoder = json.JSONEncoder(**options)

    def default(self, value: object) -> Any:
        raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")

    def encode(self, value: object) -> str:
        return self.encoder.encode(value)

    def iterencode(self, value: object, _one_shot: bool = False) -> Iterator[str]:
        return self.encoder.iterencode(value, _one_shot)


class JsonOnFirstUse(OnFirstUse):
    """The stand-in for ``json``: its ``JSONEncoder`` is :class:`JSONEncoderOnFirstUse`."""

    JSONEncoder = JSONEncoderOnFirstUse


class _StandingIn:
    """The block of :func:`standing_in` (a class: contextlib is not imported for it)."""

    def __init__(self, name: str, callables: tuple[str, ...], kind: type[OnFirstUse]):
        self.name, self.callables, self.kind = name, callables, kind
        self.stand_in: OnFirstUse | None = None

    def __enter__(self) -> None:
        if self.name not in sys.modules:
            self.stand_in = sys.modules[self.name] = self.kind(self.name, self.callables)

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self.stand_in is not None and sys.modules.get(self.name) is self.stand_in:
            del sys.modules[self.name]
        self.stand_in = None


def standing_in(name: str, callables: tuple[str, ...] = (), kind: type[OnFirstUse] = OnFirstUse) -> _StandingIn:
    """Inside the block, ``import name`` gives an :class:`OnFirstUse` stand-in (of ``kind``)
    unless the module is imported already; after it, the stand-in leaves ``sys.modules`` and the
    modules imported inside keep it."""
    return _StandingIn(name, callables, kind)


def _import_pairing_dutch() -> Any:
    # random too: gacrux draws from it only for a tournament without a top colour, which ours
    # have; and its tiebreaks (a third of gacrux, with datetime, its JSON reader and ratings),
    # which its crosstables call for the players' data, that the fast engine computes alone;
    # and json (with re: about 3 ms of a pairing-engine process), which only its JSON output uses
    with (
        standing_in("networkx"),
        standing_in("random"),
        standing_in("gacrux.tiebreak", ("tiebreak",)),
        standing_in("json", kind=JsonOnFirstUse),
    ):
        from gacrux.pairingdutch import pairing_dutch
    return pairing_dutch


if TYPE_CHECKING:
    from gacrux.pairingdutch import pairing_dutch
else:
    pairing_dutch = _import_pairing_dutch()

__all__ = ["JSONEncoderOnFirstUse", "JsonOnFirstUse", "OnFirstUse", "pairing_dutch", "standing_in"]
