"""A person's titles across a federation's events (issue 32; AWD-5 grants them by place).

Each event's title table grants titles by place (DA 九(三): 少年组 第1名 二段 … 第23-26名 六级);
the grants accumulate on the person. Precedence is the federation's ladder of titles (lowest
first, configuration): a higher title supersedes, a grant never lowers a title, and a grant of
the title already held keeps the date it was first reached ("since when"). The current title
is always computed from the grants, so a corrected result (a grant withdrawn) corrects it too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class TitleLadder:
    """The titles in order, lowest first (e.g. 18k … 1k, 1d … 9d)."""

    order: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.order or len(set(self.order)) != len(self.order):
            raise ValueError("a title ladder lists each title once, lowest first")

    def rank(self, title: str) -> int:
        try:
            return self.order.index(title)
        except ValueError:
            raise ValueError(f"{title!r} is not a title of this ladder") from None

    @classmethod
    def kyu_dan(cls, lowest_kyu: int = 18, highest_dan: int = 9) -> TitleLadder:
        """段级位制 as the presets write it: ``Nk`` (级, 1k the highest) below ``Nd`` (段)."""
        return cls(tuple(f"{n}k" for n in range(lowest_kyu, 0, -1)) + tuple(f"{n}d" for n in range(1, highest_dan + 1)))


@dataclass(frozen=True)
class TitleGrant:
    """One title earned: which title, by which place in which event's section, on which day."""

    person_id: str
    title: str
    event_code: str
    section_id: str
    place: int
    granted_on: date


@dataclass(frozen=True)
class CurrentTitle:
    title: str
    #: the grant that first reached it
    since: TitleGrant


def current_title(grants: Iterable[TitleGrant], ladder: TitleLadder, on: date | None = None) -> CurrentTitle | None:
    """The person's title on ``on`` (every grant when None): the highest granted by then, dated
    by the first grant that reached it. Grants of titles off the ladder are refused."""
    best: TitleGrant | None = None
    for grant in sorted(grants, key=lambda g: (g.granted_on, g.event_code, g.section_id)):
        if on is not None and grant.granted_on > on:
            break
        if best is None or ladder.rank(grant.title) > ladder.rank(best.title):
            best = grant
    return None if best is None else CurrentTitle(best.title, best)


def title_history(grants: Sequence[TitleGrant], ladder: TitleLadder) -> list[tuple[TitleGrant, bool]]:
    """Every grant in date order with whether it raised the person's title (a grant that does
    not raise it is kept and shown, never lowers it)."""
    out: list[tuple[TitleGrant, bool]] = []
    held: int | None = None
    for grant in sorted(grants, key=lambda g: (g.granted_on, g.event_code, g.section_id)):
        rank = ladder.rank(grant.title)
        raised = held is None or rank > held
        if raised:
            held = rank
        out.append((grant, raised))
    return out
