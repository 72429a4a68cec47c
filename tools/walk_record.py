"""What a walk of one use case records (``use_case_walk``): the moves between the files of one
package, and its measures. A leaf: the walks of each service and the tool that prints them all
import it."""

from __future__ import annotations

import dis
import sys
from collections.abc import Awaitable
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

YIELD = dis.opmap["YIELD_VALUE"]
#: what the summary reports, in the order of the table
MEASURES = (
    "files",
    "functions",
    "moves",
    "repository entries",
    "returns to a visited file",
    "same, outside domain/",
)


#: the rules and the pairing engine (pure computation): left out of the layers' own walk
COMPUTE = ("domain/", "adapters/dutch/")


@dataclass
class Walk:
    """Moves between files of one package, in order: (``call`` or ``return``, from, to).

    ``root``: the package's folder with a trailing slash; ``repository``: the package-relative
    file whose entries the walk counts (the repository module of the service)."""

    root: str
    repository: str
    moves: list[tuple[str, str, str]] = field(default_factory=list)
    functions: set[str] = field(default_factory=set)
    live: set[int] = field(default_factory=set)

    def _ours(self, frame: FrameType | None) -> str | None:
        """The package-relative file of the nearest frame of the package, from ``frame`` out."""
        while frame is not None:
            name = frame.f_code.co_filename
            if name.startswith(self.root):
                return name[len(self.root) :]
            frame = frame.f_back
        return None

    def profile(self, frame: FrameType, event: str, _arg: Any) -> None:
        if event not in ("call", "return") or not frame.f_code.co_filename.startswith(self.root):
            return
        here = frame.f_code.co_filename[len(self.root) :]
        key = id(frame)
        if event == "call":
            if key in self.live:
                return  # a coroutine or generator resumed
            self.live.add(key)
            self.functions.add(f"{here}:{frame.f_code.co_qualname}")
            caller = self._ours(frame.f_back)
            if caller is not None and caller != here:
                self.moves.append(("call", caller, here))
            return
        code = frame.f_code.co_code
        if 0 <= frame.f_lasti < len(code) and code[frame.f_lasti] == YIELD:
            return  # suspended at an await (or a yield), not finished
        self.live.discard(key)
        caller = self._ours(frame.f_back)
        if caller is not None and caller != here:
            self.moves.append(("return", here, caller))

    async def trace(self, work: Awaitable[Any]) -> Any:
        """Await ``work`` under this walk's profile (tasks it starts on this thread included)."""
        sys.setprofile(self.profile)
        try:
            return await work
        finally:
            sys.setprofile(None)

    def files(self) -> list[str]:
        seen: list[str] = []
        for _, source, target in self.moves:
            for name in (source, target):
                if name not in seen:
                    seen.append(name)
        return seen

    def entries(self, target: str) -> list[str]:
        """The files the walk entered ``target`` from, one per call."""
        return [source for kind, source, into in self.moves if kind == "call" and into == target]

    def repository_entries(self) -> int:
        return len(self.entries(self.repository))

    def returns_to_visited(self, *, outside_domain: bool = False) -> int:
        """Moves (calls or returns) that land in a file the walk had been in and left
        (``outside_domain``: only moves between files outside the rules and the pairing engine,
        ``domain/`` and ``adapters/dutch/``: the layers' own walk; the engine's compiled speed-up
        moved from ``domain/`` to ``adapters/dutch/`` behind its port, and is still the engine)."""
        visited: set[str] = set()
        count = 0
        for _, source, target in self.moves:
            if outside_domain and (source.startswith(COMPUTE) or target.startswith(COMPUTE)):
                continue
            visited.add(source)
            if target in visited:
                count += 1
            visited.add(target)
        return count

    def summary(self) -> dict[str, int]:
        values = (
            len(self.files()),
            len(self.functions),
            len(self.moves),
            self.repository_entries(),
            self.returns_to_visited(),
            self.returns_to_visited(outside_domain=True),
        )
        return dict(zip(MEASURES, values, strict=True))
