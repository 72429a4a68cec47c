"""Every awards repository on one session, built here and nowhere else (issue 31): what the
unit of work exposes to a use case and what a read is answered from."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from .honours_repository import HonoursRepository
from .person_history import PersonHistory
from .repository import AwardsRepository
from .season_backfill import SeasonBackfill
from .season_repository import SeasonRepository
from .staff_actions import StaffActions
from .title_reads import TitleReadsRepository


class Repositories:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session
        self.awards = AwardsRepository(session)
        self.season = SeasonRepository(session)
        self.honours = HonoursRepository(session)
        self.staff_actions = StaffActions(session)
        self.backfill = SeasonBackfill(session)
        self.title_reads = TitleReadsRepository(session)
        self.history = PersonHistory(session)
