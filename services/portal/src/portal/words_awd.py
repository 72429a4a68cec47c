"""The words of the honours (AWD-9, NY 十一(三)) and appeals (AWD-10) pages, in Chinese and English
(part of :mod:`portal.i18n`'s table)."""

from __future__ import annotations

APPEALS_AND_HONOURS: dict[str, tuple[str, str]] = {
    "honours": ("荣誉奖项", "Honours"),
    "honour.organisation": ("优秀组织奖", "Outstanding Organisation Award"),
    "honour.sportsmanship": ("体育道德风尚奖", "Sportsmanship Award"),
    "honour.coach": ("优秀教练员奖", "Outstanding Coach Award"),
    "recipient": ("获奖单位或个人", "Recipient"),
    "citation": ("表彰事由", "Citation"),
    "pdf.honour_line": ("荣获{honour}，特发此证", "is awarded the {honour}"),
    "appeals": ("仲裁申诉", "Appeals"),
    "appeal.lodged": ("待仲裁", "Lodged"),
    "appeal.upheld": ("申诉成立", "Upheld"),
    "appeal.rejected": ("申诉驳回", "Rejected"),
    "appeal_fee": ("仲裁费", "Appeal fee"),
    "refund": ("退费", "Refund"),
    "grounds": ("申诉理由", "Grounds"),
    "reasons": ("仲裁意见", "Reasons"),
    "staff.lodge_appeal": ("登记书面申诉（含仲裁费）", "Record a written appeal (with its fee)"),
    "staff.signatory": ("签字人（领队/教练）", "Signed by (leader / coach)"),
    "staff.pairing": ("对局编号", "Pairing"),
    "staff.payment_reference": ("收据编号", "Receipt / reference"),
    "done.appeal_lodged": ("申诉已登记。", "The appeal is recorded."),
    "done.appeal_decided": (
        "决定已记录；改判即重新公布排名与获奖。",
        "Decision recorded; a changed result is republished.",
    ),
}
