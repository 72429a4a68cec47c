"""The words of the staff console's round times and the delay of a whole time slot (EVT-7), in
Chinese and English (part of :mod:`portal.i18n`'s table through :mod:`portal.console_words`)."""

from __future__ import annotations

SLOT: dict[str, tuple[str, str]] = {
    "staff.round_times": ("各轮开始时间", "Round start times"),
    "staff.scheduled_at": ("赛程原定", "Scheduled"),
    "staff.starts_now": ("现定开始", "Starts"),
    "staff.delayed_mark": ("已推迟", "delayed"),
    "staff.slot_delay": ("推迟整个时段", "Delay a whole time slot"),
    "staff.slot_help": (
        "同一时段开始这一轮的所有组别一起推迟，要么全部推迟，要么一个也不动；每个组别的推迟都记录在案（含原因），"
        "对局开始时间和公布的赛程随之更新。",
        "Every section that starts this round in the same time slot is delayed together — all of them or "
        "none. Each section's delay is recorded with its reason; the games' start and the published "
        "schedule follow.",
    ),
    "staff.slot_round": ("轮次", "Round"),
    "staff.slot_minutes": ("推迟分钟数", "Minutes later"),
    "staff.slot_submit": ("推迟这一时段", "Delay this time slot"),
    "staff.slot_refused_in": ("{section}：", "{section}: "),
    "round_status.not_paired": ("未编排", "not paired"),
    "round_status.draft": ("草案", "draft"),
    "round_status.published": ("已公布", "published"),
    "round_status.complete": ("已结束", "complete"),
    "done.slot_delayed": (
        "第 {n} 轮已推迟，新的开始时间 {at}：{sections}。",
        "Round {n} is delayed: it now starts at {at} in {sections}.",
    ),
    "refusal.slot_minutes": (
        "请选择轮次并填写推迟的分钟数（1 至 1440 的整数），未作改动。",
        "Choose the round and enter the minutes to delay it by (a whole number from 1 to 1440); nothing was changed.",
    ),
    "refusal.unscheduled_round": (
        "这一轮不在赛程的任何时段内，不能整段推迟。",
        "That round is in no time slot of the schedule: it cannot be delayed as a slot.",
    ),
    "refusal.unknown_round": ("本组别没有这一轮。", "The section plays no such round."),
    "refusal.round_started": (
        "这一轮已经开始，对局正在进行，开始时间不能再改；整个时段都未推迟。",
        "That round has started and its games are under way: its start can no longer move. Nothing in the slot was delayed.",
    ),
    "refusal.round_complete": (
        "这一轮已经结束，开始时间不能再改；整个时段都未推迟。",
        "That round is complete: its start can no longer move. Nothing in the slot was delayed.",
    ),
    "refusal.start_in_past": (
        "推迟后的开始时间已经过去，请推迟更长时间；整个时段都未推迟。",
        "The new start would not be ahead of now: delay it by more minutes. Nothing in the slot was delayed.",
    ),
    "refusal.not_a_delay": (
        "新的开始时间不晚于这一轮现定的开始时间（它已单独推迟得更晚）；整个时段都未推迟。",
        "The new start is not later than that round's present start (it was delayed further on its own). "
        "Nothing in the slot was delayed.",
    ),
    "refusal.reason_required": ("推迟须写明原因，未作改动。", "A delay needs its written reason; nothing was changed."),
}
