"""Appeals and honours of an event (AWD-9, AWD-10): what the regulation says about disputes
going to its arbitration committee, and which honorary awards the organiser gives."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from .base import _Model

#: who may sign an appeal for a unit (NY 十(三): the committee's members come from them too)
Signatory = Literal["leader", "coach"]
#: AWD-9 (NY 十一(三)): 优秀组织奖 (units), 体育道德风尚奖 (individuals), 优秀教练员奖 (coaches)
HonourKind = Literal["organisation", "sportsmanship", "coach"]


class ArbitrationCommittee(_Model):
    """The arbitration committee (仲裁委员会) as the regulation names it."""

    #: who appoints its chair (NY 十(三): 国家体育总局棋牌运动管理中心)
    chair_appointed_by: str | None = None
    #: where its members come from (NY 十(三): the units' leaders and coaches)
    members_from: list[Signatory] = []
    #: the regulation its composition and remit follow (DA, NT 八(二): 《仲裁委员会条例》)
    regulation: str | None = None


class AppealRules(_Model):
    """AWD-10: a dispute goes in writing to the arbitration committee. The fee lodged with an
    appeal is the fees' ``per_appeal`` item (NY 十(四): 500 CNY, refunded if upheld; none where
    the regulation names none): :meth:`EventConfig.appeal_terms` puts the two together."""

    #: False: the event has no arbitration committee and takes no appeal
    accepted: bool = True
    #: minutes after the appealed round (or the section) completed; None: no deadline (no seed names one)
    window_minutes: Annotated[int, Field(ge=1)] | None = None
    signatories: Annotated[list[Signatory], Field(min_length=1)] = ["leader", "coach"]
    committee: ArbitrationCommittee | None = None


class HonourConfig(_Model):
    """AWD-9: one honorary award of the event, chosen by the organiser, with a certificate."""

    kind: HonourKind
    name: str
    name_zh: str | None = None
    #: at most this many recipients (None: the seed names no number)
    max_recipients: Annotated[int, Field(ge=1)] | None = None
