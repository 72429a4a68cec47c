"""The words of the staff console's result slips (PLAY-9), in Chinese and English (part of
:mod:`portal.i18n`'s table through :mod:`portal.console_words`)."""

from __future__ import annotations

SLIPS: dict[str, tuple[str, str]] = {
    "staff.result_slips": ("成绩单录入", "Result slips"),
    "staff.slips_help": (
        "线下对局的成绩以成绩单为准：一名裁判录入每台的成绩单，另一名裁判（或复核）再录入一次确认；"
        "两次一致才计入成绩，不一致时两次录入都保留，须重新录入成绩单。",
        "Over-the-board games count by their result slips: one arbiter enters each table's slip and a "
        "second entry (another arbiter, or a check) confirms it; only matching entries count. When they "
        "differ, both are kept and the slip is entered again.",
    ),
    "staff.no_games": ("这一轮还没有对局。", "This round has no games yet."),
    "staff.slips_online": (
        "这一轮是线上对局，成绩由对局自动产生，无需成绩单。",
        "This round is played online: its results come from the games, there are no slips.",
    ),
    "staff.table": ("台次", "Table"),
    "staff.game_no": ("第 {n} 局", "game {n}"),
    "staff.awaiting_slip": ("待录入成绩单", "Awaiting its slip"),
    "staff.slip_no": ("成绩单", "Slip"),
    "staff.slip_reason": ("胜负方式", "How it ended"),
    "staff.slip_status": ("状态", "Status"),
    "staff.entered_by": ("录入人", "Entered by"),
    "staff.slip_counts": ("成绩单已确认，成绩已计入。", "The slip is confirmed; the result counts."),
    "staff.confirm_help": (
        "成绩单 {n} 待确认：请按纸质成绩单再录入一次。",
        "Slip {n} awaits its confirmation: enter it again from the paper slip.",
    ),
    "staff.confirm_slip": ("确认成绩单 {n}", "Confirm slip {n}"),
    "staff.enter_slip": ("录入成绩单", "Enter the slip"),
    "staff.slip_mismatch_detail": (
        "成绩单为 {slip}，确认录入为 {confirmation}。",
        "The slip says {slip}; the confirmation says {confirmation}.",
    ),
    "slip_status.pending": ("待确认", "awaiting confirmation"),
    "slip_status.confirmed": ("已确认", "confirmed"),
    "slip_status.mismatch": ("确认不一致", "confirmation differs"),
    "slip_status.disputed": ("有异议（须重新录入）", "disputed (enter it again)"),
    "done.slip_entered": ("成绩单已录入，待确认。", "Slip entered; it awaits its confirmation."),
    "done.slip_confirmed": ("成绩单已确认，成绩已计入。", "Slip confirmed; the result counts."),
    "refusal.slip_mismatch": (
        "确认与成绩单不一致，成绩未计入；请核对后重新录入成绩单。",
        "The confirmation differs from the slip: nothing is scored. Check it and enter the slip again.",
    ),
    "refusal.slip_pending": (
        "这台已有一张待确认的成绩单，请先确认它。",
        "This table has a slip awaiting its confirmation: confirm it first.",
    ),
    "refusal.no_such_pending_slip": (
        "要确认的成绩单已不在待确认状态，请刷新页面。",
        "The slip to confirm no longer awaits a confirmation; reload the page.",
    ),
    "refusal.slip_confirmed": ("这台的成绩单已经确认过了。", "This table's slip is confirmed already."),
    "refusal.not_over_the_board": (
        "这是线上对局，没有成绩单。",
        "This is an online game: it has no result slips.",
    ),
    "refusal.bad_result": ("成绩不在可选范围内。", "That result is not one a slip can carry."),
    "refusal.bad_reason": (
        "成绩与胜负方式不相符（如和棋不能写“成五”）。",
        "The result and how it ended do not fit together (a draw cannot end by five in a row).",
    ),
}
