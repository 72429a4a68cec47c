"""The 26 designated openings of China 2013 professional rules (PLAY-2; the table below).

Black 1 on h8; white 2 next to it, straight (direct, on h9) or diagonally (indirect, on i9);
black 3 within two points of h8. Any of the 8 symmetries of the board about h8 gives the same
opening, so a position is named by mapping it onto the table's orientation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .coords import CENTRE, SYMMETRY_COUNT, Point, as_point, transform, transform_offset

DIRECT_W2: Point = (0, 1)  # h9 as offset from h8
INDIRECT_W2: Point = (1, 1)  # i9


@dataclass(frozen=True)
class Opening:
    code: str  # "D1".."D13" direct, "I1".."I13" indirect
    kind: Literal["direct", "indirect"]
    name_zh: str
    name: str  # Japanese romanisation, the international name
    b3: Point  # black 3 as (dx, dy) from h8 in the table's orientation

    def stones(self, symmetry: int = 0) -> tuple[Point, Point, Point]:
        """Black 1, white 2, black 3 of this opening under symmetry ``symmetry`` (0..7)."""
        white_2 = DIRECT_W2 if self.kind == "direct" else INDIRECT_W2
        centre_x, centre_y = CENTRE
        return (
            CENTRE,
            transform((centre_x + white_2[0], centre_y + white_2[1]), symmetry),
            transform((centre_x + self.b3[0], centre_y + self.b3[1]), symmetry),
        )


_TABLE: tuple[tuple[str, Literal["direct", "indirect"], str, str, Point], ...] = (
    ("D1", "direct", "寒星", "Kansei", (0, 2)),
    ("D2", "direct", "溪月", "Keigetsu", (1, 2)),
    ("D3", "direct", "疏星", "Sosei", (2, 2)),
    ("D4", "direct", "花月", "Kagetsu", (1, 1)),
    ("D5", "direct", "残月", "Zangetsu", (2, 1)),
    ("D6", "direct", "雨月", "Ugetsu", (1, 0)),
    ("D7", "direct", "金星", "Kinsei", (2, 0)),
    ("D8", "direct", "松月", "Shogetsu", (0, -1)),
    ("D9", "direct", "丘月", "Kyugetsu", (1, -1)),
    ("D10", "direct", "新月", "Shingetsu", (2, -1)),
    ("D11", "direct", "瑞星", "Zuisei", (0, -2)),
    ("D12", "direct", "山月", "Sangetsu", (1, -2)),
    ("D13", "direct", "游星", "Yusei", (2, -2)),
    ("I1", "indirect", "长星", "Chosei", (2, 2)),
    ("I2", "indirect", "峡月", "Kyogetsu", (2, 1)),
    ("I3", "indirect", "恒星", "Kosei", (2, 0)),
    ("I4", "indirect", "水月", "Suigetsu", (2, -1)),
    ("I5", "indirect", "流星", "Ryusei", (2, -2)),
    ("I6", "indirect", "云月", "Ungetsu", (1, 0)),
    ("I7", "indirect", "浦月", "Hogetsu", (1, -1)),
    ("I8", "indirect", "岚月", "Rangetsu", (1, -2)),
    ("I9", "indirect", "银月", "Gingetsu", (0, -1)),
    ("I10", "indirect", "明星", "Meisei", (0, -2)),
    ("I11", "indirect", "斜月", "Shagetsu", (-1, -1)),
    ("I12", "indirect", "名月", "Meigetsu", (-1, -2)),
    ("I13", "indirect", "彗星", "Suisei", (-2, -2)),
)

OPENINGS: tuple[Opening, ...] = tuple(Opening(*row) for row in _TABLE)
_BY_CODE = {o.code: o for o in OPENINGS}
_BY_NAME = {o.name.lower(): o for o in OPENINGS} | {o.name_zh: o for o in OPENINGS}

# (kind, b3 offset in table orientation) -> opening; filled with every symmetric image so that
# the lookup below is a plain dictionary access.
_LOOKUP: dict[tuple[Point, Point], Opening] = {}
for _opening in OPENINGS:
    _white_2 = DIRECT_W2 if _opening.kind == "direct" else INDIRECT_W2
    for _symmetry in range(SYMMETRY_COUNT):
        _LOOKUP[(transform_offset(_white_2, _symmetry), transform_offset(_opening.b3, _symmetry))] = _opening


def get_opening(key: str) -> Opening:
    """Look an opening up by code (``D4``), international name (``Kagetsu``) or Chinese name."""
    found = _BY_CODE.get(key.upper()) or _BY_NAME.get(key.lower()) or _BY_NAME.get(key)
    if found is None:
        raise KeyError(f"no designated opening called {key!r}")
    return found


def identify_opening(stones: Sequence[Point]) -> Opening | None:
    """Name the opening formed by black 1, white 2, black 3, or None if they form none of the 26
    (black 1 off h8, white 2 not next to it, black 3 more than two points away)."""
    if len(stones) != 3:
        raise ValueError(f"an opening is three stones (black 1, white 2, black 3), got {len(stones)}")
    black_1, white_2, black_3 = (as_point(s) for s in stones)
    if black_1 != CENTRE or len({black_1, white_2, black_3}) != 3:
        return None
    centre_x, centre_y = CENTRE
    return _LOOKUP.get(((white_2[0] - centre_x, white_2[1] - centre_y), (black_3[0] - centre_x, black_3[1] - centre_y)))


def canonical_symmetry(stones: Sequence[Point]) -> int:
    """A symmetry k with ``opening.stones(k) == stones`` (raises ValueError if no opening)."""
    opening = identify_opening(stones)
    if opening is None:
        raise ValueError("the stones do not form a designated opening")
    wanted = tuple(as_point(s) for s in stones)
    for symmetry in range(SYMMETRY_COUNT):
        if opening.stones(symmetry) == wanted:
            return symmetry
    raise AssertionError("unreachable: the lookup table holds every symmetric image")
