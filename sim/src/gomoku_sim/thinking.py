"""The strategy core the bots think with: the compiled ``_strategy_core`` where it is built,
otherwise the plain-Python reference ``strategy``. Both give the same decisions and draw the same
numbers from the generator, so a run's games do not depend on which one thinks.

``GOMOKU_BOT_STRATEGY=auto|compiled|python`` (read once, at first import): ``auto`` takes the
compiled core when it is importable, ``compiled`` fails loudly when it is not, ``python`` selects
the reference on purpose (debugging, comparisons). ``CORE`` is looked up at call time by the bots,
``NAME`` says which one it is.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import random
from collections.abc import Collection, Iterable, Mapping
from typing import Protocol, cast

from . import strategy
from .strategy import Choice, Point, Position

ENV = "GOMOKU_BOT_STRATEGY"
COMPILED_MODULE = "gomoku_sim._strategy_core"


class Core(Protocol):
    """What the bots call; the signatures of ``strategy``'s functions of the same names. The compiled
    module is imported by name only (``compiled``), so this Protocol is its one typed description:
    it needs no stub of its own, and mypy checks that ``strategy`` fits it."""

    def choose_move(
        self,
        pos: Position,
        colour: int,
        rng: random.Random,
        *,
        forbidden: Collection[Point] | Mapping[Point, str] = (),
        noise: float = 0.0,
        blunder_rate: float = 0.0,
        miss_rate: float = 0.0,
        miss_four_rate: float = 0.0,
    ) -> Choice: ...

    def lost_position(self, pos: Position, colour: int, forbidden: Collection[Point] = ()) -> bool: ...

    def winning_points(self, pos: Position, colour: int, among: Iterable[Point] | None = None) -> list[Point]: ...


def compiled() -> Core:
    """The compiled core; ImportError when it is not built (or a plain module shadows it)."""
    module = importlib.import_module(COMPILED_MODULE)
    if not isinstance(module.__loader__, importlib.machinery.ExtensionFileLoader):
        raise ImportError(f"{COMPILED_MODULE} at {module.__file__} is not a compiled extension module")
    return cast(Core, module)


def load(name: str) -> tuple[str, Core]:
    """(name, core) for ``auto``, ``compiled`` or ``python``."""
    if name == "python":
        return "python", strategy
    if name not in ("auto", "compiled"):
        raise ValueError(f"{ENV} must be auto, compiled or python, not {name!r}")
    try:
        return "compiled", compiled()
    except ImportError as exc:
        if name == "compiled":
            raise ImportError(f"the compiled bot strategy is not built ({exc}); run `make install`") from exc
        return "python", strategy


NAME, CORE = load(os.environ.get(ENV, "auto"))
