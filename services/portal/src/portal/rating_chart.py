"""A person's rating after each period as a line chart (issue 32), drawn here as SVG numbers so
the page needs no script: one point per period, the band of ± the rating deviation around it
(Glicko-2's RD: a wide band is an uncertain rating), and a few round ratings on the side."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

WIDTH, HEIGHT = 640, 220
#: room for the axis labels (left) and the period labels (bottom)
LEFT, RIGHT, TOP, BOTTOM = 48, 28, 12, 28


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    #: the rating line ("M x y L x y ...") and the closed RD band around it
    line: str
    band: str
    #: each period's ± RD as a vertical bar (x, top, bottom): the band of one period is a line
    bars: list[tuple[float, float, float]]
    #: each period's point: x, y, period, rating, provisional
    points: list[dict[str, Any]]
    #: where the guides start and end (the drawing area's left and right edges)
    left: int
    right: int
    #: horizontal guides: y and the rating it stands for
    ticks: list[tuple[float, int]]
    #: period labels under the chart: x and "YYYY-MM" (at most six, first and last always)
    labels: list[tuple[float, str]]


def _step(span: float) -> int:
    """A round step giving three to six guides over ``span`` rating points."""
    for step in (25, 50, 100, 200, 250, 500):
        if span / step <= 5:
            return step
    return 1000


def chart(history: list[dict[str, Any]]) -> Chart | None:
    """The chart of rating rows (oldest first, each with ``period``, ``rating`` and ``rd``);
    None with no row."""
    if not history:
        return None
    low = min(r["rating"] - r["rd"] for r in history)
    high = max(r["rating"] + r["rd"] for r in history)
    step = _step(max(high - low, 1))
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    if high == low:
        high = low + step
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        # one period alone sits in the middle
        return round(LEFT + (inner_w * i / (len(history) - 1) if len(history) > 1 else inner_w / 2), 1)

    def y(value: float) -> float:
        return round(TOP + inner_h * (high - value) / (high - low), 1)

    points = [
        {
            "x": x(i),
            "y": y(r["rating"]),
            "period": r["period"],
            "rating": r["rating"],
            "provisional": bool(r.get("provisional")),
        }
        for i, r in enumerate(history)
    ]
    line = " ".join(f"{'M' if i == 0 else 'L'} {p['x']} {p['y']}" for i, p in enumerate(points))
    upper = [f"{x(i)} {y(r['rating'] + r['rd'])}" for i, r in enumerate(history)]
    lower = [f"{x(i)} {y(r['rating'] - r['rd'])}" for i, r in reversed(list(enumerate(history)))]
    band = "M " + " L ".join(upper + lower) + " Z"
    bars = [(x(i), y(r["rating"] + r["rd"]), y(r["rating"] - r["rd"])) for i, r in enumerate(history)]
    ticks = [(y(v), v) for v in range(int(low), int(high) + 1, step)]
    every = max(1, math.ceil(len(history) / 6))
    shown = sorted({*range(0, len(history), every), len(history) - 1})
    labels = [(x(i), history[i]["period"]) for i in shown]
    return Chart(WIDTH, HEIGHT, line, band, bars, points, LEFT, WIDTH - RIGHT, ticks, labels)
