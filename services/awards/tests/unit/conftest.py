"""Shared builders and the four seed events' award configurations (values copied from
the seed regulations: SZ 2022, NY 2022, DA 2023, NT 2023)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from types import SimpleNamespace

import pytest

from awards.domain import (
    AwardBand,
    AwardCountRule,
    BestBoardConfig,
    EventAwardsConfig,
    Gender,
    PlaceAwardsConfig,
    PlaceItems,
    PrizeConfig,
    PrizeTable,
    QualificationRule,
    SectionAwardConfig,
    SectionStandings,
    SeededList,
    SeededPlayer,
    SquadRule,
    StandingRow,
    TeamScoreComponent,
    TeamScoreMeasure,
    TeamScoreRule,
    TeamTiebreak,
    TeamTieKind,
    TitleBand,
    TitleTable,
)

M, F = Gender.MALE, Gender.FEMALE

# (entrant_id, place[, gender[, unit[, points]]])
RowSpec = tuple


def make_section(
    spec: list[RowSpec],
    section_id: str = "s",
    *,
    name: str | None = None,
    rank_by_gender: bool = False,
    kind: str = "individual",
) -> SectionStandings:
    rows = []
    for item in spec:
        entrant_id, place, *rest = item
        gender = rest[0] if len(rest) > 0 else None
        unit = rest[1] if len(rest) > 1 else None
        points = rest[2] if len(rest) > 2 else 0
        rows.append(
            StandingRow(
                entrant_id=entrant_id,
                name=entrant_id.upper(),
                place=place,
                gender=gender,
                unit_id=unit,
                unit_name=unit and f"Unit {unit}",
                points=points,
            )
        )
    return SectionStandings(
        section_id,
        name or section_id,
        tuple(rows),
        kind=kind,  # type: ignore[arg-type]
        rank_by_gender=rank_by_gender,
    )


def ranked(n: int, prefix: str = "p", gender: Gender | None = None) -> list[RowSpec]:
    """n entrants on distinct places 1..n."""
    return [(f"{prefix}{i}", i, gender) for i in range(1, n + 1)]


@pytest.fixture
def section() -> Callable[..., SectionStandings]:
    return make_section


# ------------------------------------------------------------------ DA 2023 (003_…)

DA_ITEMS = PlaceAwardsConfig(
    by_place=(PlaceItems(1, 3, ("certificate", "medal")), PlaceItems(4, 8, ("certificate",))),
    finisher_items=("finisher medal", "commemorative certificate"),
    finisher_items_require_completion=False,  # seed: 所有参赛选手 (all participants)
)
DA_JUNIOR_TITLES = TitleTable(
    (
        TitleBand(1, 1, "2-dan"),
        TitleBand(2, 3, "1-dan"),
        TitleBand(4, 6, "1-kyu"),
        TitleBand(7, 10, "2-kyu"),
        TitleBand(11, 14, "3-kyu"),
        TitleBand(15, 18, "4-kyu"),
        TitleBand(19, 22, "5-kyu"),
        TitleBand(23, 26, "6-kyu"),
    )
)
DA_OPEN = SectionAwardConfig(
    "da-open",
    DA_ITEMS,
    PrizeConfig(
        (
            PrizeTable.from_yuan("Open", [10000, 6000, 5000, 4000, 4000, 4000, 4000, 3000]),
            PrizeTable.from_yuan("Open women", [2000, 1000, 1000], gender=F, combinable=True),
        )
    ),
)
DA_JUNIOR = SectionAwardConfig(
    "da-junior",
    DA_ITEMS,
    PrizeConfig(
        (
            PrizeTable.from_yuan("Junior", [7000, 5000, 4000, 3000, 3000, 3000, 3000, 2000]),
            PrizeTable.from_yuan("Junior girls", [1500, 1000, 500, 500, 500], gender=F, combinable=True),
        )
    ),
    titles=DA_JUNIOR_TITLES,
)
DA_PUBLIC = SectionAwardConfig(
    "da-public",
    DA_ITEMS,
    PrizeConfig((PrizeTable.from_yuan("Public", [5000, 4000, 3000, 2000, 2000, 2000, 2000, 2000]),)),
)
DA = EventAwardsConfig(sections=(DA_OPEN, DA_JUNIOR, DA_PUBLIC))

# ------------------------------------------------------------------ SZ 2022 (000_…)

SZ_FINAL_ITEMS = PlaceAwardsConfig(
    by_place=(
        PlaceItems(1, 1, ("trophy", "medal", "certificate")),
        PlaceItems(2, 4, ("medal", "certificate")),
    )
)
SZ_TEAM_ITEMS = PlaceAwardsConfig(
    by_place=(PlaceItems(1, 1, ("trophy", "certificate")), PlaceItems(2, 4, ("certificate",))),
    award_count=AwardCountRule((AwardBand(4, None, places=4), AwardBand(0, 3, field_minus=1))),
)
SZ_FINAL_SECTIONS = ("men", "women", "boys", "girls")
SZ_MIXED_TEAM = TeamScoreRule(
    "mixed-team",
    "Mixed team",
    (TeamScoreComponent("men", 2, label="men"), TeamScoreComponent("women", 1, label="women")),
    TeamScoreMeasure.PLACE_SUM,
    (TeamTiebreak(TeamTieKind.BEST_SINGLE_PLACE),),
)
SZ_JUNIOR_TEAM = TeamScoreRule(
    "junior-team",
    "Junior mixed team",
    (TeamScoreComponent("boys", 2, label="boys"), TeamScoreComponent("girls", 1, label="girls")),
    TeamScoreMeasure.PLACE_SUM,
    (TeamTiebreak(TeamTieKind.BEST_SINGLE_PLACE),),
)
SZ_FINAL = EventAwardsConfig(
    sections=tuple(SectionAwardConfig(s, SZ_FINAL_ITEMS, cancel_if_entries_at_most=4) for s in SZ_FINAL_SECTIONS)
    + (SectionAwardConfig("mixed-team", SZ_TEAM_ITEMS), SectionAwardConfig("junior-team", SZ_TEAM_ITEMS)),
    team_scores=(SZ_MIXED_TEAM, SZ_JUNIOR_TEAM),
    squads=(SquadRule("Shenzhen gomoku training squad", (1, 1), (2, 4)),),
)
_SZ_ONLINE_TARGET = {"men": "men", "women": "women", "boys": "boys", "girls": "girls"}
SZ_ONLINE = EventAwardsConfig(
    sections=tuple(
        SectionAwardConfig(f"online-{t}-{s}", cancel_if_entries_at_most=4)
        for t in ("free", "pro")
        for s in SZ_FINAL_SECTIONS
    ),
    qualification=tuple(
        QualificationRule(f"online-{t}-{s}", {None: _SZ_ONLINE_TARGET[s]}, qualifiers=4, substitutes=4)
        for t in ("free", "pro")
        for s in SZ_FINAL_SECTIONS
    )
    + (
        # REG-12 merged sections: men and women ranked separately
        QualificationRule("online-pro-adults", {M: "men", F: "women"}, by_gender=True),
    ),
    seeded=tuple(
        SeededList(
            s,
            "2022 Shenzhen Cup, professional rules",
            tuple(SeededPlayer(f"cup-{s}-{i}", f"Cup {s} {i}", place=i) for i in range(1, 5)),
            tuple(SeededPlayer(f"cup-{s}-{i}", f"Cup {s} {i}", place=i) for i in range(5, 9)),
        )
        for s in SZ_FINAL_SECTIONS
    ),
    max_next_stage_entrants=48,
)

# ------------------------------------------------------------------ NY 2022 (002_…)

NY_ITEMS = PlaceAwardsConfig(
    by_place=(
        PlaceItems(1, 3, ("certificate", "medal")),
        PlaceItems(4, 8, ("certificate",)),
    )
)
NY_TEAM_ITEMS = PlaceAwardsConfig(
    by_place=(
        PlaceItems(1, 3, ("certificate", "trophy")),
        PlaceItems(4, 8, ("certificate",)),
    )
)
NY_BANDS = ("youth", "junior", "children")


def ny_team_rule(band: str) -> TeamScoreRule:
    return TeamScoreRule(
        f"{band}-team",
        f"{band.title()} team",
        (TeamScoreComponent(f"{band}-male", 1, label="male"), TeamScoreComponent(f"{band}-female", 1, label="female")),
        TeamScoreMeasure.POINTS_SUM,
        (TeamTiebreak(TeamTieKind.PLACE_SUM), TeamTiebreak(TeamTieKind.COMPONENT_PLACE, component=0)),
    )


NY = EventAwardsConfig(
    sections=tuple(SectionAwardConfig(f"{b}-{g}", NY_ITEMS) for b in NY_BANDS for g in ("male", "female"))
    + tuple(SectionAwardConfig(f"{b}-team", NY_TEAM_ITEMS) for b in NY_BANDS),
    team_scores=tuple(ny_team_rule(b) for b in NY_BANDS),
)

# ------------------------------------------------------------------ NT 2023 (004_…)

NT_COUNT = AwardCountRule((AwardBand(11, None, places=8), AwardBand(7, 10, places=6), AwardBand(0, 6, places=3)))
NT_ITEMS = PlaceAwardsConfig(by_place=(PlaceItems(1, 8, ("certificate",)),), award_count=NT_COUNT)
NT = EventAwardsConfig(
    sections=tuple(SectionAwardConfig(s, NT_ITEMS) for s in ("nt-mixed", "nt-junior-boys", "nt-junior-girls")),
    best_board=BestBoardConfig(boards=3, min_played_percent=Decimal(70)),
)


@pytest.fixture
def seed() -> SimpleNamespace:
    """Every upper-case constant above: seed.DA_OPEN, seed.SZ_FINAL, seed.NT_COUNT …"""
    return SimpleNamespace(**{k: v for k, v in globals().items() if k.isupper()})


@pytest.fixture
def ranked_rows() -> Callable[..., list[RowSpec]]:
    return ranked


# ------------------------------------------------------------------ service harness


@pytest.fixture
async def harness(tmp_path):
    """The awards service on SQLite with the in-memory bus and a fake clock (fast)."""
    from awards_kit import Harness

    from gomoku_shared.messaging.memory import InMemoryEventBus
    from gomoku_shared.settings import ServiceSettings

    h = await Harness(
        ServiceSettings(DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/awards.sqlite"), bus=InMemoryEventBus()
    ).start()
    try:
        yield h
    finally:
        await h.stop()


@pytest.fixture
async def make_harness(tmp_path):
    """Factory for extra independent services (determinism checks); all stopped at teardown."""
    from awards_kit import Harness

    from gomoku_shared.messaging.memory import InMemoryEventBus
    from gomoku_shared.settings import ServiceSettings

    made = []

    async def make(name: str):
        h = await Harness(
            ServiceSettings(DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/{name}.sqlite"), bus=InMemoryEventBus()
        ).start()
        made.append(h)
        return h

    yield make
    for h in made:
        await h.stop()
