"""The key figures of a bench's printed output, for ``bench.compare``.

Each parser reads the table a bench prints and returns its figures as ``Figure`` rows (metric,
value, whether higher is better). A parser fails loudly (``BenchOutputError``, with the lines it
could not read) when the table it expects is not there: a changed output format must never turn
into an empty comparison.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass


class BenchOutputError(ValueError):
    """A bench's output is not in the format its parser knows."""


@dataclass(frozen=True)
class Figure:
    metric: str
    value: float
    higher_is_better: bool


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def _excerpt(output: str, lines: int = 12) -> str:
    shown = output.strip().splitlines()[-lines:]
    return "\n".join(f"    | {line}" for line in shown) or "    | (no output)"


def _rows_after(output: str, header: re.Pattern[str], row: re.Pattern[str], bench: str) -> list[re.Match[str]]:
    """The rows matching ``row`` that follow the first line matching ``header``."""
    lines = output.splitlines()
    start = next((index for index, line in enumerate(lines) if header.search(line)), None)
    if start is None:
        raise BenchOutputError(
            f"bench.{bench}: output not recognised: no table header matching {header.pattern!r}\n{_excerpt(output)}"
        )
    found = []
    for line in lines[start + 1 :]:
        match = row.match(line.rstrip())
        if match is None:
            break  # the table ends at the first line that is not one of its rows
        found.append(match)
    if not found:
        raise BenchOutputError(
            f"bench.{bench}: output not recognised: a table header but no rows after it\n{_excerpt(output)}"
        )
    return found


ENGINE_HEADER = re.compile(r"^metric\s+compiled\s+reference\s+ratio\s*$")
ENGINE_ROW = re.compile(r"^(?P<name>\S.*?)\s{2,}(?P<compiled>[\d,]+(?:\.\d+)?)\s+(?P<reference>[\d,.]+)\s+[\d,.]+x$")


def parse_engine(output: str) -> list[Figure]:
    """bench.engine: the compiled core's rate of each row (calls/s, positions/s, moves/s)."""
    rows = _rows_after(output, ENGINE_HEADER, ENGINE_ROW, "engine")
    return [Figure(f"engine {engine_key(row['name'])}", _number(row["compiled"]), True) for row in rows]


def engine_key(name: str) -> str:
    """ "classify, recursive-check points (calls/s)" -> "classify calls/s" (the compiled core)."""
    unit = re.search(r"\(([^()]*)\)$", name)
    return name.split(",", 1)[0].strip() + (f" {unit.group(1)}" if unit else "")


PAIRING_HEADER = re.compile(r"^case\s+best ms\s+median ms\s+x baseline\s+goal ms\s+meets\s*$")
PAIRING_ROW = re.compile(
    r"^(?P<name>\S.*?)\s+(?P<best>[\d.]+)\s+(?P<median>[\d.]+)\s+(?P<ratio>[\d.]+|nan|inf)\s+\d+\s+(?:yes|NO)$"
)
_TRAILING_NOTE = re.compile(r"\s*\([^()]*\)$")


def pairing_key(name: str) -> str:
    """A row's label without its trailing parenthesis, which says how the row is computed and
    changes with the implementation ("pair_swiss_round (direct structure)" before the fast
    engine, "pair_swiss_round (fast engine)" after): the row is the same case."""
    return _TRAILING_NOTE.sub("", name).strip()


def parse_pairing(output: str) -> list[Figure]:
    """bench.pairing: the median ms of each round / sections row (CPU ms; the pool row is wall)."""
    rows = _rows_after(output, PAIRING_HEADER, PAIRING_ROW, "pairing")
    return [Figure(f"pairing {pairing_key(row['name'])} median ms", _number(row["median"]), False) for row in rows]


GAMEPLAY_HEADER = re.compile(r"^\s+req/s\s+p50 ms\s+p95 ms\s+p99 ms\s+ratio\s*$")
GAMEPLAY_ROW = re.compile(
    r"^(?P<name>\S.*?)\s+(?P<rps>\d+)\s+(?P<p50>[\d.]+|nan)\s+(?P<p95>[\d.]+|nan)\s+(?P<p99>[\d.]+|nan)\s+(?P<ratio>[\d.]+|nan|inf)$"
)


GAMEPLAY_CPU = re.compile(r"^service CPU at saturation: (?P<ms>[\d.]+|nan) ms per move, ")
#: the live phase's offered rate, on a line of its own (outputs before it have none: their live
#: row's req/s counted the moves due in the window, which is the offered rate)
GAMEPLAY_OFFERED = re.compile(r"^live phase: (?P<offered>\d+) moves/s offered ")


def parse_gameplay_load(output: str) -> list[Figure]:
    """bench.gameplay_load: saturation moves/s, live moves/s (answered in the live window), the
    live phase's p50 and p99, the service CPU ms per move at saturation, and the live moves/s
    offered where the output says it."""
    rows = {row["name"]: row for row in _rows_after(output, GAMEPLAY_HEADER, GAMEPLAY_ROW, "gameplay_load")}
    saturation = rows.get("POST move, saturation")
    live = next((row for name, row in rows.items() if name.startswith("POST move, live")), None)
    if saturation is None or live is None:
        raise BenchOutputError(
            "bench.gameplay_load: output not recognised: the saturation and live rows are missing "
            f"(rows found: {', '.join(rows) or 'none'})\n{_excerpt(output)}"
        )
    cpu = next((found for line in output.splitlines() if (found := GAMEPLAY_CPU.match(line))), None)
    if cpu is None:
        raise BenchOutputError(
            f"bench.gameplay_load: output not recognised: no line matching {GAMEPLAY_CPU.pattern!r}\n{_excerpt(output)}"
        )
    return [
        Figure("gameplay_load saturation moves/s", _number(saturation["rps"]), True),
        Figure("gameplay_load live moves/s", _number(live["rps"]), True),
        Figure("gameplay_load live p50 ms", _number(live["p50"]), False),
        Figure("gameplay_load live p99 ms", _number(live["p99"]), False),
        Figure("gameplay_load service CPU ms per move", _number(cpu["ms"]), False),
    ] + [
        Figure("gameplay_load live offered moves/s", _number(found["offered"]), True)
        for line in output.splitlines()
        if (found := GAMEPLAY_OFFERED.match(line))
    ][:1]


PARSERS: dict[str, Callable[[str], list[Figure]]] = {
    "engine": parse_engine,
    "pairing": parse_pairing,
    "gameplay_load": parse_gameplay_load,
}
