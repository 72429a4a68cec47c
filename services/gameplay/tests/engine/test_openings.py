"""PLAY-2: the 26 designated openings (the table of gameplay.engine.openings), named in all 8 symmetries."""

from __future__ import annotations

import pytest

from gameplay.engine import (
    OPENINGS,
    canonical_symmetry,
    from_notation,
    get_opening,
    identify_opening,
    to_notation,
    transform,
)

# The 26 openings written out as notation: code, international name, white 2, black 3.
APPENDIX_A = [
    ("D1", "Kansei", "h9", "h10"),
    ("D2", "Keigetsu", "h9", "i10"),
    ("D3", "Sosei", "h9", "j10"),
    ("D4", "Kagetsu", "h9", "i9"),
    ("D5", "Zangetsu", "h9", "j9"),
    ("D6", "Ugetsu", "h9", "i8"),
    ("D7", "Kinsei", "h9", "j8"),
    ("D8", "Shogetsu", "h9", "h7"),
    ("D9", "Kyugetsu", "h9", "i7"),
    ("D10", "Shingetsu", "h9", "j7"),
    ("D11", "Zuisei", "h9", "h6"),
    ("D12", "Sangetsu", "h9", "i6"),
    ("D13", "Yusei", "h9", "j6"),
    ("I1", "Chosei", "i9", "j10"),
    ("I2", "Kyogetsu", "i9", "j9"),
    ("I3", "Kosei", "i9", "j8"),
    ("I4", "Suigetsu", "i9", "j7"),
    ("I5", "Ryusei", "i9", "j6"),
    ("I6", "Ungetsu", "i9", "i8"),
    ("I7", "Hogetsu", "i9", "i7"),
    ("I8", "Rangetsu", "i9", "i6"),
    ("I9", "Gingetsu", "i9", "h7"),
    ("I10", "Meisei", "i9", "h6"),
    ("I11", "Shagetsu", "i9", "g7"),
    ("I12", "Meigetsu", "i9", "g6"),
    ("I13", "Suisei", "i9", "f6"),
]


def test_play2_there_are_26_distinct_openings():
    """PLAY-2: 13 direct + 13 indirect openings, all different."""
    assert len(OPENINGS) == 26
    assert len({o.code for o in OPENINGS}) == 26
    assert sum(o.kind == "direct" for o in OPENINGS) == 13


@pytest.mark.parametrize("symmetry", range(8))
@pytest.mark.parametrize("code,name,w2,b3", APPENDIX_A, ids=[r[0] for r in APPENDIX_A])
def test_play2_opening_named_in_every_symmetry(code, name, w2, b3, symmetry):
    """PLAY-2: each of the 26 openings is recognised and named in all 8 symmetries about h8."""
    stones = [transform(from_notation(s), symmetry) for s in ("h8", w2, b3)]
    opening = identify_opening(stones)
    assert opening is not None
    assert (opening.code, opening.name) == (code, name)
    assert opening.stones(canonical_symmetry(stones)) == tuple(stones)


def test_play2_the_8_images_cover_every_opening_position_exactly_once():
    """PLAY-2: every white 2 next to h8 with black 3 within two points is exactly one opening."""
    seen = {}
    for o in OPENINGS:
        for k in range(8):
            seen.setdefault(o.stones(k), o.code)
            assert seen[o.stones(k)] == o.code
    # 8 neighbours for white 2 x 23 free points of the 5x5 square for black 3
    assert len(seen) == 8 * 23
    for w2 in [(7 + dx, 7 + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]:
        for b3 in [(7 + dx, 7 + dy) for dx in range(-2, 3) for dy in range(-2, 3)]:
            if b3 in ((7, 7), w2):
                continue
            assert identify_opening([(7, 7), w2, b3]).code == seen[((7, 7), w2, b3)]


@pytest.mark.parametrize(
    "stones",
    [
        ["h8", "h10", "i9"],  # white 2 not next to h8
        ["h8", "h9", "k8"],  # black 3 three points away
        ["g8", "h9", "i9"],  # black 1 off the centre
        ["h8", "h9", "h9"],  # the same point twice
    ],
)
def test_play2_not_an_opening(stones):
    """PLAY-2: positions outside the 26 openings are not named."""
    assert identify_opening([from_notation(s) for s in stones]) is None


def test_play2_lookup_by_code_and_names():
    """PLAY-2: an opening can be found by code, international name or Chinese name."""
    assert get_opening("d4") is get_opening("Kagetsu") is get_opening("花月")
    assert [to_notation(p) for p in get_opening("I13").stones()] == ["h8", "i9", "f6"]
    with pytest.raises(KeyError):
        get_opening("D14")
